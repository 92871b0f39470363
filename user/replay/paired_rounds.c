// SPDX-License-Identifier: GPL-2.0
/* paired_rounds.c: the timed rounds of a paired measurement: every path on the same calls */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "calib/calib_loop.h"
#include "calib/calib_pin.h"
#include "calib/calib_timer.h"
#include "costmodel/mixmeas.h"
#include "lib/log.h"
#include "lib/monotime.h"
#include "lib/stop.h"
#include "paired_cpu.h"
#include "paired_rounds.h"
#include "paired_settled.h"
#include "replay_rng.h"

/* One chunk of drawn calls: the calls themselves, and where each wants cold lines. */
struct chunk {
	struct calib_call *calls;
	struct replay_draw *draws;
	size_t n;
	bool any_cold;
};

static int chunk_alloc(struct chunk *c, size_t n)
{
	c->calls = calloc(n, sizeof(*c->calls));
	c->draws = calloc(n, sizeof(*c->draws));
	c->n = n;
	c->any_cold = false;
	return c->calls && c->draws ? 0 : -ENOMEM;
}

static void chunk_free(struct chunk *c)
{
	free(c->calls);
	free(c->draws);
	memset(c, 0, sizeof(*c));
}

/* Draws @c's calls; warm sides get their addresses now, cold ones per pass (chunk_cold()). */
static void chunk_draw(struct chunk *c, const struct replay_mix *mx,
		       const struct replay_regions *rg, uint64_t *seed, bool warm_only)
{
	size_t i;

	c->any_cold = false;
	for (i = 0; i < c->n; i++) {
		struct replay_draw *d = &c->draws[i];

		replay_mix_draw(mx, seed, d);
		if (warm_only)
			d->cache = COSTMODEL_WARM;
		c->any_cold |= d->cache != COSTMODEL_WARM;
		c->calls[i].n = d->n;
		c->calls[i].dst = replay_regions_pick(rg, 0, d->cache == COSTMODEL_DST_FLUSHED,
						      d->n, d->dst_align, seed);
		c->calls[i].src =
			mx->has_src ? replay_regions_pick(rg, 1, d->cache == COSTMODEL_SRC_FLUSHED,
							  d->n, d->src_align, seed)
				    : NULL;
	}
}

/*
 * @c's calls in a fresh order: every pass of a round copies the same calls (paired), but never
 * in a sequence a branch predictor has seen; timed twice in one order, the vector paths' size
 * branches were learnt and a 4 KiB class measured 10 points cheaper than glibc's real code in
 * a real, never repeating, call stream (docs/estimate.md#the-paired-measurement).
 */
static void chunk_permute(struct chunk *c, uint64_t *seed)
{
	size_t i;

	for (i = c->n; i > 1; i--) {
		size_t j = replay_rng_below(seed, i);
		struct calib_call call = c->calls[i - 1];
		struct replay_draw draw = c->draws[i - 1];

		c->calls[i - 1] = c->calls[j];
		c->draws[i - 1] = c->draws[j];
		c->calls[j] = call;
		c->draws[j] = draw;
	}
}

/* Fresh random lines in the cold regions for the calls that want them, before each pass. */
static void chunk_cold(struct chunk *c, const struct replay_regions *rg, uint64_t *seed)
{
	size_t i;

	for (i = 0; c->any_cold && i < c->n; i++) {
		const struct replay_draw *d = &c->draws[i];

		if (d->cache == COSTMODEL_DST_FLUSHED)
			c->calls[i].dst =
				replay_regions_pick(rg, 0, true, d->n, d->dst_align, seed);
		else if (d->cache == COSTMODEL_SRC_FLUSHED)
			c->calls[i].src =
				replay_regions_pick(rg, 1, true, d->n, d->src_align, seed);
	}
}

