// SPDX-License-Identifier: GPL-2.0
/* host.c: kernel release, CPU model and the CPU flags that select kernel copy code */
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "host.h"
#include "line_reader.h"

/* The /proc/cpuinfo flags that decide which memcpy/memset/clear_user runs (kernel-facts.md). */
static const char *const cpuinfo_flags[] = { "erms", "fsrm", "rep_good" };

static void add_flag(struct host_meta *m, const char *flag)
{
	char **f = realloc(m->cpu_flags, (m->nr_cpu_flags + 1) * sizeof(*f));

	if (!f)
		return;
	m->cpu_flags = f;
	f[m->nr_cpu_flags++] = strdup(flag);
}

static void read_cpuinfo(struct host_meta *m)
{
	char *line, *v, *padded;
	struct line_reader r;
	size_t i;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return;
	/* The flags line is the longest: some 1.5 KiB with AVX-512. */
	line_reader_init(&r, f, "/proc/cpuinfo", "/proc/cpuinfo", 65536, 64UL << 20);
	while (line_reader_next(&r) > 0) {
		line = r.line;
		line[strcspn(line, "\n")] = 0;
		v = strchr(line, ':');
		if (!v)
			continue;
		v += 2;
		if (!m->cpu_model && !strncmp(line, "model name", 10))
			m->cpu_model = strdup(v);
		if (strncmp(line, "flags", 5))
			continue;
		padded = malloc(strlen(v) + 3);
		if (!padded)
			break;
		sprintf(padded, " %s ", v);
		for (i = 0; i < sizeof(cpuinfo_flags) / sizeof(*cpuinfo_flags); i++) {
			char pat[32];

			snprintf(pat, sizeof(pat), " %s ", cpuinfo_flags[i]);
			if (strstr(padded, pat))
				add_flag(m, cpuinfo_flags[i]);
		}
		free(padded);
		break;
	}
	line_reader_free(&r);
	fclose(f);
}

/* FSRS, FZRM and FSRC are not in /proc/cpuinfo: read CPUID leaf 7 subleaf 1, EAX. */
static void read_cpuid(struct host_meta *m)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid_count(7, 1, &a, &b, &c, &d))
		return;
	if (a & (1u << 10))
		add_flag(m, "fzrm");
	if (a & (1u << 11))
		add_flag(m, "fsrs");
	if (a & (1u << 12))
		add_flag(m, "fsrc");
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
	read_cpuinfo(m);
	read_cpuid(m);
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
	for (i = 0; i < m->nr_cpu_flags; i++)
		free(m->cpu_flags[i]);
	free(m->cpu_flags);
}
