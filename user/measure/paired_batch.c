// SPDX-License-Identifier: GPL-2.0
/* paired_batch.c: one batch of a paired measurement: rounds on one CPU, in memory of its own */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "calib_loop.h"
#include "lib/monotime.h"
#include "lib/stop.h"
#include "paired_batch.h"
#include "paired_cpu.h"
#include "replay_order.h"
#include "replay_regions.h"
#include "replay_rng.h"

/*
 * One chunk of drawn calls: the calls themselves, and where each wants cold lines. In a mix
 * with a recorded order the calls are blocks, each a recorded run: block b is calls
 * blk[b] .. blk[b + 1] - 1, and a pass moves blocks, never the calls within one.
 */
struct chunk {
	struct calib_call *calls, *tmp_calls;
	struct replay_draw *draws, *tmp_draws;
	size_t *blk, *tmp_blk, *order, nr_blk; /* tmp_*, order: chunk_permute_blocks()'s room */
	size_t n;
	bool any_cold;
};

static int chunk_alloc(struct chunk *c, size_t n)
{
	c->calls = calloc(n, sizeof(*c->calls));
	c->draws = calloc(n, sizeof(*c->draws));
	c->tmp_calls = calloc(n, sizeof(*c->tmp_calls));
	c->tmp_draws = calloc(n, sizeof(*c->tmp_draws));
	c->blk = calloc(n + 1, sizeof(*c->blk));
	c->tmp_blk = calloc(n + 1, sizeof(*c->tmp_blk));
	c->order = calloc(n, sizeof(*c->order));
	c->nr_blk = 0;
	c->n = n;
	c->any_cold = false;
	return c->calls && c->draws && c->tmp_calls && c->tmp_draws && c->blk && c->tmp_blk &&
			       c->order
		       ? 0
		       : -ENOMEM;
}

static void chunk_free(struct chunk *c)
{
	free(c->calls);
	free(c->draws);
	free(c->tmp_calls);
	free(c->tmp_draws);
	free(c->blk);
	free(c->tmp_blk);
	free(c->order);
	memset(c, 0, sizeof(*c));
}

/*
 * Call @i's draw: independent from the mix, or in a mix with a recorded order the next length
 * of a block of CP_ORDER_LEN made in the manner of the runs (replay_order.h) into @block.
 */
static void draw_one(struct chunk *c, size_t i, const struct replay_mix *mx,
		     const struct replay_order *ord, uint64_t *seed, uint64_t *block)
{
	if (!ord->nr) {
		replay_mix_draw(mx, seed, &c->draws[i]);
		return;
	}
	if (i % CP_ORDER_LEN == 0) {
		replay_order_block(ord, seed, block, CP_ORDER_LEN);
		c->blk[c->nr_blk++] = i;
	}
	replay_mix_draw_len(mx, block[i % CP_ORDER_LEN], seed, &c->draws[i]);
}

/*
 * Call @c's source (@side 1) or destination (@side 0) for draw @d, the other side placed:
 * at the drawn distance from it, or, for the class of all other distances, independently but
 * out of the other classes (a few tries: the windows are 2 x 63 of 4096 offsets, the line-aligned
 * 63; drawn line offsets that are equal cannot leave the latter, and are kept there: a profile
 * written before aligned_64 counted those calls in other).
 */
static void place_side(struct calib_call *c, const struct replay_draw *d,
		       const struct replay_regions *rg, int side, uint64_t *seed)
{
	bool cold = d->cache == (side ? COSTMODEL_SRC_FLUSHED : COSTMODEL_DST_FLUSHED);
	uintptr_t other = (uintptr_t)(side ? c->dst : c->src);
	uint8_t *p;
	int t, cls;

	if (d->dist != CP_DIST_OTHER) {
		p = replay_regions_pick_at(
			rg, side, cold, d->n,
			(unsigned int)(side ? other - d->dist_off : other + d->dist_off), seed);
	} else {
		for (t = 0; t < 16; t++) {
			p = replay_regions_pick(rg, side, cold, d->n,
						side ? d->src_align : d->dst_align, seed);
			cls = cp_dist_class(side ? other : (uintptr_t)p,
					    side ? (uintptr_t)p : other);
			if (cls == CP_DIST_OTHER ||
			    (cls == CP_DIST_ALIGNED_64 && d->src_align == d->dst_align))
				break;
		}
	}
	if (side)
		c->src = p;
	else
		c->dst = p;
}

/* Draws @c's calls; warm sides get their addresses now, cold ones per pass (chunk_cold()). */
static void chunk_draw(struct chunk *c, const struct replay_mix *mx, const struct replay_order *ord,
		       const struct replay_regions *rg, uint64_t *seed, bool warm_only)
{
	uint64_t block[CP_ORDER_LEN];
	size_t i;

	c->any_cold = false;
	c->nr_blk = 0;
	for (i = 0; i < c->n; i++) {
		struct replay_draw *d = &c->draws[i];

		draw_one(c, i, mx, ord, seed, block);
		if (warm_only)
			d->cache = COSTMODEL_WARM;
		c->any_cold |= d->cache != COSTMODEL_WARM;
		c->calls[i].n = d->n;
		c->calls[i].dst = replay_regions_pick(rg, 0, d->cache == COSTMODEL_DST_FLUSHED,
						      d->n, d->dst_align, seed);
		c->calls[i].src =
			mx->has_src && d->dist < 0
				? replay_regions_pick(rg, 1, d->cache == COSTMODEL_SRC_FLUSHED,
						      d->n, d->src_align, seed)
				: NULL;
		if (mx->has_src && d->dist >= 0)
			place_side(&c->calls[i], d, rg, 1, seed);
	}
}

