// SPDX-License-Identifier: GPL-2.0
/* machine.c: the one reader of the CPU: CPUID, /proc/cpuinfo and the caches in sysfs */
#include <cpuid.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "line_reader.h"
#include "machine.h"

static const char *const flag_names[MACHINE_NR_FLAGS] = {
	[MACHINE_ERMS] = "erms", [MACHINE_FSRM] = "fsrm", [MACHINE_REP_GOOD] = "rep_good",
	[MACHINE_FZRM] = "fzrm", [MACHINE_FSRS] = "fsrs", [MACHINE_FSRC] = "fsrc",
};

const char *machine_flag_name(enum machine_flag f)
{
	return f < MACHINE_NR_FLAGS ? flag_names[f] : "?";
}

static const char *const vendor_names[] = {
	[ASMREF_VENDOR_UNKNOWN] = "unknown",
	[ASMREF_VENDOR_INTEL] = "intel",
	[ASMREF_VENDOR_AMD] = "amd",
	[ASMREF_VENDOR_OTHER] = "other",
};

const char *machine_vendor_name(enum asmref_vendor v)
{
	return (unsigned int)v < sizeof(vendor_names) / sizeof(*vendor_names) ? vendor_names[v]
									      : "unknown";
}

enum asmref_vendor machine_vendor_from_name(const char *name)
{
	unsigned int v;

	for (v = 0; name && v < sizeof(vendor_names) / sizeof(*vendor_names); v++)
		if (!strcmp(name, vendor_names[v]))
			return (enum asmref_vendor)v;
	return ASMREF_VENDOR_UNKNOWN;
}

void machine_decode_signature(uint32_t eax, int *family, int *model, int *stepping)
{
	unsigned int fam = (eax >> 8) & 0xf, mod = (eax >> 4) & 0xf;

	/* The extended family adds only to family 15, the extended model only from family 6. */
	if (fam == 0xf)
		fam += (eax >> 20) & 0xff;
	if (fam >= 6)
		mod |= ((eax >> 16) & 0xf) << 4;
	*family = (int)fam;
	*model = (int)mod;
	*stepping = (int)(eax & 0xf);
}

int machine_from_perf_cpuid(const char *s, struct machine *m)
{
	char vendor[16];
	unsigned int f, mo, st;
	int n = 0;

	/* perf's x86 get_cpuid(): "%s,%u,%u,%u" of the vendor and the decoded signature. */
	if (!s || sscanf(s, "%15[^,],%u,%u,%u%n", vendor, &f, &mo, &st, &n) != 4 || !n ||
	    (s[n] && s[n] != '$' && s[n] != '\n') || f > 0x10f || mo > 0xff || st > 0xf)
		return -EINVAL;
	snprintf(m->vendor_id, sizeof(m->vendor_id), "%s", vendor);
	m->vendor = asmref_cpu_vendor_of(vendor);
	m->family = (int)f;
	m->model = (int)mo;
	m->stepping = (int)st;
	m->known = true;
	return 0;
}

const char *machine_describe(const struct machine *m, char *buf, size_t len)
{
	if (!m->known)
		snprintf(buf, len, "machine not recorded");
	else
		snprintf(buf, len, "%s family %d model %d stepping %d", m->vendor_id, m->family,
			 m->model, m->stepping);
	return buf;
}

bool machine_same_cpu(const struct machine *m, const struct machine *here)
{
	return m->known && here->known && !strcmp(m->vendor_id, here->vendor_id) &&
	       m->family == here->family && m->model == here->model &&
	       m->stepping == here->stepping;
}

int machine_cpu_now(void)
{
	int cpu = sched_getcpu();

	return cpu < 0 ? 0 : cpu;
}

unsigned int machine_clflush_line(void)
{
	/* x86-64 CPUs all have CLFLUSH with 64-byte lines so far: a fallback, never seen used */
	return machine_this()->clflush_line ?: 64;
}

size_t machine_page_size(void)
{
	static size_t page;
	long v;

	if (!page) {
		v = sysconf(_SC_PAGESIZE);
		page = v > 0 ? (size_t)v : 4096;
	}
	return page;
}

/* "48K", "2048K", "480M" -> bytes; 0 if not that. */
static uint64_t size_of(const char *s)
{
	unsigned long long v;
	char unit = 0;

	if (sscanf(s, "%llu%c", &v, &unit) < 1)
		return 0;
	return v * (unit == 'K' ? 1024ULL : unit == 'M' ? 1024ULL * 1024 : 1);
}

static bool read_attr(int cpu, int index, const char *attr, char *buf, size_t len)
{
	char path[128];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/%s", cpu, index,
		 attr);
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = 0;
	return ok;
}

