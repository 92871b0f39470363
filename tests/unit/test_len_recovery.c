// SPDX-License-Identifier: GPL-2.0
/*
 * test_len_recovery.c: the length rules against the truth at every instruction of the asm-ref
 * replicas: a traced child runs each replica, the parent single-steps it and recovers the
 * length from the registers at every step, as a sample landing there would.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include "asmref.h"
#include "sites/len_recovery.h"
#include "len_recovery_callsite.h"
#include "len_recovery_selftext.h"

static struct selftext *st;

/* The child's current case, read by the parent with PTRACE_PEEKDATA (same address after fork). */
static volatile uint64_t cur_len;
static uint8_t *buf;
#define BUF_SIZE (3 * 65536)

struct tally {
	uint64_t steps, q[LEN_NR_QUALITIES], wrong, by_rule[LR_NR];
	double approx_err_sum, approx_err_max;
};

static const size_t lens[] = { 0,  1,  3,  7,	8,   15,  16,  31,   32,   33,
			       63, 64, 65, 100, 255, 256, 257, 1000, 4096, 4099 };

__attribute__((noinline)) static void child_run(const struct asmref_impl *impl, callsite_fn *cs)
{
	size_t i, a;

	for (a = 0; a < 3; a++) {
		for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			/* a = 1: src below dst in the low byte, memcpy_orig's backward path. */
			uint8_t *dst = buf + 65536 + a * 17,
				*src = buf + (a == 1 ? 65536 * 2 + 200 : 5);
			size_t n = lens[i];
			const void *arg2 = impl->kind == ASMREF_CLEAR ? (void *)n
					   : impl->kind == ASMREF_SET ? NULL
								      : src;

			cur_len = n;
			cs(dst, arg2, n, impl->fn);
		}
	}
}

static void gprs_of(const struct user_regs_struct *u, uint64_t *g)
{
	uint64_t v[FLOW_NR_GPRS] = {
		u->rax, u->rbx, u->rcx, u->rdx, u->rsi, u->rdi, u->rbp, u->rsp,
		u->r8,	u->r9,	u->r10, u->r11, u->r12, u->r13, u->r14, u->r15
	};

	memcpy(g, v, sizeof(v));
}

static void trace_replica(const struct replica *r, callsite_fn *cs, struct tally *t)
{
	const struct asmref_impl *impl = asmref_find(r->name);
	uint64_t lo = 0, hi = 0, gprs[FLOW_NR_GPRS];
	struct user_regs_struct u;
	int status;
	pid_t pid;

	assert_non_null(impl);
	assert_int_equal(selftext_bounds(st, (uint64_t)(uintptr_t)impl->fn, &lo, &hi), 0);
	selftext_set_view(st, lo, lo + r->skip);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		child_run(impl, cs);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	while (!ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) && waitpid(pid, &status, 0) == pid &&
	       WIFSTOPPED(status)) {
		struct len_recovery_rule rule;
		uint64_t truth, len, ret;
		int q;

		if (ptrace(PTRACE_GETREGS, pid, NULL, &u))
			break;
		if (u.rip < lo + r->skip || u.rip >= hi)
			continue;
		/* Leaf replicas push nothing: the return address is on top of the stack. */
		ret = (uint64_t)ptrace(PTRACE_PEEKDATA, pid, (void *)u.rsp, NULL);
		truth = (uint64_t)ptrace(PTRACE_PEEKDATA, pid, (void *)&cur_len, NULL);
		gprs_of(&u, gprs);
		len_recovery_analyse(selftext_provider(st), &r->conv, u.rip, ret, &rule);
		q = len_recovery_apply(&rule, gprs, &len);
		/* The rule reads only the registers len_recovery_regs() names (import-perf relies
		 * on it when perf recorded some registers only): the others cannot change it. */
		{
			uint16_t need = len_recovery_regs(&rule);
			uint64_t other[FLOW_NR_GPRS], len2;
			int k;

			for (k = 0; k < FLOW_NR_GPRS; k++)
				other[k] = (need & (1u << k)) ? gprs[k] : ~gprs[k];
			assert_int_equal(len_recovery_apply(&rule, other, &len2), q);
			assert_int_equal(len2, len);
		}
		t->steps++;
		t->q[q]++;
		if (q != LEN_UNKNOWN)
			t->by_rule[rule.id]++;
		else if (getenv("LEN_RECOVERY_DEBUG"))
			print_message("%s +0x%llx: unknown (rule %s), truth %llu\n", r->name,
				      (unsigned long long)(u.rip - lo),
				      len_recovery_rule_name(rule.id), (unsigned long long)truth);
		if (q == LEN_EXACT && len != truth) {
			t->wrong++;
			print_message("%s +0x%llx: rule %s gave %llu, truth %llu\n", r->name,
				      (unsigned long long)(u.rip - lo),
				      len_recovery_rule_name(rule.id), (unsigned long long)len,
				      (unsigned long long)truth);
		}
		if (q == LEN_APPROX && truth) {
			double err =
				(double)(truth > len ? truth - len : len - truth) / (double)truth;

			assert_true(len <= truth); /* approximations are lower bounds */
			t->approx_err_sum += err;
			if (err > t->approx_err_max)
				t->approx_err_max = err;
		}
	}
	waitpid(pid, &status, 0);
	selftext_set_view(st, 0, 0);
}

