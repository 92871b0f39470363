// SPDX-License-Identifier: GPL-2.0
/* test_ksyms.c: kallsyms parsing: aliases, sizes, modules, duplicates, hidden addresses */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/ksyms.h"

/* Out of order on purpose (modules first), with aliases, a duplicate static and a bad line. */
static const char kallsyms_text[] = "ffffffffc0001000 t btrfs_decompress_buf2page\t[btrfs]\n"
				    "ffffffffc0001140 t btrfs_other\t[btrfs]\n"
				    "ffffffffc0001100 t zstd_helper\t[zstd]\n"
				    "ffffffff81000000 T _text\n"
				    "ffffffff81000000 T _stext\n"
				    "ffffffff81001000 t __pfx___memcpy\n"
				    "ffffffff81001010 T __memcpy\n"
				    "ffffffff81001010 W memcpy\n"
				    "ffffffff81001010 T __pi_memcpy\n"
				    "ffffffff81001040 t memcpy_orig\n"
				    "ffffffff81001200 t helper\n"
				    "ffffffff81001300 t helper\n"
				    "this is not a kallsyms line\n"
				    "ffffffff81001400 T read_zero\n";

static struct ksyms *load(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct ksyms *ks;

	assert_non_null(f);
	ks = ksyms_parse(f, "test");
	fclose(f);
	assert_non_null(ks);
	return ks;
}

static void finds_by_name_and_merges_aliases(void **state)
{
	struct ksyms *ks = load(kallsyms_text);
	const struct ksym *s = ksyms_find(ks, "memcpy", NULL), *al[8];
	size_t n;

	assert_int_equal(ks->nr, 13);
	assert_false(ks->restricted);
	assert_non_null(s);
	assert_int_equal(s->addr, 0xffffffff81001010ull);
	assert_int_equal(s->type, 'W');
	n = ksyms_aliases(ks, s, al, 8);
	assert_int_equal(n, 3);
	/* File order among aliases is kept: the kernel's first name comes first. */
	assert_string_equal(al[0]->name, "__memcpy");
	assert_string_equal(al[1]->name, "memcpy");
	assert_string_equal(al[2]->name, "__pi_memcpy");
	assert_null(ksyms_find(ks, "nosuch", NULL));
	assert_int_equal(ksyms_addr(ks, "_text"), 0xffffffff81000000ull);
	ksyms_free(ks);
}

static void finds_by_address_with_size(void **state)
{
	struct ksyms *ks = load(kallsyms_text);
	uint64_t off, size;
	const struct ksym *s = ksyms_at(ks, 0xffffffff81001018ull, &off, &size);

	assert_non_null(s);
	assert_string_equal(s->name, "__memcpy");
	assert_int_equal(off, 8);
	assert_int_equal(size, 0x30); /* up to memcpy_orig, past the aliases */
	s = ksyms_at(ks, 0xffffffff81001010ull, &off, NULL);
	assert_string_equal(s->name, "__memcpy");
	assert_int_equal(off, 0);
	assert_null(ksyms_at(ks, 0xffffffff80000000ull, &off, NULL));
	ksyms_free(ks);
}

static void modules_are_separate(void **state)
{
	struct ksyms *ks = load(kallsyms_text);
	const struct ksym *s = ksyms_find(ks, "btrfs_decompress_buf2page", "btrfs");
	uint64_t off, size;

	assert_non_null(s);
	assert_string_equal(s->module, "btrfs");
	/* zstd's symbol sits between btrfs's two by address: the size skips it. */
	assert_int_equal(ksyms_size(ks, s), 0x140);
	assert_null(ksyms_find(ks, "btrfs_decompress_buf2page", NULL));
	assert_null(ksyms_find(ks, "btrfs_decompress_buf2page", "zstd"));
	assert_non_null(ksyms_find(ks, "btrfs_decompress_buf2page", "*"));
	assert_true(ksyms_has_module(ks, "btrfs"));
	assert_false(ksyms_has_module(ks, "xfs"));
	/* The last symbol of a module has no known size. */
	s = ksyms_at(ks, 0xffffffffc0001150ull, &off, &size);
	assert_string_equal(s->name, "btrfs_other");
	assert_int_equal(size, 0);
	ksyms_free(ks);
}

static void duplicates_listed_in_address_order(void **state)
{
	struct ksyms *ks = load(kallsyms_text);
	const struct ksym *v[4];

	assert_int_equal(ksyms_find_all(ks, "helper", NULL, v, 4), 2);
	assert_int_equal(v[0]->addr, 0xffffffff81001200ull);
	assert_int_equal(v[1]->addr, 0xffffffff81001300ull);
	assert_int_equal(ksyms_find_all(ks, "helper", NULL, v, 1), 1);
	ksyms_free(ks);
}

/* @n symbols f0.. 16 bytes apart, every 1000th also named "dup"; @reversed: last address first. */
static struct ksyms *load_many(size_t n, bool reversed)
{
	size_t i, k, len = 0, cap = n * 48 + 1;
	char *text = malloc(cap);
	struct ksyms *ks;

	assert_non_null(text);
	for (k = 0; k < n; k++) {
		i = reversed ? n - 1 - k : k;
		len += (size_t)snprintf(text + len, cap - len, "%llx T f%zu\n",
					0xffffffff81000000ull + 16 * i, i);
		if (!(i % 1000))
			len += (size_t)snprintf(text + len, cap - len, "%llx t dup\n",
						0xffffffff81000000ull + 16 * i);
	}
	ks = load(text);
	free(text);
	return ks;
}

/* Every name is found by the hash index, duplicates lowest address first, in either order. */
static void many_symbols_by_name(void **state)
{
	const struct ksym *v[32];
	size_t n = 20000, i;
	int reversed;

	(void)state;
	for (reversed = 0; reversed < 2; reversed++) {
		struct ksyms *ks = load_many(n, reversed);
		char name[32];

		assert_int_equal(ks->nr, n + n / 1000);
		for (i = 0; i < n; i++) {
			snprintf(name, sizeof(name), "f%zu", i);
			assert_int_equal(ksyms_addr(ks, name), 0xffffffff81000000ull + 16 * i);
		}
		assert_int_equal(ksyms_find_all(ks, "dup", NULL, v, 32), n / 1000);
		for (i = 0; i < n / 1000; i++)
			assert_int_equal(v[i]->addr, 0xffffffff81000000ull + 16 * 1000 * i);
		for (i = 1; i < ks->nr; i++)
			assert_true(ks->syms[i - 1].addr <= ks->syms[i].addr);
		assert_null(ksyms_find(ks, "f20000", NULL));
		ksyms_free(ks);
	}
}

static void zero_addresses_mean_restricted(void **state)
{
	struct ksyms *ks = load("0000000000000000 T _text\n0000000000000000 T memcpy\n"
				"0000000000000000 t f\t[mod]\n");

	assert_true(ks->restricted);
	assert_int_equal(ks->nr, 3);
	ksyms_free(ks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_by_name_and_merges_aliases),
		cmocka_unit_test(many_symbols_by_name),
		cmocka_unit_test(finds_by_address_with_size),
		cmocka_unit_test(modules_are_separate),
		cmocka_unit_test(duplicates_listed_in_address_order),
		cmocka_unit_test(zero_addresses_mean_restricted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
