// SPDX-License-Identifier: GPL-2.0
/* mw_proto.c: the metric writer for Prometheus's delimited protobuf, with native histograms */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "metric_writer.h"
#include "proto/prometheus_metrics.pb-c.h"

#define NATIVE_BUCKETS 64 /* index i: upper bound 2^i */
/*
 * Go's client's default, sent only when a histogram is empty (Prometheus takes one with
 * neither buckets nor a zero threshold for a classic one); otherwise the threshold is 0 and the
 * zero bucket holds length 0 only.
 */
#define ZERO_THRESHOLD 2.938735877055719e-39
/* A gap this short costs less as zero deltas than as a new span. */
#define MAX_GAP 2

typedef Io__Prometheus__Client__MetricFamily Family;
typedef Io__Prometheus__Client__Metric Metric;

/* Every allocation of one exposition, freed together at the end. */
struct chunk {
	struct chunk *next;
	size_t used, cap;
	max_align_t data[];
};

struct mw_proto {
	struct metric_writer w;
	struct chunk *chunks;
	Family **families;
	size_t nr_families, cap_families;
	size_t cap_metrics; /* of the last family */
	bool oom;
};

static void *arena(struct mw_proto *p, size_t n)
{
	struct chunk *c = p->chunks;

	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	if (!c || c->used + n > c->cap) {
		size_t cap = n > 65536 ? n : 65536;

		c = malloc(sizeof(*c) + cap);
		if (!c) {
			p->oom = true;
			return NULL;
		}
		c->next = p->chunks;
		c->used = 0;
		c->cap = cap;
		p->chunks = c;
	}
	c->used += n;
	return memset((char *)c->data + c->used - n, 0, n);
}

static char *arena_str(struct mw_proto *p, const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = arena(p, n);

	return d ? memcpy(d, s, n) : NULL;
}

static void proto_family(struct metric_writer *w, const char *name, enum mw_type type,
			 const char *unit, const char *help)
{
	struct mw_proto *p = (struct mw_proto *)w;
	Family *f = arena(p, sizeof(*f));

	(void)unit; /* the protobuf format of Prometheus 2.x has no unit */
	if (!f)
		return;
	if (p->nr_families == p->cap_families) {
		size_t cap = p->cap_families ? 2 * p->cap_families : 32;
		Family **v = realloc(p->families, cap * sizeof(*v));

		if (!v) {
			p->oom = true;
			return;
		}
		p->families = v;
		p->cap_families = cap;
	}
	io__prometheus__client__metric_family__init(f);
	f->name = arena_str(p, name);
	f->help = arena_str(p, help);
	f->has_type = true;
	f->type = type == MW_HISTOGRAM ? IO__PROMETHEUS__CLIENT__METRIC_TYPE__HISTOGRAM
				       : IO__PROMETHEUS__CLIENT__METRIC_TYPE__GAUGE;
	p->families[p->nr_families++] = f;
	p->cap_metrics = 0;
}

/* A new metric of the current family with labels @l (the empty ones left out). */
static Metric *add_metric(struct mw_proto *p, const struct mw_label *l, size_t n)
{
	Family *f = p->nr_families ? p->families[p->nr_families - 1] : NULL;
	Metric *m;
	size_t i, k = 0;

	if (!f || p->oom)
		return NULL;
	if (f->n_metric == p->cap_metrics) {
		size_t cap = p->cap_metrics ? 2 * p->cap_metrics : 16;
		Metric **v = arena(p, cap * sizeof(*v));

		if (!v)
			return NULL;
		if (f->n_metric)
			memcpy(v, f->metric, f->n_metric * sizeof(*v));
		f->metric = v;
		p->cap_metrics = cap;
	}
	m = arena(p, sizeof(*m));
	if (!m)
		return NULL;
	io__prometheus__client__metric__init(m);
	m->label = arena(p, (n ?: 1) * sizeof(*m->label));
	for (i = 0; m->label && i < n; i++) {
		Io__Prometheus__Client__LabelPair *lp;

		if (!l[i].value || !*l[i].value)
			continue;
		lp = arena(p, sizeof(*lp));
		if (!lp)
			return NULL;
		io__prometheus__client__label_pair__init(lp);
		lp->name = arena_str(p, l[i].name);
		lp->value = arena_str(p, l[i].value);
		m->label[k++] = lp;
	}
	m->n_label = k;
	f->metric[f->n_metric++] = m;
	p->w.st.lines++;
	return p->oom ? NULL : m;
}

static void proto_gauge(struct metric_writer *w, const struct mw_label *l, size_t n, double v)
{
	struct mw_proto *p = (struct mw_proto *)w;
	Metric *m = add_metric(p, l, n);
	Io__Prometheus__Client__Gauge *g = m ? arena(p, sizeof(*g)) : NULL;

	if (!g)
		return;
	io__prometheus__client__gauge__init(g);
	g->has_value = true;
	g->value = v;
	m->gauge = g;
}

static void proto_count(struct metric_writer *w, const struct mw_label *l, size_t n, uint64_t v)
{
	proto_gauge(w, l, n, (double)v);
}

