// SPDX-License-Identifier: GPL-2.0
/* proc_cpu.c: the CPU time a running process has used, from /proc/PID/stat */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "proc_cpu.h"

int proc_cpu_read(pid_t pid, double *cpu_s)
{
	unsigned long long v[4];
	char path[64], buf[1024], *p;
	long tick = sysconf(_SC_CLK_TCK);
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* The command name may hold spaces and ')': the fields follow the last ')'. */
	p = strrchr(buf, ')');
	/* state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt, then the four */
	if (!p || tick <= 0 ||
	    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3]) != 4)
		return -EPROTO;
	*cpu_s = (double)(v[0] + v[1] + v[2] + v[3]) / (double)tick;
	return 0;
}
