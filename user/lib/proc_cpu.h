/* SPDX-License-Identifier: GPL-2.0 */
/* proc_cpu.h: the CPU time a running process has used, from /proc/PID/stat */
#ifndef CP_PROC_CPU_H
#define CP_PROC_CPU_H

#include <sys/types.h>

/*
 * The user + system CPU time of process @pid (all its threads) plus that of its children it
 * has waited for (utime + stime + cutime + cstime of /proc/PID/stat), in seconds, at the
 * clock-tick resolution (sysconf(_SC_CLK_TCK)). 0, or -errno (the process is gone: -ENOENT).
 */
int proc_cpu_read(pid_t pid, double *cpu_s);

#endif
