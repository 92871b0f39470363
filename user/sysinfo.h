/* SPDX-License-Identifier: GPL-2.0 */
/* sysinfo.h: facts about this machine that a profile or cost model records */
#ifndef CP_SYSINFO_H
#define CP_SYSINFO_H

#include "profile.h"

/* Fills kernel, CPU model, copy-relevant CPU flags, hostname, start time and tool version. */
void sysinfo_fill_meta(struct profile_meta *m);
/* True if the CPU flag (as named in /proc/cpuinfo, or fsrs/fzrm/fsrc from CPUID) is set. */
bool sysinfo_has_flag(const struct profile_meta *m, const char *flag);

#endif