static void put_cache(struct machine_caches *c, int level, const char *type, uint64_t size,
		      unsigned int line, unsigned int cpus)
{
	if (level == 1 && !strcmp(type, "Data")) {
		c->l1d = size;
		c->line = line;
	} else if (level == 2 && strcmp(type, "Instruction")) {
		c->l2 = size;
		c->l2_cpus = cpus;
	} else if (level == 3 && strcmp(type, "Instruction")) {
		c->l3 = size;
		c->l3_cpus = cpus;
	}
}

/* How many CPUs a sysfs list names ("0-1,4,6-7": 5); 0 if it is not a list. */
static unsigned int cpu_list_count(const char *s)
{
	unsigned int n = 0, a, b;
	int used;

	while (*s) {
		if (sscanf(s, "%u%n", &a, &used) != 1)
			return 0;
		s += used;
		b = a;
		if (*s == '-' && sscanf(s + 1, "%u%n", &b, &used) == 1)
			s += 1 + used;
		if (b < a)
			return 0;
		n += b - a + 1;
		if (*s == ',')
			s++;
		else if (*s)
			return 0;
	}
	return n;
}

/* Intel's leaf 4 says whether the L3 holds what the L2 holds: glibc counts the L2 if not. */
static int l3_inclusive_cpuid(void)
{
	unsigned int a, b, cx, d, i;

	if (__get_cpuid_max(0, NULL) < 4)
		return -1;
	for (i = 0; i < 16; i++) {
		__cpuid_count(4, i, a, b, cx, d);
		if (!(a & 0x1f))
			break;
		if (((a >> 5) & 7) == 3)
			return (d >> 1) & 1;
	}
	(void)b;
	(void)cx;
	return -1;
}

static bool caches_sysfs(int cpu, struct machine_caches *c)
{
	char level[16], type[32], size[32], line[16], list[256];
	int i;

	for (i = 0; read_attr(cpu, i, "level", level, sizeof(level)); i++) {
		if (!read_attr(cpu, i, "type", type, sizeof(type)) ||
		    !read_attr(cpu, i, "size", size, sizeof(size)))
			continue;
		if (!read_attr(cpu, i, "coherency_line_size", line, sizeof(line)))
			line[0] = 0;
		if (!read_attr(cpu, i, "shared_cpu_list", list, sizeof(list)))
			list[0] = 0;
		put_cache(c, atoi(level), type, size_of(size), (unsigned int)atoi(line),
			  cpu_list_count(list));
	}
	return c->l1d || c->l2 || c->l3;
}

/* Intel's leaf 4 and AMD's 0x8000001D share a layout: one subleaf per cache. */
static bool caches_cpuid(unsigned int leaf, struct machine_caches *c)
{
	static const char *const types[] = { NULL, "Data", "Instruction", "Unified" };
	unsigned int a, b, cx, d, i;

	if (__get_cpuid_max(leaf & 0x80000000u, NULL) < leaf)
		return false;
	for (i = 0; i < 16; i++) {
		__cpuid_count(leaf, i, a, b, cx, d);
		if (!(a & 0x1f) || (a & 0x1f) > 3)
			break;
		put_cache(c, (int)((a >> 5) & 7), types[a & 0x1f],
			  (uint64_t)((b >> 22) + 1) * (((b >> 12) & 0x3ff) + 1) *
				  ((b & 0xfff) + 1) * ((uint64_t)cx + 1),
			  (b & 0xfff) + 1, ((a >> 14) & 0xfff) + 1);
	}
	(void)d;
	return c->l1d || c->l2 || c->l3;
}

static int caches_from_cpuid(enum asmref_vendor vendor, struct machine_caches *c)
{
	struct machine_caches none = { .cpu = machine_cpu_now(), .l3_inclusive = -1 };

	*c = none;
	if (!caches_cpuid(vendor == ASMREF_VENDOR_AMD ? 0x8000001du : 4, c)) {
		*c = none;
		return -ENOENT;
	}
	c->source = "cpuid";
	return 0;
}

int machine_caches_cpuid(struct machine_caches *c)
{
	return caches_from_cpuid(machine_this()->vendor, c);
}

static int caches_of(int cpu, enum asmref_vendor vendor, struct machine_caches *c)
{
	struct machine_caches none = { .cpu = cpu, .l3_inclusive = -1 };

	*c = none;
	c->l3_inclusive = vendor == ASMREF_VENDOR_INTEL ? l3_inclusive_cpuid() : -1;
	if (caches_sysfs(cpu, c)) {
		c->source = "sysfs";
		return 0;
	}
	*c = none;
	/* CPUID answers for the CPU that executes it: only good for the one we are on. */
	if (cpu == machine_cpu_now() && !caches_from_cpuid(vendor, c)) {
		c->cpu = cpu;
		c->l3_inclusive = vendor == ASMREF_VENDOR_INTEL ? l3_inclusive_cpuid() : -1;
		return 0;
	}
	*c = none;
	return -ENOENT;
}

