/* SPDX-License-Identifier: GPL-2.0 */
/* calib_pin.h: pinning the calling thread to one CPU, or saying why it cannot be */
#ifndef CP_CALIB_PIN_H
#define CP_CALIB_PIN_H

/*
 * Pins the calling thread to CPU @cpu. Returns 0, or -errno after printing why, with the
 * machine's online CPUs (a CPU past CPU_SETSIZE, or one taskset/cgroups do not allow).
 */
int calib_pin_cpu(int cpu);

#endif
