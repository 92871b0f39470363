// SPDX-License-Identifier: GPL-2.0
/* export_openmetrics.c: per-site length histograms as OpenMetrics text, totals of the recording */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export_openmetrics.h"
#include "estimate/estimate_family.h"
#include "export_origin.h"
#include "lib/log.h"
#include "lib/utf8.h"

const uint64_t om_edges[OM_NR_EDGES] = {
	1,	    2,		4,	    8,		16,	    32,		64,
	128,	    256,	512,	    1024,	1536,	    2048,	4096,
	8192,	    1ULL << 14, 1ULL << 15, 1ULL << 16, 1ULL << 17, 1ULL << 18, 1ULL << 19,
	1ULL << 20, 1ULL << 21, 1ULL << 22, 1ULL << 23, 1ULL << 24, 1ULL << 25, 1ULL << 26,
	1ULL << 27, 1ULL << 28, 1ULL << 29, 1ULL << 30, 1ULL << 31, 1ULL << 32,
};

#define FAMILY_CALLS OM_FAMILY_CALLS
#define FAMILY_SAMPLED "copyprof_sampled_copy_length_bytes"
#define FAMILY_SAMPLES "copyprof_copy_samples"
#define FAMILY_DURATION "copyprof_recording_duration_seconds"
#define MAX_LABELS 13

void om_cumulate(const struct hist_slot *buckets, uint64_t cum[OM_NR_EDGES])
{
	uint64_t below = 0;
	uint32_t b = 0;
	size_t i;

	/* Each edge starts a bucket, so "below the edge" is "in an earlier bucket". */
	for (i = 0; i < OM_NR_EDGES; i++) {
		for (; b < cp_bucket_of(om_edges[i]); b++)
			below += buckets[b].count;
		cum[i] = below;
	}
}

void om_format_le(char *buf, size_t size, uint64_t v)
{
	char digits[24];
	int len, last;

	len = snprintf(digits, sizeof(digits), "%" PRIu64, v);
	/* Go's shortest %g switches to an exponent at 1e+06 (exponent >= 6 digits' worth). */
	if (len <= 6) {
		snprintf(buf, size, "%s.0", digits);
		return;
	}
	for (last = len - 1; last > 0 && digits[last] == '0'; last--)
		;
	if (last)
		snprintf(buf, size, "%c.%.*se+%02d", digits[0], last, digits + 1, len - 1);
	else
		snprintf(buf, size, "%ce+%02d", digits[0], len - 1);
}

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

struct om_label {
	const char *name;
	const char *value; /* NULL or "": left out (OpenMetrics reads them as absent) */
};

struct om_writer {
	FILE *f;
	char ts[32]; /* " 1796029200" with --timestamp, else "" */
	struct om_stats *st;
	bool live;
};

