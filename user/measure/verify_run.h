/* SPDX-License-Identifier: GPL-2.0 */
/* verify_run.h: a command run with and without a setting, interleaved, its CPU time compared */
#ifndef CP_VERIFY_RUN_H
#define CP_VERIFY_RUN_H

#include <stdbool.h>
#include <stddef.h>

/* The fewest pairs an interval is given from (and the default and least of --pairs' cap). */
#define VERIFY_MIN_PAIRS 8
#define VERIFY_DEFAULT_PAIRS 60
#define VERIFY_DEFAULT_SECONDS 120.0
#define VERIFY_DEFAULT_WIDTH 2.0 /* percentage points: the interval's whole width */
/* What stands for an unset GLIBC_TUNABLES, and the pad that evens the two environments' sizes. */
#define VERIFY_UNSET_VAR "COPYPROF_VERIFY_UNSET"
#define VERIFY_PAD_VAR "COPYPROF_VERIFY_PAD"

struct verify_opts {
	char *const *argv;	/* the command */
	const char *tunables_a; /* GLIBC_TUNABLES of run A (today): NULL leaves it unset */
	const char *tunables_b; /* ... and of run B (with the threshold) */
	bool keep_output;	/* the command's stdout and stderr to copyprof's stderr */
	size_t max_pairs;	/* at least VERIFY_MIN_PAIRS */
	double max_seconds;	/* no new pair after this long (once VERIFY_MIN_PAIRS are done) */
	double target_width;	/* stop once the interval is at most this wide (points) */
	bool progress;		/* a line on stderr per pair */
	/* Called before (true) and after (false) each counted run A, or NULL: verify_share.h. */
	void (*around_a)(void *ctx, bool before);
	void *around_ctx;
};

struct verify_result {
	size_t pairs;
	double *cpu_a, *cpu_b; /* per pair: each run's CPU time (user + system, its whole tree) */
	double *wall_a, *wall_b;
	/* B against A: the median of the per-pair ratios and its 95% bootstrap interval, percent */
	double pct, lo, hi;
	double wall_pct, wall_lo, wall_hi;
	double cpu_a_median, cpu_b_median; /* seconds */
	const char *stopped_by;		   /* "interval width", "--pairs", "--max-seconds" */
	double seconds;			   /* the whole measurement, warm-ups included */
};

/*
 * Runs the command once as A and once as B to warm up (not counted), then pairs in the order
 * ABBA (pair i: A then B for even i, B then A for odd i: a drift of the machine falls on both
 * alike), each run's CPU time from wait4()'s rusage and its wall time; after VERIFY_MIN_PAIRS,
 * stops at the first of: the interval no wider than @o->target_width, @o->max_pairs pairs,
 * @o->max_seconds. stdin is /dev/null. Both sides' environments are copyprof's without
 * GLIBC_TUNABLES, then the side's GLIBC_TUNABLES (VERIFY_UNSET_VAR= when unset) and
 * VERIFY_PAD_VAR=xx..., so that both have as many entries and bytes. Returns 0; -ECHILD when a run failed (a non-zero exit,
 * a signal, no exec: said, with which run); -ENOMEM. verify_result_free() either way.
 */
int verify_run(const struct verify_opts *o, struct verify_result *r);
void verify_result_free(struct verify_result *r);

/*
 * The change of B against A from @n pairs of @a and @b: the median of the per-pair ratios b/a
 * and its 95% percentile-bootstrap interval (measure/paired_stats.h, one seed: the same runs
 * give the same interval), as percent. A time of 0 (below wait4's microsecond) counts as 1 us.
 * 0 or -ENOMEM.
 */
int verify_change(const double *a, const double *b, size_t n, double *pct, double *lo, double *hi);

/*
 * Whether a predicted change (@p_lo .. @p_hi; a figure without an interval: lo = hi) and the
 * measured one (@m_lo .. @m_hi) agree: their 95% intervals overlap (docs/estimate.md#verify).
 */
bool verify_agree(double p_lo, double p_hi, double m_lo, double m_hi);

#endif