/*
 * A recorded order's chunk in a fresh order of its blocks (runs), each run's calls kept in the
 * order recorded: where two runs meet the order is not known, within one it is.
 */
static void chunk_permute_blocks(struct chunk *c, uint64_t *seed)
{
	struct calib_call *calls = c->tmp_calls;
	struct replay_draw *draws = c->tmp_draws;
	size_t i, k = 0, *blk = c->tmp_blk;

	c->blk[c->nr_blk] = c->n;
	replay_rng_shuffle(c->order, c->nr_blk, seed);
	for (i = 0; i < c->nr_blk; i++) {
		size_t b = c->order[i], len = c->blk[b + 1] - c->blk[b];

		blk[i] = k;
		memcpy(&calls[k], &c->calls[c->blk[b]], len * sizeof(*calls));
		memcpy(&draws[k], &c->draws[c->blk[b]], len * sizeof(*draws));
		k += len;
	}
	c->tmp_calls = c->calls;
	c->tmp_draws = c->draws;
	c->tmp_blk = c->blk;
	c->calls = calls;
	c->draws = draws;
	c->blk = blk;
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

	if (c->nr_blk) {
		chunk_permute_blocks(c, seed);
		return;
	}
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

		if (d->dist >= 0 &&
		    (d->cache == COSTMODEL_DST_FLUSHED || d->cache == COSTMODEL_SRC_FLUSHED))
			place_side(&c->calls[i], d, rg, d->cache == COSTMODEL_SRC_FLUSHED, seed);
		else if (d->cache == COSTMODEL_DST_FLUSHED)
			c->calls[i].dst =
				replay_regions_pick(rg, 0, true, d->n, d->dst_align, seed);
		else if (d->cache == COSTMODEL_SRC_FLUSHED)
			c->calls[i].src =
				replay_regions_pick(rg, 1, true, d->n, d->src_align, seed);
	}
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

static bool batch_over(const struct paired_batch *b, const struct paired_run *run, double until)
{
	return monotime_s() >= until ||
	       (b->quiet_wanted &&
		paired_run_batch_quiet(run, run->nr_batches - 1) >= b->quiet_wanted);
}

/*
 * The rounds of batch @b on chunks @ch (0: the reference, 1 and 2 in turn), in regions @rg, for
 * @b->slot_s seconds from the first. The slot is counted from here, not from when the batch was
 * sent: its process's start, its memory and its choice of CPU took longer than a 1 s budget's
 * slot on a loaded machine, and a slot counted from the send then ended before its first round
 * (0 rounds in 4 s, every batch, on a 2-vCPU VM at a load average of 6 to 14).
 */
static int rounds(const struct paired_batch *b, const struct replay_order *ord,
		  const struct replay_regions *rg, struct chunk ch[3], struct paired_run *run)
{
	uint64_t s = b->seed | 1;
	double until = monotime_s() + b->slot_s;
	size_t k = 0;
	int err = 0;

	chunk_draw(&ch[1], b->mx, ord, rg, &s, false);
	while (!err && !batch_over(b, run, until)) {
		if (stop_requested())
			err = -EINTR;
		else if (run->rounds == run->cap)
			err = paired_run_grow(run);
		if (err)
			break;
		chunk_draw(&ch[2 - k], b->mx, ord, rg, &s, false);
		one_round(b->pl, &b->timer, &ch[0], &ch[1 + k], &ch[2 - k], rg, &s, run);
		k = 1 - k;
	}
	return err;
}

int paired_batch_run(const struct paired_batch *b, struct paired_run *run)
{
	const struct paired_memory *mem = &b->mem;
	struct replay_regions ref_rg = { 0 }, rg = { 0 };
	struct replay_order ord;
	struct chunk ch[3] = { 0 };
	uint64_t s = b->ref_seed | 1;
	int err = 0, i, cpu = -1;

	if (run->nr_batches >= PAIRED_MAX_BATCHES)
		return -E2BIG;
	err = replay_order_build(&ord, b->mx);
	for (i = 0; i < 3 && !err; i++)
		err = chunk_alloc(&ch[i], run->chunk);
	/* The reference: fixed calls, warm, in memory of its own. */
	if (!err)
		err = replay_regions_alloc(&ref_rg, mem->ws_bytes, 0, mem->max_len, false, false);
	if (!err) {
		chunk_draw(&ch[0], b->mx, &ord, &ref_rg, &s, true);
		cpu = paired_cpu_quietest(&b->cpus, &b->timer, &b->pl->paths[b->pl->today],
					  ch[0].calls, ch[0].n);
		err = cpu < 0 ? cpu : 0;
	}
	if (!err)
		err = replay_regions_alloc(&rg, mem->ws_bytes, mem->cold_bytes, mem->max_len,
					   mem->cold_dst, mem->cold_src);
	if (!err) {
		run->batch_cpu[run->nr_batches] = cpu;
		run->batch_code[run->nr_batches] = 0;
		run->ws_bytes = rg.ws_bytes;
		run->cold_bytes = rg.cold[0] || rg.cold[1] ? rg.cold_bytes : 0;
		run->nr_batches++;
		err = rounds(b, &ord, &rg, ch, run);
	}
	replay_regions_free(&rg);
	replay_regions_free(&ref_rg);
	replay_order_free(&ord);
	for (i = 0; i < 3; i++)
		chunk_free(&ch[i]);
	return err;
}
