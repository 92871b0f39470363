// SPDX-License-Identifier: GPL-2.0
/* calib_session.c: a whole calibration: pinning, checks, interleaved runs, medians and spread */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <time.h>
#include <unistd.h>
#include "calib_ceiling.h"
#include "calib_judge.h"
#include "calib_measure.h"
#include "calib_noise.h"
#include "calib_pin.h"
#include "calib_runs.h"
#include "calib_session.h"
#include "calib_stats.h"
#include "calib_timer.h"
#include "lib/log.h"
#include "lib/monotime.h"
#include "lib/progress.h"
#include "lib/stop.h"
#include "lib/host.h"
#include "lib/median.h"

/* Per measurement: how many timed samples, and how long one warm batch should last. */
static const struct calib_sampling sampling_full = { .samples = 21, .flushed_samples = 151 };
static const struct calib_sampling sampling_quick = { .samples = 15, .flushed_samples = 101 };
#define BATCH_NS_FULL 5000.0
#define BATCH_NS_QUICK 3000.0

struct job {
	struct costmodel_curve *curve;
	const struct asmref_impl *impl;
};

/* Tests pretend a flag is absent (e.g. erms) with COPYPROF_TEST_HIDE_FLAGS=erms,fsrm. */
static void hide_flags(struct host_meta *m)
{
	const char *hide = getenv("COPYPROF_TEST_HIDE_FLAGS");
	char pat[64], *list;
	size_t i, j = 0;

	if (!hide || asprintf(&list, ",%s,", hide) < 0)
		return;
	for (i = 0; i < m->nr_cpu_flags; i++) {
		snprintf(pat, sizeof(pat), ",%s,", m->cpu_flags[i]);
		if (strstr(list, pat))
			free(m->cpu_flags[i]);
		else
			m->cpu_flags[j++] = m->cpu_flags[i];
	}
	m->nr_cpu_flags = j;
	free(list);
}

static void fill_meta(struct costmodel *m, const struct calib_plan *plan)
{
	host_fill_meta(&m->meta);
	hide_flags(&m->meta);
	m->erms = host_has_flag(&m->meta, "erms");
	m->measured = true;
	m->runs = plan->runs;
	if (plan->command)
		m->meta.command = strdup(plan->command);
	if (!m->erms)
		p_warn("this CPU does not report ERMS: rep movsb/stosb run without enhanced fast "
		       "strings, so the model (marked \"erms\": false) is not the cost an ERMS CPU "
		       "would have");
}

/* One curve per (implementation, cache state) that applies, in the plan's order. */
static int make_jobs(const struct calib_plan *plan, struct costmodel *m, struct job **out,
		     size_t *nr)
{
	struct job *jobs = calloc(plan->nr_impls * COSTMODEL_NR_CACHES, sizeof(*jobs));
	size_t i, n = 0;
	int c;

	if (!jobs)
		return -ENOMEM;
	for (i = 0; i < plan->nr_impls; i++) {
		const struct asmref_impl *impl = plan->impls[i];

		for (c = 0; c < COSTMODEL_NR_CACHES; c++) {
			struct costmodel_curve *curve;

			if (!plan->caches[c])
				continue;
			if (!calib_cache_applies(impl, c)) {
				if (plan->cache_given)
					p_warn("%s has no source: %s does not apply to it, skipped",
					       impl->name, costmodel_cache_name(c));
				continue;
			}
			curve = costmodel_add_curve(m, impl->name, impl->family, c);
			if (!curve) {
				free(jobs);
				return -ENOMEM;
			}
			curve->align_dst = plan->align_dst;
			curve->align_src = plan->align_src;
			if (!strcmp(impl->name, "erms_threshold"))
				curve->threshold = (int64_t)plan->threshold;
			jobs[n++] = (struct job){ .impl = impl };
		}
	}
	/* Curves may have moved while the array grew: point at them only now. */
	for (i = 0; i < n; i++)
		jobs[i].curve = &m->curves[i];
	*out = jobs;
	*nr = n;
	return 0;
}

