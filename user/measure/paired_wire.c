// SPDX-License-Identifier: GPL-2.0
/* paired_wire.c: a batch as bytes for a process of its own, and its rounds back */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "asmref.h"
#include "lib/hist.h"
#include "paired_wire.h"
#include "estimate/estimate_order.h"

#define WIRE_BATCH 0x42525043u	/* "CPRB" */
#define WIRE_ROUNDS 0x52525043u /* "CPRR" */
/* 7: the aligned_64 distance class; 6: call order runs; 5: exact lengths; 4: distances */
#define WIRE_VERSION 7u
#define WIRE_MAX_ROUNDS (1u << 22)
#define WIRE_MAX_CHUNK (1u << 20)
#define WIRE_MAX_BYTES (1ULL << 40)
#define WIRE_MAX_SLOT_S 86400.0 /* a batch's slot: calibrate's --mix-budget is far below a day */
_Static_assert(PAIRED_MIN_QUIET <= UINT8_MAX, "a batch's quiet rounds wanted fit one byte");

struct wire {
	FILE *f;
	bool ok;
};

static void put(struct wire *w, const void *p, size_t n)
{
	w->ok = w->ok && fwrite(p, 1, n, w->f) == n;
}

static void get(struct wire *w, void *p, size_t n)
{
	w->ok = w->ok && fread(p, 1, n, w->f) == n;
}

static uint32_t impl_index(const struct asmref_impl *impl)
{
	size_t i;

	for (i = 0; i < asmref_count(); i++)
		if (asmref_get(i) == impl)
			return (uint32_t)i;
	return UINT32_MAX;
}

static void put_path(struct wire *w, const struct paired_path *p)
{
	uint32_t lo = impl_index(p->lo), hi = impl_index(p->hi);
	uint8_t dispatch = p->dispatch;

	put(w, &lo, sizeof(lo));
	put(w, &hi, sizeof(hi));
	put(w, &p->t, sizeof(p->t));
	put(w, &dispatch, sizeof(dispatch));
	put(w, &p->dispatch_t, sizeof(p->dispatch_t));
	put(w, &p->from, sizeof(p->from));
	put(w, p->name, sizeof(p->name));
}

static void put_mix(struct wire *w, const struct replay_mix *mx)
{
	uint64_t nr = mx->nr;
	uint8_t flags[3] = { mx->aligned_recorded, mx->has_src, mx->dist_cdf != NULL };
	size_t k;

	put(w, &nr, sizeof(nr));
	put(w, &mx->max_len, sizeof(mx->max_len));
	put(w, flags, sizeof(flags));
	put(w, mx->dst_cdf, sizeof(mx->dst_cdf));
	put(w, mx->src_cdf, sizeof(mx->src_cdf));
	put(w, mx->cache_cdf, sizeof(mx->cache_cdf));
	put(w, &mx->calls, sizeof(mx->calls));
	for (k = 0; k < mx->nr; k++) {
		put(w, &mx->lo[k], sizeof(mx->lo[k]));
		put(w, &mx->hi[k], sizeof(mx->hi[k]));
		put(w, &mx->mean[k], sizeof(mx->mean[k]));
		put(w, &mx->cdf[k], sizeof(mx->cdf[k]));
		if (mx->dist_cdf)
			put(w, mx->dist_cdf[k], sizeof(mx->dist_cdf[k]));
	}
	nr = mx->nr_runs;
	put(w, &nr, sizeof(nr));
	for (k = 0; k < mx->nr_runs; k++)
		put(w, &mx->runs[k], sizeof(mx->runs[k]));
}

