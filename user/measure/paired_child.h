/* SPDX-License-Identifier: GPL-2.0 */
/*
 * paired_child.h: a batch of a paired measurement in a process of its own. The kernel places
 * each new process's code elsewhere (address-space randomisation), and where the replicas and
 * the loop that calls them sit moves what a branch costs: on fleet memcpy's mix, T=32 read
 * +122% in one place and +143% in another, every run in one place within 2 points
 * (docs/estimate.md#batches). A run whose batches all ran in one process saw one place only,
 * and its interval could not cover the next run's. So each batch is this executable started
 * afresh, handed the batch through a pipe (paired_wire.h), and its rounds come back the same way.
 */
#ifndef CP_PAIRED_CHILD_H
#define CP_PAIRED_CHILD_H

#include "paired_batch.h"
#include "paired_run.h"

/* Set in a batch's process: its value is 1, or 2 when the parent prints debugging lines. */
#define PAIRED_CHILD_ENV "COPYPROF_REPLAY_BATCH"

/*
 * Batch @b (paired_batch_run()) in a fresh process of this executable; its rounds appended to
 * @run as batch @run->nr_batches, with where that process had its code. Returns 0, -EINTR,
 * -ENOEXEC if no process could be started (the caller runs the batch itself), or -errno
 * after printing why.
 */
int paired_child_batch(const struct paired_batch *b, struct paired_run *run);

/*
 * The batch's process (main() when PAIRED_CHILD_ENV is set): reads the batch from standard
 * input, runs it, writes its rounds to standard output. Returns the exit status: 0, 1 (the
 * batch failed: said on standard error) or 2 (what came in was not a batch).
 */
int paired_child_main(void);

#endif