/* Correctness first: every implementation, every size, once, before anything is timed. */
static int verify_all(const struct calib_plan *plan, struct calib_bufs *b)
{
	size_t i, j;
	long bad;

	for (i = 0; i < plan->nr_impls; i++) {
		for (j = 0; j < plan->sizes.n; j++) {
			asmref_prepare(plan->impls[i]); /* a variant's knob, a glibc row's */
			if (!calib_verify(plan->impls[i], b, plan->sizes.v[j], &bad))
				continue;
			p_err("%s wrote wrong bytes for a %llu-byte call (first at offset %ld of "
			      "the destination): not timing it",
			      plan->impls[i]->name, (unsigned long long)plan->sizes.v[j], bad);
			return -EIO;
		}
	}
	p_debug("checked %zu implementation(s) at %zu size(s): bytes correct", plan->nr_impls,
		plan->sizes.n);
	return 0;
}

/* A line per run when stderr is not a terminal (a terminal has the progress bar). */
static void status(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	if (isatty(STDERR_FILENO))
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	p_info("%s", buf);
}

/* Median over runs, its 95% interval, and spread = (max - min) / median. */
static int add_point(struct costmodel_curve *c, uint64_t size, const struct calib_runs *rs,
		     size_t k, const struct calib_timer *t)
{
	struct costmodel_point p = { .size = size, .runs = rs->n[k] };
	double to_ns = 1e9 / t->tsc_hz, med, lo = INFINITY, hi = -INFINITY;
	const double *v = &rs->ticks[k * (size_t)rs->max];
	int r;

	med = calib_runs_median(rs, k);
	for (r = 0; r < rs->n[k]; r++) {
		lo = v[r] < lo ? v[r] : lo;
		hi = v[r] > hi ? v[r] : hi;
	}
	p.cycles = med;
	p.ns = med * to_ns;
	p.ns_min = lo * to_ns;
	p.ns_max = hi * to_ns;
	p.spread = med > 0 ? (hi - lo) / med : 0;
	p.ci = rs->n[k] > 1 ? calib_median_ci(v, (size_t)rs->n[k]) * to_ns : 0;
	return costmodel_curve_add_point(c, &p);
}

/*
 * One pass: a run of every point in @want (all if NULL), on new buffers (new before old is
 * freed, so that the old pages are not handed back: a flushed line comes back from DRAM as fast
 * as its physical page allows, so the median over runs is also a median over pages). Every
 * curve is measured at one size before the next size, so that the implementations compared are
 * measured close together in time.
 */
static int measure_pass(const struct calib_plan *plan, const struct calib_timer *t,
			struct calib_bufs *b, const struct job *jobs, size_t nr_jobs,
			struct calib_runs *rs, const bool *want, const struct calib_sampling *s,
			const char *label, bool fresh)
{
	size_t nr_sizes = plan->sizes.n, i, j, todo = 0, done = 0;
	struct progress bar;
	char what[128];
	int err = 0;

	if (fresh) {
		struct calib_bufs old = *b;

		err = calib_bufs_alloc(b, plan->sizes.v[nr_sizes - 1], plan->align_dst,
				       plan->align_src);
		calib_bufs_free(&old);
		if (err)
			return err;
	}
	for (i = 0; i < rs->nr_points; i++)
		todo += !want || want[i];
	progress_start(&bar, todo);
	for (j = 0; j < nr_sizes && !err; j++) {
		for (i = 0; i < nr_jobs && !err; i++) {
			size_t k = i * nr_sizes + j;

			if ((want && !want[k]) || rs->n[k] >= rs->max)
				continue;
			snprintf(what, sizeof(what), "%s  %s %s %llu B", label, jobs[i].impl->name,
				 costmodel_cache_name(jobs[i].curve->cache),
				 (unsigned long long)plan->sizes.v[j]);
			progress_update(&bar, done++, what);
			err = calib_measure(t, jobs[i].impl, jobs[i].curve->cache, b,
					    plan->sizes.v[j], s,
					    &rs->ticks[k * (size_t)rs->max + (size_t)rs->n[k]]);
			if (!err)
				rs->n[k]++;
		}
	}
	progress_end(&bar);
	return err;
}

