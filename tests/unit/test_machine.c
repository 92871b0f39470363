// SPDX-License-Identifier: GPL-2.0
/* test_machine.c: the machine home: signatures decoded, the vendor rule, perf's cpuid, JSON */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/host.h"
#include "lib/machine.h"
#include "lib/machine_json.h"

static void assert_fms(uint32_t eax, int family, int model, int stepping)
{
	int f, m, s;

	machine_decode_signature(eax, &f, &m, &s);
	assert_int_equal(f, family);
	assert_int_equal(m, model);
	assert_int_equal(s, stepping);
}

static void signatures(void **state)
{
	(void)state;
	/* Intel family 6: the extended model is the high nibble (Sapphire Rapids 0x8f, 0xa7). */
	assert_fms(0x000806f8, 6, 143, 8);
	assert_fms(0x000a0671, 6, 167, 1);
	assert_fms(0x00050657, 6, 85, 7); /* Cascade/Cooper Lake's model 0x55 */
	/* AMD: family 0xf plus the extended family (Zen 4: 25, Zen 5: 26), model with it. */
	assert_fms(0x00a10f11, 25, 17, 1);
	assert_fms(0x00b40f40, 26, 68, 0);
	assert_fms(0x00b00f21, 26, 2, 1);
	/* Hygon Dhyana: family 0x18. */
	assert_fms(0x00900f01, 24, 0, 1);
	/* Below family 6 the extended model is not part of the model. */
	assert_fms(0x00010543, 5, 4, 3);
	/* Family 15 without an extended family (Pentium 4) keeps the extended model. */
	assert_fms(0x00010f29, 15, 18, 9);
}

static void vendors(void **state)
{
	(void)state;
	assert_int_equal(asmref_cpu_vendor_of("GenuineIntel"), ASMREF_VENDOR_INTEL);
	assert_int_equal(asmref_cpu_vendor_of("AuthenticAMD"), ASMREF_VENDOR_AMD);
	/* glibc counts Hygon as AMD, and so does every rule here. */
	assert_int_equal(asmref_cpu_vendor_of("HygonGenuine"), ASMREF_VENDOR_AMD);
	assert_int_equal(asmref_cpu_vendor_of("CentaurHauls"), ASMREF_VENDOR_OTHER);
	assert_int_equal(asmref_cpu_vendor_of(""), ASMREF_VENDOR_UNKNOWN);
	assert_int_equal(asmref_cpu_vendor_of(NULL), ASMREF_VENDOR_UNKNOWN);
	assert_string_equal(machine_vendor_name(ASMREF_VENDOR_AMD), "amd");
	assert_int_equal(machine_vendor_from_name("intel"), ASMREF_VENDOR_INTEL);
	assert_int_equal(machine_vendor_from_name("zilog"), ASMREF_VENDOR_UNKNOWN);
}

static void host_is_amd_rule(void **state)
{
	struct host_meta m = { 0 };

	(void)state;
	assert_int_equal(machine_from_perf_cpuid("HygonGenuine,24,0,1", &m.machine), 0);
	assert_true(host_is_amd(&m));
	assert_int_equal(machine_from_perf_cpuid("GenuineIntel,6,143,8", &m.machine), 0);
	m.cpu_model = "AMD EPYC (a model name that lies)";
	assert_false(host_is_amd(&m)); /* the vendor decides, not the name */
	/* An old file, without the machine: its model name, Hygon included. */
	m.machine.known = false;
	assert_true(host_is_amd(&m));
	m.cpu_model = "Hygon C86 7285 32-core Processor";
	assert_true(host_is_amd(&m));
	m.cpu_model = "Intel(R) Xeon(R) Processor";
	assert_false(host_is_amd(&m));
}

static void perf_cpuid(void **state)
{
	struct machine m = { .family = -1 };

	(void)state;
	assert_int_equal(machine_from_perf_cpuid("GenuineIntel,6,143,8", &m), 0);
	assert_true(m.known);
	assert_string_equal(m.vendor_id, "GenuineIntel");
	assert_int_equal(m.vendor, ASMREF_VENDOR_INTEL);
	assert_int_equal(m.family, 6);
	assert_int_equal(m.model, 143);
	assert_int_equal(m.stepping, 8);
	assert_int_equal(machine_from_perf_cpuid("AuthenticAMD,26,68,0", &m), 0);
	assert_int_equal(m.vendor, ASMREF_VENDOR_AMD);
	assert_int_equal(m.family, 26);
	assert_int_equal(m.model, 68);
	/* Not that shape: refused, @m unchanged. */
	assert_int_equal(machine_from_perf_cpuid("GenuineIntel,6,143", &m), -EINVAL);
	assert_int_equal(machine_from_perf_cpuid("GenuineIntel,6,143,8,9", &m), -EINVAL);
	assert_int_equal(machine_from_perf_cpuid("0x00000000410fd0c0", &m), -EINVAL);
	assert_int_equal(machine_from_perf_cpuid("GenuineIntel,6,143,99", &m), -EINVAL);
	assert_int_equal(machine_from_perf_cpuid(NULL, &m), -EINVAL);
	assert_int_equal(m.family, 26);
}