int paired_wire_put_batch(FILE *f, const struct paired_batch *b)
{
	struct wire w = { f, true };
	uint32_t head[2] = { WIRE_BATCH, WIRE_VERSION };
	uint64_t n[3] = { b->pl->nr_paths, b->pl->today, b->chunk };
	uint8_t flags[4] = { b->mem.cold_dst, b->mem.cold_src, (uint8_t)b->quiet_wanted,
			     b->timer.rdtscp };
	size_t i;

	put(&w, head, sizeof(head));
	put(&w, n, sizeof(n));
	for (i = 0; i < b->pl->nr_paths; i++)
		put_path(&w, &b->pl->paths[i]);
	put_mix(&w, b->mx);
	put(&w, &b->mem.ws_bytes, sizeof(b->mem.ws_bytes));
	put(&w, &b->mem.cold_bytes, sizeof(b->mem.cold_bytes));
	put(&w, &b->mem.max_len, sizeof(b->mem.max_len));
	put(&w, flags, sizeof(flags));
	put(&w, &b->seed, sizeof(b->seed));
	put(&w, &b->ref_seed, sizeof(b->ref_seed));
	put(&w, &b->slot_s, sizeof(b->slot_s));
	put(&w, &b->cpus, sizeof(b->cpus));
	put(&w, &b->timer.tsc_hz, sizeof(b->timer.tsc_hz));
	put(&w, &b->timer.quantum, sizeof(b->timer.quantum));
	put(&w, &b->timer.overhead, sizeof(b->timer.overhead));
	return w.ok && !fflush(f) ? 0 : -EIO;
}

static int refuse(char *why, size_t len, const char *what)
{
	snprintf(why, len, "%s", what);
	return -EPROTO;
}

static const char *get_path(struct wire *w, struct paired_path *p)
{
	uint32_t lo, hi;
	uint8_t dispatch;

	get(w, &lo, sizeof(lo));
	get(w, &hi, sizeof(hi));
	get(w, &p->t, sizeof(p->t));
	get(w, &dispatch, sizeof(dispatch));
	get(w, &p->dispatch_t, sizeof(p->dispatch_t));
	get(w, &p->from, sizeof(p->from));
	get(w, p->name, sizeof(p->name));
	if (!w->ok)
		return "a path cut short";
	if (lo >= asmref_count() || hi >= asmref_count())
		return "a path names no replica";
	p->lo = asmref_get(lo);
	p->hi = asmref_get(hi);
	p->dispatch = dispatch != 0;
	p->name[sizeof(p->name) - 1] = '\0';
	return p->lo->kind == p->hi->kind ? NULL : "a path joins replicas of two kinds";
}

static bool cdf_ok(const double *cdf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!(cdf[i] >= (i ? cdf[i - 1] : 0) && cdf[i] <= 1))
			return false;
	return true;
}

/* Entry @k's lengths as replay_mix_init() leaves them: its draws within max_len. */
static bool bucket_ok(const struct replay_mix *mx, size_t k)
{
	double lo = (double)mx->lo[k], top = (double)(mx->hi[k] - 1), m = mx->mean[k];

	return mx->lo[k] < mx->hi[k] && m >= lo && m <= top &&
	       ceil(m + fmin(m - lo, top - m)) <= (double)mx->max_len;
}

/* The mix's call order: its runs, each of 1 .. CP_ORDER_LEN lengths within max_len. */
static const char *get_runs(struct wire *w, struct replay_mix *mx)
{
	uint64_t nr;
	size_t k;
	uint32_t j;

	get(w, &nr, sizeof(nr));
	if (!w->ok || nr > EST_MAX_ORDER_RUNS)
		return "a mix's call order cut short or too long";
	if (nr && !(mx->runs = calloc(nr, sizeof(*mx->runs))))
		return "no memory for a mix";
	mx->nr_runs = nr;
	for (k = 0; k < nr && w->ok; k++) {
		get(w, &mx->runs[k], sizeof(mx->runs[k]));
		if (!w->ok)
			break;
		if (!mx->runs[k].nr || mx->runs[k].nr > CP_ORDER_LEN)
			return "a run of the call order of no or too many calls";
		for (j = 0; j < mx->runs[k].nr; j++)
			if (mx->runs[k].len[j] > mx->max_len)
				return "a run of the call order longer than the mix";
	}
	return w->ok ? NULL : "a mix's call order cut short";
}

