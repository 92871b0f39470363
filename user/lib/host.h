/* SPDX-License-Identifier: GPL-2.0 */
/* host.h: the machine and the run that wrote a profile or a cost model: kernel, CPU, host, time */
#ifndef CP_HOST_H
#define CP_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include "machine.h"

/*
 * A recording's CPU samples of the traced programs (record_share.h), at @hz: in the probed copy
 * functions (@copy, their faults included), elsewhere in the programs (@own) and in the
 * uprobes' traps (@trap). copy / (copy + own) is the copies' share of the programs' own time,
 * measured, traps left out; copy / hz their seconds.
 */
struct copy_share {
	bool known;
	uint32_t hz;
	uint64_t copy, own, trap;
};

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
	bool cpu_flags_unknown; /* cpu_flags says nothing (import-perf of another host's data) */
	char *cpu_flags_from;	/* where cpu_flags came from, when not the recording machine */
	double duration_s;
	/*
	 * A recording: the CPU time (user + system) the recorded process tree used while recorded,
	 * and the part of it the probes' traps cost it (uprobe hits x the cost measured per hit),
	 * so that cpu_s - probe_cpu_s is the program's own; cpu_known false when not measured.
	 */
	bool cpu_known;
	double cpu_s, probe_cpu_s;
	struct copy_share copy_share; /* the copies' share of that time, sampled; .known */
	struct machine machine; /* vendor, family, model, caches ...; .known false in old files */
};

/*
 * Fills kernel, the machine (machine_this(), with the caches of the CPU this thread runs on
 * now), its model name and copy-relevant flags, hostname, start time and tool version.
 */
void host_fill_meta(struct host_meta *m);
/* @m's CPU model and flags strings from @mach (the strings the formats have always carried). */
void host_set_machine(struct host_meta *m, const struct machine *mach);
/*
 * True if @m's CPU is AMD as glibc and the kernel count it (Hygon too): by the machine's vendor,
 * or, in a file written before the machine was recorded, by its model name.
 */
bool host_is_amd(const struct host_meta *m);
/*
 * True when @a and @b name the same CPU: the same model name, and where both record the
 * machine, the same vendor, family, model and stepping. False when either name is unknown.
 */
bool host_same_cpu(const struct host_meta *a, const struct host_meta *b);
/* True if the CPU flag (as named in /proc/cpuinfo, or fsrs/fzrm/fsrc from CPUID) is set. */
bool host_has_flag(const struct host_meta *m, const char *flag);
/* Frees what @m owns (its strings and CPU flags), not @m itself. */
void host_meta_free(struct host_meta *m);

#endif
