// SPDX-License-Identifier: GPL-2.0
/* paired.c: a family's own mix timed under every policy against today's code, round by round */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lib/median.h"
#include "measure_retry.h"
#include "calib_measure.h"
#include "lib/log.h"
#include "paired.h"
#include "replay_order.h"
#include "paired_figure.h"
#include "paired_plan.h"
#include "paired_rounds.h"
#include "paired_settled.h"
#include "paired_stats.h"
#include "replay_mix.h"
#include "replay_regions.h"
#include "replay_rng.h"

/* Every path's replicas copy the right bytes, on lengths drawn from the mix and its ends. */
static int verify_paths(const struct paired_plan *pl, const struct replay_mix *mx, uint64_t seed)
{
	struct calib_bufs b;
	uint64_t s = seed | 1;
	size_t i, j;
	int err;

	err = calib_bufs_alloc(&b, mx->max_len ? mx->max_len : 1, 0, 0);
	if (err)
		return err;
	for (i = 0; i < pl->nr_paths && !err; i++) {
		const struct paired_path *p = &pl->paths[i];

		paired_path_use(p);
		for (j = 0; j < 64 && !err; j++) {
			struct replay_draw d;
			long bad;

			replay_mix_draw(mx, &s, &d);
			if (j == 0)
				d.n = mx->lo[0];
			if (j == 1)
				d.n = mx->max_len;
			if (calib_verify(d.n < p->t ? p->lo : p->hi, &b, d.n, &bad)) {
				p_err("replay: %s (%s) copied wrong bytes at length %llu (offset "
				      "%ld)",
				      p->name, (d.n < p->t ? p->lo : p->hi)->name,
				      (unsigned long long)d.n, bad);
				err = -EIO;
			}
		}
	}
	paired_path_reset();
	calib_bufs_free(&b);
	return err;
}

/* The quiet rounds' median ns per call of path @p. */
static double ns_per_call(const struct paired_run *run, const bool *quiet, size_t p)
{
	double *v = malloc((run->rounds ? run->rounds : 1) * sizeof(*v)), m;
	size_t r, n = 0;

	if (!v)
		return NAN;
	for (r = 0; r < run->rounds; r++)
		if (quiet[r])
			v[n++] = run->ticks[r * run->nr_paths + p];
	m = n ? median_select(v, n) * 1e9 / run->tsc_hz / (double)run->chunk : NAN;
	free(v);
	return m;
}

/* Rows' figures from the paths they run; today's is 0 by definition. */
static int fill_rows(const struct est_family_result *fr, const struct paired_plan *pl,
		     const struct paired_run *run, const bool *quiet, const bool *busy,
		     uint64_t seed, struct mixmeas *out)
{
	struct mixmeas_figure fq[PAIRED_MAX_PATHS], fb[PAIRED_MAX_PATHS];
	size_t i;
	int err = 0;

	for (i = 0; i < pl->nr_paths && !err; i++)
		err = paired_figure(run, quiet, i, pl->today, seed, &fq[i])
			      ?: paired_figure(run, busy, i, pl->today, seed, &fb[i]);
	if (err)
		return err;
	out->control = fq[pl->control];
	out->rows = calloc(fr->nr_rows, sizeof(*out->rows));
	if (!out->rows)
		return -ENOMEM;
	for (i = 0; i < fr->nr_rows; i++) {
		int p = pl->row_path[i];

		if (p < 0)
			continue; /* the oracle runs no code: not measured */
		out->rows[out->nr_rows].key = est_policy_key(&fr->rows[i].pol);
		snprintf(out->rows[out->nr_rows].name, sizeof(out->rows[0].name), "%s",
			 fr->rows[i].pol.name);
		out->rows[out->nr_rows].quiet = fq[p];
		out->rows[out->nr_rows].busy = fb[p];
		out->rows[out->nr_rows].ns_per_call = ns_per_call(run, quiet, (size_t)p);
		out->nr_rows++;
	}
	return 0;
}

