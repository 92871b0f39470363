// SPDX-License-Identifier: GPL-2.0
/* estimate_input.c: what estimate reads: profile groups and size tables, as sites per family */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "estimate_exact.h"
#include "estimate_input.h"
#include "lib/line_reader.h"
#include "lib/log.h"
#include "profile/profile.h"
#include "profile/profile_mux.h"

/* "vmlinux:read_zero+0x0 <- vfs_read+0xe7 (kprobe)"; @caller may be NULL. */
static char *site_label(const struct profile_site *s, const char *caller)
{
	const char *t = s->target ? s->target : "?", *slash = strrchr(t, '/');
	char *out, mux[64];

	site_mux_describe(s, mux, sizeof(mux));
	/* A stage label (zdss_flush) says which call site it is better than the offset does. */
	if (asprintf(&out, "%s:%s+0x%llx%s%s%s%s%s (%s%s%s)", slash ? slash + 1 : t,
		     s->symbol ? s->symbol : "?", (unsigned long long)s->offset,
		     caller ? " <- " : "", caller ?: "", s->label ? " [" : "", s->label ?: "",
		     s->label ? "]" : "", s->mechanism ? s->mechanism : "?", *mux ? ", " : "",
		     mux) < 0)
		return NULL;
	return out;
}

char *est_site_label(const struct profile_site *s, const struct profile_caller *c, bool no_caller)
{
	char name[160];

	if (no_caller)
		return site_label(s, "(no caller)");
	if (!c)
		return site_label(s, NULL);
	snprintf(name, sizeof(name), "%s+0x%llx", c->symbol ?: "?", (unsigned long long)c->offset);
	return site_label(s, name);
}

/* @v's buckets: those of @n (bytes @bytes, both CP_NBUCKETS long) with n > 0. 0 or -ENOMEM. */
static int set_buckets(struct est_site *v, const double *n, const double *bytes)
{
	uint32_t b, k = 0;

	for (b = 0; b < CP_NBUCKETS; b++)
		k += n[b] > 0;
	v->buckets = k ? malloc(k * sizeof(*v->buckets)) : NULL;
	if (k && !v->buckets)
		return -ENOMEM;
	for (b = 0, k = 0; b < CP_NBUCKETS; b++)
		if (n[b] > 0)
			v->buckets[k++] =
				(struct est_bucket){ .b = b, .n = n[b], .bytes = bytes[b] };
	v->nr_buckets = k;
	return 0;
}

