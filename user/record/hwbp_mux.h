/* SPDX-License-Identifier: GPL-2.0 */
/* hwbp_mux.h: more breakpoint sites than debug registers: a few events rotated over them */
#ifndef CP_HWBP_MUX_H
#define CP_HWBP_MUX_H

#include <stddef.h>
#include <stdint.h>
#include "profile/profile_mux.h"
#include "hist_session.h"

/* How long each window of sites holds the debug registers (docs/kernel-targets.md). */
#define HWBP_MUX_PERIOD_MS 20
#define HWBP_MUX_MAX_SLOTS 4 /* x86 debug registers per CPU */
/*
 * Reference scaling needs at least this many of the reference's calls while a site was armed;
 * below, the site is scaled by time (docs/kernel-targets.md#multiplexed-breakpoints).
 */
#define HWBP_MUX_REF_MIN_CALLS 100

struct hwbp_mux;

/* One multiplexed site: its instruction's address and its id in the hist session. */
struct hwbp_mux_site {
	uint64_t addr;
	uint32_t id;
};

/*
 * Opens as many breakpoint events per CPU as there are free debug registers (at most 4; all
 * CPUs get the same number) on the first sites and starts every site's clock. With two
 * registers or more, the first site (v[0]) is the reference: it keeps register 0 for the whole
 * recording and the others rotate over the rest; its calls, read at every move, say how far
 * the workload went while each other site was armed. Sites must have distinct addresses.
 * Prints why and returns NULL on failure.
 */
struct hwbp_mux *hwbp_mux_open(struct hist_session *hs, const struct hwbp_mux_site *v, size_t n);
/* The debug registers used per CPU. */
int hwbp_mux_slots(const struct hwbp_mux *m);
/*
 * Moves the events to the next window of sites when HWBP_MUX_PERIOD_MS have passed, each
 * CPU's from that CPU: the calling thread is pinned there for the move and gets its CPU
 * affinity back before returning.
 */
void hwbp_mux_tick(struct hwbp_mux *m);
/* Stops counting (events disabled) and closes every site's clock. */
void hwbp_mux_stop(struct hwbp_mux *m);
/* Site @i's (input order) nanoseconds recording and nanoseconds on a debug register. */
void hwbp_mux_times(const struct hwbp_mux *m, size_t i, uint64_t *enabled, uint64_t *running);
/*
 * Site @i's times, and how to scale it: the reference (i == 0) is exact (MUX_SCALING_NONE);
 * another site is scaled by the reference's calls over those while it was armed, or by time
 * when the reference saw fewer than HWBP_MUX_REF_MIN_CALLS of them or there is none.
 */
void hwbp_mux_scaling(const struct hwbp_mux *m, size_t i, struct site_mux *out);
/* Number of rotations done. */
uint64_t hwbp_mux_rotations(const struct hwbp_mux *m);
/*
 * Microseconds per move of one CPU's event (PERF_EVENT_IOC_MODIFY_ATTRIBUTES, timed around
 * the ioctl), with the number of such moves in @moves, of which @local were made on the
 * event's own CPU (the others through an IPI); 0 without any.
 */
double hwbp_mux_move_us(const struct hwbp_mux *m, uint64_t *moves, uint64_t *local);
/* Detaches and closes every event; NULL is fine. */
void hwbp_mux_free(struct hwbp_mux *m);

#endif