/* Native bucket of copyprof bucket @b: lengths [2^(i-1), 2^i) are bucket i; 0: length 0. */
static unsigned int native_index(uint32_t b)
{
	uint64_t lo = hist_bucket_lo(b);

	return lo ? 64 - (unsigned int)__builtin_clzll(lo) : 0;
}

/* Spans and deltas of @count[1..63] into @h: runs of buckets, short gaps kept as zeros. */
static int put_spans(struct mw_proto *p, Io__Prometheus__Client__Histogram *h,
		     const uint64_t *count)
{
	unsigned int i, j, end = 0;
	uint64_t prev = 0;

	h->positive_span = arena(p, NATIVE_BUCKETS * sizeof(*h->positive_span));
	h->positive_delta = arena(p, NATIVE_BUCKETS * sizeof(*h->positive_delta));
	if (!h->positive_span || !h->positive_delta)
		return -ENOMEM;
	for (i = 1; i < NATIVE_BUCKETS; i = j) {
		Io__Prometheus__Client__BucketSpan *s;
		unsigned int last;

		if (!count[i]) {
			j = i + 1;
			continue;
		}
		/* The run from i to the last bucket with calls before a gap longer than MAX_GAP. */
		for (last = j = i; j < NATIVE_BUCKETS && j <= last + MAX_GAP + 1; j++)
			if (count[j])
				last = j;
		j = last + 1;
		s = arena(p, sizeof(*s));
		if (!s)
			return -ENOMEM;
		io__prometheus__client__bucket_span__init(s);
		s->has_offset = s->has_length = true;
		s->offset = (int32_t)(h->n_positive_span ? i - end : i);
		s->length = last - i + 1;
		h->positive_span[h->n_positive_span++] = s;
		for (; i <= last; i++) {
			h->positive_delta[h->n_positive_delta++] = (int64_t)(count[i] - prev);
			prev = count[i];
		}
		end = last + 1;
	}
	return 0;
}

static void proto_histogram(struct metric_writer *w, const struct mw_label *l, size_t n,
			    const struct mw_hist *hist)
{
	struct mw_proto *p = (struct mw_proto *)w;
	Metric *m = add_metric(p, l, n);
	Io__Prometheus__Client__Histogram *h = m ? arena(p, sizeof(*h)) : NULL;
	uint64_t count[NATIVE_BUCKETS] = { 0 }, total = 0, bytes = 0;
	uint32_t b;

	if (!h)
		return;
	for (b = 0; b < CP_NBUCKETS; b++) {
		uint64_t v = hist->bytes ? hist->buckets[b].bytes : hist->buckets[b].count;

		count[native_index(b)] += v;
		total += v;
		bytes += hist->buckets[b].bytes;
	}
	/* What is left out reads as 0: schema 0, a sum of 0 (the bytes twin has none), ... */
	io__prometheus__client__histogram__init(h);
	h->has_sample_count = true;
	h->sample_count = total;
	h->has_sample_sum = !hist->bytes;
	h->sample_sum = (double)bytes;
	h->has_zero_count = count[0] != 0;
	h->zero_count = count[0];
	if (put_spans(p, h, count))
		p->oom = true;
	/* ... but a histogram with no bucket is taken for a native one by its zero threshold. */
	h->has_zero_threshold = !h->n_positive_span && !count[0];
	h->zero_threshold = ZERO_THRESHOLD;
	m->histogram = h;
}

static int put_varint(FILE *f, size_t v)
{
	do {
		if (fputc((int)((v & 0x7f) | (v > 0x7f ? 0x80 : 0)), f) == EOF)
			return -EIO;
		v >>= 7;
	} while (v);
	return 0;
}

static int proto_finish(struct metric_writer *w)
{
	struct mw_proto *p = (struct mw_proto *)w;
	uint8_t *buf = NULL;
	size_t i, cap = 0;
	int err = p->oom ? -ENOMEM : 0;

	/* Delimited: each family's length as a varint, then the family. */
	for (i = 0; !err && i < p->nr_families; i++) {
		size_t n = io__prometheus__client__metric_family__get_packed_size(p->families[i]);

		if (n > cap) {
			uint8_t *nb = realloc(buf, n);

			if (!nb) {
				err = -ENOMEM;
				break;
			}
			buf = nb;
			cap = n;
		}
		io__prometheus__client__metric_family__pack(p->families[i], buf);
		if (put_varint(w->f, n) || fwrite(buf, 1, n, w->f) != n)
			err = -EIO;
	}
	free(buf);
	if (!err && (fflush(w->f) || ferror(w->f)))
		err = -EIO;
	return err;
}

static void proto_free(struct metric_writer *w)
{
	struct mw_proto *p = (struct mw_proto *)w;
	struct chunk *c, *n;

	for (c = p->chunks; c; c = n) {
		n = c->next;
		free(c);
	}
	free(p->families);
	free(p);
}

static const struct metric_writer_ops proto_ops = {
	.family = proto_family,
	.gauge = proto_gauge,
	.count = proto_count,
	.histogram = proto_histogram,
	.finish = proto_finish,
	.free = proto_free,
};

struct metric_writer *mw_proto_new(FILE *f)
{
	struct mw_proto *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->w.ops = &proto_ops;
	p->w.f = f;
	return &p->w;
}
