// SPDX-License-Identifier: GPL-2.0
/* record_counted.c: count every call's length at probe sites in BPF, into a counted profile */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "kernel/cgroup.h"
#include "kernel/feature.h"
#include "kernel/ksyms.h"
#include "lib/hist_print.h"
#include "lib/log.h"
#include "profile/ksource.h"
#include "profile/profile.h"
#include "profile/profile_mux.h"
#include "profile/site_callers.h"
#include "hist_session.h"
#include "hwbp_mux.h"
#include "probe_site.h"
#include "record_counted.h"
#include "record_share.h"
#include "record_dispatch.h"
#include "record_mixed.h"
#include "record_run.h"
#include "record_sample.h"
#include "trap_cost.h"
#include "user_callers.h"
#include "uprobe_redeploy.h"
#include "lib/monotime.h"
#include "lib/elfsyms.h"

struct counted_recorder {
	const struct record_counted_args *a;
	struct hist_session *hs;
	struct hist_slot (*last)[CP_NBUCKETS]; /* record -i: each site's counts at the last one */
	struct hwbp_mux *mux; /* more breakpoint sites than debug registers: rotated */
	int *mux_of;	      /* site -> its index in the rotation, or -1 */
	void *sampler;	      /* a mixed plan: the sampling recorder (record_sample.h), or NULL */
	struct record_sample_args sa;
	struct trap_cost uprobe_cost;	 /* measured when a site is a uprobe */
	bool uprobe_cost_later;		 /* not cached: measured once the recording ends */
	struct cgroup_set cg;		 /* --cgroup, opened */
	struct uprobe_redeploy redeploy; /* uprobe files replaced under their paths */
	double next_follow, next_sweep;
	bool share; /* the copy-time share is sampled (record_share.h) */
};

/* How often a uprobe site's path is checked for a replaced file, and old files' maps for users. */
#define REDEPLOY_CHECK_S 0.25
#define REDEPLOY_SWEEP_S 1.0

static int nr_hwbp(const struct record_counted_args *a)
{
	int i, n = 0;

	for (i = 0; i < a->nr_sites; i++)
		n += a->sites[i].mech == MECH_HWBP;
	return n;
}

/* Breakpoint sites beyond the debug registers share them, rotated (hwbp_mux.h). */
static bool multiplexed(const struct record_counted_args *a, int i)
{
	return a->sites[i].mech == MECH_HWBP && nr_hwbp(a) > HWBP_MUX_MAX_SLOTS;
}

/*
 * Which entry sites count their callers in this recording: kernel ones unless --no-callers,
 * uprobe ones only with --callers (record_counted.h says why).
 */
static void choose_callers(const struct record_counted_args *a)
{
	bool said = false;
	int i;

	for (i = 0; i < a->nr_sites; i++) {
		struct probe_site *s = &a->sites[i];

		s->callers_off = false;
		if (!a->no_callers && !a->user_callers && s->mech == MECH_UPROBE &&
		    probe_site_counts_callers(s) && !said) {
			p_info("uprobe entry sites count no callers by default (--callers counts "
			       "them "
			       "exactly, for more BPF time a call)");
			said = true;
		}
		s->callers_off = a->no_callers || (s->mech == MECH_UPROBE && !a->user_callers);
	}
}

/*
 * Configures every multiplexed site and starts the rotation. Sites are told apart by address,
 * so a second site at an address already taken records nothing (said). Returns the number of
 * sites rotated.
 */
