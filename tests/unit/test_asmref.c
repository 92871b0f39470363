// SPDX-License-Identifier: GPL-2.0
/* cmocka tests: each asm-ref implementation writes exactly its n bytes, and nothing else. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <cmocka.h>

#include "asmref.h"
#include "../common/ref_memmove.h"

#define GUARD 64	 /* canary bytes checked on each side of the destination */
#define BASE 4096	 /* offset of the first destination byte in its buffer */
#define ALL_LEN_MAX 8192 /* every length 0..ALL_LEN_MAX is checked */
#define LARGE_MAX ((1u << 20) + 3)
/* aligned_alloc() wants a multiple of the alignment */
#define BUF_SIZE ((BASE + 256 + LARGE_MAX + 4096 + 4095) & ~4095u)
#define MOVE_BUF_SIZE (6 * 8192)

/*
 * Source bytes are < 0x80 and untouched destination bytes are >= 0x80, so any
 * missed, misplaced or stray byte is always visible.
 */
static uint8_t *src_buf, *src_init, *dst_buf, *dst_init, *move_buf, *move_ref, *move_init;

static const size_t align_lens[] = { 0, 1, 7, 31, 32, 33, 63, 64, 255, 256, 680, 2047, 2048, 4113 };
static const size_t large_lens[] = { 12345, 65536 + 7, LARGE_MAX };

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint8_t rng_byte(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint8_t)(rng_state >> 24);
}

static int group_setup(void **state)
{
	size_t i;

	(void)state;
	src_buf = aligned_alloc(4096, BUF_SIZE);
	src_init = aligned_alloc(4096, BUF_SIZE);
	dst_buf = aligned_alloc(4096, BUF_SIZE);
	dst_init = aligned_alloc(4096, BUF_SIZE);
	move_buf = aligned_alloc(4096, MOVE_BUF_SIZE);
	move_ref = aligned_alloc(4096, MOVE_BUF_SIZE);
	move_init = aligned_alloc(4096, MOVE_BUF_SIZE);
	if (!src_buf || !src_init || !dst_buf || !dst_init || !move_buf || !move_ref || !move_init)
		return -1;
	for (i = 0; i < BUF_SIZE; i++) {
		src_init[i] = rng_byte() & 0x7f;
		dst_init[i] = rng_byte() | 0x80;
	}
	memcpy(src_buf, src_init, BUF_SIZE);
	memcpy(dst_buf, dst_init, BUF_SIZE);
	for (i = 0; i < MOVE_BUF_SIZE; i++)
		move_init[i] = rng_byte();
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	free(src_buf);
	free(src_init);
	free(dst_buf);
	free(dst_init);
	free(move_buf);
	free(move_ref);
	free(move_init);
	return 0;
}

/* Puts every buffer and T back, so one failed check does not cascade into later tests. */
static void restore_buffers(void)
{
	memcpy(src_buf, src_init, BUF_SIZE);
	memcpy(dst_buf, dst_init, BUF_SIZE);
	memcpy(move_buf, move_init, MOVE_BUF_SIZE);
	memcpy(move_ref, move_init, MOVE_BUF_SIZE);
	asmref_set_threshold(ASMREF_ERMS_THRESHOLD_DEFAULT);
}

/* The message is formatted before the buffers it describes are restored. */
#define check_fail(...)                                                                            \
	do {                                                                                       \
		char msg_[256];                                                                    \
		snprintf(msg_, sizeof(msg_), __VA_ARGS__);                                         \
		restore_buffers();                                                                 \
		fail_msg("%s", msg_);                                                              \
	} while (0)

/* Index of the first byte of p[0..n) that differs from q (or from v if q is NULL), else n. */
static size_t first_diff(const uint8_t *p, const uint8_t *q, int v, size_t n)
{
	size_t i;

	if (q && !memcmp(p, q, n))
		return n;
	for (i = 0; i < n; i++)
		if (p[i] != (q ? q[i] : (uint8_t)v))
			return i;
	return n;
}

/*
 * Runs impl once on dst_buf + BASE + dalign and src_buf + BASE + salign, checks the
 * return value, the n result bytes, GUARD canaries on both sides and an unchanged
 * source, then restores both buffers.  c is the memset value for SET.
 */
