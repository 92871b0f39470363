/* SPDX-License-Identifier: GPL-2.0 */
/* trap_cost.h: what one hit of a probe costs the traced code here, measured on copyprof's own code */
#ifndef CP_TRAP_COST_H
#define CP_TRAP_COST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "probe_site.h"

#define TRAP_COST_NR_MECHS 3 /* enum probe_mech */

/* One mechanism's cost per hit, as the traced thread pays it (its CPU time). */
struct trap_cost {
	double hit_ns; /* the trap: the hit's whole cost but the BPF program's run */
	double bpf_ns; /* the program's run per hit (BPF statistics; 0 when not counted) */
	bool bpf_counted;
	bool measured;
	bool from_cache; /* read from the per-boot cache (trap_cache.h), not measured by this run */
	uint64_t measured_at; /* when it was measured, seconds since the epoch */
	char why[160];	      /* when not measured */
};

/*
 * Measures a hit of @mech on this machine: a uprobe on a function of copyprof's own binary,
 * a kprobe or a breakpoint on the kernel's getppid, each hit by the calling thread; rounds
 * with and without the probe alternate, and the least thread CPU time per call of each is
 * kept, so that a loaded machine (preemption, other tasks) does not inflate it. Takes some
 * tens of milliseconds. Fills @c (measured false and why when the probe cannot be placed).
 */
void trap_cost_measure(enum probe_mech mech, struct trap_cost *c);
/*
 * @mech's cost from the per-boot cache (trap_cache.h: the same boot, kernel, CPU, mitigations
 * and method), with from_cache set; false when it holds none (or, with @need_bpf_apart, none
 * measured with the BPF run counted apart). A stale or malformed cache is ignored (-v says why).
 */
bool trap_cost_cached(enum probe_mech mech, bool need_bpf_apart, struct trap_cost *c);
/* trap_cost_measure(), and the figure stored in the cache for the later runs of this boot. */
void trap_cost_measure_keep(enum probe_mech mech, struct trap_cost *c);
/* trap_cost_cached(), else trap_cost_measure_keep(). */
void trap_cost_get(enum probe_mech mech, bool need_bpf_apart, struct trap_cost *c);
/* "measured just now" or "measured at 12:01:02 UTC this boot, cached in PATH", for messages. */
void trap_cost_origin(const struct trap_cost *c, char *buf, size_t len);

#endif
