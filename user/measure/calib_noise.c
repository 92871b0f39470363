// SPDX-License-Identifier: GPL-2.0
/* calib_noise.c: what disturbed a calibration: load, steal time, frequency, a busy SMT sibling */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "calib_noise.h"

/* /proc/stat's line for "cpu" (@cpu < 0) or "cpuN": busy, steal and total jiffies. */
static int stat_line(int cpu, double *busy, double *steal, double *total)
{
	char want[32], line[512];
	FILE *f = fopen("/proc/stat", "r");
	int found = -1;

	if (!f)
		return -1;
	if (cpu < 0)
		snprintf(want, sizeof(want), "cpu ");
	else
		snprintf(want, sizeof(want), "cpu%d ", cpu);
	while (found && fgets(line, sizeof(line), f)) {
		unsigned long long v[10] = { 0 };
		int i, n;

		if (strncmp(line, want, strlen(want)))
			continue;
		n = sscanf(line + strlen(want), "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
		if (n < 8)
			break;
		*total = 0;
		for (i = 0; i < 8; i++)
			*total += (double)v[i];
		*busy = *total - (double)v[3] - (double)v[4]; /* idle, iowait */
		*steal = (double)v[7];
		found = 0;
	}
	fclose(f);
	return found;
}

static double cur_khz(int cpu)
{
	char path[128];
	double khz = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%lf", &khz) != 1)
		khz = 0;
	fclose(f);
	return khz;
}

/* thread_siblings_list: "2,3" or "2-3". */
static void read_siblings(struct calib_noise *n)
{
	char path[128], buf[128], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
		 n->cpu);
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	for (p = buf; *p && n->nr_siblings < CALIB_NOISE_MAX_SIBLINGS;) {
		char *end;
		long a = strtol(p, &end, 10), b = a, c;

		if (end == p)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (c = a; c <= b && n->nr_siblings < CALIB_NOISE_MAX_SIBLINGS; c++)
			if (c != n->cpu)
				n->siblings[n->nr_siblings++] = (int)c;
		p = *end == ',' ? end + 1 : end;
		if (*p == '\n')
			break;
	}
}

void calib_noise_start(struct calib_noise *n, int cpu)
{
	double busy, steal, total;
	size_t i;

	memset(n, 0, sizeof(*n));
	n->cpu = cpu;
	if (!stat_line(-1, &busy, &steal, &total)) {
		n->steal0 = steal;
		n->total0 = total;
	}
	read_siblings(n);
	for (i = 0; i < n->nr_siblings; i++)
		if (stat_line(n->siblings[i], &busy, &steal, &total) == 0) {
			n->sib_busy0[i] = busy;
			n->sib_total0[i] = total;
		}
	n->khz_min = n->khz_max = cur_khz(cpu);
}

void calib_noise_sample(struct calib_noise *n)
{
	double khz = cur_khz(n->cpu);

	if (khz <= 0)
		return;
	if (n->khz_min <= 0 || khz < n->khz_min)
		n->khz_min = khz;
	if (khz > n->khz_max)
		n->khz_max = khz;
}

void calib_noise_describe(const struct calib_noise *n, char *buf, size_t len)
{
	double busy, steal, total, load = -1;
	size_t i, o = 0;
	FILE *f = fopen("/proc/loadavg", "r");
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	buf[0] = '\0';
	if (f) {
		if (fscanf(f, "%lf", &load) != 1)
			load = -1;
		fclose(f);
	}
	if (load >= 0)
		o += (size_t)snprintf(buf + o, len - o, "load average %.2f on %ld CPU%s", load,
				      ncpu, ncpu == 1 ? "" : "s");
	if (o < len && !stat_line(-1, &busy, &steal, &total) && total > n->total0)
		o += (size_t)snprintf(buf + o, len - o, "%ssteal time %.1f%% of CPU time",
				      o ? ", " : "",
				      100 * (steal - n->steal0) / (total - n->total0));
	if (o < len && n->khz_min > 0)
		o += (size_t)snprintf(buf + o, len - o,
				      n->khz_max > n->khz_min * 1.02 ? "%sfrequency %.0f-%.0f MHz"
								     : "%sfrequency %.0f MHz",
				      o ? ", " : "", n->khz_min / 1e3, n->khz_max / 1e3);
	for (i = 0; i < n->nr_siblings && o < len; i++)
		if (!stat_line(n->siblings[i], &busy, &steal, &total) && total > n->sib_total0[i])
			o += (size_t)snprintf(buf + o, len - o, "%sSMT sibling CPU %d busy %.0f%%",
					      o ? ", " : "", n->siblings[i],
					      100 * (busy - n->sib_busy0[i]) /
						      (total - n->sib_total0[i]));
	if (!o && len)
		snprintf(buf, len, "nothing could be read from /proc or /sys");
}
