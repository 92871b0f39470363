// SPDX-License-Identifier: GPL-2.0
/* agent_switch.c: an over-budget uprobe site becomes samples of its function: cheap, never harmful */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "agent_switch.h"
#include "lib/elfsyms.h"
#include "lib/log.h"
#include "sites/len_recovery.h"

static int no_records(void *ctx, const struct sample_rec *rec)
{
	(void)ctx;
	(void)rec;
	return 0;
}

static int open_sampler(struct agent_switch *w, char *why, size_t len)
{
	struct sample_opts o = {
		.tgid = w->tgid,
		.comm = w->comm,
		.cgroups = w->cgroups,
		.hz = w->hz,
		.event = "cpu-clock", /* time in the function, the same on every machine */
		.funcs_only = true,
	};

	w->ss = sample_session_open(&o, no_records, NULL);
	if (!w->ss)
		snprintf(why, len, "the function sampler could not start (see above)");
	return w->ss ? 0 : -EIO;
}

int agent_switch_site(struct agent_switch *w, struct agent_sites *t, size_t i, char *why,
		      size_t len)
{
	struct agent_site *s = &t->v[i];
	struct sample_func f = { 0 };
	struct elf_func ef = { 0 };
	struct stat st;
	int err;

	if (s->ps.mech != MECH_UPROBE) {
		snprintf(why, len, "a kernel site: the function sampler samples user functions");
		return -EOPNOTSUPP;
	}
	if (w->nr >= SAMPLE_MAX_FUNCS) {
		snprintf(why, len, "all %d function slots are taken", SAMPLE_MAX_FUNCS);
		return -E2BIG;
	}
	if (!s->ps.resolved_path || stat(s->ps.resolved_path, &st)) {
		snprintf(why, len, "its file is gone");
		return -ENOENT;
	}
	err = elfsyms_resolve(s->ps.resolved_path, s->ps.spec.symbol, 0, &ef);
	if (err || !ef.size) {
		elf_func_free(&ef);
		snprintf(why, len, "the size of %s is not known", s->ps.spec.symbol ?: "?");
		return err ? err : -ENOENT;
	}
	f.ino = st.st_ino;
	f.dev = (uint32_t)(major(st.st_dev) << 20 | minor(st.st_dev));
	f.start = ef.file_offset;
	f.end = ef.file_offset + ef.size;
	elf_func_free(&ef);
	if (!w->ss && (err = open_sampler(w, why, len)))
		return err;
	err = sample_session_func_set(w->ss, w->nr, &f);
	if (err) {
		snprintf(why, len, "cannot store the function's range: %s", strerror(-err));
		return err;
	}
	agent_sites_detach(t, i, AGENT_SITE_SAMPLED);
	s->func = (int32_t)w->nr++;
	w->moves++;
	return 0;
}

static int append_one(struct agent_switch *w, const struct agent_site *a, struct profile *view)
{
	/* Before the view grows: adding a site may move the array. */
	char *target = strdup(view->sites[a->slot].target ?: "");
	struct profile_site *s = target ? profile_add_site(view) : NULL;
	uint64_t n = 0;

	if (!s) {
		free(target);
		return -ENOMEM;
	}
	sample_session_func_count(w->ss, (uint32_t)a->func, &n);
	s->target = target;
	s->symbol = strdup(a->ps.spec.symbol ?: "");
	s->mechanism = strdup("sample");
	s->len_arg = strdup("none");
	s->calls = n;
	s->sample = calloc(1, sizeof(*s->sample));
	if (!s->target || !s->symbol || !s->mechanism || !s->len_arg || !s->sample)
		return -ENOMEM;
	s->sample->leaf = strdup(a->ps.spec.symbol ?: "");
	s->family = CF_FUNCTION;
	s->sample->quality[LEN_UNKNOWN] = n; /* a sample in a function has no length */
	return s->sample->leaf ? 0 : -ENOMEM;
}

int agent_switch_append(struct agent_switch *w, const struct agent_sites *t, struct profile *view)
{
	size_t i;
	int err;

	if (!w->ss)
		return 0;
	for (i = 0; i < t->nr; i++) {
		const struct agent_site *a = &t->v[i];

		if (a->state != AGENT_SITE_SAMPLED || a->slot < 0)
			continue;
		err = append_one(w, a, view);
		if (err)
			return err;
	}
	return 0;
}

void agent_switch_stop(struct agent_switch *w)
{
	sample_session_destroy(w->ss);
	w->ss = NULL;
}