/* name{labels,le="..."} value[ timestamp] */
static void put_sample(struct om_writer *w, const char *name, const char *suffix,
		       const struct om_label *l, size_t n, const char *le, const char *value)
{
	bool first = true;
	size_t i;

	fprintf(w->f, "%s%s", name, suffix);
	for (i = 0; i < n; i++) {
		if (!l[i].value || !*l[i].value)
			continue;
		fprintf(w->f, "%s%s=\"", first ? "{" : ",", l[i].name);
		om_put_escaped(w->f, l[i].value);
		fputc('"', w->f);
		first = false;
	}
	if (le)
		fprintf(w->f, "%sle=\"%s\"", first ? "{" : ",", le);
	fprintf(w->f, "%s %s%s\n", first && !le ? "" : "}", value, w->ts);
	w->st->lines++;
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

void om_put_family(FILE *f, const char *name, const char *type, const char *unit, const char *help)
{
	fprintf(f, "# TYPE %s %s\n", name, type);
	if (unit)
		fprintf(f, "# UNIT %s %s\n", name, unit);
	fprintf(f, "# HELP %s ", name);
	om_put_escaped(f, help);
	fputc('\n', f);
}

/* The labels of a site's series: who it is, then where it was recorded. */
static size_t site_labels(const struct om_writer *w, const struct profile *p,
			  const struct profile_site *s, struct om_label *l, char *id, char *off)
{
	struct export_origin o;
	size_t n = 0;

	export_origin_of(p, s->group, &o);
	sprintf(id, "%u", s->id);
	sprintf(off, "0x%" PRIx64, s->offset);
	l[n++] = (struct om_label){ "site", id };
	l[n++] = (struct om_label){ "symbol", s->symbol };
	l[n++] = (struct om_label){ "offset", off };
	l[n++] = (struct om_label){ "target", s->target };
	l[n++] = (struct om_label){ "mechanism", s->mechanism };
	l[n++] = (struct om_label){ "label", s->label };
	if (s->sample) {
		l[n++] = (struct om_label){ "leaf", s->sample->leaf };
		l[n++] = (struct om_label){ "family", s->sample->family };
	} else if (w->live) {
		l[n++] = (struct om_label){ "family", est_family(est_site_family(s))->name };
	}
	l[n++] = (struct om_label){ "kernel", o.kernel };
	l[n++] = (struct om_label){ "cpu_model", o.cpu_model };
	l[n++] = (struct om_label){ "host", o.host };
	return n;
}

/* Bytes of @buckets' calls whose length is below each edge (the byte-weighted cumulation). */
static void cumulate_bytes(const struct hist_slot *buckets, uint64_t cum[OM_NR_EDGES])
{
	uint64_t below = 0;
	uint32_t b = 0;
	size_t i;

	for (i = 0; i < OM_NR_EDGES; i++) {
		for (; b < cp_bucket_of(om_edges[i]); b++)
			below += buckets[b].bytes;
		cum[i] = below;
	}
}

/* _bucket lines for every bound and +Inf, then _count and _sum unless @total is NULL. */
static void put_buckets(struct om_writer *w, const char *family, const struct om_label *l, size_t n,
			const uint64_t cum[OM_NR_EDGES], uint64_t all, const uint64_t *total)
{
	char le[32], v[24];
	size_t i;

	for (i = 0; i < OM_NR_EDGES; i++) {
		om_format_le(le, sizeof(le), om_edges[i] - 1);
		put_sample(w, family, "_bucket", l, n, le, u64str(v, cum[i]));
	}
	/* Lengths without a bucket are in no histogram: +Inf and _count are the bucketed ones. */
	put_sample(w, family, "_bucket", l, n, "+Inf", u64str(v, all));
	if (!total)
		return;
	put_sample(w, family, "_count", l, n, NULL, u64str(v, all));
	put_sample(w, family, "_sum", l, n, NULL, u64str(v, *total));
}

static void put_histogram(struct om_writer *w, const char *family, const struct profile *p,
			  const struct profile_site *s)
{
	struct om_label l[MAX_LABELS];
	uint64_t cum[OM_NR_EDGES], count = 0, bytes = 0;
	char id[16], off[24];
	size_t n = site_labels(w, p, s, l, id, off);
	uint32_t b;

	om_cumulate(s->buckets, cum);
	for (b = 0; b < CP_NBUCKETS; b++) {
		count += s->buckets[b].count;
		bytes += s->buckets[b].bytes;
	}
	put_buckets(w, family, l, n, cum, count, &bytes);
	w->st->series++;
}

/*
 * The byte-weighted twin: each copied byte observed at its copy's length, so a bound's
 * bucket is the bytes of the calls below it. With the calls' histogram it gives each range's
 * mean length, which estimate --prometheus needs. No _sum (it would be the sum of squared
 * lengths, which the kernel does not count), hence no _count either, as OpenMetrics allows.
 */
static void put_bytes_histograms(struct om_writer *w, const struct profile *p)
{
	uint64_t cum[OM_NR_EDGES], bytes;
	struct om_label l[MAX_LABELS];
	char id[16], off[24];
	size_t i, n;
	uint32_t b;

	om_put_family(w->f, OM_FAMILY_BYTES, "histogram", "bytes",
		      "Bytes copied at a copy site by the length of their copy: le=L counts the "
		      "bytes of calls of length <= L; live counters since the agent started.");
	for (i = 0; i < p->nr_sites; i++) {
		const struct profile_site *s = &p->sites[i];

		if (export_site_is_sampled(s))
			continue;
		n = site_labels(w, p, s, l, id, off);
		cumulate_bytes(s->buckets, cum);
		for (b = 0, bytes = 0; b < CP_NBUCKETS; b++)
			bytes += s->buckets[b].bytes;
		put_buckets(w, OM_FAMILY_BYTES, l, n, cum, bytes, NULL);
	}
}

static void put_histograms(struct om_writer *w, const struct profile *p, bool sampled)
{
	bool any = false;
	size_t i;

	for (i = 0; i < p->nr_sites; i++)
		any |= export_site_is_sampled(&p->sites[i]) == sampled;
	if (!any)
		return;
	if (sampled && w->live)
		om_put_family(
			w->f, FAMILY_SAMPLED, "histogram", "bytes",
			"Samples (agent --sample, mechanism sample) inside copies of each length "
			"in "
			"bytes where the length was recovered: time-weighted, not calls; live "
			"counters since the agent started.");
	else if (sampled)
		om_put_family(
			w->f, FAMILY_SAMPLED, "histogram", "bytes",
			"Samples (record --sample, import-perf) inside copies of each length in "
			"bytes: time-weighted, not calls; totals over the recording, not live.");
	else if (w->live)
		om_put_family(
			w->f, FAMILY_CALLS, "histogram", "bytes",
			"Calls of a copy site by length in bytes, live counters since the agent "
			"started; le is a copyprof bucket edge minus 1, so every count is exact.");
	else
		om_put_family(
			w->f, FAMILY_CALLS, "histogram", "bytes",
			"Calls of a copy site by length in bytes, totals over the recording (not "
			"live); le is a copyprof bucket edge minus 1, so every count is exact.");
	for (i = 0; i < p->nr_sites; i++)
		if (export_site_is_sampled(&p->sites[i]) == sampled)
			put_histogram(w, sampled ? FAMILY_SAMPLED : FAMILY_CALLS, p, &p->sites[i]);
	if (!sampled && w->live)
		put_bytes_histograms(w, p);
	if (!sampled)
		return;
	/*
	 * A gauge, not a counter: a counter's sample is named <family>_total, which the
	 * Prometheus text format (textfile collectors, promtool) takes for another family.
	 */
	om_put_family(w->f, FAMILY_SAMPLES, "gauge", NULL,
		      w->live ? "Samples of a sampled copy site, with a known length or not, since "
				"the agent started: samples, not calls (it only grows)."
			      : "Samples of a sampled copy site, with a known length or not, over "
				"the whole recording.");
	for (i = 0; i < p->nr_sites; i++) {
		const struct profile_site *s = &p->sites[i];
		struct om_label l[MAX_LABELS];
		char id[16], off[24], v[24];
		size_t n;

		if (!export_site_is_sampled(s))
			continue;
		n = site_labels(w, p, s, l, id, off);
		put_sample(w, FAMILY_SAMPLES, "", l, n, NULL, u64str(v, s->calls));
	}
}

/* The recorded time per group, so that totals can be turned into rates. */
static void put_durations(struct om_writer *w, const struct profile *p)
{
	struct export_origin o;
	char group[16], v[40];
	uint32_t g;

	om_put_family(w->f, FAMILY_DURATION, "gauge", "seconds",
		      "Seconds recorded, summed over a group's recordings (host-seconds).");
	for (g = 0; g < export_nr_groups(p); g++) {
		struct om_label l[4];

		export_origin_of(p, g, &o);
		snprintf(group, sizeof(group), "%u", g);
		l[0] = (struct om_label){ "group", p->nr_groups ? group : NULL };
		l[1] = (struct om_label){ "kernel", o.kernel };
		l[2] = (struct om_label){ "cpu_model", o.cpu_model };
		l[3] = (struct om_label){ "host", o.host };
		put_sample(w, FAMILY_DURATION, "", l, 4, NULL, doublestr(v, o.duration_s));
	}
}

int export_openmetrics(const struct profile *p, FILE *f, const struct om_opts *o,
		       struct om_stats *st)
{
	struct om_writer w = { .f = f, .st = st, .live = o->live };
	int64_t start;

	memset(st, 0, sizeof(*st));
	if (o->timestamp) {
		if (!export_start_time(p, &start)) {
			p_err("--timestamp: the profile has no start time (meta.start)");
			return -EINVAL;
		}
		snprintf(w.ts, sizeof(w.ts), " %" PRId64, start);
	}
	put_histograms(&w, p, false);
	put_histograms(&w, p, true);
	put_durations(&w, p);
	if (!o->live)
		fputs("# EOF\n", f);
	return fflush(f) || ferror(f) ? -EIO : 0;
}
