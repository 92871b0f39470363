// SPDX-License-Identifier: GPL-2.0
/* mw_text.c: the metric writer for OpenMetrics 1.0 text, classic histograms on fixed bounds */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "lib/utf8.h"
#include "metric_writer.h"
#include "om_bounds.h"

struct mw_text {
	struct metric_writer w;
	char ts[32]; /* " 1796029200" with a timestamp, else "" */
};

void om_put_escaped(FILE *f, const char *s)
{
	size_t n;

	while (*s) {
		switch (*s) {
		case '\\':
			fputs("\\\\", f);
			break;
		case '"':
			fputs("\\\"", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		default:
			n = utf8_seq_len(s);
			if (n) {
				fwrite(s, 1, n, f);
				s += n;
				continue;
			}
			fputs(UTF8_REPLACEMENT, f);
		}
		s++;
	}
}

/* name{labels,le="..."} value[ timestamp] */
static void put_sample(struct mw_text *t, const char *suffix, const struct mw_label *l, size_t n,
		       const char *le, const char *value)
{
	FILE *f = t->w.f;
	bool first = true;
	size_t i;

	fprintf(f, "%s%s", t->w.family, suffix);
	for (i = 0; i < n; i++) {
		if (!l[i].value || !*l[i].value)
			continue;
		fprintf(f, "%s%s=\"", first ? "{" : ",", l[i].name);
		om_put_escaped(f, l[i].value);
		fputc('"', f);
		first = false;
	}
	if (le)
		fprintf(f, "%sle=\"%s\"", first ? "{" : ",", le);
	fprintf(f, "%s %s%s\n", first && !le ? "" : "}", value, t->ts);
	t->w.st.lines++;
}

static const char *u64str(char buf[24], uint64_t v)
{
	snprintf(buf, 24, "%" PRIu64, v);
	return buf;
}

/* The shortest digits that read back as @v, with ".0" when they look like an integer. */
static const char *doublestr(char buf[40], double v)
{
	int prec;

	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, 40, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, 40, "%.*g", prec, v);
	if (!strpbrk(buf, ".eEni"))
		strcat(buf, ".0");
	return buf;
}

static void text_family(struct metric_writer *w, const char *name, enum mw_type type,
			const char *unit, const char *help)
{
	fprintf(w->f, "# TYPE %s %s\n", name, type == MW_HISTOGRAM ? "histogram" : "gauge");
	if (unit)
		fprintf(w->f, "# UNIT %s %s\n", name, unit);
	fprintf(w->f, "# HELP %s ", name);
	om_put_escaped(w->f, help);
	fputc('\n', w->f);
}

static void text_gauge(struct metric_writer *w, const struct mw_label *l, size_t n, double v)
{
	char buf[40];

	put_sample((struct mw_text *)w, "", l, n, NULL, doublestr(buf, v));
}

static void text_count(struct metric_writer *w, const struct mw_label *l, size_t n, uint64_t v)
{
	char buf[24];

	put_sample((struct mw_text *)w, "", l, n, NULL, u64str(buf, v));
}

/*
 * _bucket for the bounds listed, then +Inf, then _count and _sum (calls only). Dense, every
 * bound from the first one with a value: buckets of value 0 before the first call are left
 * out, as OpenMetrics allows (a series without some le reads as 0 there in a sum by (le),
 * which is its value), and those with a value are all written, even where they equal the one
 * before: leaving those out would make sums by (le) over several series wrong. Sparse
 * (@h->sparse): only the bounds of om_sparse_bounds(), exact per series, not for such sums.
 */
static void text_histogram(struct metric_writer *w, const struct mw_label *l, size_t n,
			   const struct mw_hist *h)
{
	struct mw_text *t = (struct mw_text *)w;
	uint64_t cum[OM_NR_EDGES], all = 0, bytes = 0;
	bool listed[OM_NR_EDGES];
	char le[32], v[24];
	uint32_t b;
	size_t i;

	(h->bytes ? om_cumulate_bytes : om_cumulate)(h->buckets, cum);
	for (b = 0; b < CP_NBUCKETS; b++) {
		all += h->buckets[b].count;
		bytes += h->buckets[b].bytes;
	}
	if (h->sparse)
		om_sparse_bounds(h->buckets, listed);
	for (i = 0; i < OM_NR_EDGES; i++) {
		if (h->sparse ? !listed[i] : !cum[i])
			continue;
		om_format_le(le, sizeof(le), om_edges[i] - 1);
		put_sample(t, "_bucket", l, n, le, u64str(v, cum[i]));
	}
	/* Lengths without a bucket are in no histogram: +Inf and _count are the bucketed ones. */
	put_sample(t, "_bucket", l, n, "+Inf", u64str(v, h->bytes ? bytes : all));
	if (h->bytes)
		return;
	put_sample(t, "_count", l, n, NULL, u64str(v, all));
	put_sample(t, "_sum", l, n, NULL, u64str(v, bytes));
}

static int text_finish(struct metric_writer *w)
{
	fputs("# EOF\n", w->f);
	return fflush(w->f) || ferror(w->f) ? -EIO : 0;
}

static void text_free(struct metric_writer *w)
{
	free(w);
}

static const struct metric_writer_ops text_ops = {
	.family = text_family,
	.gauge = text_gauge,
	.count = text_count,
	.histogram = text_histogram,
	.finish = text_finish,
	.free = text_free,
};

struct metric_writer *mw_text_new(FILE *f, const char *timestamp)
{
	struct mw_text *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->w.ops = &text_ops;
	t->w.f = f;
	if (timestamp)
		snprintf(t->ts, sizeof(t->ts), " %s", timestamp);
	return &t->w;
}

int mw_close(struct metric_writer *w)
{
	int err;

	if (!w)
		return -ENOMEM;
	err = w->ops->finish(w);
	w->ops->free(w);
	return err;
}