static int open_mux(struct counted_recorder *r)
{
	const struct record_counted_args *a = r->a;
	struct hwbp_mux_site *v = calloc((size_t)a->nr_sites, sizeof(*v));
	int i, j, n = 0;

	r->mux_of = malloc(sizeof(int) * (size_t)a->nr_sites);
	if (!v || !r->mux_of) {
		free(v);
		return 0;
	}
	for (i = 0; i < a->nr_sites; i++) {
		const struct probe_site *s = &a->sites[i];

		r->mux_of[i] = -1;
		if (!multiplexed(a, i))
			continue;
		for (j = 0; j < n && v[j].addr != s->kaddr; j++)
			;
		if (j < n) {
			p_warn("site %d is at the address of site %u (0x%llx): multiplexed "
			       "breakpoints name sites by address, so it records nothing",
			       i, v[j].id, (unsigned long long)s->kaddr);
			continue;
		}
		if (hist_session_config_site(r->hs, (uint32_t)i, s->spec.len_reg, s->spec.dst_reg,
					     s->spec.src_reg, probe_site_caller_stack(s)))
			continue;
		r->mux_of[i] = n;
		v[n++] = (struct hwbp_mux_site){ s->kaddr, (uint32_t)i };
	}
	r->mux = n ? hwbp_mux_open(r->hs, v, (size_t)n) : NULL;
	if (!r->mux) {
		free(v);
		return 0;
	}
	if (hwbp_mux_slots(r->mux) > 1)
		p_info("%d breakpoint sites share %d debug registers: site %u stays on one as the "
		       "reference, the others rotate every %d ms, counts scaled by the reference's "
		       "calls while each was armed",
		       n, hwbp_mux_slots(r->mux), v[0].id, HWBP_MUX_PERIOD_MS);
	else
		p_info("%d breakpoint sites share %d debug register: rotated every %d ms, counts "
		       "scaled by time enabled / time running",
		       n, hwbp_mux_slots(r->mux), HWBP_MUX_PERIOD_MS);
	free(v);
	return n;
}

/* Resolves every site into a profile site; all problems are reported, not just the first. */
static int resolve_sites(const struct record_counted_args *a, struct profile *p)
{
	int i, bad = 0;

	for (i = 0; i < a->nr_sites; i++) {
		struct profile_site *s;

		if (probe_site_resolve(&a->sites[i])) {
			bad++;
			continue;
		}
		s = profile_add_site(p);
		if (!s)
			return -ENOMEM;
		probe_site_describe(&a->sites[i], s);
	}
	return bad ? -ENOENT : 0;
}

static int attach_sites(struct counted_recorder *r)
{
	const struct record_counted_args *a = r->a;
	int i, attached = 0;

	/* A site that fails to attach does not stop the others. */
	for (i = 0; i < a->nr_sites; i++)
		if (!multiplexed(a, i) && !probe_site_attach(&a->sites[i], r->hs, (uint32_t)i))
			attached++;
	if (nr_hwbp(a) > HWBP_MUX_MAX_SLOTS)
		attached += open_mux(r);
	if (attached && attached < a->nr_sites)
		p_warn("%d of %d sites attached; the others record nothing", attached, a->nr_sites);
	return attached;
}

static bool uses(const struct record_counted_args *a, enum probe_mech mech)
{
	int i;

	for (i = 0; i < a->nr_sites; i++)
		if (a->sites[i].mech == mech)
			return true;
	return false;
}

static bool uses_kernel(const struct record_counted_args *a)
{
	return uses(a, MECH_KPROBE) || uses(a, MECH_HWBP);
}

/* The kinds of caller some site counts (HIST_CALLERS_*). */
static unsigned int counts_callers(const struct record_counted_args *a)
{
	unsigned int kinds = 0;
	int i;

	for (i = 0; i < a->nr_sites; i++) {
		int stack = probe_site_caller_stack(&a->sites[i]);

		kinds |= stack == CP_CALLER_USER     ? HIST_CALLERS_USER
			 : stack == CP_CALLER_KERNEL ? HIST_CALLERS_KERNEL
						     : 0;
	}
	return kinds;
}

/*
 * Entry sites counted per caller: name the kernel return addresses while kallsyms still holds
 * them (user ones are named already), and sort every site's callers.
 */
static void name_callers(struct profile *p)
{
	struct ksyms *ks = NULL;
	size_t i, j, unnamed = 0;

	for (i = 0; i < p->nr_sites; i++)
		for (j = 0; j < p->sites[i].nr_callers; j++)
			unnamed += !p->sites[i].callers[j].symbol;
	if (unnamed && (ks = ksyms_load(NULL))) {
		site_callers_name(p, ks);
		ksyms_free(ks);
		return;
	}
	for (i = 0; i < p->nr_sites; i++)
		profile_site_sort_callers(&p->sites[i]);
}