int machine_caches_of(int cpu, struct machine_caches *c)
{
	return caches_of(cpu, machine_this()->vendor, c);
}

/* The model name, microcode and the /proc/cpuinfo flags of the first CPU listed. */
static void read_cpuinfo(struct machine *m)
{
	struct line_reader r;
	FILE *f = fopen("/proc/cpuinfo", "r");
	char *v, *padded;
	int i;

	if (!f)
		return;
	/* The flags line is the longest: some 1.5 KiB with AVX-512. */
	line_reader_init(&r, f, "/proc/cpuinfo", "/proc/cpuinfo", 65536, 64UL << 20);
	while (line_reader_next(&r) > 0) {
		r.line[strcspn(r.line, "\n")] = 0;
		v = strchr(r.line, ':');
		if (!v || !v[1])
			continue;
		v += 2;
		if (!m->model_name[0] && !strncmp(r.line, "model name", 10))
			snprintf(m->model_name, sizeof(m->model_name), "%s", v);
		if (!m->microcode[0] && !strncmp(r.line, "microcode", 9))
			snprintf(m->microcode, sizeof(m->microcode), "%s", v);
		if (strncmp(r.line, "flags", 5))
			continue;
		padded = malloc(strlen(v) + 3);
		if (!padded)
			break;
		sprintf(padded, " %s ", v);
		for (i = MACHINE_ERMS; i <= MACHINE_REP_GOOD; i++) {
			char pat[32];

			snprintf(pat, sizeof(pat), " %s ", flag_names[i]);
			if (strstr(padded, pat))
				m->flags |= 1u << i;
		}
		free(padded);
		break;
	}
	line_reader_free(&r);
	fclose(f);
}

/* The TSC's rate where the CPU or the hypervisor states it. */
static void read_tsc(struct machine *m, unsigned int max)
{
	unsigned int a, b, c, d;

	m->tsc_read = true;
	if (__get_cpuid(0x80000007, &a, &b, &c, &d))
		m->tsc_invariant = d & (1u << 8);
	if (__get_cpuid(0x80000001, &a, &b, &c, &d))
		m->rdtscp = d & (1u << 27);
	if (max >= 0x15) {
		__cpuid(0x15, a, b, c, d);
		if (a && b && c) {
			m->tsc_hz = (double)c * b / a;
			m->tsc_hz_from = "cpuid 0x15";
			return;
		}
	}
	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31))) /* not under a hypervisor */
		return;
	__cpuid(0x40000000, a, b, c, d);
	if (a >= 0x40000010) {
		__cpuid(0x40000010, a, b, c, d);
		if (a) {
			m->tsc_hz = (double)a * 1000.0;
			m->tsc_hz_from = "hypervisor cpuid 0x40000010";
		}
	}
}

static void read_this(struct machine *m)
{
	unsigned int a, b, c, d, max;

	memset(m, 0, sizeof(*m));
	m->family = m->model = m->stepping = -1;
	m->caches.cpu = -1;
	m->caches.l3_inclusive = -1;
	read_cpuinfo(m);
	max = __get_cpuid_max(0, NULL);
	if (max < 1)
		return;
	__cpuid(0, a, b, c, d);
	memcpy(m->vendor_id, &b, 4);
	memcpy(m->vendor_id + 4, &d, 4);
	memcpy(m->vendor_id + 8, &c, 4);
	m->vendor_id[12] = 0;
	m->vendor = asmref_cpu_vendor_of(m->vendor_id);
	__cpuid(1, a, b, c, d);
	machine_decode_signature(a, &m->family, &m->model, &m->stepping);
	if (d & (1u << 19)) /* CLFSH */
		m->clflush_line = ((b >> 8) & 0xff) * 8;
	m->known = true;
	if (max >= 7) {
		__cpuid_count(7, 1, a, b, c, d);
		if (a & (1u << 10))
			m->flags |= 1u << MACHINE_FZRM;
		if (a & (1u << 11))
			m->flags |= 1u << MACHINE_FSRS;
		if (a & (1u << 12))
			m->flags |= 1u << MACHINE_FSRC;
	}
	read_tsc(m, max);
}

static struct machine here;

static void read_here(void)
{
	read_this(&here);
	caches_of(machine_cpu_now(), here.vendor, &here.caches);
}

const struct machine *machine_this(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, read_here);
	return &here;
}
