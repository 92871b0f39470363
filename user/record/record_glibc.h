/* SPDX-License-Identifier: GPL-2.0 */
/* record_glibc.h: the glibc thresholds a recorded process copies with, into its profile */
#ifndef CP_RECORD_GLIBC_H
#define CP_RECORD_GLIBC_H

#include <stdint.h>
#include "profile/profile.h"

/*
 * If a site of @p is a uprobe on one of glibc's memmove or memset implementations, sets
 * @p->glibc (docs/profile-format.md#glibc): `ld.so --list-tunables` run with the process's
 * GLIBC_TUNABLES (@command's: this process's environment; @pid's: /proc/PID/environ; neither:
 * unknown, glibc's defaults) and without. Says why on stderr when it cannot; never fails the
 * recording.
 */
void record_glibc_fill(struct profile *p, char **command, uint32_t pid);

#endif
