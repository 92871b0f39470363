// SPDX-License-Identifier: GPL-2.0
/* record_plan.c: the planner's covered sites become record's probe sites */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/log.h"
#include "sites/preset.h"
#include "planner.h"
#include "record_plan.h"
#include "record_sample.h"

/* Adds the function of uncovered site @ps once. */
static void add_sampled(struct record_plan_sampled *s, const struct plan_site *ps)
{
	const struct target_spec *t = &ps->site.spec;
	char *name;
	size_t i;

	if (asprintf(&name, "%s%s%s", t->path ?: "", t->path ? ":" : "", t->symbol) < 0)
		return;
	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->func[i], name) && s->entry[i] == !t->offset && !ps->copy_target)
			break;
	if (i < s->nr || s->nr == CP_MAX_SITES) {
		free(name);
		return;
	}
	s->func[s->nr] = name;
	s->entry[s->nr++] = !ps->copy_target; /* an entry probe has no call target */
}

void record_plan_sampled_free(struct record_plan_sampled *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		free(s->func[i]);
	s->nr = 0;
}

int record_plan_sites(const struct record_plan_args *a, struct probe_site *out, int *nr, int max,
		      struct record_plan_sampled *sampled)
{
	struct plan p;
	int i, err = 0, added = 0;
	size_t k;

	err = plan_init(&p, a->vmlinux);
	if (err)
		return err;
	p.list_callers = true;
	for (i = 0; i < a->nr_presets && !err; i++)
		err = plan_add_preset(&p, a->presets[i]);
	for (i = 0; i < a->nr_sites && !err; i++)
		err = plan_add_function(&p, a->sites[i]);
	for (i = 0; i < a->nr_entries && !err; i++)
		err = plan_add_entry(&p, a->entries[i]);
	if (err == -EINVAL)
		err = 0; /* a malformed item is one of the plan's reported problems */
	if (err) {	 /* a broken or missing preset (printed): no plan to show */
		plan_free(&p);
		return err;
	}
	fprintf(stderr, "copyprof: plan (%zu sites, %zu attachable, %d hardware breakpoints):\n",
		p.nr, plan_nr_covered(&p), p.hwbp_used);
	plan_print(&p, stderr);
	plan_print_summary(&p, stderr, RECORD_SAMPLE_DEFAULT_HZ, a->sample_all);
	for (k = 0; k < p.nr && !err; k++) {
		if (p.v[k].choice == PLAN_UNCOVERED) {
			if (sampled)
				add_sampled(sampled, &p.v[k]);
			continue;
		}
		if (*nr >= max) {
			p_warn("more than %d sites: the rest are not recorded", max);
			break;
		}
		/* The site moves to record; the plan keeps nothing to free. */
		out[(*nr)++] = p.v[k].site;
		memset(&p.v[k].site, 0, sizeof(p.v[k].site));
		added++;
	}
	plan_free(&p);
	return err ? err : added;
}

/* FUNC of [MOD:]FUNC[+OFF][,len=REG], added to @v unless there already. */
static int add_function(const char *spec, char ***v, size_t *nr)
{
	const char *colon = strchr(spec, ':'), *start = colon ? colon + 1 : spec;
	size_t len = strcspn(start, "+,"), i;
	char **n, *name;

	for (i = 0; i < *nr; i++)
		if (strlen((*v)[i]) == len && !strncmp((*v)[i], start, len))
			return 0;
	name = strndup(start, len);
	n = realloc(*v, (*nr + 1) * sizeof(*n));
	if (!name || !n) {
		free(name);
		if (n)
			*v = n;
		return -ENOMEM;
	}
	*v = n;
	(*v)[(*nr)++] = name;
	return 0;
}

int record_plan_functions(const struct record_plan_args *a, char ***out, size_t *nr)
{
	struct preset *ps;
	int i, err = 0;
	size_t k;

	*out = NULL;
	*nr = 0;
	for (i = 0; i < a->nr_presets && !err; i++) {
		err = preset_load(a->presets[i], &ps);
		if (err)
			break;
		for (k = 0; !err && k < ps->nr_items; k++)
			err = add_function(ps->items[k].spec, out, nr);
		preset_free(ps);
	}
	for (i = 0; i < a->nr_sites && !err; i++)
		err = add_function(a->sites[i], out, nr);
	for (i = 0; i < a->nr_entries && !err; i++)
		err = add_function(a->entries[i], out, nr);
	if (err) {
		p_err("cannot list the plan's functions: %s", strerror(-err));
		record_plan_functions_free(*out, *nr);
		*out = NULL;
		*nr = 0;
		return err;
	}
	return (int)*nr;
}

void record_plan_functions_free(char **v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(v[i]);
	free(v);
}

int record_plan_fallback(const struct record_plan_args *a, int nr_counted, unsigned int hz,
			 const char *widen_option, struct record_plan_fallback *fb)
{
	char scope[96];

	memset(fb, 0, sizeof(*fb));
	if (!record_plan_wanted(a) || nr_counted)
		return 0;
	if (!a->sample_all && record_plan_functions(a, &fb->keep, &fb->nr_keep) < 0)
		return -ENOMEM;
	fb->hz = hz ? hz : RECORD_SAMPLE_DEFAULT_HZ;
	fb->every_task = true;
	snprintf(scope, sizeof(scope), "only stacks through the plan's functions%s%s%s",
		 widen_option ? "; " : "", widen_option ?: "",
		 widen_option ? " keeps every stack" : "");
	snprintf(fb->why, sizeof(fb->why),
		 "no site of the plan can be probed on this kernel: SAMPLED instead (--sample at "
		 "%u Hz, %s): counts are samples, not calls",
		 fb->hz, fb->nr_keep ? scope : "every copy sample");
	p_warn("%s", fb->why);
	return 1;
}

void record_plan_fallback_free(struct record_plan_fallback *fb)
{
	record_plan_functions_free(fb->keep, fb->nr_keep);
	fb->keep = NULL;
	fb->nr_keep = 0;
}
