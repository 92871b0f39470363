// SPDX-License-Identifier: GPL-2.0
/* replay.c: a profile's shuffled lengths timed through the replicas (--validate, mix correction) */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <emmintrin.h>
#include "asmref.h"
#include "calib/calib_loop.h"
#include "calib/calib_measure.h"
#include "calib/calib_stats.h"
#include "calib/calib_timer.h"
#include "lib/log.h"
#include "replay.h"
#include "replay_sequence.h"
#include "lib/stop.h"

#define LINE 64
/*
 * Calls per timed chunk. A chunk lasts microseconds, so few are hit by an interrupt or another
 * task; each chunk's median over the runs is kept and the medians summed, which makes the
 * total robust on a busy machine where most whole runs would be hit.
 */
#define CHUNK 500

/* A policy as run: lo below T, hi from T (the same implementation for a single one). */
struct replay_policy {
	const struct asmref_impl *lo, *hi;
	uint64_t t;	 /* switch point for lo/hi */
	uint64_t erms_t; /* erms_threshold's own T, when it is used */
};

static void policy_of(const struct est_family_result *fr, const struct est_row *w,
		      struct replay_policy *p)
{
	const struct est_family_impls *fi = est_family(fr->family);

	memset(p, 0, sizeof(*p));
	if (w->pol.kind == EST_TODAY) {
		p->lo = p->hi = asmref_find(fr->today_impl);
	} else if (w->pol.kind == EST_ALWAYS) {
		p->lo = p->hi = asmref_find(fi->string);
	} else if (fi->dispatch) {
		/* The real dispatch: erms_threshold compares against its own T. */
		p->lo = p->hi = asmref_find(fi->dispatch);
		p->erms_t = w->pol.threshold;
	} else {
		p->lo = asmref_find(fi->loop);
		p->hi = asmref_find(fi->string);
		p->t = w->pol.threshold;
	}
}

static void flush_range(const uint8_t *p, size_t n)
{
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)(LINE - 1), end = (uintptr_t)p + n;

	for (; a < end; a += LINE)
		_mm_clflush((const void *)a);
	_mm_mfence();
}

/* Makes @p the policy the replicas run: a dispatch replica compares with @p's own T. */
static void use_policy(const struct replay_policy *p)
{
	if (p->lo == asmref_find("erms_threshold"))
		asmref_set_threshold(p->erms_t);
}

/* Ticks per chunk of the sequence: one timed loop if all warm, else each call timed alone. */
static void run_sequence(const struct calib_timer *t, const struct replay_policy *p,
			 struct calib_bufs *b, const struct replay_call *seq, size_t n,
			 bool all_warm, double *chunks)
{
	uint64_t t0, t1;
	size_t i, c;

	use_policy(p);
	for (c = 0; c * CHUNK < n; c++) {
		size_t end = (c + 1) * CHUNK < n ? (c + 1) * CHUNK : n;
		double sum = 0;

		if (all_warm) {
			t0 = calib_tsc_begin();
			calib_loop(p->lo, p->hi, p->t, b->dst, b->src, &seq[c * CHUNK].n,
				   sizeof(*seq) / sizeof(seq->n), end - c * CHUNK);
			t1 = calib_tsc_end(t);
			chunks[c] = (double)(t1 - t0) - t->overhead;
			continue;
		}
		for (i = c * CHUNK; i < end; i++) {
			if (seq[i].cache == COSTMODEL_SRC_FLUSHED)
				flush_range(b->src, seq[i].n);
			else if (seq[i].cache == COSTMODEL_DST_FLUSHED)
				flush_range(b->dst, seq[i].n);
			t0 = calib_tsc_begin();
			calib_loop(p->lo, p->hi, p->t, b->dst, b->src, &seq[i].n, 0, 1);
			t1 = calib_tsc_end(t);
			sum += (double)(t1 - t0) - t->overhead;
		}
		chunks[c] = sum;
	}
}

