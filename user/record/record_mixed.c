// SPDX-License-Identifier: GPL-2.0
/* record_mixed.c: of a mixed recording's samples, keep those of the sites no probe took */
#include <string.h>
#include "record_mixed.h"
#include "sites/copy_family.h"

/* "[MODULE:]FUNC" against a sampled site's module and symbol. */
static bool same_func(const char *want, const char *module, const char *symbol)
{
	const char *colon = strchr(want, ':');

	if (!symbol)
		return false;
	if (!colon)
		return !strcmp(want, symbol) && (!module || !strcmp(module, "vmlinux"));
	return !strcmp(colon + 1, symbol) && module &&
	       !strncmp(want, module, (size_t)(colon - want)) && !module[colon - want];
}

/* A sampled leaf against an entry: by name, or by the entry's canonical name (__memcpy). */
static bool same_leaf(const char *want, const char *leaf)
{
	const struct copy_family_leaf *l = copy_family_lookup(want);

	return leaf && (!strcmp(want, leaf) || (l && l->canonical && !strcmp(l->canonical, leaf)));
}

static bool wanted(const struct profile_site *s, const struct record_plan_sampled *want)
{
	size_t i;

	for (i = 0; i < want->nr; i++) {
		if (want->entry[i] ? same_leaf(want->func[i], s->sample->leaf)
				   : same_func(want->func[i], s->target, s->symbol))
			return true;
	}
	return false;
}

size_t record_mixed_keep(struct profile *p, const struct record_plan_sampled *want)
{
	size_t i, out = 0, kept = 0;

	for (i = 0; i < p->nr_sites; i++) {
		struct profile_site *s = &p->sites[i];

		if (s->sample && !wanted(s, want)) {
			profile_site_clear(s);
			continue;
		}
		kept += s->sample != NULL;
		if (out != i) {
			p->sites[out] = *s;
			memset(s, 0, sizeof(*s));
		}
		p->sites[out].id = (uint32_t)out;
		out++;
	}
	p->nr_sites = out;
	return kept;
}