static int grow(struct paired_run *run)
{
	size_t cap = run->cap ? 2 * run->cap : 256;
	double *t = realloc(run->ticks, cap * run->nr_paths * sizeof(*t));
	uint8_t *b;
	double *r;

	if (!t)
		return -ENOMEM;
	run->ticks = t;
	r = realloc(run->ref, cap * sizeof(*r));
	if (!r)
		return -ENOMEM;
	run->ref = r;
	b = realloc(run->batch, cap * sizeof(*b));
	if (!b)
		return -ENOMEM;
	run->batch = b;
	run->cap = cap;
	return 0;
}

/* One round: the reference, then every path on @cur in a fresh order, after a warm-up on @prev. */
static void one_round(const struct paired_plan *pl, const struct calib_timer *t,
		      const struct chunk *ref, const struct chunk *prev, struct chunk *cur,
		      const struct replay_regions *rg, uint64_t *seed, struct paired_run *run)
{
	const struct paired_path *today = &pl->paths[pl->today];
	size_t order[PAIRED_MAX_PATHS], i, w = run->warmup < prev->n ? run->warmup : prev->n;
	double *row = run->ticks + run->rounds * run->nr_paths;

	paired_path_use(today);
	calib_loop_calls(today->lo, today->hi, today->t, ref->calls, ref->n / 4);
	run->ref[run->rounds] = paired_path_time(t, today, ref->calls, ref->n);
	replay_rng_shuffle(order, pl->nr_paths, seed);
	for (i = 0; i < pl->nr_paths; i++) {
		const struct paired_path *p = &pl->paths[order[i]];

		paired_path_use(p);
		calib_loop_calls(p->lo, p->hi, p->t, prev->calls, w);
		chunk_permute(cur, seed);
		chunk_cold(cur, rg, seed);
		row[order[i]] = paired_path_time(t, p, cur->calls, cur->n);
	}
	run->batch[run->rounds] = (uint8_t)(run->nr_batches - 1);
	run->rounds++;
}

/*
 * True when batch @b (0-based) has had its slot, 1/PAIRED_BATCHES of the budget each; a batch
 * past the budget that is there @for_quiet rounds ends as soon as they are enough (one there
 * for the A/A control has its whole slot).
 */
static bool batch_done(const struct paired_run *run, size_t b, double elapsed, double budget_s,
		       bool for_quiet)
{
	return elapsed >= budget_s * (double)(b + 1) / PAIRED_BATCHES ||
	       (b >= PAIRED_BATCHES && for_quiet && paired_run_enough_quiet(run));
}

/*
 * True when batch @b is to run: the first PAIRED_BATCHES, then more (each on the CPU then the
 * quietest) while the quiet rounds are too few or the A/A control over them is wider than
 * PAIRED_SETTLED_PCT, up to PAIRED_MAX_BUDGETS times the budget.
 */
static bool batch_due(const struct paired_plan *pl, const struct paired_run *run, size_t b,
		      double elapsed, double budget_s, uint64_t seed)
{
	struct mixmeas_figure ctl;

	if (b < PAIRED_BATCHES)
		return true;
	if (b >= PAIRED_MAX_BATCHES || elapsed >= PAIRED_MAX_BUDGETS * budget_s)
		return false;
	if (!paired_run_enough_quiet(run))
		return true;
	if (paired_control_settled(pl, run, seed, &ctl))
		return false;
	p_debug("replay: after %zu batches the A/A control reads %+.2f%% (%+.2f .. %+.2f): "
		"one more",
		b, ctl.delta_pct, ctl.ci_low, ctl.ci_high);
	return true;
}

/* One batch: on the quietest CPU of @cpus, in its own memory, rounds until batch_done(). */
static int one_batch(const struct paired_plan *pl, const struct replay_mix *mx,
		     const struct paired_memory *mem, const struct calib_timer *t, double start,
		     double budget_s, const cpu_set_t *cpus, uint64_t *s, struct paired_run *run,
		     struct chunk ch[3])
{
	struct replay_regions rg;
	size_t k = 0, b = run->nr_batches;
	bool for_quiet = !paired_run_enough_quiet(run);
	int err, cpu = paired_cpu_quietest(cpus, t, &pl->paths[pl->today], ch[0].calls, ch[0].n);