static int verify(const struct replay_policy *p, struct calib_bufs *b,
		  const struct replay_call *seq, size_t n)
{
	const struct asmref_impl *impls[2] = { p->lo, p->hi };
	size_t i, j;
	long bad;

	use_policy(p);
	for (i = 0; i < 2; i++)
		for (j = 0; j < n && j < 256; j++)
			if (calib_verify(impls[i], b, seq[j].n, &bad)) {
				p_err("validate: %s copied wrong bytes at length %llu (offset %ld)",
				      impls[i]->name, (unsigned long long)seq[j].n, bad);
				return -EIO;
			}
	return 0;
}

static int pin(int cpu, cpu_set_t *old, int *used)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(*old), old))
		return -errno;
	*used = cpu >= 0 ? cpu : sched_getcpu();
	CPU_ZERO(&set);
	CPU_SET(*used, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		int err = -errno;

		p_err("validate: cannot pin to CPU %d: %s", *used, strerror(errno));
		return err;
	}
	return 0;
}

/* ticks[policy][run * nchunks + chunk]; policies with no lo are not run. */
static int time_policies(size_t np, int runs, struct replay_policy *pols, double **ticks,
			 struct calib_bufs *b, const struct replay_call *const *seqs, size_t n,
			 bool all_warm, struct calib_timer *t)
{
	size_t r, i, nchunks = (n + CHUNK - 1) / CHUNK;
	uint64_t seed = REPLAY_SEED;
	int err;

	err = calib_timer_init(t, 50);
	if (err)
		return err;
	for (i = 0; i < np; i++)
		if (pols[i].lo) /* warm-up */
			run_sequence(t, &pols[i], b, seqs[i], n, all_warm, ticks[i]);
	/*
	 * Interleaved: each run times every policy once, in an order drawn afresh for the run
	 * (fixed seed), so that no policy always follows the same one: a policy's time depended on
	 * the two or three before it (right after REP STOSB for every length, the loop's rows
	 * measured 2 points dearer than their twins further on). Each timed pass follows an
	 * untimed one over its sequence's last chunk, so that it starts with the branch predictors
	 * trained on its own mix.
	 */
	for (r = 0; r < (size_t)runs; r++) {
		size_t order[2 * (EST_MAX_THRESHOLDS + 3)];

		replay_shuffled_order(order, np, &seed);
		for (i = 0; i < np; i++) {
			size_t k = order[i], w = n < CHUNK ? n : CHUNK;

			if (stop_requested())
				return -EINTR;
			if (!pols[k].lo)
				continue;
			use_policy(&pols[k]);
			calib_loop(pols[k].lo, pols[k].hi, pols[k].t, b->dst, b->src,
				   &seqs[k][n - w].n, sizeof(*seqs[k]) / sizeof(seqs[k]->n), w);
			run_sequence(t, &pols[k], b, seqs[k], n, all_warm, ticks[k] + r * nchunks);
		}
	}
	return 0;
}

/* The sum over chunks of each chunk's median over the runs. */
static double robust_total(const double *ticks, size_t runs, size_t nchunks)
{
	double v[256], sum = 0;
	size_t c, r;

	for (c = 0; c < nchunks; c++) {
		for (r = 0; r < runs && r < 256; r++)
			v[r] = ticks[r * nchunks + c];
		sum += calib_median(v, r);
	}
	return sum;
}

static bool is_all_warm(const struct est_cache *c)
{
	return c->w[COSTMODEL_WARM] > 0 &&
	       c->w[COSTMODEL_SRC_FLUSHED] + c->w[COSTMODEL_DST_FLUSHED] == 0;
}

/* Which code a policy runs for a call of @n bytes: its replica and, for a dispatch, the side. */
static uintptr_t path_of(const struct replay_policy *p, uint64_t n,
			 const struct asmref_impl *dispatch)
{
	const struct asmref_impl *impl = n < p->t ? p->lo : p->hi;

	return (uintptr_t)impl | (impl == dispatch && n < p->erms_t);
}

