// SPDX-License-Identifier: GPL-2.0
/*
 * test_len_recovery_sampled.c: the length rules on real timer samples, as record --sample meets
 * them: this process samples itself (perf_event_open, user-space IPs and registers) while
 * it loops over an asm-ref replica at a known length, and every sample inside the replica
 * is recovered and compared with the truth. Time-weighted: samples land where time goes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include "asmref.h"
#include "sites/len_recovery.h"
#include "len_recovery_callsite.h"
#include "len_recovery_selftext.h"

#define RING_PAGES 64
#define RUN_NS (60 * 1000 * 1000) /* per replica and length */
/* AX..SP (bits 0-7) and R8..R15 (16-23): the FLOW_* order once IP is left out. */
#define REGS_MASK 0xff00ffULL

static struct selftext *st;
static uint8_t *buf;
static const size_t lens[] = { 16, 100, 1000, 4096, 65536 };

struct tally {
	uint64_t samples, q[LEN_NR_QUALITIES], wrong;
	double err_sum, err_max;
};

struct ring {
	int fd;
	struct perf_event_mmap_page *meta;
	uint8_t *data;
	size_t size;
};

static int ring_open(struct ring *r)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.sample_freq = 20000,
		.freq = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER,
		.sample_regs_user = REGS_MASK,
		.sample_stack_user = 64,
		.disabled = 1,
	};
	long page = sysconf(_SC_PAGESIZE);

	r->fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (r->fd < 0)
		return -errno;
	r->size = (size_t)page * RING_PAGES;
	r->meta = mmap(NULL, r->size + (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (r->meta == MAP_FAILED)
		return -errno;
	r->data = (uint8_t *)r->meta + page;
	return 0;
}

static void ring_close(struct ring *r)
{
	munmap(r->meta, r->size + (size_t)sysconf(_SC_PAGESIZE));
	close(r->fd);
}

static void copy_out(const struct ring *r, uint64_t pos, void *dst, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		((uint8_t *)dst)[i] = r->data[(pos + i) % r->size];
}

/* Recovers every sample that landed in [lo, hi) and tallies it against @truth. */
static void drain(struct ring *r, const struct replica *rep, uint64_t lo, uint64_t hi,
		  uint64_t truth, struct tally *t)
{
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->meta->data_tail;

	while (tail < head) {
		struct perf_event_header h;
		uint64_t rec[1 + 1 + 16 + 1 + 8 + 1], gprs[FLOW_NR_GPRS], len, ip, ret;
		struct len_recovery_rule rule;
		int q;

		copy_out(r, tail, &h, sizeof(h));
		if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + sizeof(rec)) {
			/* ip, abi, 16 regs, stack size (64), 64 bytes of stack, dyn size */
			copy_out(r, tail + sizeof(h), rec, sizeof(rec));
			ip = rec[0];
			if (ip >= lo + rep->skip && ip < hi && rec[1] && rec[18] == 64) {
				memcpy(gprs, &rec[2], sizeof(gprs));
				ret = rec[19]; /* leaf replicas push nothing: [rsp] */
				len_recovery_analyse(selftext_provider(st), &rep->conv, ip, ret,
						     &rule);
				q = len_recovery_apply(&rule, gprs, &len);
				t->samples++;
				t->q[q]++;
				if (q == LEN_EXACT && len != truth)
					t->wrong++;
				if (q == LEN_APPROX) {
					double e = (double)(truth - len) / (double)truth;

					t->err_sum += e;
					t->err_max = e > t->err_max ? e : t->err_max;
				}
			}
		}
		tail += h.size;
	}
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void run(const struct replica *rep, callsite_fn *cs, struct ring *r, struct tally *t)
{
	const struct asmref_impl *impl = asmref_find(rep->name);
	uint64_t lo = 0, hi = 0;
	size_t i;

	assert_non_null(impl);
	assert_int_equal(selftext_bounds(st, (uint64_t)(uintptr_t)impl->fn, &lo, &hi), 0);
	selftext_set_view(st, lo, lo + rep->skip);
	for (i = 0; i < LEN_RECOVERY_NR(lens); i++) {
		size_t n = lens[i];
		const void *arg2 = impl->kind == ASMREF_CLEAR ? (void *)n
				   : impl->kind == ASMREF_SET ? NULL
							      : buf + 2 * 65536 + 64;
		uint64_t end = now_ns() + RUN_NS;

		drain(r, rep, lo, hi, n, t); /* start from an empty ring */
		while (now_ns() < end) {
			int k;

			for (k = 0; k < 64; k++)
				cs(buf, arg2, n, impl->fn);
			drain(r, rep, lo, hi, n, t);
		}
	}
	selftext_set_view(st, 0, 0);
}

/* tests/run.sh counts exit 77 as a skip: cmocka itself reports a skipped test as passed. */
static bool skipped;
static char skip_reason[128];

static void run_set(const char *title, const struct replica *set, size_t n, callsite_fn *cs)
{
	struct ring r;
	size_t i;
	int err = ring_open(&r);

	if (err) {
		print_message("skipped: perf_event_open on this process: %s\n", strerror(-err));
		skipped = true;
		snprintf(skip_reason, sizeof(skip_reason), "perf_event_open on this process: %s",
			 strerror(-err));
		skip();
	}
	printf("%s\n", title);
	ioctl(r.fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < n; i++) {
		struct tally t = { 0 };
		uint64_t a;

		run(&set[i], cs, &r, &t);
		a = t.q[LEN_APPROX];
		printf("  %-22s samples %5llu  exact %5.1f%%  approx %5.1f%% (mean err %4.1f%%, "
		       "max "
		       "%5.1f%%)  unknown %5.1f%%  wrong %llu\n",
		       set[i].name, (unsigned long long)t.samples,
		       t.samples ? 100.0 * t.q[LEN_EXACT] / t.samples : 0,
		       t.samples ? 100.0 * a / t.samples : 0, a ? 100.0 * t.err_sum / a : 0.0,
		       100.0 * t.err_max, t.samples ? 100.0 * t.q[LEN_UNKNOWN] / t.samples : 0,
		       (unsigned long long)t.wrong);
		assert_int_equal(t.wrong, 0);
		assert_true(t.samples >= 10); /* 5 x 60 ms at 20 kHz: hundreds expected */
	}
	ring_close(&r);
}

static void test_sampled(void **state)
{
	(void)state;
	run_set("SysV entry, caller moves the length from a register:", len_recovery_sysv,
		LEN_RECOVERY_NR(len_recovery_sysv), callsite_reg);
	run_set("SysV entry, caller loads the length from memory:", len_recovery_sysv,
		LEN_RECOVERY_NR(len_recovery_sysv), callsite_mem);
	run_set("kernel entry (rcx counts down), length from a register:", len_recovery_kview,
		LEN_RECOVERY_NR(len_recovery_kview), callsite_reg);
	run_set("kernel entry (rcx counts down), length loaded from memory:", len_recovery_kview,
		LEN_RECOVERY_NR(len_recovery_kview), callsite_mem);
}

static int setup(void **state)
{
	(void)state;
	buf = aligned_alloc(4096, 4 * 65536);
	st = selftext_open();
	return buf && st ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	selftext_close(st);
	free(buf);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_sampled) };

	int failed = cmocka_run_group_tests(tests, setup, teardown);

	if (!failed && skipped) {
		printf("skipped: %s\n", skip_reason); /* the line tests/run.sh shows */
		return 77;
	}
	return failed;
}
