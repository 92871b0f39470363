// SPDX-License-Identifier: GPL-2.0
/* mw_text.c: the metric writers for OpenMetrics 1.0 text and Prometheus text 0.0.4, fixed bounds */
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
	bool v004;   /* Prometheus text 0.0.4: HELP before TYPE, no UNIT, no "# EOF" */
	/* One series' labels rendered once (k="v",...), for each of its lines. */
	FILE *lf;
	char *labels;
	size_t labels_len;
	char le[OM_NR_EDGES][24]; /* each bound as le="..." writes it */
};

/*
 * @s escaped: \\ and \n, and \" too but in 0.0.4's HELP (@quotes false), whose parser refuses
 * it; an invalid UTF-8 byte becomes U+FFFD. Runs that need nothing are written in one call.
 */
static void put_escaped(FILE *f, const char *s, bool quotes)
{
	const char *run = s;
	size_t n;

	while (*s) {
		unsigned char c = (unsigned char)*s;
		const char *with;

		if (c < 0x80 && c != '\\' && c != '\n' && (c != '"' || !quotes)) {
			s++;
			continue;
		}
		if (c >= 0x80 && (n = utf8_seq_len(s))) {
			s += n;
			continue;
		}
		fwrite_unlocked(run, 1, (size_t)(s - run), f);
		with = c == '\\'   ? "\\\\"
		       : c == '\n' ? "\\n"
		       : c == '"'  ? "\\\""
				   : UTF8_REPLACEMENT;
		fputs_unlocked(with, f);
		run = ++s;
	}
	fwrite_unlocked(run, 1, (size_t)(s - run), f);
}

void om_put_escaped(FILE *f, const char *s)
{
	put_escaped(f, s, true);
}

/* @l rendered into t->labels as k="v",... (empty values left out); "" when there are none. */
static const char *render_labels(struct mw_text *t, const struct mw_label *l, size_t n)
{
	bool first = true;
	size_t i;

	if (!t->lf && !(t->lf = open_memstream(&t->labels, &t->labels_len)))
		return NULL;
	rewind(t->lf);
	for (i = 0; i < n; i++) {
		if (!l[i].value || !*l[i].value)
			continue;
		if (!first)
			fputc_unlocked(',', t->lf);
		fputs_unlocked(l[i].name, t->lf);
		fputs_unlocked("=\"", t->lf);
		put_escaped(t->lf, l[i].value, true);
		fputc_unlocked('"', t->lf);
		first = false;
	}
	fputc_unlocked('\0', t->lf);
	return fflush(t->lf) ? NULL : t->labels;
}

/* name{labels,le="..."} value[ timestamp] (@labels from render_labels(); NULL: no memory) */
static void put_sample(struct mw_text *t, const char *suffix, const char *labels, const char *le,
		       const char *value)
{
	FILE *f = t->w.f;

	if (!labels)
		return;
	fputs_unlocked(t->w.family, f);
	fputs_unlocked(suffix, f);
	if (*labels || le) {
		fputc_unlocked('{', f);
		fputs_unlocked(labels, f);
		if (le) {
			if (*labels)
				fputc_unlocked(',', f);
			fputs_unlocked("le=\"", f);
			fputs_unlocked(le, f);
			fputc_unlocked('"', f);
		}
		fputc_unlocked('}', f);
	}
	fputc_unlocked(' ', f);
	fputs_unlocked(value, f);
	fputs_unlocked(t->ts, f);
	fputc_unlocked('\n', f);
	t->w.st.lines++;
}

static const char *u64str(char buf[24], uint64_t v)
{
	char *p = buf + 23;

	*p = 0;
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	return p;
}

/*
 * The shortest digits that read back as @v, with ".0" when they look like an integer. Tried
 * from 15 digits up: a double that reads back from p <= 15 digits rounds to those p digits at
 * 15 too (its error is below half of 15 digits' step), and %g drops the zeros that pad them,
 * so at most 3 tries give the shortest text (integers as 40.0, not 4e+01).
 */
static const char *doublestr(char buf[40], double v)
{
	int prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, 40, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(buf, 40, "%.17g", v);
	if (!strpbrk(buf, ".eEni"))
		strcat(buf, ".0");
	return buf;
}