/* True if @a and @b run the same code on every call of @seq. */
static bool same_code(const struct replay_policy *a, const struct replay_policy *b,
		      const struct replay_call *seq, size_t n)
{
	const struct asmref_impl *d = asmref_find("erms_threshold");
	size_t k;

	if (!a->lo || !b->lo)
		return false;
	for (k = 0; k < n && path_of(a, seq[k].n, d) == path_of(b, seq[k].n, d); k++)
		;
	return k == n;
}

/*
 * The largest gap (points) between two rows that run the same code on every call of @seq:
 * what the replay measures for no difference at all. NAN if no two rows do.
 */
static double noise_floor(const struct replay_policy *pols, const double *pct, size_t nr,
			  const struct replay_call *seq, size_t n)
{
	double worst = NAN;
	size_t i, j;

	for (i = 0; i < nr; i++)
		for (j = i + 1; j < nr; j++)
			if (same_code(&pols[i], &pols[j], seq, n) &&
			    !(fabs(pct[i] - pct[j]) <= worst))
				worst = fabs(pct[i] - pct[j]);
	return worst;
}

/*
 * Rows that run the same code on every call of @seq cost the same: each gets the mean of its
 * group's @shuffled and @sorted, so that one row's noise is averaged with its twins'.
 */
static void pool_same_code(const struct replay_policy *pols, size_t nr,
			   const struct replay_call *seq, size_t n, double *shuffled,
			   double *sorted)
{
	int group[EST_MAX_THRESHOLDS + 3];
	size_t i, j, k;

	for (i = 0; i < nr; i++) {
		group[i] = (int)i;
		for (j = 0; j < i; j++)
			if (group[j] == (int)j && same_code(&pols[i], &pols[j], seq, n)) {
				group[i] = (int)j;
				break;
			}
	}
	for (i = 0; i < nr; i++) {
		double a = 0, b = 0;

		if (group[i] != (int)i || !pols[i].lo)
			continue;
		for (j = i, k = 0; j < nr; j++)
			if (group[j] == (int)i) {
				a += shuffled[j];
				b += sorted[j];
				k++;
			}
		for (j = i; j < nr; j++)
			if (group[j] == (int)i) {
				shuffled[j] = a / (double)k;
				sorted[j] = b / (double)k;
			}
	}
}

/* Each row's policy as --validate runs it (the oracle: none), its bytes checked on @seq. */
static int rows_policies(const struct est_family_result *fr, struct calib_bufs *b,
			 const struct replay_call *seq, size_t n, struct replay_policy *pols)
{
	size_t i;
	int err;

	for (i = 0; i < fr->nr_rows; i++) {
		if (fr->rows[i].pol.kind == EST_ORACLE) {
			pols[i].lo = NULL;
			continue;
		}
		policy_of(fr, &fr->rows[i], &pols[i]);
		if (!pols[i].lo || !pols[i].hi) {
			p_err("validate: no asm-ref replica for a %s policy", fr->rows[i].pol.name);
			return -ENOENT;
		}
		err = verify(&pols[i], b, seq, n);
		if (err)
			return err;
	}
	return 0;
}

static void free_ticks(double **ticks, size_t n)
{
	size_t i;

	for (i = 0; ticks && i < n; i++)
		free(ticks[i]);
	free(ticks);
}

static double **alloc_ticks(size_t n, int runs, size_t calls)
{
	double **ticks = calloc(n, sizeof(*ticks));
	size_t i;

	for (i = 0; ticks && i < n; i++) {
		ticks[i] = calloc((size_t)runs * ((calls + CHUNK - 1) / CHUNK), sizeof(double));
		if (!ticks[i]) {
			free_ticks(ticks, n);
			return NULL;
		}
	}
	return ticks;
}

