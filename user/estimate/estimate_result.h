/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_result.h: one family's estimate: a row per policy, the best T, per-site rows */
#ifndef CP_ESTIMATE_RESULT_H
#define CP_ESTIMATE_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/hist.h"
#include "estimate_family.h"
#include "estimate_today.h"
#include "costmodel/mixmeas.h"
#include "estimate_policy.h"

struct order_run; /* profile/profile_order.h */

struct est_exact;
struct est_site;

/* Thresholds whose total is within this fraction of the best one count as "as good". */
#define EST_FLAT_FRACTION 0.01

/* One policy's estimate over an input. */
struct est_row {
	struct est_policy pol;
	double total_ns; /* over every call of the input */
	double ns_per_call;
	double delta_ns;  /* total_ns minus today's */
	double delta_pct; /* 100 * delta_ns / today's total */
	double ci_low;	  /* 95% interval of delta_pct (percentage points) */
	double ci_high;
	double bound_ns;  /* bound on the error of costing each bucket at its mean length */
	double var_count; /* variance of delta_pct / 100 from counting (Poisson) */
	double var_calib; /* ... and from the calibration spread */
	/*
	 * delta_pct and its interval are the answer: the paired measurement's (quiet rounds) when
	 * the cost model holds one for this mix and this row (@measured), else the model's. The
	 * model's own figures are kept here either way, to show it and its bias.
	 */
	bool measured;
	/*
	 * ci_low .. ci_high is an interval: measured, or modelled from counting and the curves'
	 * noise. False: a modelled row with nothing to give one (no counts, and curves that carry
	 * no noise, as published figures): its figure stands alone, never as "a .. a".
	 */
	bool ci_known;
	double model_pct, model_ci_low, model_ci_high;
	double busy_pct; /* measured on a contended core; NAN if not (or too few rounds) */
};

/*
 * A site's share of the estimate, modelled: its total under every policy (@ns, one per row),
 * and under the row the per-site table shows (@at_ns, the result's @at: est_family_choose_best()
 * sets both, so that the figures follow the threshold the heading names).
 */
struct est_site_row {
	const struct est_site *site;
	double calls, today_ns, at_ns;
	const double *ns; /* nr_rows totals, in the result's @site_ns */
	/*
	 * The paired measurement of this site's own mix (calibrate --mix, the hottest sites; the
	 * whole mix's when the family has this one site), borrowed from the cost model or
	 * @pooled; NULL: not measured, and the row has no verdict (est_site_measured()).
	 */
	const struct mixmeas *meas;
	struct mixmeas *pooled; /* owned: its sittings pooled */
};

/* A site's own measured figure at the per-site table's row, and what it says. */
enum est_site_verdict { EST_SITE_NOT_MEASURED, EST_SITE_SAVES, EST_SITE_COSTS, EST_SITE_SAME };

struct est_site_measured {
	enum est_site_verdict verdict;
	struct mixmeas_figure fig; /* quiet rounds, percent of today's time */
	const struct mixmeas *meas;
};

/*
 * One condition (cache state, working set per side) the mix was measured in, and what its own
 * figures read there (estimate_matrix.h): a matrix's verdict holds only where every cell's does.
 */
#define EST_MAX_CELLS 4
struct est_cell {
	const struct mixmeas *meas; /* its one sitting, or @pooled */
	struct mixmeas *pooled;	    /* owned: its sittings pooled (mixmeas_pool()) */
	int kind;		    /* enum est_verdict_kind of this condition's figures alone */
	struct policy_key best;	    /* its cheapest policy (POLICY_TODAY: today's code) */
};

