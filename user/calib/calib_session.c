// SPDX-License-Identifier: GPL-2.0
/* calib_session.c: a whole calibration: pinning, checks, interleaved runs, medians and spread */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "calib_measure.h"
#include "calib_session.h"
#include "calib_stats.h"
#include "calib_timer.h"
#include "lib/log.h"
#include "lib/monotime.h"
#include "lib/progress.h"
#include "lib/stop.h"
#include "lib/host.h"

/* Per measurement: how many timed samples, and how long one warm batch should last. */
static const struct calib_sampling sampling_full = { .samples = 21, .flushed_samples = 151 };
static const struct calib_sampling sampling_quick = { .samples = 15, .flushed_samples = 101 };
#define BATCH_NS_FULL 5000.0
#define BATCH_NS_QUICK 3000.0

struct job {
	struct costmodel_curve *curve;
	const struct asmref_impl *impl;
};

static char *online_cpus(void)
{
	static char buf[256];
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");

	strcpy(buf, "?");
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
	return buf;
}

static int pin_cpu(int cpu)
{
	cpu_set_t set;

	if (cpu >= CPU_SETSIZE) {
		p_err("cannot pin to CPU %d: this machine's CPUs are %s", cpu, online_cpus());
		return -EINVAL;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		int err = -errno;

		p_err("cannot pin to CPU %d: %s (this machine's CPUs are %s, and the ones this "
		      "process may use are set by taskset/cgroups)",
		      cpu, strerror(errno), online_cpus());
		return err;
	}
	return 0;
}

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

/* Median over runs, and spread = (max - min) / median. @v is sorted in place. */
static int add_point(struct costmodel_curve *c, uint64_t size, double *v, int runs,
		     const struct calib_timer *t)
{
	struct costmodel_point p = { .size = size };
	double to_ns = 1e9 / t->tsc_hz, med;

	med = calib_median(v, runs);
	p.cycles = med;
	p.ns = med * to_ns;
	p.ns_min = v[0] * to_ns;
	p.ns_max = v[runs - 1] * to_ns;
	p.spread = med > 0 ? (v[runs - 1] - v[0]) / med : 0;
	return costmodel_curve_add_point(c, &p);
}

/*
 * Runs are the outer loop, so each point's runs are spread over the whole calibration rather
 * than taken back to back, and each run gets buffers of its own: a flushed line comes back from
 * DRAM, and how fast depends on the physical pages behind the buffers, so the median over runs
 * is also a median over pages. Within a run, every curve is measured at one size before the
 * next size, so that the implementations being compared are measured close together in time.
 */
static int measure_all(const struct calib_plan *plan, const struct calib_timer *t,
		       struct calib_bufs *b, struct job *jobs, size_t nr_jobs, double *ticks)
{
	struct calib_sampling s = plan->quick ? sampling_quick : sampling_full;
	size_t nr_sizes = plan->sizes.n, done = 0, i, j;
	struct progress bar;
	char what[96];
	int r, err = 0;

	s.batch_ticks = (plan->quick ? BATCH_NS_QUICK : BATCH_NS_FULL) * t->tsc_hz / 1e9;
	progress_start(&bar, (size_t)plan->runs * nr_sizes * nr_jobs);
	for (r = 0; r < plan->runs && !err; r++) {
		if (r) {
			/* New before old is freed, so that the old pages are not handed back. */
			struct calib_bufs old = *b;

			err = calib_bufs_alloc(b, plan->sizes.v[nr_sizes - 1], plan->align_dst,
					       plan->align_src);
			calib_bufs_free(&old);
		}
		for (j = 0; j < nr_sizes && !err; j++) {
			for (i = 0; i < nr_jobs && !err; i++) {
				snprintf(what, sizeof(what), "run %d/%d  %s %s %llu B", r + 1,
					 plan->runs, jobs[i].impl->name,
					 costmodel_cache_name(jobs[i].curve->cache),
					 (unsigned long long)plan->sizes.v[j]);
				progress_update(&bar, done++, what);
				err = calib_measure(t, jobs[i].impl, jobs[i].curve->cache, b,
						    plan->sizes.v[j], &s,
						    &ticks[(i * nr_sizes + j) * plan->runs + r]);
			}
		}
	}
	progress_end(&bar);
	return err;
}

static void report_spread(const struct costmodel *m, double secs)
{
	const struct costmodel_curve *worst_c = NULL;
	const struct costmodel_point *worst = NULL;
	size_t i, j, n = 0;
	double sum = 0;

	for (i = 0; i < m->nr_curves; i++)
		for (j = 0; j < m->curves[i].nr_points; j++) {
			const struct costmodel_point *p = &m->curves[i].points[j];

			sum += p->spread;
			n++;
			if (!worst || p->spread > worst->spread) {
				worst = p;
				worst_c = &m->curves[i];
			}
		}
	if (!worst)
		return;
	p_info("measured %zu curve(s) x %zu size(s), %d run(s) each, in %.1f s; spread between "
	       "runs: mean %.1f%%, largest %.1f%% (%s, %s, %llu B)",
	       m->nr_curves, m->curves[0].nr_points, m->runs, secs, 100 * sum / (double)n,
	       100 * worst->spread, worst_c->name, costmodel_cache_name(worst_c->cache),
	       (unsigned long long)worst->size);
}

int calib_session_run(const struct calib_plan *plan, struct costmodel **out)
{
	struct costmodel *m = costmodel_new();
	struct calib_bufs bufs = { 0 };
	struct calib_timer timer;
	struct job *jobs = NULL;
	size_t nr_jobs = 0, i, j;
	double *ticks = NULL, t0 = monotime_s();
	int err, cpu = plan->cpu;

	if (!m)
		return -ENOMEM;
	if (cpu < 0)
		cpu = sched_getcpu();
	err = pin_cpu(cpu);
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
	ticks = calloc(nr_jobs * plan->sizes.n * plan->runs, sizeof(*ticks));
	if (!ticks) {
		err = -ENOMEM;
		goto cleanup;
	}
	err = measure_all(plan, &timer, &bufs, jobs, nr_jobs, ticks);
	if (err)
		goto cleanup;
	for (i = 0; i < nr_jobs && !err; i++)
		for (j = 0; j < plan->sizes.n && !err; j++)
			err = add_point(jobs[i].curve, plan->sizes.v[j],
					&ticks[(i * plan->sizes.n + j) * plan->runs], plan->runs,
					&timer);
	m->meta.duration_s = monotime_s() - t0;
	report_spread(m, m->meta.duration_s);
cleanup:
	if (stop_requested())
		err = -EINTR;
	free(ticks);
	free(jobs);
	calib_bufs_free(&bufs);
	if (err) {
		costmodel_free(m);
		return err;
	}
	*out = m;
	return 0;
}
