// SPDX-License-Identifier: GPL-2.0
/* export_pprof.c: sites, callers, stacks and length buckets as pprof samples, totals kept exact */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export_origin.h"
#include "export_pprof.h"
#include "lib/hist.h"
#include "lib/hist_split.h"
#include "pprof.h"

/* The "len unknown" frame: calls or samples that a site counts without a length. */
#define BUCKET_UNKNOWN CP_NBUCKETS
#define MAX_SITE_LABELS 10

/* Which value of a sample is which: -1 when the profile has no such sites. */
struct value_index {
	int calls, bytes, samples, sample_bytes;
	size_t nr;
};

/* What every sample of one site shares. */
struct site_ctx {
	struct pprof *pp;
	const struct profile_site *s;
	const struct value_index *vi;
	struct export_pprof_stats *st;
	bool sampled;
	bool length_frame; /* the bucket as the leaf frame, else only as len_min/len_max labels */
	uint64_t loc;	   /* the site's own frame, made when first needed (site_loc()) */
	struct pprof_label labels[MAX_SITE_LABELS + 2];
	size_t nr_labels;
	char name[256]; /* "symbol+0xoff", the site label */
};

static uint64_t bucket_location(struct pprof *pp, uint32_t b)
{
	unsigned long long lo, hi;
	struct pprof_line line = { 0 };
	char name[64], key[80];

	if (b == BUCKET_UNKNOWN) {
		snprintf(name, sizeof(name), "len unknown");
	} else {
		lo = hist_bucket_lo(b);
		hi = hist_bucket_hi(b);
		if (b == CP_OVERFLOW_BUCKET)
			snprintf(name, sizeof(name), "len %llu..", lo);
		else if (hi == lo + 1)
			snprintf(name, sizeof(name), "len %llu", lo);
		else
			snprintf(name, sizeof(name), "len %llu..%llu", lo, hi - 1);
	}
	snprintf(key, sizeof(key), "b:%s", name);
	line.function = name;
	return pprof_location(pp, key, 0, &line, 1);
}

/* A plain frame of a folded stack: a function name, nothing more known. */
static uint64_t frame_location(struct pprof *pp, const char *name)
{
	struct pprof_line line = { .function = name };
	char *key;
	uint64_t id;

	if (asprintf(&key, "f:%s", name) < 0) {
		pp->oom = true;
		return 0;
	}
	id = pprof_location(pp, key, 0, &line, 1);
	free(key);
	return id;
}

/*
 * The site's frame: its function at its source line, with inlined functions as more lines,
 * innermost first. source.inlined[] is outermost first: inlined[i].function was inlined at
 * inlined[i].file:line into the code of inlined[i - 1] (of the site's symbol for i = 0), and
 * the probed instruction is in the innermost one at source.file:line.
 */
static uint64_t site_location(struct pprof *pp, const struct profile_site *s)
{
	const struct source_pos *src = s->source;
	size_t m = src ? src->nr_inlined : 0, j;
	struct pprof_line *lines = calloc(m + 1, sizeof(*lines));
	uint64_t map = pprof_mapping(pp, s->target, s->build_id), id;
	char key[32];

	if (!lines) {
		pp->oom = true;
		return 0;
	}
	for (j = 0; j <= m; j++) {
		const struct source_inline *at = j ? &src->inlined[m - j] : NULL;

		lines[j].function = j < m ? src->inlined[m - 1 - j].function : s->symbol;
		lines[j].file = at ? at->file : src ? src->file : NULL;
		lines[j].line = at ? at->line : src ? src->line : 0;
	}
	snprintf(key, sizeof(key), "s:%u", s->id);
	id = pprof_location(pp, key, map, lines, m + 1);
	free(lines);
	return id;
}

static uint64_t site_loc(struct site_ctx *c)
{
	if (!c->loc)
		c->loc = site_location(c->pp, c->s);
	return c->loc;
}

