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
#include "kernel/trap_cache.h"
#include "lib/log.h"
#include "trap_cost.h"

#define ROUNDS 3
#define ROUND_NS 10e6 /* each round about 10 ms of hits */
#define MIN_CALLS 200
#define MAX_CALLS 200000
#define KERNEL_TARGET "__x64_sys_getppid"
/* The measuring method's version, in the cache's key: raise it when the method changes. */
#define TRAP_COST_METHOD 1

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
	hs = hist_session_open(&none, 1, 0);
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
	c->measured_at = (uint64_t)time(NULL);
	p_debug("%s hit: %.0f ns of trap and %.0f ns of BPF (%lu calls x %d rounds; %.0f ns a call "
		"without the probe)",
		probe_mech_name(mech), c->hit_ns, c->bpf_ns, n, ROUNDS, off);
out:
	hist_session_destroy(hs);
}

/* What the cached figures were measured with: this method and this BPF object. */
static int cache_key(struct trap_cache_key *k)
{
	char method[64];

	snprintf(method, sizeof(method), "trap_cost %d, hist.bpf %016llx", TRAP_COST_METHOD,
		 (unsigned long long)hist_session_object_digest());
	return trap_cache_key_here(method, k);
}

static void cache_read(const char *path, const struct trap_cache_key *k, struct trap_cache *tc)
{
	char why[256];
	int err = trap_cache_load(path, k, tc, why, sizeof(why));

	if (err == -EINVAL || err == -EPERM || err == -EFBIG)
		p_info("trap cost cache %s ignored (%s): measuring again", path, why);
	else if (err && err != -ENOENT)
		p_debug("trap cost cache %s not used: %s", path, why);
}

bool trap_cost_cached(enum probe_mech mech, bool need_bpf_apart, struct trap_cost *c)
{
	const char *path = trap_cache_path();
	const struct trap_cache_entry *e;
	struct trap_cache_key k;
	struct trap_cache tc;

	memset(c, 0, sizeof(*c));
	if (!path || cache_key(&k))
		return false;
	cache_read(path, &k, &tc);
	e = trap_cache_find(&tc, probe_mech_name(mech));
	if (!e || (need_bpf_apart && !e->bpf_counted))
		return false;
	c->hit_ns = e->hit_ns;
	c->bpf_ns = e->bpf_ns;
	c->bpf_counted = e->bpf_counted;
	c->measured = c->from_cache = true;
	c->measured_at = e->measured;
	p_debug("%s hit: %.0f ns of trap and %.0f ns of BPF, from the cache %s",
		probe_mech_name(mech), c->hit_ns, c->bpf_ns, path);
	return true;
}

void trap_cost_measure_keep(enum probe_mech mech, struct trap_cost *c)
{
	const char *path = trap_cache_path();
	struct trap_cache_entry e = { 0 };
	struct trap_cache_key k;
	struct trap_cache tc;
	char why[256];

	trap_cost_measure(mech, c);
	if (!c->measured || !path || cache_key(&k))
		return;
	/* The other mechanisms' entries are kept: read again, this one replaced. */
	if (trap_cache_load(path, &k, &tc, why, sizeof(why)))
		memset(&tc, 0, sizeof(tc));
	snprintf(e.mech, sizeof(e.mech), "%s", probe_mech_name(mech));
	e.hit_ns = c->hit_ns < TRAP_CACHE_MAX_NS ? c->hit_ns : TRAP_CACHE_MAX_NS;
	e.bpf_ns = c->bpf_ns < TRAP_CACHE_MAX_NS ? c->bpf_ns : TRAP_CACHE_MAX_NS;
	e.bpf_counted = c->bpf_counted;
	e.measured = c->measured_at;
	if (trap_cache_put(&tc, &e) || trap_cache_store(path, &k, &tc, why, sizeof(why)))
		p_debug("the %s trap cost is not kept for later runs: %s", probe_mech_name(mech),
			why);
	else
		p_debug("%s trap cost kept in %s for the later runs of this boot",
			probe_mech_name(mech), path);
}

void trap_cost_get(enum probe_mech mech, bool need_bpf_apart, struct trap_cost *c)
{
	if (!trap_cost_cached(mech, need_bpf_apart, c))
		trap_cost_measure_keep(mech, c);
}

void trap_cost_origin(const struct trap_cost *c, char *buf, size_t len)
{
	time_t t = (time_t)c->measured_at;
	struct tm tm;

	if (!c->from_cache || !gmtime_r(&t, &tm)) {
		snprintf(buf, len, "measured just now on copyprof's own code");
		return;
	}
	snprintf(buf, len, "measured at %02d:%02d:%02d UTC this boot, from the cache %s",
		 tm.tm_hour, tm.tm_min, tm.tm_sec, trap_cache_path() ?: "");
}
