// SPDX-License-Identifier: GPL-2.0
/* trap_cost.c: a probe on copyprof's own code, hit with and without it, the difference per hit */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "hist_session.h"
#include "kernel/ksyms.h"
#include "lib/log.h"
#include "trap_cost.h"

#define ROUNDS 3
#define ROUND_NS 10e6 /* each round about 10 ms of hits */
#define MIN_CALLS 200
#define MAX_CALLS 200000
#define KERNEL_TARGET "__x64_sys_getppid"

/* The uprobe's target: a real call that does next to nothing. */
__attribute__((noinline, used)) void trap_cost_target(volatile unsigned long *x)
{
	(*x)++;
	__asm__ volatile("" ::: "memory");
}

static double thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Thread CPU time per call of @n calls of the mechanism's target. */
static double per_call(enum probe_mech mech, unsigned long n)
{
	volatile unsigned long x = 0;
	double t0 = thread_ns();
	unsigned long i;

	for (i = 0; i < n; i++) {
		if (mech == MECH_UPROBE)
			trap_cost_target(&x);
		else
			syscall(SYS_getppid);
	}
	return (thread_ns() - t0) / (double)n;
}

/* Where trap_cost_target is in its file: the mapping that holds it, from /proc/self/maps. */
static int own_target(char *path, size_t len, uint64_t *file_offset)
{
	uintptr_t at = (uintptr_t)trap_cost_target;
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	int err = -ENOENT;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi, off;
		char file[4096] = "";

		if (sscanf(line, "%lx-%lx %*s %lx %*s %*s %4095s", &lo, &hi, &off, file) < 3 ||
		    at < lo || at >= hi || file[0] != '/')
			continue;
		snprintf(path, len, "%s", file);
		*file_offset = at - lo + off;
		err = 0;
		break;
	}
	if (f)
		fclose(f);
	return err;
}

static int attach(struct hist_session *hs, enum probe_mech mech, char *why, size_t len)
{
	char path[4096];
	uint64_t off = 0;
	struct ksyms *ks;
	int err;

	switch (mech) {
	case MECH_UPROBE:
		if (own_target(path, sizeof(path), &off)) {
			snprintf(why, len, "copyprof's own code is not in a file it can probe");
			return -ENOENT;
		}
		err = hist_session_attach_uprobe(hs, 0, path, off, NULL);
		break;
	case MECH_KPROBE:
		err = hist_session_attach_kprobe(hs, 0, KERNEL_TARGET, 0);
		break;
	default:
		ks = ksyms_load(NULL);
		off = ks ? ksyms_addr(ks, KERNEL_TARGET) : 0;
		ksyms_free(ks);
		err = off ? hist_session_attach_hwbp(hs, 0, off) : -ENOENT;
		break;
	}
	if (err)
		snprintf(why, len, "a %s on %s cannot be placed here (%s)", probe_mech_name(mech),
			 mech == MECH_UPROBE ? "copyprof's own code" : KERNEL_TARGET,
			 strerror(-err));
	return err;
}

void trap_cost_measure(enum probe_mech mech, struct trap_cost *c)
{
	struct hist_filter none = { 0 };
	struct hist_session *hs;
	double off = 0, on = 0, t;
	uint64_t ns0, runs0, ns1, runs1;
	unsigned long n = MIN_CALLS;
	int r;

	memset(c, 0, sizeof(*c));
	hs = hist_session_open(&none, 1, false);
	if (!hs) {
		snprintf(c->why, sizeof(c->why), "the BPF program does not load");
		return;
	}
	hist_session_config_site(hs, 0, CP_REG_ARG1, CP_REG_NONE, CP_REG_NONE, CP_CALLER_NONE);
	if (attach(hs, mech, c->why, sizeof(c->why)))
		goto out;
	/* Enough calls that a round takes about ROUND_NS with the probe. */
	t = per_call(mech, n);
	n = t > 0 ? (unsigned long)(ROUND_NS / t) : MAX_CALLS;
	n = n < MIN_CALLS ? MIN_CALLS : n > MAX_CALLS ? MAX_CALLS : n;
	c->bpf_counted = !hist_session_run_stats(hs, &ns0, &runs0);
	for (r = 0; r < ROUNDS; r++) {
		t = per_call(mech, n);
		on = !r || t < on ? t : on;
		hist_session_detach(hs, 0);
		t = per_call(mech, n);
		off = !r || t < off ? t : off;
		if (r + 1 < ROUNDS && attach(hs, mech, c->why, sizeof(c->why)))
			goto out;
	}
	if (c->bpf_counted && !hist_session_run_stats(hs, &ns1, &runs1) && runs1 > runs0 &&
	    ns1 > ns0)
		c->bpf_ns = (double)(ns1 - ns0) / (double)(runs1 - runs0);
	else
		c->bpf_counted = false;
	c->hit_ns = on - off - c->bpf_ns;
	if (c->hit_ns < 0)
		c->hit_ns = 0;
	c->measured = true;
	p_debug("%s hit: %.0f ns of trap and %.0f ns of BPF (%lu calls x %d rounds; %.0f ns a call "
		"without the probe)",
		probe_mech_name(mech), c->hit_ns, c->bpf_ns, n, ROUNDS, off);
out:
	hist_session_destroy(hs);
}