static uint64_t caller_location(struct pprof *pp, const struct profile_site *s,
				const struct profile_caller *c)
{
	struct pprof_line line = { .function = c->symbol ?: "[unknown]" };
	/* Callers carry no build id: they share the site's when they are in the same binary. */
	const char *bid =
		s->target && c->target && !strcmp(s->target, c->target) ? s->build_id : NULL;
	uint64_t map = pprof_mapping(pp, c->target, bid), id;
	char *key;

	if (asprintf(&key, "c:%s\x1f%s\x1f%" PRIu64 "\x1f%s", c->target ?: "", line.function,
		     c->offset, bid ?: "") < 0) {
		pp->oom = true;
		return 0;
	}
	id = pprof_location(pp, key, map, &line, 1);
	free(key);
	return id;
}

/* One sample: @stack (leaf first), with the bucket's frame on top when c->length_frame. */
static void emit(struct site_ctx *c, uint32_t b, const uint64_t *stack, size_t depth,
		 uint64_t count, uint64_t bytes)
{
	uint64_t locs[depth + 1];
	int64_t values[4] = { 0 };
	size_t nl = c->nr_labels, top = c->length_frame ? 1 : 0;

	if (!count && !bytes)
		return;
	if (top)
		locs[0] = bucket_location(c->pp, b);
	memcpy(locs + top, stack, depth * sizeof(*stack));
	if (c->sampled) {
		values[c->vi->samples] = (int64_t)count;
		values[c->vi->sample_bytes] = (int64_t)bytes;
		c->st->sampled += count;
	} else {
		values[c->vi->calls] = (int64_t)count;
		values[c->vi->bytes] = (int64_t)bytes;
		c->st->calls += count;
		c->st->bytes += bytes;
	}
	if (b != BUCKET_UNKNOWN) {
		uint64_t hi = hist_bucket_hi(b);

		c->labels[nl++] = (struct pprof_label){ "len_min", NULL, (int64_t)hist_bucket_lo(b),
							"bytes" };
		c->labels[nl++] = (struct pprof_label){ "len_max", NULL,
							b == CP_OVERFLOW_BUCKET ? INT64_MAX
										: (int64_t)(hi - 1),
							"bytes" };
	}
	pprof_add_sample(c->pp, locs, depth + top, values, c->labels, nl);
	c->st->samples++;
}

/* A counted site: per caller and bucket, then what no caller took, then calls without length. */
static void export_counted(struct site_ctx *c)
{
	const struct profile_site *s = c->s;
	struct hist_slot rest[CP_NBUCKETS];
	uint64_t stack[2] = { site_loc(c), 0 }, calls, bytes;
	const struct hist_bucket *e;
	uint32_t b;
	size_t i;

	for (i = 0; i < s->nr_callers; i++) {
		const struct profile_caller *cl = &s->callers[i];

		stack[1] = caller_location(c->pp, s, cl);
		sparse_hist_for_each (&cl->buckets, e)
			emit(c, e->b, stack, 2, e->count, e->bytes);
	}
	/* caller_misses: counted in the site's histogram, in no caller's. */
	profile_site_no_caller(s, rest);
	for (b = 0; b < CP_NBUCKETS; b++)
		emit(c, b, stack, 1, rest[b].count, rest[b].bytes);
	calls = sparse_hist_calls(&s->buckets);
	bytes = sparse_hist_bytes(&s->buckets);
	emit(c, BUCKET_UNKNOWN, stack, 1, s->calls > calls ? s->calls - calls : 0,
	     s->bytes > bytes ? s->bytes - bytes : 0);
}

/*
 * A folded stack ("root;...;caller;leaf") leaf first, at most @max frames (the root's end is
 * cut); the caller frame is the site's own when it names the site's function.
 */
static size_t stack_locations(struct site_ctx *c, const char *folded, uint64_t *out, size_t max)
{
	char *copy = strdup(folded), *tok, *save = NULL, **frames;
	size_t n = 1, i, skip;
	const char *p;

	for (p = folded; *p; p++)
		n += *p == ';';
	frames = calloc(n, sizeof(*frames));
	if (!copy || !frames) {
		c->pp->oom = true;
		free(copy);
		free(frames);
		return 0;
	}
	for (n = 0, tok = strtok_r(copy, ";", &save); tok; tok = strtok_r(NULL, ";", &save))
		frames[n++] = tok;
	skip = n > max ? n - max : 0;
	for (i = 0; i + skip < n; i++) {
		const char *name = frames[n - 1 - i];

		if (i == 1 && c->s->symbol && !strcmp(name, c->s->symbol))
			out[i] = site_loc(c);
		else
			out[i] = frame_location(c->pp, name);
	}
	free(frames);
	free(copy);
	return n - skip;
}