/* Uprobe entry sites' callers, named from the files the recording knows and the maps. */
static int collect_user_callers(struct counted_recorder *r, struct profile *p)
{
	const struct record_counted_args *a = r->a;
	const char **known = calloc((size_t)a->nr_sites + 1, sizeof(*known));
	char *command = a->run.command ? elfsyms_find_file(a->run.command[0]) : NULL;
	size_t n = 0;
	int i, err;

	if (!known) {
		free(command);
		return -ENOMEM;
	}
	for (i = 0; i < a->nr_sites; i++)
		if (probe_site_caller_stack(&a->sites[i]) == CP_CALLER_USER)
			known[n++] = a->sites[i].resolved_path;
	if (n && command)
		known[n++] = command;
	err = n ? user_callers_collect(r->hs, p, (uint32_t)a->nr_sites, known, n) : 0;
	free(known);
	free(command);
	return err;
}

static int counted_prepare(void *rec, struct profile *p)
{
	struct counted_recorder *r = rec;
	const struct record_counted_args *a = r->a;

	if (cgroup_set_open(a->cgroups, (uint32_t)a->nr_cgroups, &r->cg))
		return -EINVAL;
	choose_callers(a);
	if (resolve_sites(a, p) || feature_check_bpf() ||
	    (uses(a, MECH_UPROBE) && feature_check_uprobes()) ||
	    (uses(a, MECH_KPROBE) && feature_check_kprobes()))
		return -EPERM;
	return r->sampler ? record_sample_ops.prepare(r->sampler, p) : 0;
}

/*
 * What a uprobe costs the traced program, as kprobes' cost is said in the plan (trap_cost.h),
 * with what that is at a busy site's rate.
 */
static void announce_uprobe_cost(const struct trap_cost *c)
{
	char origin[320];
	double us;

	if (!c->measured) {
		p_info("uprobe cost per hit not measured: %s", c->why);
		return;
	}
	trap_cost_origin(c, origin, sizeof(origin));
	us = (c->hit_ns + c->bpf_ns) / 1e3;
	p_info("uprobe cost: %.2f us per hit here (the trap %.2f us, BPF %s; %s): a site called "
	       "10,000 times a second costs its program about %.1f%% of one CPU",
	       us, c->hit_ns / 1e3, c->bpf_counted ? "counted" : "not counted apart", origin, us);
}

/*
 * The trap cost from this boot's cache, said before the command starts; not there, it is
 * measured after the recording (counted_finish), so that the measure (some 150 ms of probes
 * placed and removed) never delays the first traced call nor runs beside the workload.
 */
static void uprobe_cost_start(struct counted_recorder *r)
{
	if (trap_cost_cached(MECH_UPROBE, false, &r->uprobe_cost)) {
		announce_uprobe_cost(&r->uprobe_cost);
		return;
	}
	r->uprobe_cost_later = true;
	p_debug("the uprobe trap cost is not in this boot's cache: measured after the recording");
}

static int counted_open(void *rec, uint32_t tgid)
{
	struct counted_recorder *r = rec;
	const struct record_counted_args *a = r->a;
	struct hist_filter filter = {
		.tgid = tgid,
		.comm = a->run.comm,
		.inherit = a->run.command && !a->run.no_inherit,
		.cgroups = &r->cg,
		.by_cgroup = a->by_cgroup,
		/* the copies' share of a traced program's time: one program */
		.copy_share = tgid && uses(a, MECH_UPROBE)
	};

	/*
	 * Kernel copies made on the command's behalf often run in other tasks (btrfs
	 * decompresses in kworkers), so kernel sites count every task while it runs.
	 */
	if (a->run.command && uses_kernel(a))
		p_info("kernel sites count every task while '%s' runs (--pid/--comm narrow it)",
		       a->run.command[0]);
	r->hs = hist_session_open(&filter, (uint32_t)a->nr_sites, counts_callers(a));
	if (!r->hs || !attach_sites(r)) {
		p_err("no site could be attached; nothing to record");
		return -ENOENT;
	}
	if (uses(a, MECH_UPROBE))
		uprobe_cost_start(r);
	if (filter.copy_share)
		r->share = record_share_start(r->hs, a->sites, a->nr_sites);
	if (r->sampler) {
		p_info("sampling the functions of %zu site(s) no probe can take, in the same "
		       "recording",
		       a->sampled->nr);
		return record_sample_ops.open(r->sampler, tgid);
	}
	return 0;
}