static void check_one(const struct asmref_impl *impl, size_t dalign, size_t salign, size_t n, int c)
{
	uint8_t *d = dst_buf + BASE + dalign;
	const uint8_t *s = src_buf + BASE + salign;
	size_t at;

	switch (impl->kind) {
	case ASMREF_COPY: {
		void *ret = ((asmref_copy_fn *)impl->fn)(d, s, n);

		if (ret != d)
			check_fail("%s n=%zu: returned %p, want dst %p", impl->name, n, ret,
				   (void *)d);
		at = first_diff(d, s, 0, n);
		break;
	}
	case ASMREF_COPY_USER: {
		size_t left = ((asmref_copy_user_fn *)impl->fn)(d, s, n);

		if (left)
			check_fail("%s n=%zu: returned %zu bytes not copied, want 0", impl->name, n,
				   left);
		at = first_diff(d, s, 0, n);
		break;
	}
	case ASMREF_CLEAR: {
		size_t left = ((asmref_clear_fn *)impl->fn)(d, n);

		if (left)
			check_fail("%s n=%zu: returned %zu bytes not cleared, want 0", impl->name,
				   n, left);
		at = first_diff(d, NULL, 0, n);
		break;
	}
	case ASMREF_SET: {
		void *ret = ((asmref_set_fn *)impl->fn)(d, c, n);

		if (ret != d)
			check_fail("%s n=%zu: returned %p, want dst %p", impl->name, n, ret,
				   (void *)d);
		at = first_diff(d, NULL, c, n);
		break;
	}
	default:
		check_fail("%s: unknown kind %d", impl->name, (int)impl->kind);
		return;
	}
	if (at != n)
		check_fail("%s n=%zu dalign=%zu salign=%zu c=%#x: wrong byte at %zu", impl->name, n,
			   dalign, salign, c, at);
	if (memcmp(d - GUARD, dst_init + BASE + dalign - GUARD, GUARD))
		check_fail("%s n=%zu dalign=%zu salign=%zu: wrote below dst", impl->name, n, dalign,
			   salign);
	if (memcmp(d + n, dst_init + BASE + dalign + n, GUARD))
		check_fail("%s n=%zu dalign=%zu salign=%zu: wrote past dst + n", impl->name, n,
			   dalign, salign);
	if (memcmp(s - GUARD, src_init + BASE + salign - GUARD, n + 2 * GUARD))
		check_fail("%s n=%zu dalign=%zu salign=%zu: modified the source", impl->name, n,
			   dalign, salign);
	memcpy(d, dst_init + BASE + dalign, n);
}

static int uses_src(const struct asmref_impl *impl)
{
	return impl->kind == ASMREF_COPY || impl->kind == ASMREF_COPY_USER;
}

static void test_all_lengths(void **state)
{
	const struct asmref_impl *impl = *state;
	size_t n;

	for (n = 0; n <= ALL_LEN_MAX; n++)
		check_one(impl, 0, 0, n, 0x5a);
	/* Once more with both sides misaligned differently (int8 low-byte order flips too). */
	for (n = 0; n <= ALL_LEN_MAX; n++)
		check_one(impl, 61, 3, n, 0x5a);
}

static void test_misaligned(void **state)
{
	const struct asmref_impl *impl = *state;
	size_t da, sa, i;
	size_t sa_max = uses_src(impl) ? 64 : 1;

	for (i = 0; i < sizeof(align_lens) / sizeof(align_lens[0]); i++)
		for (da = 0; da < 64; da++)
			for (sa = 0; sa < sa_max; sa++)
				check_one(impl, da, sa, align_lens[i], 0x5a);
}

static void test_large(void **state)
{
	const struct asmref_impl *impl = *state;
	static const size_t aligns[][2] = { { 0, 0 }, { 3, 61 }, { 63, 1 }, { 8, 200 } };
	size_t i, j;

	for (i = 0; i < sizeof(large_lens) / sizeof(large_lens[0]); i++)
		for (j = 0; j < sizeof(aligns) / sizeof(aligns[0]); j++)
			check_one(impl, aligns[j][0], aligns[j][1], large_lens[i], 0x5a);
}

/* memcpy_orig picks its direction from (int8)src < (int8)dst: cover both signs. */
static void test_copy_directions(void **state)
{
	const struct asmref_impl *impl = *state;
	static const size_t lows[] = { 0x00, 0x10, 0x7f, 0x80, 0x90, 0xff };
	size_t i, j, n;

	for (i = 0; i < sizeof(lows) / sizeof(lows[0]); i++)
		for (j = 0; j < sizeof(lows) / sizeof(lows[0]); j++)
			for (n = 0; n <= 300; n++)
				check_one(impl, lows[i], lows[j], n, 0);
}

