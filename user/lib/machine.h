/* SPDX-License-Identifier: GPL-2.0 */
/* machine.h: the CPU a run measures on, read once: vendor, family/model, flags, caches, TSC */
#ifndef CP_MACHINE_H
#define CP_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "asmref_cpu.h"

/* The CPU flags that select copy code (kernel-facts.md), as /proc/cpuinfo names them. */
enum machine_flag {
	MACHINE_ERMS,	  /* /proc/cpuinfo */
	MACHINE_FSRM,	  /* /proc/cpuinfo */
	MACHINE_REP_GOOD, /* /proc/cpuinfo: the kernel's own flag */
	MACHINE_FZRM,	  /* CPUID 7.1 EAX bit 10: not in /proc/cpuinfo */
	MACHINE_FSRS,	  /* CPUID 7.1 EAX bit 11 */
	MACHINE_FSRC,	  /* CPUID 7.1 EAX bit 12 */
	MACHINE_NR_FLAGS
};

/* The caches of one CPU; a size of 0 is unknown. */
struct machine_caches {
	int cpu;		       /* the CPU they belong to; -1: not read */
	uint64_t l1d, l2, l3;	       /* bytes */
	unsigned int line;	       /* bytes, the L1d's coherency line */
	const char *source;	       /* "sysfs", "cpuid", or NULL when nothing was found */
	unsigned int l2_cpus, l3_cpus; /* logical CPUs sharing the L2, the L3; 0 unknown */
	int l3_inclusive;	       /* Intel's CPUID leaf 4 EDX bit 1 of the L3; -1 unknown */
};

struct machine {
	bool known;		      /* identity read: from CPUID here, or a recording's header */
	enum asmref_vendor vendor;    /* asmref_cpu_vendor_of(vendor_id): Hygon counts as AMD */
	char vendor_id[16];	      /* "GenuineIntel"; "" unknown */
	int family, model, stepping;  /* decoded with the extended fields; -1 unknown */
	char model_name[80];	      /* /proc/cpuinfo's "model name"; "" unknown */
	char microcode[24];	      /* /proc/cpuinfo's "microcode" revision; "" unknown */
	unsigned int flags;	      /* 1 << enum machine_flag */
	struct machine_caches caches; /* of the CPU the run used (machine_caches_of()) */
	unsigned int clflush_line;    /* CLFLUSH's stride, CPUID 1 EBX[15:8] x 8; 0 unknown */
	double tsc_hz;		      /* from CPUID (leaf 0x15, or a hypervisor's 0x40000010); 0 */
	const char *tsc_hz_from;      /* which of those, or NULL */
	bool tsc_read;		      /* the TSC fields were read (here, not from a header) */
	bool tsc_invariant, rdtscp;   /* CPUID 0x80000007 EDX bit 8, 0x80000001 EDX bit 27 */
};

/*
 * This machine, read once per run (CPUID, /proc/cpuinfo), with the caches of the CPU the
 * caller runs on at the first call. Never NULL.
 */
const struct machine *machine_this(void);
/*
 * The caches of @cpu from /sys/devices/system/cpu/cpuN/cache; where sysfs is missing and @cpu is
 * the one this thread runs on, CPUID leaf 4 (Intel) or 0x8000001D (AMD). 0, or -ENOENT when
 * nothing was found (@c then says 0 for each size).
 */
int machine_caches_of(int cpu, struct machine_caches *c);
/*
 * The caches of the CPU this thread runs on, from CPUID alone (leaf 4; AMD: 0x8000001D), as
 * machine_caches_of() falls back to. 0, or -ENOENT.
 */
int machine_caches_cpuid(struct machine_caches *c);
/* The CPU this thread runs on now (sched_getcpu()), 0 if that fails. */
int machine_cpu_now(void);
/* The stride that flushes every line with CLFLUSH here (64 where CPUID does not say). */
unsigned int machine_clflush_line(void);
/* The page size (sysconf(_SC_PAGESIZE)), read once. */
size_t machine_page_size(void);

/* Family, model and stepping of a CPUID leaf 1 EAX signature, extended fields included. */
void machine_decode_signature(uint32_t eax, int *family, int *model, int *stepping);
/*
 * Vendor, family, model and stepping from perf's header "cpuid" of an x86 recording
 * ("GenuineIntel,6,143,8"). 0, or -EINVAL when @s is not that shape (@m is then unchanged).
 */
int machine_from_perf_cpuid(const char *s, struct machine *m);

/* "intel", "amd", "other" or "unknown". */
const char *machine_vendor_name(enum asmref_vendor v);
/* The vendor of machine_vendor_name()'s word; ASMREF_VENDOR_UNKNOWN for anything else. */
enum asmref_vendor machine_vendor_from_name(const char *name);
/* "erms", "fsrm" ... */
const char *machine_flag_name(enum machine_flag f);
/* "GenuineIntel family 6 model 167 stepping 1", or "machine not recorded"; returns @buf. */
const char *machine_describe(const struct machine *m, char *buf, size_t len);
/* True when @m and this machine are the same kind of CPU: vendor, family, model, stepping. */
bool machine_same_cpu(const struct machine *m, const struct machine *here);

#endif
