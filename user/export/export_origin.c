// SPDX-License-Identifier: GPL-2.0
/* export_origin.c: a site's recording context for export labels, merged profiles or not */
#include <string.h>
#include <time.h>
#include "export_origin.h"

uint32_t export_nr_groups(const struct profile *p)
{
	return p->nr_groups ? (uint32_t)p->nr_groups : 1;
}

void export_origin_of(const struct profile *p, uint32_t group, struct export_origin *o)
{
	memset(o, 0, sizeof(*o));
	if (p->nr_groups && group < p->nr_groups) {
		const struct profile_group *g = &p->groups[group];

		o->kernel = g->kernel;
		o->cpu_model = g->cpu_model;
		o->nr_hosts = g->nr_hosts;
		o->host = g->nr_hosts == 1 ? g->hosts[0] : NULL;
		o->duration_s = g->duration_s;
		return;
	}
	/* A profile without groups is one implicit group described by its meta. */
	o->kernel = p->meta.kernel;
	o->cpu_model = p->meta.cpu_model;
	o->host = p->meta.hostname;
	o->nr_hosts = p->meta.hostname ? 1 : 0;
	o->duration_s = p->meta.duration_s;
}

bool export_start_time(const struct profile *p, int64_t *sec)
{
	const char *end;
	struct tm tm;

	if (!p->meta.start)
		return false;
	memset(&tm, 0, sizeof(tm));
	end = strptime(p->meta.start, "%Y-%m-%dT%H:%M:%S", &tm);
	/* copyprof writes UTC with a "Z"; fractions of a second (other writers) are dropped. */
	if (!end)
		return false;
	if (*end == '.')
		end += 1 + strspn(end + 1, "0123456789");
	if (strcmp(end, "Z"))
		return false;
	*sec = (int64_t)timegm(&tm);
	return true;
}

bool export_site_is_sampled(const struct profile_site *s)
{
	return s->sample || (s->mechanism && !strcmp(s->mechanism, "sample"));
}