/* What the judging asks of the session: the points in @want measured again, @runs times. */
struct again_ctx {
	const struct calib_plan *plan;
	const struct calib_timer *t;
	struct calib_bufs *b;
	const struct job *jobs;
	size_t nr_jobs;
	struct calib_runs *rs;
	const struct calib_sampling *s;
};

static int measure_again(void *ctx, const bool *want, int runs)
{
	struct again_ctx *a = ctx;
	char label[64];
	int r, err = 0;

	for (r = 0; r < runs && !err; r++) {
		snprintf(label, sizeof(label), "again %d/%d", r + 1, runs);
		err = measure_pass(a->plan, a->t, a->b, a->jobs, a->nr_jobs, a->rs, want, a->s,
				   label, true);
	}
	return err;
}

static int measure_limits(void *ctx, struct costmodel_limits *lim)
{
	struct again_ctx *a = ctx;

	return calib_ceiling_measure(a->t, a->s->batch_ticks, lim);
}

/* The judging's view of every curve: its name, cache state, and whether it copies. */
static int judge(const struct calib_plan *plan, const struct calib_timer *t, struct calib_bufs *b,
		 const struct job *jobs, size_t nr_jobs, struct calib_runs *rs,
		 const struct calib_sampling *s, struct costmodel_limits *lim)
{
	struct calib_judge_curve *c = calloc(nr_jobs ? nr_jobs : 1, sizeof(*c));
	struct again_ctx a = { plan, t, b, jobs, nr_jobs, rs, s };
	struct calib_judge j = {
		.rs = rs,
		.sizes = plan->sizes.v,
		.runs = plan->runs,
		.target_ci = CALIB_TARGET_CI,
		.t = t,
		.measure_limits = measure_limits,
		.measure_again = measure_again,
		.ctx = &a,
	};
	size_t i;
	int err;

	if (!c)
		return -ENOMEM;
	for (i = 0; i < nr_jobs; i++)
		c[i] = (struct calib_judge_curve){
			.name = jobs[i].impl->name,
			.cache = jobs[i].curve->cache,
			.copies = calib_cache_applies(jobs[i].impl, COSTMODEL_SRC_FLUSHED),
		};
	j.curves = c;
	err = calib_judge_points(&j, lim);
	free(c);
	return err;
}

/* Points whose interval is still wider than the target, and the run count allows more. */
static size_t wide_points(const struct calib_runs *rs, bool *want)
{
	size_t k, n = 0;

	for (k = 0; k < rs->nr_points; k++) {
		want[k] = rs->n[k] < rs->max && calib_runs_rel_ci(rs, k) > CALIB_TARGET_CI;
		n += want[k];
	}
	return n;
}

/* The budget ran out (or the runs): which points are noisy, what was seen, what to do. */
static void report_noisy(const struct calib_plan *plan, const struct job *jobs,
			 const struct calib_runs *rs, const struct calib_noise *noise)
{
	size_t k, n = 0, o = 0;
	char list[512], seen[320];

	list[0] = '\0';
	for (k = 0; k < rs->nr_points; k++) {
		double ci = calib_runs_rel_ci(rs, k);

		if (!(ci > CALIB_TARGET_CI))
			continue;
		if (n++ < 4 && o < sizeof(list))
			o += (size_t)snprintf(
				list + o, sizeof(list) - o, "%s%s %s %llu B ±%.1f%%",
				n > 1 ? ", " : "", jobs[k / rs->nr_sizes].impl->name,
				costmodel_cache_name(jobs[k / rs->nr_sizes].curve->cache),
				(unsigned long long)plan->sizes.v[k % rs->nr_sizes], 100 * ci);
	}
	if (!n)
		return;
	calib_noise_describe(noise, seen, sizeof(seen));
	p_warn("%zu of %zu points are still noisier than ±%.0f%% (95%% interval) after the "
	       "budget of %.0f s or %d runs: %s%s. Seen meanwhile: %s. To do: pin to an idle CPU "
	       "whose SMT sibling is idle too (--cpu N; isolcpus=), set the performance governor "
	       "(cpupower frequency-set -g performance), stop other work, or give more --runs or "
	       "--budget. estimate's intervals carry this noise.",
	       n, rs->nr_points, 100 * CALIB_TARGET_CI, plan->budget_s, rs->max, list,
	       n > 4 ? ", ..." : "", seen);
}

