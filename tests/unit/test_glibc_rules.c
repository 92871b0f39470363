// SPDX-License-Identifier: GPL-2.0
/* test_glibc_rules.c: each glibc version's thresholds from a machine block, against ld.so's */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/file_root.h"
#include "lib/glibc_rules.h"
#include "lib/glibc_version.h"

#define MIB (1024ull * 1024)

static struct machine cpu(enum asmref_vendor v, int family, int model, uint64_t l2,
			  unsigned int l2_cpus, uint64_t l3, unsigned int l3_cpus, int inclusive)
{
	struct machine m = { .known = true, .vendor = v, .family = family, .model = model };

	m.flags = (1u << MACHINE_ERMS) | (1u << MACHINE_FSRM);
	m.caches = (struct machine_caches){ .l1d = 48 * 1024,
					    .l2 = l2,
					    .l2_cpus = l2_cpus,
					    .l3 = l3,
					    .l3_cpus = l3_cpus,
					    .l3_inclusive = inclusive,
					    .source = "sysfs" };
	return m;
}

static void defaults(unsigned int minor, const struct machine *m, struct glibc_defaults *d)
{
	bool exact;

	glibc_rules_defaults(glibc_rules_find(2, minor, &exact), m, NULL, d);
	assert_true(exact);
}

/* ld.so --list-tunables of Debian's 2.36 and 2.41, on the machines this project has had. */
static void measured_machines(void **state)
{
	/* Intel family 6 model 167, 2 vCPUs, L2 2 MiB each, L3 480 MiB non-inclusive. */
	struct machine intel = cpu(ASMREF_VENDOR_INTEL, 6, 167, 2 * MIB, 1, 480 * MIB, 2, 0);
	/* AMD Zen 4 VM (the old reference machine): L2 1 MiB, L3 320 MiB. */
	struct machine zen4 = cpu(ASMREF_VENDOR_AMD, 25, 17, 1 * MIB, 1, 320 * MIB, 2, -1);
	/* AMD Zen 5: L2 1 MiB, L3 32 MiB. */
	struct machine zen5 = cpu(ASMREF_VENDOR_AMD, 26, 2, 1 * MIB, 1, 32 * MIB, 2, -1);
	struct glibc_defaults d;

	(void)state;
	defaults(36, &intel, &d);
	assert_int_equal(d.rep_movsb.value, 0x840);
	assert_int_equal(d.non_temporal.value, 0xb580000);
	assert_int_equal(d.stop.value, 0xb580000);
	assert_int_equal(d.rep_stosb.value, 0x800);
	assert_true(d.memset_non_temporal.value == UINT64_MAX);
	defaults(41, &intel, &d);
	assert_int_equal(d.rep_movsb.value, 0x840);
	assert_int_equal(d.non_temporal.value, 0xf100000);
	assert_int_equal(d.memset_non_temporal.value, 0xf100000);
	assert_int_equal(d.rep_stosb.value, 0x800);

	defaults(36, &zen4, &d);
	assert_int_equal(d.rep_movsb.value, 0x840);
	assert_int_equal(d.non_temporal.value, 0xf000000);
	assert_int_equal(d.stop.value, 0x100000); /* 2.36 on AMD: the L2 */
	assert_int_equal(d.rep_stosb.value, 0x800);

	defaults(41, &zen5, &d);
	assert_true(d.rep_movsb.known);
	assert_int_equal(d.rep_movsb.value, 0x1800000); /* = the non-temporal threshold */
	assert_int_equal(d.non_temporal.value, 0x1800000);
	assert_int_equal(d.stop.value, 0x1800000);
	assert_true(d.rep_stosb.value == UINT64_MAX);
	assert_int_equal(d.memset_non_temporal.value, 0x1800000);
	assert_non_null(strstr(d.rep_movsb.why, "non-temporal"));
}

/* What cannot be derived is said, never guessed. */
static void unknown_facts(void **state)
{
	struct machine intel = cpu(ASMREF_VENDOR_INTEL, 6, 143, 2 * MIB, 1, 0, 0, 0);
	struct machine amd = cpu(ASMREF_VENDOR_AMD, 25, 17, 0, 0, 0, 0, -1);
	struct machine none = { .known = false };
	struct glibc_defaults d;

	(void)state;
	defaults(41, &intel, &d);
	assert_false(d.non_temporal.known);
	assert_true(d.rep_movsb.known); /* FSRM: 2112 whatever the caches */
	defaults(41, &amd, &d);
	assert_false(d.rep_movsb.known); /* AMD 2.41: the non-temporal threshold, unknown here */
	intel.flags &= ~(1u << MACHINE_FSRM);
	defaults(36, &intel, &d);
	assert_false(d.rep_movsb.known); /* the vector width is not in a machine block */
	defaults(36, &none, &d);
	assert_false(d.rep_movsb.known);
	assert_false(d.rep_stosb.known);
}