static void test_set_values(void **state)
{
	const struct asmref_impl *impl = *state;
	static const int values[] = { 0, 0xff, -1, 0x1a5, 0x7f, 0x80 };
	size_t i, n, da;

	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		for (da = 0; da < 9; da++)
			for (n = 0; n <= 300; n++)
				check_one(impl, da, 0, n, values[i]);
}

/*
 * memmove within one buffer, src at base, dst at base + delta, against a byte-wise
 * reference.  Both buffers start from and return to the random move_init, so that no
 * earlier move can leave a periodic pattern that hides a missed byte.
 */
static void check_move(const struct asmref_impl *impl, size_t base, long delta, size_t n)
{
	size_t lo = delta < 0 ? base + delta : base, hi = (delta < 0 ? base : base + delta) + n;
	uint8_t *s = move_buf + base, *d = move_buf + base + delta;
	void *ret;

	assert_true(lo >= GUARD && hi + GUARD <= MOVE_BUF_SIZE);
	lo -= GUARD;
	hi += GUARD;
	ref_memmove(move_ref + base + delta, move_ref + base, n);
	ret = ((asmref_copy_fn *)impl->fn)(d, s, n);
	if (ret != d)
		check_fail("%s overlap n=%zu delta=%ld: returned %p, want dst %p", impl->name, n,
			   delta, ret, (void *)d);
	if (memcmp(move_buf + lo, move_ref + lo, hi - lo))
		check_fail("%s overlap n=%zu delta=%ld base=%zu: wrong byte at %zd from src",
			   impl->name, n, delta, base,
			   (ssize_t)(lo + first_diff(move_buf + lo, move_ref + lo, 0, hi - lo)) -
				   (ssize_t)base);
	memcpy(move_buf + lo, move_init + lo, hi - lo);
	memcpy(move_ref + lo, move_init + lo, hi - lo);
}

static void test_overlap(void **state)
{
	const struct asmref_impl *impl = *state;
	static const size_t lens[] = { 100, 255, 256, 257, 679, 680, 681, 1000, 2048, 4113, 8192 };
	static const size_t bases[] = { 16384, 16384 + 5, 16384 + 0x83 };
	long extra[] = { 256, 512, 768, 4096, 0, 0, 0, 0 };
	size_t b, i, n, e;
	long delta;

	memcpy(move_buf, move_init, MOVE_BUF_SIZE);
	memcpy(move_ref, move_init, MOVE_BUF_SIZE);
	for (b = 0; b < sizeof(bases) / sizeof(bases[0]); b++) {
		for (n = 0; n <= 96; n++)
			for (delta = -(long)n - 2; delta <= (long)n + 2; delta++)
				check_move(impl, bases[b], delta, n);
		for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			n = lens[i];
			extra[4] = n - 1;
			extra[5] = n;
			extra[6] = n + 1;
			extra[7] = n / 2;
			for (delta = -70; delta <= 70; delta++)
				check_move(impl, bases[b], delta, n);
			for (e = 0; e < sizeof(extra) / sizeof(extra[0]); e++) {
				check_move(impl, bases[b], extra[e], n);
				check_move(impl, bases[b], -extra[e], n);
			}
		}
	}
}

/*
 * Observes which path erms_threshold took.  With dst = src + 1 and (int8)src < (int8)dst,
 * memcpy_orig copies from the end (tail code loads before it stores), which equals
 * memmove; rep movsb copies forward one byte at a time, smearing src[0] over dst.
 */
static int took_movsb(const struct asmref_impl *impl, size_t n)
{
	uint8_t *s = move_buf + 8192 + 16, *d = s + 1;
	size_t i;
	int smeared = 1, moved = 1;

	for (i = 0; i <= n; i++)
		move_buf[8192 + 16 + i] = move_ref[8192 + 16 + i] = (uint8_t)(i + 1);
	ref_memmove(move_ref + 8192 + 17, move_ref + 8192 + 16, n);
	((asmref_copy_fn *)impl->fn)(d, s, n);
	for (i = 0; i < n; i++) {
		smeared &= d[i] == 1;
		moved &= d[i] == move_ref[8192 + 17 + i];
	}
	if (smeared == moved)
		check_fail("%s n=%zu T=%llu: result is neither memcpy_orig's nor rep movsb's",
			   impl->name, n, (unsigned long long)asmref_erms_threshold_T);
	return smeared;
}