/*
 * @plan->runs runs of every point, then runs of the points whose interval is still wide, until
 * none is, @plan->max_runs or the budget; then this machine's limits and the judging
 * (calib_judge_points()), which fills @lim.
 */
static int measure_all(const struct calib_plan *plan, const struct calib_timer *t,
		       struct calib_bufs *b, struct job *jobs, size_t nr_jobs,
		       struct calib_runs *rs, struct calib_noise *noise,
		       struct costmodel_limits *lim)
{
	struct calib_sampling s = plan->quick ? sampling_quick : sampling_full;
	bool *want = calloc(rs->nr_points, sizeof(*want));
	double t0 = monotime_s();
	char label[64];
	size_t left;
	int r, pass = 0, err = 0;

	if (!want)
		return -ENOMEM;
	s.batch_ticks = (plan->quick ? BATCH_NS_QUICK : BATCH_NS_FULL) * t->tsc_hz / 1e9;
	/* The limits before the points too: the best over the session's moments is kept. */
	err = calib_ceiling_measure(t, s.batch_ticks, lim);
	for (r = 0; r < plan->runs && !err; r++, pass++) {
		snprintf(label, sizeof(label), "run %d/%d", r + 1, plan->runs);
		err = measure_pass(plan, t, b, jobs, nr_jobs, rs, NULL, &s, label, r > 0);
		calib_noise_sample(noise);
		if (!err)
			status("calibrate: run %d/%d of %zu points done, %.1f s", r + 1, plan->runs,
			       rs->nr_points, monotime_s() - t0);
	}
	while (!err && (left = wide_points(rs, want)) && monotime_s() - t0 < plan->budget_s) {
		snprintf(label, sizeof(label), "extra run %d (%zu points)", ++pass - plan->runs,
			 left);
		err = measure_pass(plan, t, b, jobs, nr_jobs, rs, want, &s, label, true);
		calib_noise_sample(noise);
		if (!err)
			status("calibrate: extra run %d: %zu point(s) wider than ±%.0f%%, %.1f s",
			       pass - plan->runs, left, 100 * CALIB_TARGET_CI, monotime_s() - t0);
	}
	if (!err)
		report_noisy(plan, jobs, rs, noise);
	if (!err)
		err = judge(plan, t, b, jobs, nr_jobs, rs, &s, lim);
	free(want);
	return err;
}

static void report_spread(const struct costmodel *m, double secs)
{
	const struct costmodel_curve *worst_c = NULL;
	const struct costmodel_point *worst = NULL;
	double *rel;
	size_t i, j, n = 0, big = 0, within = 0, total = 0;

	for (i = 0; i < m->nr_curves; i++)
		total += m->curves[i].nr_points;
	rel = malloc((total ? total : 1) * sizeof(*rel));
	if (!rel)
		return;
	for (i = 0; i < m->nr_curves; i++)
		for (j = 0; j < m->curves[i].nr_points; j++) {
			const struct costmodel_point *p = &m->curves[i].points[j];
			double r = p->ns > 0 ? p->ci / p->ns : 0;

			within += r <= CALIB_TARGET_CI;
			if (p->size >= 256) {
				rel[n++] = p->spread;
				big++;
			}
			if (!worst || r > worst->ci / (worst->ns > 0 ? worst->ns : 1)) {
				worst = p;
				worst_c = &m->curves[i];
			}
		}
	if (worst)
		p_info("measured %zu curve(s) x %zu size(s) in %.1f s; 95%% interval of each point "
		       "(median over its runs): %zu of %zu within ±%.0f%%, widest ±%.1f%% (%s, "
		       "%s, %llu B, %d runs); spread between runs (max - min over median) at "
		       ">= 256 B: median %.1f%%",
		       m->nr_curves, m->curves[0].nr_points, secs, within, total,
		       100 * CALIB_TARGET_CI, worst->ns > 0 ? 100 * worst->ci / worst->ns : 0,
		       worst_c->name, costmodel_cache_name(worst_c->cache),
		       (unsigned long long)worst->size, worst->runs,
		       big ? 100 * median_sorted(rel, n) : 0);
	free(rel);
}