static void text_family(struct metric_writer *w, const char *name, enum mw_type type,
			const char *unit, const char *help)
{
	const char *t = type == MW_HISTOGRAM ? "histogram" : "gauge";

	if (((struct mw_text *)w)->v004) {
		fprintf(w->f, "# HELP %s ", name);
		put_escaped(w->f, help, false);
		fprintf(w->f, "\n# TYPE %s %s\n", name, t);
		return;
	}
	fprintf(w->f, "# TYPE %s %s\n", name, t);
	if (unit)
		fprintf(w->f, "# UNIT %s %s\n", name, unit);
	fprintf(w->f, "# HELP %s ", name);
	om_put_escaped(w->f, help);
	fputc('\n', w->f);
}

static void text_gauge(struct metric_writer *w, const struct mw_label *l, size_t n, double v)
{
	char buf[40];

	struct mw_text *t = (struct mw_text *)w;

	put_sample(t, "", render_labels(t, l, n), NULL, doublestr(buf, v));
}

static void text_count(struct metric_writer *w, const struct mw_label *l, size_t n, uint64_t v)
{
	char buf[24];

	struct mw_text *t = (struct mw_text *)w;

	put_sample(t, "", render_labels(t, l, n), NULL, u64str(buf, v));
}

/*
 * _bucket for the bounds listed, then +Inf, then _count and _sum (calls only). Dense, every
 * bound from the first one with a value: buckets of value 0 before the first call are left
 * out, as OpenMetrics allows (a series without some le reads as 0 there in a sum by (le),
 * which is its value), and those with a value are all written, even where they equal the one
 * before: leaving those out would make sums by (le) over several series wrong. Sparse
 * (@h->sparse): only the bounds of om_sparse_bounds(), exact per series, not for such sums.
 * Coarse (@h->coarse, the agent's): the bounds up to OM_LIVE_NR_EDGES only, the same for
 * every series, so sums by (le) stay right.
 */
static void text_histogram(struct metric_writer *w, const struct mw_label *l, size_t n,
			   const struct mw_hist *h)
{
	struct mw_text *t = (struct mw_text *)w;
	uint64_t cum[OM_NR_EDGES], all = 0, bytes = 0;
	bool listed[OM_NR_EDGES];
	char v[24];
	uint32_t b;
	size_t i;

	const char *labels = render_labels(t, l, n);

	(h->bytes ? om_cumulate_bytes : om_cumulate)(h->buckets, cum);
	for (b = 0; b < CP_NBUCKETS; b++) {
		all += h->buckets[b].count;
		bytes += h->buckets[b].bytes;
	}
	if (h->sparse)
		om_sparse_bounds(h->buckets, listed);
	for (i = 0; i < (h->coarse ? OM_LIVE_NR_EDGES : OM_NR_EDGES); i++) {
		if (h->sparse ? !listed[i] : !cum[i])
			continue;
		put_sample(t, "_bucket", labels, t->le[i], u64str(v, cum[i]));
	}
	/* Lengths without a bucket are in no histogram: +Inf and _count are the bucketed ones. */
	put_sample(t, "_bucket", labels, "+Inf", u64str(v, h->bytes ? bytes : all));
	if (h->bytes)
		return;
	put_sample(t, "_count", labels, NULL, u64str(v, all));
	put_sample(t, "_sum", labels, NULL, u64str(v, bytes));
}

static int text_finish(struct metric_writer *w)
{
	if (!((struct mw_text *)w)->v004)
		fputs("# EOF\n", w->f);
	return fflush(w->f) || ferror(w->f) ? -EIO : 0;
}

static void text_free(struct metric_writer *w)
{
	struct mw_text *t = (struct mw_text *)w;

	if (t->lf)
		fclose(t->lf);
	free(t->labels);
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
	size_t i;

	if (!t)
		return NULL;
	t->w.ops = &text_ops;
	t->w.f = f;
	if (timestamp)
		snprintf(t->ts, sizeof(t->ts), " %s", timestamp);
	for (i = 0; i < OM_NR_EDGES; i++)
		om_format_le(t->le[i], sizeof(t->le[i]), om_edges[i] - 1);
	return &t->w;
}

struct metric_writer *mw_text004_new(FILE *f)
{
	struct metric_writer *w = mw_text_new(f, NULL);

	if (w)
		((struct mw_text *)w)->v004 = true;
	return w;
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
