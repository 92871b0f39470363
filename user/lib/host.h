/* SPDX-License-Identifier: GPL-2.0 */
/* host.h: the machine and the run that wrote a profile or a cost model: kernel, CPU, host, time */
#ifndef CP_HOST_H
#define CP_HOST_H

#include <stdbool.h>
#include <stddef.h>

struct host_meta {
	char *tool_version;
	char *kernel;
	char *cpu_model;
	char *hostname;
	char *start;	/* ISO 8601, UTC */
	char *command;	/* the command line recorded, if any */
	char *ended_by; /* how the recording ended: "command", "duration", "signal"; or NULL */
	char **cpu_flags;
	size_t nr_cpu_flags;
	double duration_s;
};

/* Fills kernel, CPU model, copy-relevant CPU flags, hostname, start time and tool version. */
void host_fill_meta(struct host_meta *m);
/* True if the CPU flag (as named in /proc/cpuinfo, or fsrs/fzrm/fsrc from CPUID) is set. */
bool host_has_flag(const struct host_meta *m, const char *flag);
/* Frees what @m owns (its strings and CPU flags), not @m itself. */
void host_meta_free(struct host_meta *m);

#endif