/* What a same-code pair or the dispatch may not do: be off beyond noise and the tolerance. */
static bool impossible(const struct mixmeas_figure *f, bool only_below)
{
	double half = (f->ci_high - f->ci_low) / 2;
	double off = only_below ? -f->delta_pct : fabs(f->delta_pct);

	return isfinite(off) && off > PAIRED_IMPOSSIBLE_PCT && off > 2 * half &&
	       (only_below ? f->ci_high < 0 : f->ci_high < 0 || f->ci_low > 0);
}

/* Why the run's figures cannot be (printed), or 0. */
static int check(const struct paired_plan *pl, const struct paired_run *run, const bool *quiet,
		 uint64_t seed, const struct mixmeas *out, char *why, size_t len)
{
	struct mixmeas_figure d;
	int err;

	if (impossible(&out->control, false)) {
		snprintf(why, len,
			 "today's code timed twice in the same rounds differed by %+.2f%% (95%% CI "
			 "%+.2f .. %+.2f)",
			 out->control.delta_pct, out->control.ci_low, out->control.ci_high);
		return -EDOM;
	}
	if (pl->zero < 0 || pl->always < 0 || pl->zero == pl->always)
		return 0;
	err = paired_figure(run, quiet, (size_t)pl->zero, (size_t)pl->always, seed, &d);
	if (err)
		return err;
	if (impossible(&d, true)) {
		snprintf(
			why, len,
			"T=0 (the dispatch, then the string op) measured %+.2f%% (95%% CI %+.2f .. "
			"%+.2f) against the string op alone: a negative dispatch cost",
			d.delta_pct, d.ci_low, d.ci_high);
		return -EDOM;
	}
	return 0;
}