#define MAX_FRAMES 512

/*
 * A sampled site: its buckets (and the samples without a length) shared out over its stacks
 * in proportion (hist_split.h), since the profile keeps no lengths per stack. Samples that no
 * stack holds get the stack leaf -> site.
 */
static void export_sampled(struct site_ctx *c)
{
	const struct profile_site *s = c->s;
	const struct sample_site_info *si = s->sample;
	uint64_t cnt[CP_NBUCKETS + 1], byt[CP_NBUCKETS + 1], ocnt[CP_NBUCKETS + 1],
		obyt[CP_NBUCKETS + 1], stack[MAX_FRAMES], known = 0, kbytes = 0, in_stacks = 0,
							  total;
	uint32_t col_bucket[CP_NBUCKETS + 1];
	const struct hist_bucket *e;
	size_t nc = 0, i, k, depth;
	struct hist_split hs;

	sparse_hist_for_each (&s->buckets, e) {
		if (!e->count && !e->bytes)
			continue;
		col_bucket[nc] = e->b;
		cnt[nc] = e->count;
		byt[nc++] = e->bytes;
		known += e->count;
		kbytes += e->bytes;
	}
	for (i = 0; si && i < si->nr_stacks; i++)
		in_stacks += si->stacks[i].count;
	total = s->calls > known ? s->calls : known;
	total = in_stacks > total ? in_stacks : total;
	col_bucket[nc] = BUCKET_UNKNOWN;
	cnt[nc] = total - known;
	byt[nc++] = s->bytes > kbytes ? s->bytes - kbytes : 0;
	if (hist_split_init(&hs, cnt, byt, nc)) {
		c->pp->oom = true;
		return;
	}
	for (i = 0; si && i <= si->nr_stacks; i++) {
		uint64_t row;

		if (i < si->nr_stacks) {
			row = si->stacks[i].count;
			depth = stack_locations(c, si->stacks[i].frames, stack, MAX_FRAMES);
		} else {
			row = hs.total; /* what no stack holds */
			stack[0] = frame_location(c->pp, si->leaf ?: "[unknown]");
			stack[1] = site_loc(c);
			depth = 2;
		}
		if (!row || !depth)
			continue;
		hist_split_row(&hs, row, ocnt, obyt);
		for (k = 0; k < nc; k++)
			emit(c, col_bucket[k], stack, depth, ocnt[k], obyt[k]);
	}
	if (!si) { /* a "sample" site without sampling fields: the site alone */
		hist_split_row(&hs, hs.total, ocnt, obyt);
		stack[0] = site_loc(c);
		for (k = 0; k < nc; k++)
			emit(c, col_bucket[k], stack, 1, ocnt[k], obyt[k]);
	}
	hist_split_free(&hs);
}

static void add_label(struct site_ctx *c, const char *key, const char *val)
{
	if (val && *val && c->nr_labels < MAX_SITE_LABELS)
		c->labels[c->nr_labels++] = (struct pprof_label){ .key = key, .str = val };
}

static void export_site(struct pprof *pp, const struct profile *p, const struct profile_site *s,
			const struct value_index *vi, bool length_frame,
			struct export_pprof_stats *st)
{
	struct site_ctx c = { .pp = pp, .s = s, .vi = vi, .st = st, .length_frame = length_frame };
	struct export_origin o;

	c.sampled = export_site_is_sampled(s);
	export_origin_of(p, s->group, &o);
	snprintf(c.name, sizeof(c.name), "%s+0x%" PRIx64, s->symbol ?: "[unknown]", s->offset);
	add_label(&c, "site", c.name);
	add_label(&c, "mechanism", s->mechanism);
	add_label(&c, "label", s->label);
	if (s->sample) {
		add_label(&c, "leaf", s->sample->leaf);
		add_label(&c, "family", copy_family_name(s->family));
	}
	add_label(&c, "kernel", o.kernel);
	add_label(&c, "cpu_model", o.cpu_model);
	add_label(&c, "host", o.host);
	if (c.sampled)
		export_sampled(&c);
	else
		export_counted(&c);
}