static void counted_announce(void *rec, char *buf, size_t size)
{
	struct counted_recorder *r = rec;

	snprintf(buf, size, "recording %d site%s", r->a->nr_sites, r->a->nr_sites == 1 ? "" : "s");
}

/* record -i: each site's histogram of the calls since the last interval, bcc style. */
static int counted_interval(void *rec, const struct profile *final, FILE *f)
{
	struct counted_recorder *r = rec;
	const struct record_counted_args *a = r->a;
	struct hist_slot now[CP_NBUCKETS], diff[CP_NBUCKETS];
	uint64_t calls, bytes;
	int i;
	uint32_t b;

	if (!r->last && !(r->last = calloc((size_t)a->nr_sites, sizeof(*r->last))))
		return -ENOMEM;
	for (i = 0; i < a->nr_sites; i++) {
		const struct probe_site *ps = &a->sites[i];
		struct profile_site live = { 0 };

		/* The last interval: the profile's counts (the session is gone), scaled if multiplexed. */
		if (final) {
			sparse_hist_dense(&final->sites[i].buckets, now);
		} else {
			int err = hist_session_collect(r->hs, (uint32_t)i, &live);

			sparse_hist_dense(&live.buckets, now);
			profile_site_clear(&live);
			if (err)
				return -EIO;
		}
		calls = bytes = 0;
		for (b = 0; b < CP_NBUCKETS; b++) {
			diff[b].count = now[b].count - r->last[i][b].count;
			diff[b].bytes = now[b].bytes - r->last[i][b].bytes;
			calls += diff[b].count;
			bytes += diff[b].bytes;
		}
		memcpy(r->last[i], now, sizeof(now));
		fprintf(f, "site %d %s+0x%llx (%s): %llu calls, %llu bytes\n", i, ps->spec.symbol,
			(unsigned long long)ps->spec.offset, probe_mech_name(ps->mech),
			(unsigned long long)calls, (unsigned long long)bytes);
		hist_print_log2(f, diff);
	}
	return 0;
}

/* A deploy that renames a new file over a probed one: its sites follow (uprobe_redeploy.h). */
static void follow_redeploys(struct counted_recorder *r)
{
	const struct record_counted_args *a = r->a;
	double now = monotime_s();
	int i;

	if (now < r->next_follow)
		return;
	r->next_follow = now + REDEPLOY_CHECK_S;
	for (i = 0; i < a->nr_sites; i++)
		if (a->sites[i].mech == MECH_UPROBE)
			uprobe_redeploy_check(&r->redeploy, r->hs, &a->sites[i], (uint32_t)i);
	if (r->redeploy.nr_old && now >= r->next_sweep) {
		uprobe_redeploy_sweep(&r->redeploy);
		r->next_sweep = now + REDEPLOY_SWEEP_S;
	}
}

/* The counts stay in the kernel until the end: only a pause, and a look at the probed files. */
static int counted_wait(void *rec)
{
	struct counted_recorder *r = rec;
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	int err = 0;

	/* A mixed recording drains its samples for as long as the pause would last. */
	if (r->sampler)
		err = record_sample_ops.wait(r->sampler);
	else
		nanosleep(&tick, NULL);
	if (r->mux)
		hwbp_mux_tick(r->mux);
	follow_redeploys(r);
	return err;
}