static const char *get_mix(struct wire *w, struct replay_mix *mx)
{
	uint64_t nr;
	uint8_t flags[3];
	size_t k;

	get(w, &nr, sizeof(nr));
	get(w, &mx->max_len, sizeof(mx->max_len));
	get(w, flags, sizeof(flags));
	get(w, mx->dst_cdf, sizeof(mx->dst_cdf));
	get(w, mx->src_cdf, sizeof(mx->src_cdf));
	get(w, mx->cache_cdf, sizeof(mx->cache_cdf));
	get(w, &mx->calls, sizeof(mx->calls));
	if (!w->ok)
		return "a mix cut short";
	if (nr < 1 || nr > REPLAY_MAX_ENTRIES || mx->max_len > REPLAY_MAX_SIZE)
		return "a mix of no or too many buckets, or too long a length";
	if (!cdf_ok(mx->dst_cdf, 64) || !cdf_ok(mx->src_cdf, 64) ||
	    !cdf_ok(mx->cache_cdf, COSTMODEL_NR_CACHES))
		return "a mix's alignments or cache states out of order";
	mx->aligned_recorded = flags[0] != 0;
	mx->has_src = flags[1] != 0;
	if (flags[2] && !mx->has_src)
		return "distances for a mix without a source";
	if (flags[2] && !(mx->dist_cdf = calloc(nr, sizeof(*mx->dist_cdf))))
		return "no memory for a mix";
	mx->lo = calloc(nr, sizeof(*mx->lo));
	mx->hi = calloc(nr, sizeof(*mx->hi));
	mx->mean = calloc(nr, sizeof(*mx->mean));
	mx->cdf = calloc(nr, sizeof(*mx->cdf));
	if (!mx->lo || !mx->hi || !mx->mean || !mx->cdf)
		return "no memory for a mix";
	mx->nr = nr;
	for (k = 0; k < nr && w->ok; k++) {
		get(w, &mx->lo[k], sizeof(mx->lo[k]));
		get(w, &mx->hi[k], sizeof(mx->hi[k]));
		get(w, &mx->mean[k], sizeof(mx->mean[k]));
		get(w, &mx->cdf[k], sizeof(mx->cdf[k]));
		if (w->ok && !bucket_ok(mx, k))
			return "a bucket's lengths out of order";
		if (mx->dist_cdf) {
			get(w, mx->dist_cdf[k], sizeof(mx->dist_cdf[k]));
			if (w->ok && !cdf_ok(mx->dist_cdf[k], CP_NR_DIST))
				return "a bucket's distance classes out of order";
			if (mx->dist_cdf[k][CP_NR_DIST - 1] > 0 &&
			    mx->dist_cdf[k][CP_NR_DIST - 1] != 1)
				return "a bucket's distance classes out of order";
			mx->dist_recorded |= mx->dist_cdf[k][CP_NR_DIST - 1] > 0;
		}
	}
	if (!w->ok)
		return "a mix cut short";
	if (!cdf_ok(mx->cdf, nr) || mx->cdf[nr - 1] != 1)
		return "a mix's shares out of order";
	return get_runs(w, mx);
}

/* The batch's own figures after its paths and mix: memory, seeds, slot, CPUs, timer. */
static const char *get_rest(struct wire *w, struct paired_batch *b)
{
	uint8_t flags[4];

	get(w, &b->mem.ws_bytes, sizeof(b->mem.ws_bytes));
	get(w, &b->mem.cold_bytes, sizeof(b->mem.cold_bytes));
	get(w, &b->mem.max_len, sizeof(b->mem.max_len));
	get(w, flags, sizeof(flags));
	get(w, &b->seed, sizeof(b->seed));
	get(w, &b->ref_seed, sizeof(b->ref_seed));
	get(w, &b->slot_s, sizeof(b->slot_s));
	get(w, &b->cpus, sizeof(b->cpus));
	get(w, &b->timer.tsc_hz, sizeof(b->timer.tsc_hz));
	get(w, &b->timer.quantum, sizeof(b->timer.quantum));
	get(w, &b->timer.overhead, sizeof(b->timer.overhead));
	if (!w->ok)
		return "a batch cut short";
	b->mem.cold_dst = flags[0] != 0;
	b->mem.cold_src = flags[1] != 0;
	b->quiet_wanted = flags[2];
	b->timer.rdtscp = flags[3] != 0;
	if (b->quiet_wanted > PAIRED_MIN_QUIET)
		return "a batch wanting more quiet rounds than a run";
	if (b->mem.ws_bytes > WIRE_MAX_BYTES || b->mem.cold_bytes > WIRE_MAX_BYTES ||
	    b->mem.max_len > REPLAY_MAX_SIZE || b->mem.max_len < b->mx->max_len)
		return "a batch's memory out of bounds";
	if (!(b->slot_s >= 0) || b->slot_s > WIRE_MAX_SLOT_S || !(b->timer.tsc_hz > 0) ||
	    !isfinite(b->timer.tsc_hz) || !isfinite(b->timer.overhead) ||
	    !isfinite(b->timer.quantum))
		return "a batch's slot or timer not a number";
	return CPU_COUNT(&b->cpus) ? NULL : "a batch with no CPU to run on";
}

