/* SPDX-License-Identifier: GPL-2.0 */
/* stop.h: SIGINT/SIGTERM end a recording cleanly (probes detached, profile written) */
#ifndef CP_STOP_H
#define CP_STOP_H

#include <stdbool.h>

void stop_install(void);
bool stop_requested(void);
/* The signal that asked to stop, or 0. */
int stop_signal(void);

#endif
