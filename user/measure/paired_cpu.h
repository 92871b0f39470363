/* SPDX-License-Identifier: GPL-2.0 */
/* paired_cpu.h: where a batch of rounds runs: the quietest of the CPUs it may run on */
#ifndef CP_PAIRED_CPU_H
#define CP_PAIRED_CPU_H

#include <sched.h>
#include <stddef.h>
#include "costmodel/protocol.h"
#include "paired_plan.h"

/*
 * The quietest CPU of @allowed for the next batch, and the caller pinned to it: of up to
 * PAIRED_CPU_CANDIDATES CPUs (the current one first), the one whose passes of @today over the
 * reference calls @calls[0..n) took the least time, median of PAIRED_CPU_TURNS turns of
 * PAIRED_CPU_PASSES passes, the CPUs taken in turn so that a moment's disturbance falls on all.
 *
 * A virtual machine's CPUs share their host's cores with others, each at its own times: on
 * this project's 2-vCPU development VM, one vCPU was contended for half a minute at a time
 * while the other was quiet, and there a mix measured under contention read another answer
 * (fleet memset's T=32: +270% against +300% on the quiet vCPU, each run's interval about +-2).
 * The first CPU wins ties. Returns the CPU, or -errno after printing why.
 */
int paired_cpu_quietest(const cpu_set_t *allowed, const struct calib_timer *t,
			const struct paired_path *today, const struct calib_call *calls, size_t n);

#endif
