// SPDX-License-Identifier: GPL-2.0
/* record_glibc.c: the glibc thresholds a recorded process copies with, into its profile */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "asmref_glibc.h"
#include "lib/glibc_tunables.h"
#include "lib/glibc_version.h"
#include "lib/file_root.h"
#include "lib/log.h"
#include "record_glibc.h"

/* GLIBC_TUNABLES of process @pid from its environment, malloc'd ("" if unset), or NULL. */
static char *pid_tunables(uint32_t pid)
{
	char path[64], buf[65536];
	size_t n, i;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/environ", pid);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (i = 0; i < n; i += strlen(buf + i) + 1)
		if (!strncmp(buf + i, "GLIBC_TUNABLES=", 15))
			return strdup(buf + i + 15);
	return strdup("");
}

static const struct profile_site *glibc_site(const struct profile *p)
{
	size_t i;

	for (i = 0; i < p->nr_sites; i++)
		if (p->sites[i].mechanism && !strcmp(p->sites[i].mechanism, "uprobe") &&
		    p->sites[i].symbol && asmref_glibc_replica_of(p->sites[i].symbol))
			return &p->sites[i];
	return NULL;
}

/* Which glibc @s's file is: its version, release, build id and root, into @g. */
static void fill_version(struct profile_glibc *g, const struct profile_site *s)
{
	struct glibc_version v;
	int err;

	g->root = file_root_name(s->target);
	err = glibc_version_of_file(s->target, &v);
	if (err) {
		p_warn("%s: %s: %s: its glibc version is not recorded", s->symbol, s->target,
		       err == -ENOENT ? "cannot read it" : "no glibc version banner in it");
		return;
	}
	g->major = v.major;
	g->minor = v.minor;
	g->libc = strdup(s->target);
	g->release = v.release[0] ? strdup(v.release) : NULL;
	g->build_id = v.build_id[0] ? strdup(v.build_id) : NULL;
}

void record_glibc_fill(struct profile *p, char **command, uint32_t pid)
{
	const struct profile_site *s = glibc_site(p);
	struct glibc_tunables now, dflt;
	struct profile_glibc *g;
	char *why = NULL, *env, ldso[PATH_MAX], *root_ldso;

	if (!s || p->glibc)
		return;
	g = calloc(1, sizeof(*g));
	if (!g)
		return;
	fill_version(g, s);
	if (command)
		env = strdup(getenv("GLIBC_TUNABLES") ?: "");
	else
		env = pid ? pid_tunables(pid) : NULL;
	/* The loader of the process's own root: a container's glibc computes its own defaults. */
	root_ldso =
		file_root_resolve(s->target, file_root_len(s->target), GLIBC_TUNABLES_DEFAULT_LDSO);
	snprintf(ldso, sizeof(ldso), "%s", root_ldso ?: GLIBC_TUNABLES_DEFAULT_LDSO);
	free(root_ldso);
	g->ldso = strdup(ldso);
	g->tunables = env; /* NULL: every process, their own not known */
	if (glibc_tunables_read(ldso, env && *env ? env : NULL, &now, &why) ||
	    glibc_tunables_read(ldso, NULL, &dflt, &why) || !now.rep_movsb_threshold.present ||
	    !now.rep_stosb_threshold.present) {
		p_warn("%s: glibc's thresholds not recorded (%s): estimate will derive them from "
		       "the glibc version's rules for this CPU",
		       s->symbol, why ?: "this glibc lists no x86 string tunables");
		free(why);
		if (!g->major) {
			profile_glibc_free(g);
			return;
		}
		p->glibc = g;
		return;
	}
	g->rep_movsb_threshold = now.rep_movsb_threshold;
	g->rep_stosb_threshold = now.rep_stosb_threshold;
	g->movsb_default = dflt.rep_movsb_threshold.value;
	g->stosb_default = dflt.rep_stosb_threshold.value;
	p->glibc = g;
}
