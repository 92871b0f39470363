// SPDX-License-Identifier: GPL-2.0
/* calib_pin.c: pinning the calling thread to one CPU, or saying why it cannot be */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include "calib_pin.h"
#include "lib/log.h"

static char *online_cpus(void)
{
	static char buf[256];
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");

	strcpy(buf, "?");
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
	return buf;
}

int calib_pin_cpu(int cpu)
{
	cpu_set_t set;

	if (cpu >= CPU_SETSIZE) {
		p_err("cannot pin to CPU %d: this machine's CPUs are %s", cpu, online_cpus());
		return -EINVAL;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		int err = -errno;

		p_err("cannot pin to CPU %d: %s (this machine's CPUs are %s, and the ones this "
		      "process may use are set by taskset/cgroups)",
		      cpu, strerror(errno), online_cpus());
		return err;
	}
	return 0;
}