int paired_wire_get_batch(FILE *f, struct paired_batch *b, struct paired_plan *pl,
			  struct replay_mix *mx, char *why, size_t len)
{
	struct wire w = { f, true };
	uint32_t head[2];
	uint64_t n[3];
	const char *bad = NULL;
	size_t i;

	memset(b, 0, sizeof(*b));
	memset(pl, 0, sizeof(*pl));
	memset(mx, 0, sizeof(*mx));
	get(&w, head, sizeof(head));
	get(&w, n, sizeof(n));
	if (!w.ok || head[0] != WIRE_BATCH || head[1] != WIRE_VERSION)
		return refuse(why, len, "not a batch of this copyprof");
	if (n[0] < 1 || n[0] > PAIRED_MAX_PATHS || n[1] >= n[0] || n[2] < 1 ||
	    n[2] > WIRE_MAX_CHUNK)
		return refuse(why, len, "a batch's paths or chunk out of bounds");
	pl->nr_paths = n[0];
	pl->today = n[1];
	b->chunk = n[2];
	for (i = 0; i < pl->nr_paths && !bad; i++)
		bad = get_path(&w, &pl->paths[i]);
	b->pl = pl;
	b->mx = mx;
	bad = bad ?: get_mix(&w, mx);
	bad = bad ?: get_rest(&w, b);
	return bad ? refuse(why, len, bad) : 0;
}

int paired_wire_put_rounds(FILE *f, const struct paired_run *run, int err, uintptr_t code)
{
	struct wire w = { f, true };
	uint32_t head[2] = { WIRE_ROUNDS, WIRE_VERSION };
	int32_t e[2] = { err, run->nr_batches ? run->batch_cpu[0] : -1 };
	uint64_t n[5] = { run->nr_paths, err ? 0 : run->rounds, run->ws_bytes, run->cold_bytes,
			  code };

	size_t r;

	put(&w, head, sizeof(head));
	put(&w, e, sizeof(e));
	put(&w, n, sizeof(n));
	for (r = 0; r < n[1]; r++) {
		put(&w, &run->ref[r], sizeof(*run->ref));
		put(&w, &run->ticks[r * run->nr_paths], run->nr_paths * sizeof(*run->ticks));
	}
	return w.ok && !fflush(f) ? 0 : -EIO;
}

int paired_wire_get_rounds(FILE *f, struct paired_run *run, int *err, char *why, size_t len)
{
	struct wire w = { f, true };
	uint32_t head[2];
	int32_t e[2];
	uint64_t n[5];
	size_t r, b = run->nr_batches, first = run->rounds;

	get(&w, head, sizeof(head));
	get(&w, e, sizeof(e));
	get(&w, n, sizeof(n));
	if (!w.ok || head[0] != WIRE_ROUNDS || head[1] != WIRE_VERSION)
		return refuse(why, len, "no rounds came back");
	if (n[0] != run->nr_paths || n[1] > WIRE_MAX_ROUNDS || e[1] < -1 || e[1] >= CPU_SETSIZE ||
	    b >= PAIRED_MAX_BATCHES)
		return refuse(why, len, "rounds of another plan, or too many");
	*err = e[0];
	for (r = 0; r < n[1] && w.ok; r++) {
		if (run->rounds == run->cap && paired_run_grow(run)) {
			run->rounds = first;
			return -ENOMEM;
		}
		get(&w, &run->ref[run->rounds], sizeof(double));
		get(&w, &run->ticks[run->rounds * run->nr_paths], run->nr_paths * sizeof(double));
		run->batch[run->rounds++] = (uint8_t)b;
	}
	if (!w.ok) {
		run->rounds = first;
		return refuse(why, len, "rounds cut short");
	}
	run->batch_cpu[b] = e[1];
	run->batch_code[b] = (uintptr_t)n[4];
	run->ws_bytes = n[2];
	run->cold_bytes = n[3];
	run->nr_batches++;
	return 0;
}
