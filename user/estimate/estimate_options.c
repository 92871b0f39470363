// SPDX-License-Identifier: GPL-2.0
/* estimate_options.c: estimate's options parsed: cache states, thresholds, and a threshold named */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "asmref.h"
#include "estimate_options.h"

int est_cache_parse(const char *s, struct est_cache *c)
{
	double w, sd, d;
	char tail;
	int k;

	memset(c, 0, sizeof(*c));
	k = costmodel_cache_parse(s);
	if (k >= 0) {
		c->w[k] = 1;
		snprintf(c->label, sizeof(c->label), "%s", s);
		return 0;
	}
	if (strncmp(s, "mixed=", 6) || sscanf(s + 6, "%lf,%lf,%lf%c", &w, &sd, &d, &tail) != 3 ||
	    !(w >= 0 && sd >= 0 && d >= 0) || !isfinite(w + sd + d) || w + sd + d <= 0)
		return -EINVAL;
	c->w[COSTMODEL_WARM] = w;
	c->w[COSTMODEL_SRC_FLUSHED] = sd;
	c->w[COSTMODEL_DST_FLUSHED] = d;
	snprintf(c->label, sizeof(c->label), "mixed=%g,%g,%g", w, sd, d);
	return 0;
}

void est_options_default(struct est_options *o)
{
	static const uint64_t dflt[] = { 0,    32,   64,   128,	 256,  512,
					 1024, 1536, 2048, 4096, 8192, POLICY_NEVER };

	memset(o, 0, sizeof(*o));
	est_cache_parse("warm", &o->cache);
	memcpy(o->thresholds, dflt, sizeof(dflt));
	o->nr_thresholds = sizeof(dflt) / sizeof(dflt[0]);
	o->family = -1;
}

void est_options_add_at(struct est_options *o)
{
	size_t i;

	if (!o->at_set)
		return;
	for (i = 0; i < o->nr_thresholds; i++)
		if (o->thresholds[i] == o->at)
			return;
	if (o->nr_thresholds == EST_MAX_THRESHOLDS)
		o->nr_thresholds--;
	for (i = o->nr_thresholds; i > 0 && o->thresholds[i - 1] > o->at; i--)
		o->thresholds[i] = o->thresholds[i - 1];
	o->thresholds[i] = o->at;
	o->nr_thresholds++;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int est_thresholds_parse(const char *s, struct est_options *o, char *why, size_t len)
{
	char *dup = strdup(s), *tok, *save = NULL;
	size_t n = 0, i, out = 0;

	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned long long v;
		char *end;

		if (n == EST_MAX_THRESHOLDS) {
			snprintf(why, len, "more than %d thresholds", EST_MAX_THRESHOLDS);
			goto bad;
		}
		if (!strcmp(tok, "never")) {
			o->thresholds[n++] = POLICY_NEVER;
			continue;
		}
		errno = 0;
		v = strtoull(tok, &end, 0);
		if (end == tok || errno || *tok == '-') {
			snprintf(why, len, "'%s' is not a length or 'never'", tok);
			goto bad;
		}
		if (*end == 'K' || *end == 'k')
			v <<= 10, end++;
		else if (*end == 'M')
			v <<= 20, end++;
		else if (*end == 'G')
			v <<= 30, end++;
		if (*end || v >= (1ULL << 40)) {
			snprintf(why, len, "'%s' is not a length below 1T or 'never'", tok);
			goto bad;
		}
		o->thresholds[n++] = v;
	}
	if (!n) {
		snprintf(why, len, "the list is empty");
		goto bad;
	}
	qsort(o->thresholds, n, sizeof(uint64_t), cmp_u64);
	for (i = 0; i < n; i++)
		if (!out || o->thresholds[out - 1] != o->thresholds[i])
			o->thresholds[out++] = o->thresholds[i];
	o->nr_thresholds = out;
	o->thresholds_given = true;
	free(dup);
	return 0;
bad:
	free(dup);
	return -EINVAL;
}

void est_threshold_str(uint64_t t, char *buf, size_t len)
{
	if (t == POLICY_NEVER)
		snprintf(buf, len, "never");
	else
		snprintf(buf, len, "%llu", (unsigned long long)t);
}

/* --today glibc: the three families glibc serves, unless one already has a replica. */
static int today_glibc(struct est_options *o, char *why, size_t len)
{
	static const enum copy_family fams[] = { CF_MEMCPY, CF_MEMMOVE, CF_MEMSET };
	size_t i;

	for (i = 0; i < sizeof(fams) / sizeof(fams[0]); i++)
		if (o->today[fams[i]] && strcmp(o->today[fams[i]], EST_TODAY_GLIBC)) {
			snprintf(why, len, "%s already has today's code %s: one --today per family",
				 est_family(fams[i])->name, o->today[fams[i]]);
			return -EINVAL;
		}
	for (i = 0; i < sizeof(fams) / sizeof(fams[0]); i++)
		o->today[fams[i]] = EST_TODAY_GLIBC;
	return 0;
}

int est_today_add(struct est_options *o, const char *impl, char *why, size_t len)
{
	const struct asmref_impl *a = asmref_find(impl);
	int f = a ? est_family_parse(a->family) : -1;

	if (!strcmp(impl, EST_TODAY_GLIBC))
		return today_glibc(o, why, len);
	if (f < 0) {
		snprintf(why, len,
			 "not an asm-ref replica (copyprof calibrate --help lists them) nor "
			 "'" EST_TODAY_GLIBC "'");
		return -EINVAL;
	}
	if (f == CF_MEMCPY && o->today[f] && asmref_find(o->today[f]) &&
	    asmref_find(o->today[f])->knob == ASMREF_KNOB_GLIBC_MOVSB)
		o->today[f] = NULL; /* implied by a glibc memmove (below): a memcpy given wins */
	if (o->today[f] && strcmp(o->today[f], a->name)) {
		snprintf(why, len, "%s already has today's code %s: one --today per family",
			 a->family, o->today[f]);
		return -EINVAL;
	}
	o->today[f] = a->name;
	/* glibc's memcpy is its memmove's code: a glibc memmove is memcpy's today too */
	if (a->knob == ASMREF_KNOB_GLIBC_MOVSB && !o->today[CF_MEMCPY])
		o->today[CF_MEMCPY] = a->name;
	return 0;
}

void est_today_args(const struct est_options *o, char *buf, size_t len)
{
	size_t n = 0;
	int f;

	buf[0] = '\0';
	for (f = 0; f < EST_NR_FAMILIES && n < len; f++)
		if (o->today[f] &&
		    (f != CF_MEMMOVE || !o->today[CF_MEMCPY] ||
		     strcmp(o->today[f], o->today[CF_MEMCPY])) &&
		    (f == CF_MEMCPY || strcmp(o->today[f], EST_TODAY_GLIBC)))
			n += (size_t)snprintf(buf + n, len - n, " --today %s", o->today[f]);
}