/* Free text a pprof viewer shows with -comments: what was recorded where. */
static void add_comments(struct pprof *pp, const struct profile *p)
{
	struct export_origin o;
	char *line;
	uint32_t g;

	for (g = 0; g < export_nr_groups(p); g++) {
		char head[32] = "copyprof";

		export_origin_of(p, g, &o);
		if (p->nr_groups)
			snprintf(head, sizeof(head), "copyprof group %u:", g);
		if (asprintf(&line, "%s kernel %s, cpu %s, %s%s%s%.2f s", head,
			     o.kernel ?: "unknown", o.cpu_model ?: "unknown", o.host ? "host " : "",
			     o.host ?: "", o.host ? ", " : "", o.duration_s) < 0) {
			pp->oom = true;
			return;
		}
		pprof_add_comment(pp, line);
		free(line);
	}
	if (p->meta.command && asprintf(&line, "command: %s", p->meta.command) >= 0) {
		pprof_add_comment(pp, line);
		free(line);
	}
}

int export_pprof(const struct profile *p, const struct export_pprof_opts *o, void **out,
		 size_t *len, struct export_pprof_stats *st)
{
	bool length_frame = !o || o->length_as == EXPORT_LENGTH_FRAME;
	struct value_index vi = { -1, -1, -1, -1, 0 };
	bool counted = false, sampled = false;
	const struct sample_meta *sm = p->sample;
	struct pprof pp;
	int64_t start;
	size_t i;
	int err;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < p->nr_sites; i++) {
		if (export_site_is_sampled(&p->sites[i]))
			sampled = true;
		else
			counted = true;
	}
	if (pprof_init(&pp))
		return -ENOMEM;
	if (counted || !sampled) {
		vi.calls = (int)vi.nr++;
		pprof_add_type(&pp, "calls", "count");
		vi.bytes = (int)vi.nr++;
		pprof_add_type(&pp, "bytes", "bytes");
	}
	if (sampled) {
		vi.samples = (int)vi.nr++;
		pprof_add_type(&pp, "samples", "count");
		vi.sample_bytes = (int)vi.nr++;
		pprof_add_type(&pp, "sample_bytes", "bytes");
	}
	pp.msg->default_sample_type = pprof_str(&pp, counted || !sampled ? "calls" : "samples");
	pp.msg->period_type = malloc(sizeof(*pp.msg->period_type));
	if (!pp.msg->period_type) {
		pprof_free(&pp);
		return -ENOMEM;
	}
	perftools__profiles__value_type__init(pp.msg->period_type);
	pp.msg->period = 1;
	if (!counted && sampled && sm && sm->hz) {
		/* One sample stands for 1/hz s of a CPU's time. */
		pp.msg->period_type->type = pprof_str(&pp, "cpu");
		pp.msg->period_type->unit = pprof_str(&pp, "nanoseconds");
		pp.msg->period = (int64_t)llround(1e9 / sm->hz);
	} else {
		pp.msg->period_type->type =
			pprof_str(&pp, counted || !sampled ? "calls" : "samples");
		pp.msg->period_type->unit = pprof_str(&pp, "count");
	}
	if (export_start_time(p, &start))
		pp.msg->time_nanos = start * 1000000000LL;
	pp.msg->duration_nanos = (int64_t)llround(p->meta.duration_s * 1e9);
	add_comments(&pp, p);
	for (i = 0; i < p->nr_sites; i++)
		export_site(&pp, p, &p->sites[i], &vi, length_frame, st);
	st->locations = pp.msg->n_location;
	/*
	 * pprof keeps signed 64-bit values and its viewers sum them in 64 bits: a total past
	 * 2^63 - 1 would be shown wrapped, so it is refused (the caller names it).
	 */
	if (!count_sum_fits_i64(st->calls) || !count_sum_fits_i64(st->bytes) ||
	    !count_sum_fits_i64(st->sampled))
		err = -EOVERFLOW;
	else
		err = pprof_pack_gzip(&pp, out, len);
	pprof_free(&pp);
	return err;
}