/* This machine against /proc/cpuinfo's own decoding of the same CPUID. */
static void this_machine(void **state)
{
	const struct machine *m = machine_this();
	int family = -1, model = -1, stepping = -1;
	char line[4096];
	FILE *f = fopen("/proc/cpuinfo", "r");

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) && !strstr(line, "flags")) {
		sscanf(line, "cpu family : %d", &family);
		sscanf(line, "model : %d", &model);
		sscanf(line, "stepping : %d", &stepping);
	}
	fclose(f);
	assert_true(m->known);
	assert_int_equal(m->family, family);
	assert_int_equal(m->model, model);
	assert_int_equal(m->stepping, stepping);
	assert_true(m->vendor != ASMREF_VENDOR_UNKNOWN);
	assert_ptr_equal(machine_this(), m); /* read once */
	print_message("this machine: %s family %d model %d stepping %d, L1d %llu L2 %llu L3 %llu "
		      "line %u (%s, CPU %d)\n",
		      m->vendor_id, m->family, m->model, m->stepping,
		      (unsigned long long)m->caches.l1d, (unsigned long long)m->caches.l2,
		      (unsigned long long)m->caches.l3, m->caches.line, m->caches.source ?: "none",
		      m->caches.cpu);
	assert_true(m->caches.cpu >= 0); /* the CPU it ran on at the first call */
}

static void caches_of_a_cpu(void **state)
{
	struct machine_caches c, id;
	char path[96], buf[32];
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index0/size",
		 machine_cpu_now());
	f = fopen(path, "r");
	if (!f) {
		/* Then only CPUID can say: for the CPU we are on. */
		assert_int_equal(machine_caches_of(machine_cpu_now(), &c), 0);
		assert_string_equal(c.source, "cpuid");
		skip();
	}
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_int_equal(machine_caches_of(machine_cpu_now(), &c), 0);
	assert_string_equal(c.source, "sysfs");
	assert_int_equal(c.cpu, machine_cpu_now());
	assert_true(c.l1d > 0 && c.l2 > c.l1d && c.line > 0);
	/*
	 * The fallback, CPUID, reads what the kernel put in sysfs from the same leaves (an AMD
	 * CPU without topology extensions has neither leaf: the kernel used 0x80000005/6).
	 */
	if (machine_caches_cpuid(&id)) {
		print_message(
			"CPUID has no deterministic cache leaf here: the fallback is unused\n");
	} else {
		assert_int_equal(id.l1d, c.l1d);
		assert_int_equal(id.l2, c.l2);
		assert_int_equal(id.l3, c.l3);
		assert_int_equal(id.line, c.line);
	}
	/* A CPU that does not exist: nothing, and no CPUID answer for it. */
	assert_int_equal(machine_caches_of(1 << 20, &c), -ENOENT);
	assert_int_equal(c.l1d, 0);
	assert_null(c.source);
}

static void json_round_trip(void **state)
{
	char *flags[] = { "erms", "fsrm" };
	struct host_meta m = { .cpu_flags = flags, .nr_cpu_flags = 2 }, back = { 0 };
	json_object *o = json_object_new_object(), *v;

	(void)state;
	assert_int_equal(machine_from_perf_cpuid("HygonGenuine,24,0,1", &m.machine), 0);
	m.machine.caches = (struct machine_caches){ 1, 32768, 524288, 8 << 20, 64, "sysfs" };
	machine_json_put(o, &m);
	machine_json_get(o, &back);
	assert_true(back.machine.known);
	assert_int_equal(back.machine.vendor, ASMREF_VENDOR_AMD);
	assert_int_equal(back.machine.family, 24);
	assert_int_equal(back.machine.stepping, 1);
	assert_int_equal(back.machine.caches.l2, 524288);
	assert_int_equal(back.machine.caches.cpu, 1);
	assert_string_equal(back.machine.caches.source, "sysfs");
	assert_int_equal(back.nr_cpu_flags, 2);
	assert_int_equal(back.machine.flags, 1u << MACHINE_ERMS | 1u << MACHINE_FSRM);
	assert_false(back.cpu_flags_unknown);
	host_meta_free(&back);
	json_object_put(o);

	/* Unknown flags are null, never [], and read back as unknown. */
	o = json_object_new_object();
	m.nr_cpu_flags = 0;
	m.cpu_flags_unknown = true;
	m.cpu_flags_from = "unknown: not recorded";
	machine_json_put(o, &m);
	assert_true(json_object_object_get_ex(o, "cpu_flags", &v));
	assert_null(v);
	memset(&back, 0, sizeof(back));
	machine_json_get(o, &back);
	assert_true(back.cpu_flags_unknown);
	assert_string_equal(back.cpu_flags_from, "unknown: not recorded");
	assert_false(host_has_flag(&back, "fsrm"));
	host_meta_free(&back);
	json_object_put(o);

	/* An old file: flags known, no machine. */
	o = json_tokener_parse("{\"cpu_flags\": [\"erms\"], \"cpu_model\": \"AMD EPYC\"}");
	memset(&back, 0, sizeof(back));
	machine_json_get(o, &back);
	assert_false(back.machine.known);
	assert_false(back.cpu_flags_unknown);
	assert_true(host_has_flag(&back, "erms"));
	host_meta_free(&back);
	json_object_put(o);
	/* A hostile machine object: wrong types and ranges read as unknown. */
	o = json_tokener_parse("{\"machine\": {\"vendor\": 7, \"family\": -3, \"model\": 1e30,"
			       "\"caches\": [1], \"tsc_hz\": \"x\"}}");
	memset(&back, 0, sizeof(back));
	machine_json_get(o, &back);
	assert_false(back.machine.known);
	assert_int_equal(back.machine.family, -1);
	assert_int_equal(back.machine.model, -1);
	assert_null(back.machine.caches.source);
	host_meta_free(&back);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(signatures),	    cmocka_unit_test(vendors),
		cmocka_unit_test(host_is_amd_rule), cmocka_unit_test(perf_cpuid),
		cmocka_unit_test(this_machine),	    cmocka_unit_test(caches_of_a_cpu),
		cmocka_unit_test(json_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
