/* SPDX-License-Identifier: GPL-2.0 */
/* deadline.h: a call that may take at most so long: run in a thread, given up on at the deadline */
#ifndef CP_DEADLINE_H
#define CP_DEADLINE_H

/*
 * Runs @fn(@arg) in a thread of its own and waits for it at most @seconds (0: however long).
 * Returns 0 when it returned in time, or -ETIMEDOUT: it still runs, and @arg must stay valid
 * until it returns (the caller usually exits the process then). Without a thread to spare,
 * @fn runs here and 0 is returned.
 */
int deadline_run(void (*fn)(void *arg), void *arg, double seconds);

#endif
