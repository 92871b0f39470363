// SPDX-License-Identifier: GPL-2.0
/* ksource.c: annotate kernel sites with source lines and stage labels, one debug file a target */
#include <stdlib.h>
#include <string.h>
#include "kernel/kdebuginfo.h"
#include "ksource.h"
#include "lib/log.h"
#include "sites/preset.h"
#include "kernel/srcline.h"

struct labels {
	struct preset **presets;
	size_t nr;
};

bool ksource_is_kernel_site(const struct profile_site *s)
{
	if (!s->target || !s->symbol || !s->mechanism)
		return false;
	if (!strcmp(s->mechanism, "kprobe") || !strcmp(s->mechanism, "hwbp"))
		return true;
	return !strcmp(s->mechanism, "sample") && !strcmp(s->target, "vmlinux");
}

static const char *release_of(const struct profile *p, const struct profile_site *s)
{
	if (p->nr_groups && s->group < p->nr_groups)
		return p->groups[s->group].kernel;
	return p->meta.kernel;
}

static bool has_var(const struct srcline_vars *v, const char *name)
{
	size_t i;

	for (i = 0; i < v->nr; i++)
		if (!strcmp(v->names[i], name))
			return true;
	return false;
}

static const char *label_of(const struct labels *l, const struct profile_site *s,
			    const struct srcline_vars *v)
{
	size_t i, j;

	for (i = 0; i < l->nr; i++)
		for (j = 0; j < l->presets[i]->nr_labels; j++) {
			const struct preset_label *r = &l->presets[i]->labels[j];

			if (!strcmp(r->function, s->symbol) && has_var(v, r->var))
				return r->name;
		}
	return NULL;
}

static bool same_build(const struct profile *p, const struct profile_site *a,
		       const struct profile_site *b)
{
	const char *ra = release_of(p, a), *rb = release_of(p, b);

	return !strcmp(a->target, b->target) &&
	       (a->build_id && b->build_id ? !strcmp(a->build_id, b->build_id)
					   : !a->build_id && !b->build_id) &&
	       (ra && rb ? !strcmp(ra, rb) : ra == rb);
}

/* Annotates every site of @first's build (target, build id, release) from one debug file. */
static size_t annotate_build(struct profile *p, size_t first, const struct labels *l,
			     const char *const *dirs, size_t nr_dirs, bool *done)
{
	struct profile_site *s0 = &p->sites[first];
	char *why = NULL, *path;
	struct srcline_file *f;
	size_t i, n = 0, labelled = 0;

	path = kdebuginfo_find(s0->target, release_of(p, s0), s0->build_id, dirs, nr_dirs, &why);
	if (!path || !(f = srcline_open(path))) {
		p_info("%s: no source lines (%s)%s", s0->target,
		       why ?: "its debug file is unreadable",
		       !strcmp(s0->symbol, "ZSTD_decompressStream")
			       ? "; zstd stage labels need them too"
			       : "");
		for (i = first; i < p->nr_sites; i++)
			if (!done[i] && ksource_is_kernel_site(&p->sites[i]) &&
			    same_build(p, s0, &p->sites[i]))
				done[i] = true;
		free(why);
		free(path);
		return 0;
	}
	for (i = first; i < p->nr_sites; i++) {
		struct profile_site *s = &p->sites[i];
		struct srcline_vars vars = { 0 };
		const char *label;

		if (done[i] || !ksource_is_kernel_site(s) || !same_build(p, s0, s))
			continue;
		done[i] = true;
		if (s->source)
			continue;
		s->source = srcline_symbol(f, s->symbol, s->offset, &vars);
		n += s->source != NULL;
		label = s->source && !s->label ? label_of(l, s, &vars) : NULL;
		if (label && (s->label = strdup(label)))
			labelled++;
		srcline_vars_free(&vars);
	}
	p_info("%s: source lines from %s (%zu site(s), %zu labelled)", s0->target, path, n,
	       labelled);
	srcline_close(f);
	free(why);
	free(path);
	return n;
}

size_t ksource_annotate(struct profile *p, const char *const *dirs, size_t nr_dirs)
{
	struct labels l = { 0 };
	size_t i, n = 0;
	bool *done;

	/* Uprobe-only profiles, or lines already there: no presets to read, no files to search. */
	for (i = 0; i < p->nr_sites; i++)
		if (ksource_is_kernel_site(&p->sites[i]) && !p->sites[i].source)
			break;
	if (i == p->nr_sites || !(done = calloc(p->nr_sites, sizeof(*done))))
		return 0;
	l.nr = preset_load_all(&l.presets);
	for (i = 0; i < p->nr_sites; i++)
		if (!done[i] && ksource_is_kernel_site(&p->sites[i]) && !p->sites[i].source)
			n += annotate_build(p, i, &l, dirs, nr_dirs, done);
	for (i = 0; i < l.nr; i++)
		preset_free(l.presets[i]);
	free(l.presets);
	free(done);
	return n;
}