/* Appends a site row for @s with @slots as its lengths; @caller names who called, if a caller. */
static int add_row(struct est_input *in, const struct profile_site *s,
		   const struct hist_slot *slots, const struct profile_caller *caller,
		   bool no_caller, bool first)
{
	double n[CP_NBUCKETS], bytes[CP_NBUCKETS];
	struct est_site *v;
	uint32_t b;

	/* Doubling: n rows cost O(n) copies, not O(n^2) (bench/scale.sh). */
	if (in->nr_sites >= in->cap_sites) {
		size_t cap = in->nr_sites < 16 ? 16 : 2 * in->nr_sites;

		v = realloc(in->sites, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		in->sites = v;
		in->cap_sites = cap;
	}
	v = &in->sites[in->nr_sites];
	memset(v, 0, sizeof(*v));
	v->label = est_site_label(s, caller, no_caller);
	if (!v->label)
		return -ENOMEM;
	v->family = est_site_family(s);
	v->counted = true; /* calls, or samples: counts either way */
	v->time_weighted = s->sample != NULL;
	v->user = s->mechanism && !strcmp(s->mechanism, "uprobe");
	v->symbol = s->symbol;
	v->running = site_mux_share(s);
	v->ref_scaled = s->mux && s->mux->scaling == MUX_SCALING_REFERENCE;
	if (first && s->align.recorded) /* a site's alignments once, on its first row */
		v->align = &s->align;
	if (first && s->dist.recorded)
		v->dist = &s->dist;
	if (first && s->footprint.recorded)
		v->footprint = &s->footprint;
	if (first && s->order.nr)
		v->order = &s->order;
	for (b = 0; b < CP_NBUCKETS; b++) {
		n[b] = (double)slots[b].count;
		bytes[b] = (double)slots[b].bytes;
	}
	in->nr_sites++;		    /* freed with the input from here on, label and buckets alike */
	if (first && s->exact.nr) { /* as the alignments: once, on the site's first row */
		v->exact = malloc(s->exact.nr * sizeof(*v->exact));
		if (!v->exact)
			return -ENOMEM;
		for (b = 0; b < s->exact.nr; b++)
			v->exact[b] = (struct est_exact){ .len = s->exact.v[b].len,
							  .n = (double)s->exact.v[b].calls };
		v->nr_exact = s->exact.nr;
	}
	return set_buckets(v, n, bytes);
}

/*
 * An entry site with callers becomes one row per caller, so the per-site breakdown says which
 * callers win and which lose; calls no caller took (caller_misses) keep a row of their own.
 * The rows add up to the site, so totals do not change.
 */
static int add_site(struct est_input *in, const struct profile_site *s)
{
	struct hist_slot rest[CP_NBUCKETS], dense[CP_NBUCKETS];
	size_t i;
	int err;

	if (!s->nr_callers) {
		sparse_hist_dense(&s->buckets, dense);
		return add_row(in, s, dense, NULL, false, true);
	}
	for (i = 0; i < s->nr_callers; i++) {
		const struct profile_caller *c = &s->callers[i];

		sparse_hist_dense(&c->buckets, dense);
		err = add_row(in, s, dense, c, false, i == 0);
		if (err)
			return err;
	}
	return profile_site_no_caller(s, rest) ? add_row(in, s, rest, NULL, true, false) : 0;
}

static int group_input(const struct profile *p, const char *name, size_t gi, struct est_input *in)
{
	const struct profile_group *g = &p->groups[gi];
	size_t i;
	int err;

	in->meta.kernel = g->kernel;
	in->meta.cpu_model = g->cpu_model;
	in->meta.cpu_flags = g->cpu_flags;
	in->meta.nr_cpu_flags = g->nr_cpu_flags;
	in->meta.cpu_flags_unknown = g->cpu_flags_unknown;
	in->duration_s = g->duration_s;
	in->sample_hz = g->sample_hz;
	in->nr_hosts = g->nr_hosts;
	if (g->total_samples > g->idle_samples)
		in->total_samples = (double)(g->total_samples - g->idle_samples);
	in->label = strdup(name);
	if (!in->label)
		return -ENOMEM;
	if (asprintf(&in->name, "%s group %zu: %s, kernel %s, %zu host%s, %llu profile%s", name, gi,
		     g->cpu_model ? g->cpu_model : "unknown CPU", g->kernel ? g->kernel : "unknown",
		     g->nr_hosts, g->nr_hosts == 1 ? "" : "s", (unsigned long long)g->profiles,
		     g->profiles == 1 ? "" : "s") < 0)
		return -ENOMEM;
	for (i = 0; i < p->nr_sites; i++) {
		if (p->sites[i].group != gi)
			continue;
		err = add_site(in, &p->sites[i]);
		if (err)
			return err;
	}
	return 0;
}

int est_inputs_from_profile(const struct profile *p, const char *name, struct est_input **out,
			    size_t *nr)
{
	size_t n = p->nr_groups ? p->nr_groups : 1, i;
	struct est_input *in = calloc(n, sizeof(*in));
	int err = 0;

	if (!in)
		return -ENOMEM;
	if (!p->nr_groups) {
		in->meta = p->meta; /* a view: the strings stay the profile's */
		in->glibc = p->glibc;
		in->duration_s = p->meta.duration_s;
		if (p->sample) {
			in->sample_hz = p->sample->hz;
			if (p->sample->total > p->sample->idle)
				in->total_samples = (double)(p->sample->total - p->sample->idle);
		}
		in->name = strdup(name);
		in->label = strdup(name);
		err = in->name && in->label ? 0 : -ENOMEM;
		for (i = 0; !err && i < p->nr_sites; i++)
			err = add_site(in, &p->sites[i]);
	}
	for (i = 0; !err && i < p->nr_groups; i++)
		err = group_input(p, name, i, &in[i]);
	if (err) {
		for (i = 0; i < n; i++)
			est_input_free(&in[i]);
		free(in);
		return err;
	}
	*out = in;
	*nr = n;
	return 0;
}

/* One "size SEP weight" row; 1 parsed, 0 blank or comment, -1 malformed. */
static int parse_row(char *line, unsigned long long *size, double *w)
{
	char *p = line, *end;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p || *p == '#')
		return 0;
	if (!isdigit((unsigned char)*p))
		return -1;
	errno = 0;
	*size = strtoull(p, &end, 10);
	if (errno)
		return -1;
	p = end;
	while (*p == ' ' || *p == '\t' || *p == ',' || *p == ';')
		p++;
	/* A decimal number only: strtod would also take 0x10, inf or nan. */
	if (!isdigit((unsigned char)*p) && *p != '.')
		return -1;
	*w = strtod(p, &end);
	if (end == p || strcspn(p, "xXnNiIpP") < (size_t)(end - p))
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	return *end ? -1 : 1;
}