static void test_threshold(void **state)
{
	const struct asmref_impl *impl = asmref_find("erms_threshold");
	static const uint64_t ts[] = { 0, 1, 32, 2048, UINT64_MAX };
	static const size_t probe[] = { 2, 3, 31, 32, 33, 64, 2047, 2048, 2049, 4096 };
	size_t i, j, n;

	(void)state;
	assert_non_null(impl);
	assert_int_equal(asmref_erms_threshold_T, ASMREF_ERMS_THRESHOLD_DEFAULT);
	for (i = 0; i < sizeof(ts) / sizeof(ts[0]); i++) {
		asmref_set_threshold(ts[i]);
		assert_true(asmref_erms_threshold_T == ts[i]);
		for (n = 0; n <= 2200; n++)
			check_one(impl, 0, 0, n, 0);
		for (j = 0; j < sizeof(probe) / sizeof(probe[0]); j++) {
			n = probe[j];
			if (took_movsb(impl, n) != (n >= ts[i]))
				check_fail("T=%llu n=%zu: took %s", (unsigned long long)ts[i], n,
					   n >= ts[i] ? "memcpy_orig, want rep movsb"
						      : "rep movsb, want memcpy_orig");
		}
	}
	asmref_set_threshold(ASMREF_ERMS_THRESHOLD_DEFAULT);
}

static void test_registry(void **state)
{
	size_t i, j;

	(void)state;
	assert_true(asmref_count() > 0);
	assert_null(asmref_get(asmref_count()));
	assert_null(asmref_find("no_such_impl"));
	assert_string_equal(asmref_get(0)->name, "libc_memcpy");
	for (i = 0; i < asmref_count(); i++) {
		const struct asmref_impl *impl = asmref_get(i);

		assert_non_null(impl->fn);
		assert_ptr_equal(asmref_find(impl->name), impl);
		assert_true(strlen(impl->description) > 0);
		assert_string_not_equal(asmref_kind_name(impl->kind), "?");
		for (j = 0; j < i; j++)
			assert_string_not_equal(asmref_get(j)->name, impl->name);
	}
	/* asmref_run dispatches on the kind: a SET writes zeros, a COPY copies. */
	memset(dst_buf + BASE, 0xee, 100);
	asmref_run(asmref_find("stosb"), dst_buf + BASE, NULL, 100);
	assert_int_equal(first_diff(dst_buf + BASE, NULL, 0, 100), 100);
	asmref_run(asmref_find("memcpy_orig"), dst_buf + BASE, src_buf + BASE, 100);
	assert_memory_equal(dst_buf + BASE, src_buf + BASE, 100);
	memcpy(dst_buf + BASE, dst_init + BASE, 100);
}

/* A replica this CPU cannot run (SIGILL) is skipped, saying what it needs. */
static void test_unusable(void **state)
{
	const struct asmref_impl *impl = *state;
	char needs[128];

	print_message("skipped: %s needs %s, which this CPU lacks\n", impl->name,
		      asmref_needs_text(impl->needs, needs, sizeof(needs)));
	skip();
}

static void add_test(struct CMUnitTest *t, size_t *nt, const char *impl_name, const char *what,
		     CMUnitTestFunction fn, const void *impl)
{
	char *name;

	if (asprintf(&name, "%s/%s", impl_name, what) < 0)
		name = (char *)what;
	t[(*nt)++] =
		(struct CMUnitTest){ .name = name, .test_func = fn, .initial_state = (void *)impl };
}

int main(void)
{
	size_t count = asmref_count(), nt = 0, i;
	struct CMUnitTest *tests = calloc(count * 6 + 2, sizeof(*tests));

	if (!tests) {
		fprintf(stderr, "test_asmref: cannot allocate the test table\n");
		return 1;
	}
	add_test(tests, &nt, "registry", "table", test_registry, NULL);
	add_test(tests, &nt, "erms_threshold", "threshold", test_threshold, NULL);
	for (i = 0; i < count; i++) {
		const struct asmref_impl *impl = asmref_get(i);

		if (!asmref_usable(impl)) {
			add_test(tests, &nt, impl->name, "cpu", test_unusable, impl);
			continue;
		}
		add_test(tests, &nt, impl->name, "all_lengths", test_all_lengths, impl);
		add_test(tests, &nt, impl->name, "misaligned", test_misaligned, impl);
		add_test(tests, &nt, impl->name, "large", test_large, impl);
		if (uses_src(impl))
			add_test(tests, &nt, impl->name, "directions", test_copy_directions, impl);
		if (!strcmp(impl->family, "memmove"))
			add_test(tests, &nt, impl->name, "overlap", test_overlap, impl);
		if (impl->kind == ASMREF_SET)
			add_test(tests, &nt, impl->name, "values", test_set_values, impl);
	}
	return _cmocka_run_group_tests("asmref", tests, nt, group_setup, group_teardown);
}
