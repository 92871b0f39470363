/* SPDX-License-Identifier: GPL-2.0 */
/*
 * paired_wire.h: a batch as bytes for a process of its own (paired_child.h), and its rounds
 * back. Both ends are the same executable; the reader still checks every count and index, so
 * that bytes from anywhere else are refused, never trusted (tests/fuzz/fuzz_paired_wire.c).
 */
#ifndef CP_PAIRED_WIRE_H
#define CP_PAIRED_WIRE_H

#include <stdint.h>
#include <stdio.h>
#include "paired_batch.h"
#include "paired_run.h"

/* Batch @b onto @f: its plan's paths, its mix, memory, seeds, slot, CPUs and timer. 0 or -EIO. */
int paired_wire_put_batch(FILE *f, const struct paired_batch *b);

/*
 * A batch from @f into @b, its plan into @pl and its mix into @mx (replay_mix_free()
 * afterwards, whatever the outcome). Returns 0, or -EPROTO with @why.
 */
int paired_wire_get_batch(FILE *f, struct paired_batch *b, struct paired_plan *pl,
			  struct replay_mix *mx, char *why, size_t len);

/*
 * @run's rounds (one batch's, as paired_batch_run() left them; none after a failure), the
 * outcome @err and @code, where the process had the replay's code, onto @f. 0 or -EIO.
 */
int paired_wire_put_rounds(FILE *f, const struct paired_run *run, int err, uintptr_t code);

/*
 * Rounds from @f appended to @run (its nr_paths set) as batch @run->nr_batches; @err gets the
 * other process's outcome. Returns 0, -ENOMEM, or -EPROTO with @why.
 */
int paired_wire_get_rounds(FILE *f, struct paired_run *run, int *err, char *why, size_t len);

#endif