/* Multiplexed sites: counts scaled by the time each was on a debug register. */
static int scale_mux(struct counted_recorder *r, struct profile *p)
{
	struct site_mux m;
	int i, by_time = 0;

	for (i = 0; r->mux && i < r->a->nr_sites; i++) {
		if (r->mux_of[i] < 0)
			continue;
		hwbp_mux_scaling(r->mux, (size_t)r->mux_of[i], &m);
		by_time += m.scaling == MUX_SCALING_TIME;
		if (site_mux_scale(&p->sites[i], &m))
			return -ENOMEM;
	}
	if (by_time && hwbp_mux_slots(r->mux) > 1)
		p_info("%d multiplexed site(s) scaled by time: the reference site saw fewer than "
		       "%d "
		       "calls while they were armed",
		       by_time, HWBP_MUX_REF_MIN_CALLS);
	if (r->mux) {
		uint64_t moves, local;
		double us = hwbp_mux_move_us(r->mux, &moves, &local);

		p_info("%llu rotations, %llu moves of a breakpoint event (%llu from its own CPU), "
		       "%.1f us per move (PERF_EVENT_IOC_MODIFY_ATTRIBUTES)",
		       (unsigned long long)hwbp_mux_rotations(r->mux), (unsigned long long)moves,
		       (unsigned long long)local, us);
	}
	return 0;
}

/* The uprobe hits, each a trap on the traced program's CPU. */
static uint64_t uprobe_hits(const struct profile *p)
{
	uint64_t hits = 0;
	size_t i;

	for (i = 0; i < p->nr_sites; i++)
		if (!p->sites[i].sample && p->sites[i].mechanism &&
		    !strcmp(p->sites[i].mechanism, "uprobe"))
			hits += p->sites[i].calls;
	return hits;
}

/*
 * The traps' share of the recorded CPU time (meta.probe_cpu_s): hits x the cost measured per
 * hit, at most the whole. Without a measured cost the CPU time cannot be told apart from the
 * traps' and is not stored.
 */
static void counted_probe_cpu(const struct counted_recorder *r, struct profile *p)
{
	const struct trap_cost *c = &r->uprobe_cost;
	uint64_t hits = uprobe_hits(p);

	if (!p->meta.cpu_known || !hits)
		return;
	if (!c->measured) {
		p_info("the recorded CPU time is not stored: the uprobes' cost per hit, which it "
		       "holds, was not measured (%s)",
		       c->why);
		p->meta.cpu_known = false;
		return;
	}
	p->meta.probe_cpu_s = (double)hits * (c->hit_ns + c->bpf_ns) / 1e9;
	if (p->meta.probe_cpu_s > p->meta.cpu_s)
		p->meta.probe_cpu_s = p->meta.cpu_s;
}

static int counted_finish(void *rec, struct profile *p)
{
	struct counted_recorder *r = rec;
	const struct record_counted_args *a = r->a;
	int i;

	hwbp_mux_stop(r->mux);
	for (i = 0; i < a->nr_sites; i++)
		if (hist_session_collect(r->hs, (uint32_t)i, &p->sites[i]))
			return -EIO;
	if (hist_session_collect_callers(r->hs, p->sites, (uint32_t)a->nr_sites) ||
	    collect_user_callers(r, p))
		return -EIO;
	if (scale_mux(r, p))
		return -ENOMEM;
	if (r->share)
		record_share_finish(r->hs, &p->meta);
	hwbp_mux_free(r->mux);
	r->mux = NULL;
	uprobe_redeploy_free(&r->redeploy);
	hist_session_destroy(r->hs);
	r->hs = NULL;
	if (r->uprobe_cost_later) {
		trap_cost_measure_keep(MECH_UPROBE, &r->uprobe_cost);
		announce_uprobe_cost(&r->uprobe_cost);
		r->uprobe_cost_later = false;
	}
	/* Sampled sites come after the counted ones, which are numbered as the probes. */
	if (r->sampler) {
		size_t counted = p->nr_sites;

		if (record_sample_ops.finish(r->sampler, p))
			return -EIO;
		p_info("%zu sampled site(s) in the functions no probe took (of %zu sampled in all)",
		       record_mixed_keep(p, a->sampled), p->nr_sites - counted);
	}
	name_callers(p);
	ksource_annotate(p, a->debuginfo, a->nr_debuginfo);
	if (uses_kernel(a))
		record_dispatch_fill(p);
	counted_probe_cpu(r, p);
	return 0;
}