static void versions(void **state)
{
	const struct glibc_rules *r;
	bool exact;

	(void)state;
	r = glibc_rules_find(2, 39, &exact);
	assert_false(exact);
	assert_int_equal(r->minor, 36);
	r = glibc_rules_find(2, 43, &exact);
	assert_false(exact);
	assert_int_equal(r->minor, 41);
	r = glibc_rules_find(2, 31, &exact);
	assert_false(exact);
	assert_int_equal(r->minor, 36);
	r = glibc_rules_find(2, 40, &exact);
	assert_true(exact);
	assert_string_equal(glibc_rules_known(), "2.36, 2.40, 2.41");
}

static void banner(void **state)
{
	struct glibc_version v;

	(void)state;
	assert_int_equal(glibc_version_of_file("/lib/x86_64-linux-gnu/libc.so.6", &v), 0);
	assert_int_equal(v.major, 2);
	assert_true(v.minor >= 36);
	assert_int_equal(strlen(v.build_id), 40);
	assert_int_equal(glibc_version_of_file("/bin/true", &v), -ENODATA);
	assert_int_equal(glibc_version_of_file("/nonexistent", &v), -ENOENT);
}

static void roots(void **state)
{
	char *s;

	(void)state;
	assert_int_equal(file_root_len("/usr/lib/x86_64-linux-gnu/libc.so.6"), 0);
	assert_int_equal(file_root_len("/lib64/ld-linux-x86-64.so.2"), 0);
	assert_int_equal(file_root_len("/srv/r/usr/lib/x86_64-linux-gnu/libc.so.6"), 6);
	assert_int_equal(file_root_len("/proc/42/root/usr/lib/x86_64-linux-gnu/libc.so.6"), 13);
	assert_int_equal(file_root_len("/proc/42/rootx/lib/libc.so.6"), 14); /* a folder */
	assert_int_equal(file_root_len("/opt/app/bin/app"), 0);
	s = file_root_name("/srv/r/lib64/ld-linux-x86-64.so.2");
	assert_string_equal(s, "/srv/r");
	free(s);
	s = file_root_name("/lib/x86_64-linux-gnu/libc.so.6");
	assert_string_equal(s, "/");
	free(s);
	s = file_root_name("/proc/self/root/lib/x86_64-linux-gnu/libc.so.6");
	assert_string_equal(s, "/proc/self/root");
	free(s);
}

/* Symlinks under a root are followed as its processes follow them: absolute ones in the root. */
static void resolved_in_root(void **state)
{
	char dir[] = "/tmp/cp-test-root.XXXXXX", path[512], want[512], *r;
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	n = strlen(dir);
	snprintf(path, sizeof(path),
		 "mkdir -p %s/usr/lib64 %s/usr/lib/x86_64-linux-gnu && "
		 "touch %s/usr/lib/x86_64-linux-gnu/ld.so && "
		 "ln -s /usr/lib64 %s/lib64 && ln -s ../lib/x86_64-linux-gnu/ld.so "
		 "%s/usr/lib64/ld.so "
		 "&& ln -s b %s/a && ln -s a %s/b",
		 dir, dir, dir, dir, dir, dir, dir);
	assert_int_equal(system(path), 0);
	r = file_root_resolve(dir, n, "/lib64/ld.so");
	snprintf(want, sizeof(want), "%s/usr/lib/x86_64-linux-gnu/ld.so", dir);
	assert_non_null(r);
	assert_string_equal(r, want);
	free(r);
	r = file_root_resolve(dir, n, "/usr/../../lib64/./ld.so"); /* never above the root */
	assert_non_null(r);
	assert_string_equal(r, want);
	free(r);
	assert_null(file_root_resolve(dir, n, "/a/x"));
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(measured_machines),
		cmocka_unit_test(unknown_facts),
		cmocka_unit_test(versions),
		cmocka_unit_test(banner),
		cmocka_unit_test(roots),
		cmocka_unit_test(resolved_in_root),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