static void report(const char *name, const struct tally *t)
{
	uint64_t a = t->q[LEN_APPROX];

	printf("  %-22s steps %6llu  exact %5.1f%%  approx %5.1f%% (mean err %4.1f%%, max %5.1f%%)"
	       "  unknown %5.1f%%  wrong %llu  rules:",
	       name, (unsigned long long)t->steps, 100.0 * t->q[LEN_EXACT] / t->steps,
	       100.0 * a / t->steps, a ? 100.0 * t->approx_err_sum / a : 0.0,
	       100.0 * t->approx_err_max, 100.0 * t->q[LEN_UNKNOWN] / t->steps,
	       (unsigned long long)t->wrong);
	for (int i = 1; i < LR_NR; i++)
		if (t->by_rule[i])
			printf(" %s=%llu", len_recovery_rule_name(i),
			       (unsigned long long)t->by_rule[i]);
	printf("\n");
}

/*
 * What a view of the registers must give. Every exact answer is right in every view; with the
 * caller's length register in view nearly all are exact. With the length loaded from memory
 * the caller rule has nothing to read, so what is known comes from the routine's own
 * registers: at least @min_known percent of the steps (exact or lower bound).
 */
struct expect {
	unsigned min_exact, min_known;
	bool caller_rule; /* may the caller rule answer? only when its register is in view */
};

static void run_set(const struct replica *set, size_t n, callsite_fn *cs, struct expect e)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct tally t = { 0 };

		trace_replica(&set[i], cs, &t);
		report(set[i].name, &t);
		assert_true(t.steps > 0);
		assert_int_equal(t.wrong, 0);
		assert_true(t.q[LEN_EXACT] * 100 >= t.steps * e.min_exact);
		assert_true((t.q[LEN_EXACT] + t.q[LEN_APPROX]) * 100 >= t.steps * e.min_known);
		if (!e.caller_rule)
			assert_int_equal(t.by_rule[LR_CALLER], 0);
	}
}

#define NR(a) (sizeof(a) / sizeof((a)[0]))

static void test_sysv_view(void **state)
{
	(void)state;
	printf("SysV entry, caller moves the length from a register:\n");
	run_set(len_recovery_sysv, NR(len_recovery_sysv), callsite_reg,
		(struct expect){ .min_exact = 99, .min_known = 99, .caller_rule = true });
	/* memset_orig keeps its length in a register for the fewest steps: 5.5% of them */
	printf("SysV entry, caller loads the length from memory:\n");
	run_set(len_recovery_sysv, NR(len_recovery_sysv), callsite_mem,
		(struct expect){ .min_exact = 5, .min_known = 5 });
}

static void test_kernel_view(void **state)
{
	(void)state;
	printf("kernel entry (rcx counts down), caller moves the length from a register:\n");
	run_set(len_recovery_kview, NR(len_recovery_kview), callsite_reg,
		(struct expect){ .min_exact = 99, .min_known = 99, .caller_rule = true });
	/* rcx still counts what is left, so every step has at least a lower bound */
	printf("kernel entry (rcx counts down), caller loads the length from memory:\n");
	run_set(len_recovery_kview, NR(len_recovery_kview), callsite_mem,
		(struct expect){ .min_exact = 0, .min_known = 100 });
}

static int setup(void **state)
{
	(void)state;
	buf = aligned_alloc(4096, BUF_SIZE);
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
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysv_view),
		cmocka_unit_test(test_kernel_view),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