/* The traced programs' share of the uprobes' cost: their hits at the measured cost per hit. */
static void print_uprobe_cost(const struct counted_recorder *r, const struct profile *p, FILE *f)
{
	const struct trap_cost *c = &r->uprobe_cost;
	uint64_t hits = uprobe_hits(p);

	if (!c->measured || !hits)
		return;
	fprintf(f,
		"uprobe cost to the traced programs: about %.1f ms of CPU (%llu hits x %.2f us)\n",
		(double)hits * (c->hit_ns + c->bpf_ns) / 1e6, (unsigned long long)hits,
		(c->hit_ns + c->bpf_ns) / 1e3);
	if (p->meta.cpu_known)
		fprintf(f,
			"recorded programs' CPU time: %.3f s, of which the uprobes' about %.3f s: "
			"%.3f s their own\n",
			p->meta.cpu_s, p->meta.probe_cpu_s, p->meta.cpu_s - p->meta.probe_cpu_s);
}

static void counted_print(void *rec, const struct profile *p, FILE *f)
{
	struct counted_recorder *r = rec;
	size_t i;

	for (i = 0; i < p->nr_sites; i++) {
		const struct profile_site *s = &p->sites[i];
		char mux[64];

		if (s->sample)
			continue;
		site_mux_describe(s, mux, sizeof(mux));
		fprintf(f,
			"site %u %s:%s+0x%llx (%s, len=%s): %llu calls, %llu bytes, mean "
			"%.1f%s%s\n",
			s->id, s->target, s->symbol, (unsigned long long)s->offset, s->mechanism,
			s->len_arg, (unsigned long long)s->calls, (unsigned long long)s->bytes,
			s->calls ? (double)s->bytes / (double)s->calls : 0.0, *mux ? ", " : "",
			mux);
	}
	print_uprobe_cost(r, p, f);
	if (r->sampler)
		record_sample_ops.print(r->sampler, p, f);
}

static void counted_close(void *rec)
{
	struct counted_recorder *r = rec;

	hwbp_mux_free(r->mux);
	r->mux = NULL;
	uprobe_redeploy_free(&r->redeploy);
	hist_session_destroy(r->hs);
	r->hs = NULL;
	free(r->last);
	r->last = NULL;
	free(r->mux_of);
	r->mux_of = NULL;
	cgroup_set_close(&r->cg);
	if (r->sampler)
		record_sample_ops.close(r->sampler);
}

static const struct recorder_ops counted_ops = {
	.prepare = counted_prepare,
	.open = counted_open,
	.announce = counted_announce,
	.wait = counted_wait,
	.finish = counted_finish,
	.print = counted_print,
	.close = counted_close,
	.interval = counted_interval,
};

int record_counted_run(const struct record_counted_args *a)
{
	struct counted_recorder r = { .a = a };
	struct record_run_args run = a->run;
	int status, i;

	run.all_tasks = run.all_tasks || uses_kernel(a);
	if (a->sampled && a->sampled->nr) {
		/* Samples are taken from the same tasks the probes count. */
		r.sa = (struct record_sample_args){ .run = run,
						    .hz = a->hz,
						    .poll_ms = 20,
						    .cgroups = a->cgroups,
						    .nr_cgroups = a->nr_cgroups };
		r.sampler = record_sample_new(&r.sa);
		if (!r.sampler)
			return EXIT_RUNTIME;
	}
	status = record_run(&run, &counted_ops, &r);
	free(r.sampler);
	for (i = 0; i < a->nr_sites; i++)
		probe_site_free(&a->sites[i]);
	return status;
}