int replay_family(struct est_family_result *fr, const struct replay_opts *o)
{
	struct replay_policy pols[EST_MAX_THRESHOLDS + 3];
	const struct replay_call *seqs[EST_MAX_THRESHOLDS + 3];
	double **ticks = NULL, today;
	struct replay_call *seq = NULL;
	struct calib_bufs b = { 0 };
	struct calib_timer t;
	size_t n, i, left_out, nchunks;
	uint64_t max_n = 0;
	cpu_set_t old;
	int err, k = -1;

	n = replay_draw_sequence(fr, o, 0, UINT64_MAX, &seq, &max_n, &left_out);
	if (!n) {
		free(seq);
		p_err("validate: %s has no calls to replay", est_family(fr->family)->name);
		return -ENOENT;
	}
	if (left_out)
		p_warn("validate: %zu bucket(s) above %llu bytes left out of the replay", left_out,
		       REPLAY_MAX_SIZE);
	nchunks = (n + CHUNK - 1) / CHUNK;
	fr->measured_pct = malloc(fr->nr_rows * sizeof(double));
	ticks = alloc_ticks(fr->nr_rows, o->runs, n);
	if (!fr->measured_pct || !ticks) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < fr->nr_rows; i++) {
		fr->measured_pct[i] = NAN;
		seqs[i] = seq;
	}
	err = calib_bufs_alloc(&b, max_n ? max_n : 1, 0, 0) ?: pin(o->cpu, &old, &k);
	if (err)
		goto out;
	fr->replay_cpu = k;
	err = rows_policies(fr, &b, seq, n, pols)
		      ?: time_policies(fr->nr_rows, o->runs, pols, ticks, &b, seqs, n,
				       is_all_warm(o->cache), &t);
	sched_setaffinity(0, sizeof(old), &old);
	asmref_set_threshold(ASMREF_ERMS_THRESHOLD_DEFAULT);
	if (err)
		goto out;
	today = robust_total(ticks[0], (size_t)o->runs, nchunks);
	for (i = 0; i < fr->nr_rows; i++)
		if (pols[i].lo && today > 0)
			fr->measured_pct[i] =
				100 * (robust_total(ticks[i], (size_t)o->runs, nchunks) - today) /
				today;
	fr->noise_floor_pct = noise_floor(pols, fr->measured_pct, fr->nr_rows, seq, n);
	fr->replay_calls = n;
	fr->replay_runs = o->runs;
out:
	free_ticks(ticks, fr->nr_rows);
	free(seq);
	calib_bufs_free(&b);
	return err;
}

static int cmp_call_len(const void *a, const void *b)
{
	const struct replay_call *x = a, *y = b;

	return x->n < y->n ? -1 : x->n > y->n;
}

/*
 * The model's mean cost over @seq of @lo below @t and @hi from @t, each call in its own cache
 * state (NAN: a curve is missing).
 */
static double predicted(const struct costmodel *m, const char *lo, const char *hi, uint64_t t,
			const struct replay_call *seq, size_t n)
{
	const struct costmodel_curve *cv[2][COSTMODEL_NR_CACHES];
	double sum = 0;
	size_t j;
	int c;

	for (c = 0; c < COSTMODEL_NR_CACHES; c++) {
		cv[0][c] = costmodel_find(m, lo, c);
		cv[1][c] = costmodel_find(m, hi, c);
	}
	for (j = 0; j < n; j++) {
		const struct costmodel_curve *k = cv[seq[j].n >= t][seq[j].cache];

		sum += k && k->nr_points ? costmodel_cost_ns(k, (double)seq[j].n) : NAN;
	}
	return sum / (double)n;
}

/* A sample's calls, shuffled and sorted by length: drawn once per range, shared by samples. */
struct mix_seqs {
	uint64_t lo, hi;
	struct replay_call *shuffled, *sorted;
	size_t n;
	uint64_t max_n;
};

static int mix_sequences(const struct est_family_result *fr, const struct replay_opts *o,
			 uint64_t lo, uint64_t hi, struct mix_seqs *all, size_t *nall, size_t *idx)
{
	struct mix_seqs *q;
	size_t left_out;

	for (*idx = 0; *idx < *nall; (*idx)++)
		if (all[*idx].lo == lo && all[*idx].hi == hi)
			return 0;
	q = &all[(*nall)++];
	*q = (struct mix_seqs){ .lo = lo, .hi = hi };
	q->n = replay_draw_sequence(fr, o, lo, hi, &q->shuffled, &q->max_n, &left_out);
	if (!q->n)
		return -ENOENT;
	q->sorted = malloc(q->n * sizeof(*q->sorted));
	if (!q->sorted)
		return -ENOMEM;
	memcpy(q->sorted, q->shuffled, q->n * sizeof(*q->sorted));
	qsort(q->sorted, q->n, sizeof(*q->sorted), cmp_call_len);
	return 0;
}