int calib_session_run(const struct calib_plan *plan, struct costmodel **out)
{
	struct costmodel *m = costmodel_new();
	struct calib_bufs bufs = { 0 };
	struct calib_timer timer;
	struct job *jobs = NULL;
	size_t nr_jobs = 0, i, j;
	struct calib_runs rs = { 0 };
	struct calib_noise noise;
	double t0 = monotime_s();
	int err, cpu = plan->cpu;

	if (!m)
		return -ENOMEM;
	if (cpu < 0)
		cpu = sched_getcpu();
	err = calib_pin_cpu(cpu);
	if (err)
		goto cleanup;
	fill_meta(m, plan);
	m->cpu = cpu;
	err = calib_timer_init(&timer, plan->quick ? 20 : 50);
	if (err)
		goto cleanup;
	m->timer = strdup(calib_timer_name(&timer));
	m->tsc_hz = timer.tsc_hz;
	m->timer_overhead_cycles = timer.overhead;
	m->timer_step_cycles = timer.quantum;
	err = make_jobs(plan, m, &jobs, &nr_jobs);
	if (err)
		goto cleanup;
	if (!nr_jobs) {
		p_err("nothing to measure: no chosen implementation applies to the chosen cache "
		      "state(s)");
		err = -EINVAL;
		goto cleanup;
	}
	err = calib_bufs_alloc(&bufs, plan->sizes.v[plan->sizes.n - 1], plan->align_dst,
			       plan->align_src);
	if (err)
		goto cleanup;
	asmref_set_threshold(plan->threshold);
	err = verify_all(plan, &bufs);
	if (err)
		goto cleanup;
	rs.max = plan->max_runs > plan->runs ? plan->max_runs : plan->runs;
	rs.nr_sizes = plan->sizes.n;
	rs.nr_points = nr_jobs * plan->sizes.n;
	rs.ticks = calloc(rs.nr_points * (size_t)rs.max, sizeof(*rs.ticks));
	rs.n = calloc(rs.nr_points, sizeof(*rs.n));
	if (!rs.ticks || !rs.n) {
		err = -ENOMEM;
		goto cleanup;
	}
	calib_noise_start(&noise, cpu);
	err = measure_all(plan, &timer, &bufs, jobs, nr_jobs, &rs, &noise, &m->limits);
	if (err)
		goto cleanup;
	{
		char limits[192];

		p_info("limits this machine measured: %s",
		       costmodel_limits_describe(&m->limits, limits, sizeof(limits)));
	}
	for (i = 0; i < nr_jobs && !err; i++)
		for (j = 0; j < plan->sizes.n && !err; j++)
			err = add_point(jobs[i].curve, plan->sizes.v[j], &rs, i * plan->sizes.n + j,
					&timer);
	m->meta.duration_s = monotime_s() - t0;
	report_spread(m, m->meta.duration_s);
cleanup:
	if (stop_requested())
		err = -EINTR;
	free(rs.ticks);
	free(rs.n);
	free(jobs);
	calib_bufs_free(&bufs);
	if (err) {
		costmodel_free(m);
		return err;
	}
	*out = m;
	return 0;
}
