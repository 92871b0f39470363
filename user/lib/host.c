// SPDX-License-Identifier: GPL-2.0
/* host.c: the meta of a run: kernel release, host, time, and the machine (lib/machine.c) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "host.h"

static void add_flag(struct host_meta *m, const char *flag)
{
	char **f = realloc(m->cpu_flags, (m->nr_cpu_flags + 1) * sizeof(*f));

	if (!f)
		return;
	m->cpu_flags = f;
	f[m->nr_cpu_flags] = strdup(flag);
	if (f[m->nr_cpu_flags])
		m->nr_cpu_flags++;
}

void host_set_machine(struct host_meta *m, const struct machine *mach)
{
	int i;

	m->machine = *mach;
	if (!m->cpu_model && mach->model_name[0])
		m->cpu_model = strdup(mach->model_name);
	for (i = 0; i < MACHINE_NR_FLAGS; i++)
		if (mach->flags & (1u << i))
			add_flag(m, machine_flag_name((enum machine_flag)i));
}

bool host_is_amd(const struct host_meta *m)
{
	if (m->machine.known)
		return m->machine.vendor == ASMREF_VENDOR_AMD;
	return m->cpu_model && (strstr(m->cpu_model, "AMD") || strstr(m->cpu_model, "Hygon"));
}

bool host_same_cpu(const struct host_meta *a, const struct host_meta *b)
{
	if (a->machine.known && b->machine.known && !machine_same_cpu(&a->machine, &b->machine))
		return false;
	return a->cpu_model && b->cpu_model && !strcmp(a->cpu_model, b->cpu_model);
}

void host_fill_meta(struct host_meta *m)
{
	struct utsname u;
	char buf[64];
	time_t now = time(NULL);

	m->tool_version = strdup(COPYPROF_VERSION);
	if (!uname(&u)) {
		m->kernel = strdup(u.release);
		m->hostname = strdup(u.nodename);
	}
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	m->start = strdup(buf);
	host_set_machine(m, machine_this());
	machine_caches_of(machine_cpu_now(), &m->machine.caches);
}

bool host_has_flag(const struct host_meta *m, const char *flag)
{
	size_t i;

	for (i = 0; i < m->nr_cpu_flags; i++)
		if (!strcmp(m->cpu_flags[i], flag))
			return true;
	return false;
}

void host_meta_free(struct host_meta *m)
{
	size_t i;

	free(m->tool_version);
	free(m->kernel);
	free(m->cpu_model);
	free(m->hostname);
	free(m->start);
	free(m->command);
	free(m->ended_by);
	free(m->cpu_flags_from);
	for (i = 0; i < m->nr_cpu_flags; i++)
		free(m->cpu_flags[i]);
	free(m->cpu_flags);
}