int replay_mix(const struct est_family_result *fr, const struct replay_opts *o,
	       const struct costmodel *m, const struct replay_mix_sample *s, size_t nr,
	       struct replay_mix_cost *cost, int *cpu)
{
	/* Policy 2i runs sample i on its shuffled sequence, 2i + 1 on its sorted one. */
	struct replay_policy pols[2 * REPLAY_MIX_MAX_SAMPLES] = { 0 };
	const struct replay_call *seqs[2 * REPLAY_MIX_MAX_SAMPLES] = { NULL };
	double *ticks[2 * REPLAY_MIX_MAX_SAMPLES] = { NULL };
	struct mix_seqs all[REPLAY_MIX_MAX_SAMPLES] = { 0 };
	size_t n = 0, i, j, nall = 0, nchunks = 0;
	struct calib_bufs b = { 0 };
	struct calib_timer t;
	uint64_t max_n = 0;
	cpu_set_t old;
	int err = 0, k = -1;

	if (nr > REPLAY_MIX_MAX_SAMPLES || !nr)
		return -EINVAL;
	for (i = 0; i < nr && !err; i++) {
		const struct costmodel_curve *warm = costmodel_find(m, s[i].impl, COSTMODEL_WARM);

		err = mix_sequences(fr, o, s[i].lo, s[i].hi, all, &nall, &j);
		if (err)
			break;
		/* Every sample has max_calls calls: all are timed over the same chunks. */
		if (!n || all[j].n < n)
			n = all[j].n;
		if (all[j].max_n > max_n)
			max_n = all[j].max_n;
		/* A dispatch replica at a T of its own: the model's string op from T. */
		cost[i].predicted_ns = predicted(m, s[i].impl,
						 s[i].string
							 ?: s[i].t ? est_family(fr->family)->string
								   : s[i].impl,
						 s[i].string || s[i].t ? s[i].t : UINT64_MAX,
						 all[j].shuffled, all[j].n);
		cost[i].shuffled_ns = cost[i].sorted_ns = NAN;
		pols[2 * i].lo = pols[2 * i].hi = asmref_find(s[i].impl);
		pols[2 * i].t = UINT64_MAX;
		if (s[i].string) {
			pols[2 * i].hi = asmref_find(s[i].string);
			pols[2 * i].t = s[i].t;
		}
		/* A dispatch replica runs at the T asked for, else at its curve's. */
		pols[2 * i].erms_t = s[i].t && !s[i].string	    ? s[i].t
				     : warm && warm->threshold >= 0 ? (uint64_t)warm->threshold
								    : ASMREF_ERMS_THRESHOLD_DEFAULT;
		pols[2 * i + 1] = pols[2 * i];
		seqs[2 * i] = all[j].shuffled;
		seqs[2 * i + 1] = all[j].sorted;
		if (!pols[2 * i].lo || !pols[2 * i].hi) {
			p_err("mix correction: no asm-ref replica %s",
			      s[i].string && pols[2 * i].lo ? s[i].string : s[i].impl);
			err = -ENOENT;
		}
	}
	nchunks = (n + CHUNK - 1) / CHUNK;
	for (i = 0; i < 2 * nr && !err; i++) {
		ticks[i] = calloc((size_t)o->runs * nchunks, sizeof(double));
		if (!ticks[i])
			err = -ENOMEM;
	}
	if (!err)
		err = calib_bufs_alloc(&b, max_n ? max_n : 1, 0, 0) ?: pin(o->cpu, &old, &k);
	if (err)
		goto out;
	*cpu = k;
	for (i = 0; i < nr && !err; i++)
		err = verify(&pols[2 * i], &b, seqs[2 * i], n);
	if (!err)
		err = time_policies(2 * nr, o->runs, pols, ticks, &b, seqs, n,
				    is_all_warm(o->cache), &t);
	sched_setaffinity(0, sizeof(old), &old);
	asmref_set_threshold(ASMREF_ERMS_THRESHOLD_DEFAULT);
	for (i = 0; i < nr && !err; i++) {
		cost[i].shuffled_ns = robust_total(ticks[2 * i], (size_t)o->runs, nchunks) * 1e9 /
				      t.tsc_hz / (double)n;
		cost[i].sorted_ns = robust_total(ticks[2 * i + 1], (size_t)o->runs, nchunks) * 1e9 /
				    t.tsc_hz / (double)n;
	}
out:
	for (i = 0; i < 2 * nr; i++)
		free(ticks[i]);
	for (i = 0; i < nall; i++) {
		free(all[i].shuffled);
		free(all[i].sorted);
	}
	calib_bufs_free(&b);
	return err;
}

