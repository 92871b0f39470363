// SPDX-License-Identifier: GPL-2.0
/* record_glibc.c: the glibc thresholds a recorded process copies with, into its profile */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "asmref_glibc.h"
#include "lib/glibc_tunables.h"
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

void record_glibc_fill(struct profile *p, char **command, uint32_t pid)
{
	const struct profile_site *s = glibc_site(p);
	struct glibc_tunables now, dflt;
	struct profile_glibc *g;
	char *why = NULL, *env;

	if (!s || p->glibc)
		return;
	if (command)
		env = strdup(getenv("GLIBC_TUNABLES") ?: "");
	else
		env = pid ? pid_tunables(pid) : NULL;
	if (glibc_tunables_read(NULL, env && *env ? env : NULL, &now, &why) ||
	    glibc_tunables_read(NULL, NULL, &dflt, &why) || !now.rep_movsb_threshold.present ||
	    !now.rep_stosb_threshold.present) {
		p_warn("%s: glibc's thresholds not recorded (%s): estimate will assume glibc's "
		       "defaults",
		       s->symbol, why ?: "this glibc lists no x86 string tunables");
		free(why);
		free(env);
		return;
	}
	g = calloc(1, sizeof(*g));
	if (!g) {
		free(env);
		return;
	}
	g->ldso = strdup(GLIBC_TUNABLES_DEFAULT_LDSO);
	g->tunables = env; /* NULL: every process, their own not known */
	g->rep_movsb_threshold = now.rep_movsb_threshold;
	g->rep_stosb_threshold = now.rep_stosb_threshold;
	g->movsb_default = dflt.rep_movsb_threshold.value;
	g->stosb_default = dflt.rep_stosb_threshold.value;
	p->glibc = g;
}