int est_input_from_hist(const char *path, enum copy_family family, struct est_input *in)
{
	const char *slash = strrchr(path, '/');
	double *n = calloc(CP_NBUCKETS, sizeof(*n)), *bytes = calloc(CP_NBUCKETS, sizeof(*bytes));
	struct est_exact_list ex = { 0 };
	struct est_site *s;
	struct line_reader r;
	size_t lineno = 0, rows = 0;
	char *line;
	int err = 0, more;
	FILE *f;

	memset(in, 0, sizeof(*in));
	f = n && bytes ? fopen(path, "r") : NULL;
	if (!f) {
		err = n && bytes ? -errno : -ENOMEM;
		p_err("cannot read size table %s: %s", path, strerror(-err));
		free(n);
		free(bytes);
		return err;
	}
	line_reader_init(&r, f, path, "a size table", EST_HIST_MAX_LINE, EST_HIST_MAX_BYTES);
	in->sites = s = calloc(1, sizeof(*s));
	in->name = strdup(path);
	in->label = strdup(path);
	if (s)
		s->label = strdup(slash ? slash + 1 : path);
	if (!s || !in->name || !s->label) {
		err = -ENOMEM;
		goto out;
	}
	in->nr_sites = 1;
	s->family = family;
	s->counted = true;
	while ((more = line_reader_next(&r)) > 0) {
		unsigned long long size;
		double w;
		int row = parse_row(line = r.line, &size, &w);
		const char *first = line + strspn(line, " \t");

		lineno++;
		if (strlen(line) != r.len) {
			p_err("%s:%zu: a NUL byte in the line: not a text size table", path,
			      lineno);
			err = -EINVAL;
			goto out;
		}
		if (row == 0)
			continue;
		/* A header such as "size,count" starts with a letter (a quote in CSV). */
		if (row < 0 && !rows && lineno == 1 &&
		    (isalpha((unsigned char)*first) || *first == '"'))
			continue;
		if (row < 0 || !(w >= 0) || !isfinite(w) || size >= (1ULL << 40)) {
			p_err("%s:%zu: expected 'size,count' or 'size<TAB>probability' with a size "
			      "below 2^40 and a weight >= 0",
			      path, lineno);
			err = -EINVAL;
			goto out;
		}
		/* A fractional weight (a probability) is no count: no Poisson error for it. */
		if (w != floor(w))
			s->counted = false;
		n[cp_bucket_of(size)] += w;
		bytes[cp_bucket_of(size)] += w * (double)size;
		if (est_exact_add(&ex, size, w)) {
			err = -ENOMEM;
			goto out;
		}
		rows++;
	}
	if (more < 0) {
		err = more; /* said by line_reader_next() */
	} else if (!rows) {
		p_err("%s has no 'size,count' rows", path);
		err = -EINVAL;
	} else {
		err = set_buckets(s, n, bytes);
		est_exact_finish(&ex);
		s->exact = ex.v;
		s->nr_exact = (uint32_t)ex.nr;
		ex.v = NULL;
	}
out:
	est_exact_list_free(&ex);
	line_reader_free(&r);
	fclose(f);
	free(n);
	free(bytes);
	if (err)
		est_input_free(in);
	return err;
}

void est_input_free(struct est_input *in)
{
	size_t i;

	for (i = 0; i < in->nr_sites; i++) {
		free(in->sites[i].label);
		free(in->sites[i].buckets);
		free(in->sites[i].exact);
	}
	free(in->sites);
	free(in->name);
	free(in->label);
	memset(in, 0, sizeof(*in));
}

bool est_input_has_family(const struct est_input *in, enum copy_family f)
{
	size_t i;

	for (i = 0; i < in->nr_sites; i++)
		if (in->sites[i].family == f && in->sites[i].nr_buckets)
			return true;
	return false;
}

bool est_input_counted(const struct est_input *in, enum copy_family f)
{
	size_t i;

	for (i = 0; i < in->nr_sites; i++)
		if (in->sites[i].family == f && !in->sites[i].counted)
			return false;
	return true;
}