int replay_orders(const struct est_family_result *fr, const struct replay_opts *o,
		  double *shuffled_ns, double *sorted_ns, int *cpu)
{
	/* Policy 2i runs row i on the shuffled sequence, 2i + 1 on the sorted one. */
	struct replay_policy rows[EST_MAX_THRESHOLDS + 3], pols[2 * (EST_MAX_THRESHOLDS + 3)];
	const struct replay_call *seqs[2 * (EST_MAX_THRESHOLDS + 3)];
	struct replay_call *seq = NULL, *sorted = NULL;
	size_t n, i, left_out, nchunks, np = 2 * fr->nr_rows;
	struct calib_bufs b = { 0 };
	double **ticks = NULL;
	struct calib_timer t;
	uint64_t max_n = 0;
	cpu_set_t old;
	int err;

	if (fr->nr_rows > EST_MAX_THRESHOLDS + 3)
		return -EINVAL;
	n = replay_draw_sequence(fr, o, 0, UINT64_MAX, &seq, &max_n, &left_out);
	if (!n) {
		free(seq);
		return -ENOENT;
	}
	nchunks = (n + CHUNK - 1) / CHUNK;
	sorted = malloc(n * sizeof(*sorted));
	ticks = alloc_ticks(np, o->runs, n);
	if (!sorted || !ticks) {
		err = -ENOMEM;
		goto out;
	}
	memcpy(sorted, seq, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_call_len);
	err = calib_bufs_alloc(&b, max_n ? max_n : 1, 0, 0) ?: pin(o->cpu, &old, cpu);
	if (err)
		goto out;
	err = rows_policies(fr, &b, seq, n, rows);
	for (i = 0; i < fr->nr_rows; i++) {
		pols[2 * i] = pols[2 * i + 1] = rows[i];
		seqs[2 * i] = seq;
		seqs[2 * i + 1] = sorted;
	}
	if (!err)
		err = time_policies(np, o->runs, pols, ticks, &b, seqs, n, is_all_warm(o->cache),
				    &t);
	sched_setaffinity(0, sizeof(old), &old);
	asmref_set_threshold(ASMREF_ERMS_THRESHOLD_DEFAULT);
	for (i = 0; i < fr->nr_rows && !err; i++) {
		bool run = rows[i].lo != NULL;
		double k = 1e9 / t.tsc_hz / (double)n;

		shuffled_ns[i] =
			run ? robust_total(ticks[2 * i], (size_t)o->runs, nchunks) * k : NAN;
		sorted_ns[i] =
			run ? robust_total(ticks[2 * i + 1], (size_t)o->runs, nchunks) * k : NAN;
	}
	if (!err)
		pool_same_code(rows, fr->nr_rows, seq, n, shuffled_ns, sorted_ns);
out:
	free_ticks(ticks, np);
	free(seq);
	free(sorted);
	calib_bufs_free(&b);
	return err;
}