/* Seconds since the epoch: when a sitting ended, to tell sittings apart in time. */
static double wall_clock_s(void)
{
	struct timespec ts;

	return clock_gettime(CLOCK_REALTIME, &ts) ? 0 : (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Conditions and figures of one measurement into @out (strings and rows allocated). */
static int summarise(const struct est_family_result *fr, const struct paired_plan *pl,
		     const struct paired_run *run, const struct replay_mix *mx,
		     const struct paired_opts *o, uint64_t seed, struct mixmeas *out, char *why,
		     size_t len)
{
	bool *quiet = calloc(run->rounds + 1, sizeof(bool)), *busy = calloc(run->rounds + 1, 1);
	size_t r;
	int err;

	if (!quiet || !busy) {
		free(quiet);
		free(busy);
		return -ENOMEM;
	}
	out->quiet_rounds = paired_run_quiet_set(run, quiet);
	for (r = 0; r < run->rounds; r++)
		busy[r] = !quiet[r];
	out->rounds = run->rounds;
	out->busy_rounds = run->rounds - out->quiet_rounds;
	out->quiet_tolerance = paired_run_tolerance(run);
	out->family = strdup(est_family(fr->family)->name);
	out->today = strdup(fr->today_impl);
	out->cache = strdup(o->cache->label);
	out->alignment = strdup(mx->aligned_recorded ? "recorded" : "uniform");
	out->distance = strdup(mx->dist_recorded ? "recorded" : "not recorded");
	out->exact_pct = mx->calls > 0 ? 100 * mx->exact_calls / mx->calls : NAN;
	out->order_runs = mx->nr_runs;
	out->order_calls = replay_mix_order_calls(mx);
	out->ws_bytes = run->ws_bytes;
	out->cold_bytes = run->cold_bytes;
	out->batches = run->nr_batches;
	out->code_places = paired_run_placements(run);
	out->chunk_calls = run->chunk;
	out->warmup_calls = run->warmup;
	measure_protocol_current(&out->protocol);
	out->cpu = run->cpu;
	out->seed = seed;
	out->budget_s = o->budget_s;
	out->time_s = run->elapsed_s;
	out->same_code_gap_pct = NAN;
	out->when = wall_clock_s();
	out->first_when = out->when;
	out->sittings = 1;
	err = !out->family || !out->today || !out->cache || !out->alignment || !out->distance
		      ? -ENOMEM
		      : 0;
	if (!err)
		err = fill_rows(fr, pl, run, quiet, busy, seed, out);
	if (!err)
		err = check(pl, run, quiet, seed, out, why, len);
	if (!err || err == -EDOM)
		out->same_code_gap_pct = fabs(out->control.delta_pct);
	free(quiet);
	free(busy);
	return err;
}

/* The calls per round: PAIRED_CHUNK, fewer where a pass would copy more than PAIRED_CHUNK_BYTES. */
static size_t chunk_of(const struct replay_mix *mx, const struct paired_opts *o)
{
	double bytes = 0;
	size_t k, n;

	if (o->chunk_calls)
		return o->chunk_calls;
	for (k = 0; k < mx->nr; k++)
		bytes += (mx->cdf[k] - (k ? mx->cdf[k - 1] : 0)) * mx->mean[k];
	n = bytes > 0 ? (size_t)((double)PAIRED_CHUNK_BYTES / bytes) : PAIRED_CHUNK;
	return n < PAIRED_MIN_CHUNK ? PAIRED_MIN_CHUNK : n > PAIRED_CHUNK ? PAIRED_CHUNK : n;
}

/*
 * COPYPROF_PAIRED_DUMP=FILE: every round's reference and path ticks, one line each, for
 * looking at a measurement's rounds (bench/estimate_repeat.sh); a debugging aid only.
 */
static void dump_rounds(const struct paired_plan *pl, const struct paired_run *run)
{
	const char *path = getenv("COPYPROF_PAIRED_DUMP");
	size_t r, p;
	FILE *f;

	if (!path || !*path || !(f = fopen(path, "a")))
		return;
	fprintf(f, "# batch ref");
	for (p = 0; p < pl->nr_paths; p++)
		fprintf(f, " %s", pl->paths[p].name);
	fprintf(f, "\n");
	for (r = 0; r < run->rounds; r++) {
		fprintf(f, "%u %.0f", run->batch[r], run->ref[r]);
		for (p = 0; p < pl->nr_paths; p++)
			fprintf(f, " %.0f", run->ticks[r * run->nr_paths + p]);
		fprintf(f, "\n");
	}
	fclose(f);
}

static int measure_once(const struct est_family_result *fr, const struct paired_plan *pl,
			const struct replay_mix *mx, const struct paired_memory *mem,
			const struct paired_opts *o, double budget, uint64_t seed,
			struct mixmeas *out, char *why, size_t len)
{
	struct paired_run run;
	int err;

	memset(out, 0, sizeof(*out));
	err = paired_rounds_run(pl, mx, mem, chunk_of(mx, o), budget, seed, o->cpu, &run);
	if (!err) {
		dump_rounds(pl, &run);
		err = summarise(fr, pl, &run, mx, o, seed, out, why, len);
	}
	paired_run_free(&run);
	if (err && err != -EDOM)
		mixmeas_free(out);
	return err;
}

/* One paired measurement as the retry rule (measure_retry.h) takes it. */
struct paired_attempt {
	const struct est_family_result *fr;
	const struct paired_plan *pl;
	const struct replay_mix *mx;
	const struct paired_memory *mem;
	const struct paired_opts *o;
	struct mixmeas *out;
	int verdict;   /* the last measurement's: 0, or -EDOM (why says why) */
	char why[320]; /* why it is physically impossible */
};

/*
 * Measurement @attempt: the first with the options' seed and budget, each again with another
 * seed and MEASURE_RETRY_PAIRED_BUDGET times the budget before it.
 */
static int measure_attempt(void *ctx, int attempt)
{
	struct paired_attempt *a = ctx;
	double budget = a->o->budget_s;
	uint64_t seed = a->o->seed ^ (0x5851f42d4c957f2dULL * (uint64_t)attempt);
	int i, err;

	for (i = 0; i < attempt; i++)
		budget *= MEASURE_RETRY_PAIRED_BUDGET;
	if (attempt > 0)
		mixmeas_free(a->out);
	err = measure_once(a->fr, a->pl, a->mx, a->mem, a->o, budget, seed, a->out, a->why,
			   sizeof(a->why));
	a->verdict = err == -EDOM ? err : 0;
	return err == -EDOM ? 0 : err;
}

/* The measurement's own check (check(), in summarise()): an A/A control or dispatch off. */
static int judge_attempt(void *ctx, int attempt, bool last, char *why, size_t len)
{
	struct paired_attempt *a = ctx;

	(void)attempt;
	if (!a->verdict)
		return 0;
	if (last)
		snprintf(why, len,
			 "%s again: physically impossible, refused (is the machine changing "
			 "speed? try a longer --mix-budget or another --cpu)",
			 a->why);
	else
		snprintf(why, len, "%s", a->why);
	return -EDOM;
}

int paired_measure(const struct est_family_result *fr, const double *dst_align,
		   const double *src_align, const double *dist, const struct paired_opts *o,
		   struct mixmeas *out)
{
	const struct est_family_impls *fi = fr->impls ?: est_family(fr->family);
	struct paired_memory mem;
	struct replay_mix mx;
	struct paired_plan pl;
	char what[64];
	int err;

	err = replay_mix_init(&mx, fr->bucket_calls, fr->bucket_bytes, dst_align, src_align, dist,
			      fr->exact, fr->nr_exact, o->cache, fi->has_src);
	if (!err)
		err = replay_mix_set_order(&mx, fr->order_runs, fr->nr_order_runs);
	if (!err && mx.nr_runs && !replay_order_informative(&mx)) {
		p_info("replay: the %zu recorded runs of %s show no order (no context of lengths "
		       "repeats): drawn independently from the buckets",
		       mx.nr_runs, est_family(fr->family)->name);
		err = replay_mix_set_order(&mx, NULL, 0);
	}
	if (err == -ENOENT)
		p_err("replay: %s has no calls to replay", est_family(fr->family)->name);
	if (!err && mx.left_out)
		p_warn("replay: %zu %s bucket(s) above %llu bytes left out", mx.left_out,
		       est_family(fr->family)->name, REPLAY_MAX_SIZE);
	if (!err)
		err = paired_plan_make(fr, &mx, &pl);
	if (!err)
		err = verify_paths(&pl, &mx, o->seed);
	mem = (struct paired_memory){
		.ws_bytes = o->ws_bytes ?: replay_default_ws(),
		.cold_bytes = o->cold_bytes ?: replay_default_cold(),
		.max_len = mx.max_len,
		/* cumulative weights: warm, then src-flushed, then dst-flushed */
		.cold_src = mx.cache_cdf[COSTMODEL_SRC_FLUSHED] > mx.cache_cdf[COSTMODEL_WARM],
		.cold_dst =
			mx.cache_cdf[COSTMODEL_DST_FLUSHED] > mx.cache_cdf[COSTMODEL_SRC_FLUSHED],
	};
	if (!err) {
		struct paired_attempt a = { fr, &pl, &mx, &mem, o, out, 0, "" };
		struct measure_retry rule = {
			.what = what,
			.tries = MEASURE_RETRY_PAIRED_TRIES,
			.refuse = true,
			.measure = measure_attempt,
			.judge = judge_attempt,
			.ctx = &a,
		};

		snprintf(what, sizeof(what), "replay: %s", est_family(fr->family)->name);
		err = measure_retry_run(&rule);
		if (err == -EDOM)
			mixmeas_free(out);
	}
	replay_mix_free(&mx);
	return err;
}

char *paired_calls_note(const struct est_family_result *fr, const struct est_options *o)
{
	char *s = NULL;

	if (!(fr->samples > 0))
		return NULL;
	if (asprintf(&s,
		     "calls drawn in proportion to samples / today's modelled %s cost per length "
		     "(a sample weighs a call by its time): the replay's change is one of time",
		     o->cache.label) < 0)
		return NULL;
	return s;
}

const char *paired_control_text(const struct mixmeas *mm, char *buf, size_t n)
{
	if (isnan(mm->control.delta_pct))
		snprintf(buf, n,
			 "A/A control not known: %llu quiet rounds, fewer than the %d a figure "
			 "needs (nothing measured)",
			 (unsigned long long)mm->quiet_rounds, MIXMEAS_MIN_ROUNDS);
	else
		snprintf(buf, n, "A/A control %+.2f%% (%+.2f .. %+.2f)", mm->control.delta_pct,
			 mm->control.ci_low, mm->control.ci_high);
	return buf;
}
