// SPDX-License-Identifier: GPL-2.0
/* cpu_features.c: CPUID and XCR0 into struct asmref_cpu; what the replicas need of them */
#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asmref.h"
#include "asmref_cpu.h"

#define XCR0_AVX_STATE 0x06u	/* XMM and YMM */
#define XCR0_AVX512_STATE 0xe6u /* and opmask, ZMM_Hi256, Hi16_ZMM */

static uint64_t xcr0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

enum asmref_vendor asmref_cpu_vendor_of(const char *vendor_id)
{
	if (!vendor_id || !*vendor_id)
		return ASMREF_VENDOR_UNKNOWN;
	if (!strcmp(vendor_id, "GenuineIntel"))
		return ASMREF_VENDOR_INTEL;
	/* glibc counts Hygon as AMD (init_cpu_features). */
	if (!strcmp(vendor_id, "AuthenticAMD") || !strcmp(vendor_id, "HygonGenuine"))
		return ASMREF_VENDOR_AMD;
	return ASMREF_VENDOR_OTHER;
}

void asmref_cpu_detect(struct asmref_cpu *c)
{
	unsigned int a = 0, b = 0, cx = 0, d = 0, max, l7b = 0, l7d = 0, l71a = 0;
	uint64_t state = 0;
	char vendor[13];
	bool avx_os, avx512_os;

	memset(c, 0, sizeof(*c));
	max = __get_cpuid_max(0, NULL);
	__cpuid(0, a, b, cx, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &cx, 4);
	vendor[12] = 0;
	c->intel = asmref_cpu_vendor_of(vendor) == ASMREF_VENDOR_INTEL;
	c->amd = asmref_cpu_vendor_of(vendor) == ASMREF_VENDOR_AMD;
	if (max < 1)
		return;
	__cpuid(1, a, b, cx, d);
	c->sse2 = d & bit_SSE2;
	c->ssse3 = cx & bit_SSSE3;
	if (cx & bit_OSXSAVE)
		state = xcr0();
	avx_os = (state & XCR0_AVX_STATE) == XCR0_AVX_STATE;
	avx512_os = (state & XCR0_AVX512_STATE) == XCR0_AVX512_STATE;
	c->avx = avx_os && (cx & bit_AVX);
	if (max >= 7) {
		__cpuid_count(7, 0, a, l7b, cx, l7d);
		__cpuid_count(7, 1, l71a, b, cx, d);
	}
	c->avx2 = c->avx && (l7b & bit_AVX2);
	c->avx512f = avx512_os && (l7b & bit_AVX512F);
	c->avx512vl = c->avx512f && (l7b & (1u << 31));
	c->avx512bw = c->avx512f && (l7b & (1u << 30));
	c->avx512er = c->avx512f && (l7b & (1u << 27));
	c->avx_vnni = c->avx && (l71a & (1u << 4));
	c->bmi2 = l7b & bit_BMI2;
	c->erms = l7b & (1u << 9);
	c->fsrm = l7d & (1u << 4);
	/* RTM, unless the CPU says every transaction aborts (RTM_ALWAYS_ABORT, EDX bit 11). */
	c->rtm = (l7b & (1u << 11)) && !(l7d & (1u << 11));
}

/* COPYPROF_TEST_HIDE_FLAGS=avx512f,rtm: tests pretend those /proc/cpuinfo flags are absent. */
static bool hidden(const char *flag)
{
	const char *list = getenv("COPYPROF_TEST_HIDE_FLAGS");
	size_t n = strlen(flag);
	const char *p;

	for (p = list; p && (p = strstr(p, flag)); p += n)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

unsigned int asmref_cpu_have(void)
{
	struct asmref_cpu c;
	unsigned int have = 0;

	asmref_cpu_detect(&c);
	if (c.avx2 && !hidden("avx2"))
		have |= ASMREF_NEEDS_AVX2;
	if (c.avx512f && !hidden("avx512f"))
		have |= ASMREF_NEEDS_AVX512F;
	if (c.avx512vl && !hidden("avx512vl") && !hidden("avx512f"))
		have |= ASMREF_NEEDS_AVX512VL;
	if (c.avx512bw && !hidden("avx512bw") && !hidden("avx512f"))
		have |= ASMREF_NEEDS_AVX512BW;
	if (c.bmi2 && !hidden("bmi2"))
		have |= ASMREF_NEEDS_BMI2;
	if (c.rtm && !hidden("rtm"))
		have |= ASMREF_NEEDS_RTM;
	return have;
}

bool asmref_usable(const struct asmref_impl *impl)
{
	return impl && !(impl->needs & ~asmref_cpu_have());
}

const char *asmref_needs_text(unsigned int needs, char *buf, size_t len)
{
	static const char *const names[] = { "AVX2",	  "AVX-512F", "AVX-512VL",
					     "AVX-512BW", "BMI2",     "RTM" };
	size_t i, off = 0;

	buf[0] = 0;
	for (i = 0; i < sizeof(names) / sizeof(*names); i++)
		if ((needs & (1u << i)) && off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
						names[i]);
	if (!off)
		snprintf(buf, len, "nothing beyond x86-64");
	return buf;
}