	if (cpu < 0)
		return cpu;
	run->batch_cpu[b] = cpu;
	err = replay_regions_alloc(&rg, mem->ws_bytes, mem->cold_bytes, mem->max_len, mem->cold_dst,
				   mem->cold_src);
	if (err)
		return err;
	run->ws_bytes = rg.ws_bytes;
	run->cold_bytes = rg.cold[0] || rg.cold[1] ? rg.cold_bytes : 0;
	run->nr_batches++;
	chunk_draw(&ch[1], mx, &rg, s, false);
	while (!err && !batch_done(run, b, monotime_s() - start, budget_s, for_quiet)) {
		if (stop_requested())
			err = -EINTR;
		else if (run->rounds == run->cap)
			err = grow(run);
		if (err)
			break;
		chunk_draw(&ch[2 - k], mx, &rg, s, false);
		one_round(pl, t, &ch[0], &ch[1 + k], &ch[2 - k], &rg, s, run);
		k = 1 - k;
		run->elapsed_s = monotime_s() - start;
	}
	replay_regions_free(&rg);
	return err;
}

static int rounds(const struct paired_plan *pl, const struct replay_mix *mx,
		  const struct replay_regions *ref_rg, const struct paired_memory *mem,
		  double budget_s, const cpu_set_t *cpus, uint64_t seed, struct paired_run *run,
		  struct chunk ch[3])
{
	uint64_t s = seed | 1;
	double start = monotime_s();
	struct calib_timer t;
	size_t b;
	int err;

	err = calib_timer_init(&t, 50);
	if (err)
		return err;
	run->tsc_hz = t.tsc_hz;
	chunk_draw(&ch[0], mx, ref_rg, &s, true); /* the reference: fixed, warm, its own memory */
	for (b = 0, err = 0; !err && batch_due(pl, run, b, monotime_s() - start, budget_s, seed);
	     b++)
		err = one_batch(pl, mx, mem, &t, start, budget_s, cpus, &s, run, ch);
	return err;
}

/* The CPU most rounds ran on. */
static int busiest_cpu(const struct paired_run *run)
{
	size_t rounds[PAIRED_MAX_BATCHES] = { 0 }, r, b, most = 0;
	int cpu = run->nr_batches ? run->batch_cpu[0] : -1;

	for (r = 0; r < run->rounds; r++)
		rounds[run->batch[r]]++;
	for (b = 0; b < run->nr_batches; b++) {
		size_t n = 0, c;

		for (c = 0; c < run->nr_batches; c++)
			n += run->batch_cpu[c] == run->batch_cpu[b] ? rounds[c] : 0;
		if (n > most) {
			most = n;
			cpu = run->batch_cpu[b];
		}
	}
	return cpu;
}

int paired_rounds_run(const struct paired_plan *pl, const struct replay_mix *mx,
		      const struct replay_regions *ref_rg, const struct paired_memory *mem,
		      size_t chunk, double budget_s, uint64_t seed, int cpu, struct paired_run *run)
{
	struct chunk ch[3] = { 0 };
	cpu_set_t old;
	int err, i;

	memset(run, 0, sizeof(*run));
	run->nr_paths = pl->nr_paths;
	run->chunk = chunk;
	run->warmup = PAIRED_WARMUP;
	for (i = 0, err = 0; i < 3 && !err; i++)
		err = chunk_alloc(&ch[i], chunk);
	if (!err && sched_getaffinity(0, sizeof(old), &old))
		err = -errno;
	if (!err && cpu >= 0)
		err = calib_pin_cpu(cpu); /* a CPU it may not use: refused, said why */
	if (!err) {
		cpu_set_t cpus = old;

		if (cpu >= 0) {
			CPU_ZERO(&cpus);
			CPU_SET(cpu, &cpus);
		}
		err = rounds(pl, mx, ref_rg, mem, budget_s, &cpus, seed, run, ch);
		sched_setaffinity(0, sizeof(old), &old);
		run->cpu = busiest_cpu(run);
	}
	paired_path_reset();
	for (i = 0; i < 3; i++)
		chunk_free(&ch[i]);
	return err;
}
