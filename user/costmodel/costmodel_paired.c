// SPDX-License-Identifier: GPL-2.0
/* costmodel_paired.c: a cost model's paired measurements of mixes, sitting by sitting */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "costmodel_paired.h"
#include "lib/log.h"
#include "mixmeas_pool.h"

static bool of(const struct mixmeas *e, const char *family, const char *digest, const char *site)
{
	return !strcmp(e->family, family) && !strcmp(e->digest, digest) &&
	       (site ? e->site && !strcmp(e->site, site) : !e->site);
}

/* Drops entry @i, keeping the others in their order. */
static void drop(struct costmodel *m, size_t i)
{
	mixmeas_free(&m->paired[i]);
	memmove(&m->paired[i], &m->paired[i + 1], (m->nr_paired - i - 1) * sizeof(*m->paired));
	m->nr_paired--;
}

/* A sitting of @mm's mix in @mm's own condition (cache state and working set). */
static bool cell_of(const struct mixmeas *e, const struct mixmeas *mm)
{
	return of(e, mm->family, mm->digest, mm->site) && mixmeas_same_condition(e, mm);
}

int costmodel_store_paired(struct costmodel *m, struct mixmeas *mm)
{
	struct mixmeas *v;
	const char *why;
	size_t i, kept = 0;

	for (i = 0; i < m->nr_paired;) {
		if (!of(&m->paired[i], mm->family, mm->digest, mm->site)) {
			i++;
			continue;
		}
		why = mixmeas_why_apart(&m->paired[i], mm);
		if (why && !strcmp(why, MIXMEAS_OTHER_CELL)) {
			i++; /* another condition of the matrix: kept beside, never pooled */
			continue;
		}
		if (why) {
			/* another measurement of the mix: the new one replaces it */
			p_info("a stored sitting of this %s mix was made under %s: the new "
			       "measurement replaces it, never pooled with it",
			       mm->family, why);
			drop(m, i);
			continue;
		}
		kept++;
		i++;
	}
	for (i = 0; kept >= MIXMEAS_MAX_SITTINGS && i < m->nr_paired;)
		if (cell_of(&m->paired[i], mm)) {
			drop(m, i); /* the oldest first */
			kept--;
		} else {
			i++;
		}
	v = realloc(m->paired, (m->nr_paired + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	m->paired = v;
	m->paired[m->nr_paired++] = *mm;
	memset(mm, 0, sizeof(*mm));
	return (int)kept + 1;
}

size_t costmodel_paired_sittings(const struct costmodel *m, const char *family, const char *digest,
				 const char *site, const struct mixmeas *like,
				 const struct mixmeas **out, size_t max)
{
	const struct mixmeas *first = NULL;
	size_t i, n = 0;

	for (i = 0; i < m->nr_paired && n < max; i++) {
		const struct mixmeas *e = &m->paired[i];

		if (!of(e, family, digest, site))
			continue;
		if (!first)
			first = like ?: e;
		if (mixmeas_same_condition(e, first))
			out[n++] = e;
	}
	return n;
}

size_t costmodel_paired_conditions(const struct costmodel *m, const char *family,
				   const char *digest, const char *site, const struct mixmeas **out,
				   size_t max)
{
	size_t i, k, n = 0;

	for (i = 0; i < m->nr_paired && n < max; i++) {
		const struct mixmeas *e = &m->paired[i];

		if (!of(e, family, digest, site))
			continue;
		for (k = 0; k < n && !mixmeas_same_condition(out[k], e); k++)
			;
		if (k == n)
			out[n++] = e;
	}
	return n;
}