struct est_family_result {
	enum copy_family family;
	const struct est_family_impls *impls; /* the policy set: the kernel's or glibc's */
	/* glibc's policy set: the threshold the process ran with (meta.glibc, or assumed), and
	 * glibc's default; thresholds of --thresholds glibc would ignore */
	uint64_t today_knob, knob_default, knob_min, knob_max;
	bool today_knob_known, knob_strict_min;
	struct est_glibc_today glibc; /* glibc's: its version, and where today's came from */
	size_t refused_thresholds;
	const char *today_impl;
	struct est_today_src today_src; /* where today_impl came from */
	char today_why[256];
	bool today_approx, today_guessed;
	bool dispatch_measured; /* the dispatch cost came from a measured replica */
	bool dispatch_lo_measured, dispatch_hi_measured; /* ... below T, from T */
	double dispatch_lo_ns, dispatch_hi_ns;		 /* the cost a threshold adds (cache mix) */
	/* a negative measured difference, within the runs' spread, taken as 0; and its value */
	bool dispatch_clamped;
	double dispatch_lo_raw_ns, dispatch_hi_raw_ns;
	struct est_row *rows; /* rows[0] is today */
	size_t nr_rows;
	int best;		   /* the best threshold row */
	int oracle;		   /* the oracle row */
	int at;			   /* the row of the per-site breakdown */
	uint64_t flat_lo, flat_hi; /* thresholds within EST_FLAT_FRACTION of the best */
	double calls;		   /* calls (converted from samples for time-weighted sites) */
	double samples;		   /* time-weighted sites' samples */
	double share;		   /* today's share of recorded CPU time, -1 if unknown */
	double beyond_calls;	   /* calls longer than the cost model's largest measured size */
	bool split_buckets;	   /* a threshold fell inside a bucket (costed by assumption) */
	struct est_site_row *sites;
	size_t nr_sites;
	double *site_ns;	 /* nr_sites x nr_rows: each site's total under each policy */
	double *bucket_calls;	 /* CP_NBUCKETS: calls per bucket over the family's sites ... */
	double *bucket_bytes;	 /* ... and their lengths: what --validate replays */
	struct est_exact *exact; /* calls at exact lengths within those buckets, ascending ... */
	size_t nr_exact;	 /* ... (estimate_exact.h): drawn as themselves */
	/* The family's recorded runs of consecutive lengths over its sites (each site's in turn,
	 * at most EST_MAX_ORDER_RUNS): the replay's calls in that order; none: drawn independently */
	struct order_run *order_runs;
	size_t nr_order_runs;
	char digest[17]; /* of the recorded mix (est_mix_digest()) */
	/* The recorded pointer distances, calls per class (enum cp_dist_class) over the family's
	 * sites; dist_recorded false: none recorded (the modelled costs are at distance 0). */
	bool dist_recorded;
	double dist_calls[CP_NR_DIST];
	/* The model's distance axis (calibrate --distance) on them: whether the modelled figures
	 * cost the classes at their own curves, and today's code's calls in the two windows and
	 * what the windows add to their modelled cost, percent (NAN: no curves for it) */
	bool dist_modelled;
	double dist_window_calls, dist_window_pct;
	/* The paired measurement the answer comes from (borrowed from the cost model), or NULL
	 * and why not: then every figure is modelled. */
	const struct mixmeas *meas;
	struct mixmeas *pooled; /* owned: several sittings pooled (mixmeas_pool()), meas is it */
	/* Every condition the mix was measured in; @meas is cells[shown]'s, the rows its figures */
	struct est_cell cells[EST_MAX_CELLS];
	size_t nr_cells, shown;
	/* The recorded footprint, bytes a side (estimate_footprint.h; 0: none), the cost model's
	 * L2 it is judged against, and the cell it chose (-1: none; after the collapse, 0) */
	uint64_t footprint_bytes, footprint_l2;
	int footprint_cell;
	char meas_why[640];
	size_t unmeasured; /* rows (not the oracle) the measurement lacks: modelled only */
	/*
	 * Without a measurement there is no verdict (docs/estimate.md#the-verdict), only what
	 * measures one: the model's CPU, whether its curves are published figures (no command
	 * here can measure that CPU), the command that measures this mix, and whether the model
	 * already stores a measurement of it (--model-only set it aside).
	 */
	const char *model_cpu;
	bool model_published, meas_stored;
	char measure_cmd[400];
	bool curves_noisy; /* a point the estimate costs with carries a recorded spread */
	/* A sampled family's verdict under the other cache state (warm <-> dst-flushed), modelled,
	 * when it differs: which state the copies find decides the answer (empty: it does not) */
	char cache_note[768];
	/* --validate: an independent paired measurement (new seed and buffers), per row (NAN:
	 * not replayed), and its noise: the larger of its A/A control's offset and half-interval */
	double *validate_pct, *validate_lo, *validate_hi;
	double noise_floor_pct;
	/* today's code's time per call in the replay against the measurement's, percent (NAN:
	 * none stored): beyond EST_VALIDATE_STATE_PCT the two ran in other states of the machine */
	double validate_state_pct;
	const struct mixmeas *validation; /* its conditions (owned by the caller) */
};

/* EST_VALIDATE_STATE_PCT: costmodel/protocol.h, with the retry rule it belongs to. */

void est_family_result_free(struct est_family_result *r);
/* The rows that run code other than today's row itself: every one but today and the oracle. */
size_t est_family_timed_policies(const struct est_family_result *r);
/*
 * Whether row @w differs from today's code: its whole interval below (saves) or above (costs)
 * 0 and, where measured, the measurement's A/A control's interval; else neither (the noise).
 */
bool est_row_saves(const struct est_family_result *r, const struct est_row *w);
/* A row that runs today's very code on this mix ("always" where today is the string op): exactly 0. */
bool est_row_runs_today(const struct est_row *w);
bool est_row_costs(const struct est_family_result *r, const struct est_row *w);
/*
 * Site @s's own measured figure at @r->at (the row the per-site table names), and its verdict
 * by est_row_saves()'s rule against its own A/A control: saves, costs, or no difference when
 * the interval reaches 0. EST_SITE_NOT_MEASURED when the site has no measurement, or none of
 * that row (then no figure and no verdict). The whole mix's answer never stands in for it.
 */
struct est_site_measured est_site_measured(const struct est_family_result *r,
					   const struct est_site_row *s);
/* "saves", "costs", "no difference", "not measured". */
const char *est_site_verdict_name(enum est_site_verdict v);

#endif
