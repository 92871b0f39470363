// SPDX-License-Identifier: GPL-2.0
/*
 * test_site_callers.c: entry-site callers: return addresses named from kallsyms text, unknown
 * ones folded, order by calls; their JSON round trip; merge sums them by place, not address.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/ksyms.h"
#include "profile/merge.h"
#include "profile/profile.h"
#include "profile/site_callers.h"

static const char kallsyms[] = "ffffffff81000000 T vfs_read\n"
			       "ffffffff81000200 T ksys_read\n"
			       "ffffffff81000300 T the_end\n"
			       "ffffffffc0000000 t btrfs_read\t[btrfs]\n"
			       "ffffffffc0000400 t btrfs_end\t[btrfs]\n";

static struct profile_caller *caller(struct profile_site *s, uint64_t addr, uint64_t len,
				     uint64_t n)
{
	struct profile_caller *c = profile_site_add_caller(s);

	c->address = addr;
	assert_int_equal(sparse_hist_add(&c->buckets, cp_bucket_of(len), n, n * len), 0);
	c->calls = n;
	c->bytes = n * len;
	return c;
}

static struct profile *entry_profile(uint64_t vfs_read_calls)
{
	struct profile *p = profile_new();
	struct profile_site *s = profile_add_site(p);

	p->meta.kernel = strdup("6.12.0-test");
	p->meta.cpu_model = strdup("Test CPU");
	s->target = strdup("vmlinux");
	s->symbol = strdup("read_zero");
	s->mechanism = strdup("kprobe");
	s->len_arg = strdup("arg2");
	caller(s, 0xffffffff810000e7, 4096, vfs_read_calls); /* vfs_read+0xe7 */
	/* A call that ends vfs_read returns to ksys_read's first byte: still vfs_read's. */
	caller(s, 0xffffffff81000200, 64, 3);
	caller(s, 0xffffffffc0000123, 1, 50); /* btrfs:btrfs_read+0x123 */
	caller(s, 0, 8, 2);		      /* unreadable stack */
	caller(s, 0x1000, 8, 5);	      /* below every symbol */
	s->caller_misses = 7;
	return p;
}

static void naming_folding_order(void **state)
{
	FILE *f = fmemopen((void *)kallsyms, sizeof(kallsyms) - 1, "r");
	struct ksyms *ks = ksyms_parse(f, "test");
	struct profile *p = entry_profile(1000);
	struct profile_site *s = &p->sites[0];

	fclose(f);
	assert_non_null(ks);
	site_callers_name(p, ks);
	assert_int_equal(s->nr_callers, 4); /* the two unknown ones are one */
	assert_string_equal(s->callers[0].symbol, "vfs_read");
	assert_string_equal(s->callers[0].target, "vmlinux");
	assert_int_equal(s->callers[0].offset, 0xe7);
	assert_int_equal(s->callers[0].calls, 1000);
	assert_string_equal(s->callers[1].symbol, "btrfs_read");
	assert_string_equal(s->callers[1].target, "btrfs");
	assert_int_equal(s->callers[1].offset, 0x123);
	assert_string_equal(s->callers[2].symbol, "[unknown]");
	assert_int_equal(s->callers[2].calls, 7);
	assert_int_equal(s->callers[2].bytes, 56);
	assert_string_equal(s->callers[3].symbol, "vfs_read");
	assert_int_equal(s->callers[3].offset, 0x200);
	profile_free(p);
	ksyms_free(ks);
}

static void json_round_trip(void **state)
{
	FILE *f = fmemopen((void *)kallsyms, sizeof(kallsyms) - 1, "r");
	struct ksyms *ks = ksyms_parse(f, "test");
	struct profile *p = entry_profile(1000), *q = NULL;
	json_object *root;

	fclose(f);
	site_callers_name(p, ks);
	root = profile_to_json(p);
	assert_int_equal(profile_from_json(root, "test", &q), 0);
	json_object_put(root);
	assert_int_equal(q->sites[0].nr_callers, 4);
	assert_int_equal(q->sites[0].caller_misses, 7);
	assert_string_equal(q->sites[0].callers[1].target, "btrfs");
	assert_int_equal(q->sites[0].callers[1].address, 0xffffffffc0000123);
	assert_int_equal(sparse_hist_get(&q->sites[0].callers[0].buckets, cp_bucket_of(4096)).count,
			 1000);
	assert_int_equal(q->sites[0].callers[0].bytes, 4096000);
	profile_free(p);
	profile_free(q);
	ksyms_free(ks);
}

/* Two boots (other addresses, same places) merge into one caller each; misses add up. */
static void merge_by_place(void **state)
{
	FILE *f = fmemopen((void *)kallsyms, sizeof(kallsyms) - 1, "r");
	struct ksyms *ks = ksyms_parse(f, "test");
	struct profile *in[2] = { entry_profile(1000), entry_profile(24) }, *out = NULL;
	size_t i;

	fclose(f);
	for (i = 0; i < 2; i++) {
		site_callers_name(in[i], ks);
		in[i]->sites[0].callers[0].address += 0x100000 * i; /* KASLR */
	}
	assert_int_equal(merge_profiles(in, 2, &out), 0);
	assert_int_equal(out->nr_sites, 1);
	assert_int_equal(out->sites[0].nr_callers, 4);
	assert_string_equal(out->sites[0].callers[0].symbol, "vfs_read");
	assert_int_equal(out->sites[0].callers[0].calls, 1024);
	assert_int_equal(out->sites[0].callers[0].address, 0);
	assert_int_equal(out->sites[0].callers[1].calls, 100);
	assert_int_equal(out->sites[0].caller_misses, 14);
	for (i = 0; i < 2; i++)
		profile_free(in[i]);
	profile_free(out);
	ksyms_free(ks);
}

/* The site's calls that no caller took: its buckets less the callers', never below zero. */
static void no_caller_rest(void **state)
{
	struct profile *p = entry_profile(1000);
	struct profile_site *s = &p->sites[0];
	struct hist_slot rest[CP_NBUCKETS];

	assert_int_equal(sparse_hist_add(&s->buckets, cp_bucket_of(4096), 1010, 1010 * 4096), 0);
	assert_int_equal(sparse_hist_add(&s->buckets, cp_bucket_of(64), 3, 192), 0);
	/* fewer than the callers: 0 */
	assert_int_equal(sparse_hist_add(&s->buckets, cp_bucket_of(1), 40, 40), 0);
	assert_int_equal(profile_site_no_caller(s, rest), 10);
	assert_int_equal(rest[cp_bucket_of(4096)].count, 10);
	assert_int_equal(rest[cp_bucket_of(4096)].bytes, 40960);
	assert_int_equal(rest[cp_bucket_of(64)].count, 0);
	assert_int_equal(rest[cp_bucket_of(1)].count, 0);
	profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(naming_folding_order),
		cmocka_unit_test(json_round_trip),
		cmocka_unit_test(merge_by_place),
		cmocka_unit_test(no_caller_rest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
