// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: one asm-ref call (fuzzed impl, n, alignments, overlap) vs a byte loop. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asmref.h"
#include "asmref_glibc.h"
#include "../common/ref_memmove.h"

/*
 * Build: clang -g -O1 -fsanitize=fuzzer,address -Iasm-ref \\
 *        tests/fuzz/fuzz_asmref.c -o fuzz_asmref
 *
 * Input layout (missing bytes read as 0):
 *   [0] impl index mod asmref_count()   [1..2] n (little endian, 0..65535)
 *   [3] dst misalignment mod 64          [4] src misalignment mod 64
 *   [5..6] int16 overlap: memmove family copies within one buffer, dst = src + overlap
 *   [7] memset value                     [8..9] erms_threshold T (0xffff = never rep movsb)
 *   glibc replicas' thresholds (asmref_glibc.h): [8..9] also rep_movsb T, 0xffff = never;
 *   [10..11] stop threshold x 4 (0xffff = none); [12..13] non-temporal threshold x 4 (raised
 *   to glibc's 0x4040 minimum); [14] bit 0 the short-distance rule; [15..16] rep_stosb T
 *   [17..] source contents, repeated
 * Replicas this CPU cannot run are skipped.
 */
#define GUARD 64
#define MAX_N 65536
#define MAX_OVERLAP 32768
#define AREA (GUARD + 64 + MAX_OVERLAP + MAX_N + MAX_OVERLAP + 64 + GUARD)

static uint8_t area[AREA], expect[AREA], src_area[GUARD + 64 + MAX_N + GUARD],
	chk[MAX_N + 2 * GUARD];

static unsigned in_byte(const uint8_t *data, size_t size, size_t i)
{
	return i < size ? data[i] : 0;
}

static void fill(uint8_t *p, size_t n, const uint8_t *data, size_t size, uint8_t salt)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (size ? data[i % size] : 0) ^ (uint8_t)(i * 131 + salt);
}

static void die(const struct asmref_impl *impl, size_t n, const char *what)
{
	fprintf(stderr, "fuzz_asmref: %s n=%zu: %s\n", impl->name, n, what);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct asmref_impl *impl = asmref_get(in_byte(data, size, 0) % asmref_count());
	size_t n = in_byte(data, size, 1) | in_byte(data, size, 2) << 8;
	size_t dalign = in_byte(data, size, 3) % 64, salign = in_byte(data, size, 4) % 64;
	long overlap = (int16_t)(in_byte(data, size, 5) | in_byte(data, size, 6) << 8);
	int c = (int)in_byte(data, size, 7);
	unsigned t = in_byte(data, size, 8) | in_byte(data, size, 9) << 8;
	unsigned stop = in_byte(data, size, 10) | in_byte(data, size, 11) << 8;
	unsigned nt = in_byte(data, size, 12) | in_byte(data, size, 13) << 8;
	unsigned stosb = in_byte(data, size, 15) | in_byte(data, size, 16) << 8;
	struct asmref_glibc_knobs knobs = {
		.rep_movsb_threshold = t == 0xffff ? UINT64_MAX : t,
		.rep_movsb_stop_threshold = stop == 0xffff ? UINT64_MAX : 4ull * stop,
		.non_temporal_threshold = 4ull * nt,
		.rep_stosb_threshold = stosb == 0xffff ? UINT64_MAX : stosb,
		.string_control = in_byte(data, size, 14) & KNOB_AVOID_SHORT_DISTANCE_REP_MOVSB,
	};
	const uint8_t *payload = size > 17 ? data + 17 : NULL;
	size_t plen = size > 17 ? size - 17 : 0;
	int is_move = !strcmp(impl->family, "memmove");
	size_t doff = GUARD + 64 + MAX_OVERLAP + dalign, soff = GUARD + salign;
	uint8_t *d, *s;
	size_t left = 0, lo, hi;
	void *ret = NULL;

	if (!asmref_usable(impl))
		return 0; /* SIGILL on this CPU */
	asmref_set_threshold(t == 0xffff ? UINT64_MAX : t);
	asmref_glibc_set_knobs(&knobs);
	if (is_move) {
		/* src and dst share area; the reference result is computed on a copy */
		s = area + doff;
		d = area + doff + overlap;
	} else {
		s = src_area + soff;
		d = area + doff;
		fill(s - GUARD, n + 2 * GUARD, payload, plen, 0x17);
	}
	/* Only the bytes the call may touch plus GUARD on each side are set up and compared. */
	lo = (size_t)((d < s ? d : s) - area) - GUARD;
	hi = (size_t)((d < s ? s : d) - area) + n + GUARD;
	if (!is_move)
		lo = (size_t)(d - area) - GUARD, hi = (size_t)(d - area) + n + GUARD;
	fill(area + lo, hi - lo, payload, plen, 0x5b);
	memcpy(expect + lo, area + lo, hi - lo);
	if (is_move)
		ref_memmove(expect + (d - area), expect + (s - area), n);

	switch (impl->kind) {
	case ASMREF_COPY:
		ret = ((asmref_copy_fn *)impl->fn)(d, s, n);
		if (!is_move)
			memcpy(expect + (d - area), s, n);
		break;
	case ASMREF_COPY_USER:
		left = ((asmref_copy_user_fn *)impl->fn)(d, s, n);
		memcpy(expect + (d - area), s, n);
		break;
	case ASMREF_CLEAR:
		left = ((asmref_clear_fn *)impl->fn)(d, n);
		memset(expect + (d - area), 0, n);
		break;
	case ASMREF_SET:
		ret = ((asmref_set_fn *)impl->fn)(d, c, n);
		memset(expect + (d - area), c, n);
		break;
	}
	if ((impl->kind == ASMREF_COPY || impl->kind == ASMREF_SET) && ret != d)
		die(impl, n, "return value is not dst");
	if (left)
		die(impl, n, "reported bytes not done");
	if (memcmp(area + lo, expect + lo, hi - lo))
		die(impl, n, "memory differs from the reference");
	if (!is_move && (impl->kind == ASMREF_COPY || impl->kind == ASMREF_COPY_USER)) {
		fill(chk, n + 2 * GUARD, payload, plen, 0x17);
		if (memcmp(chk, s - GUARD, n + 2 * GUARD))
			die(impl, n, "modified the source");
	}
	return 0;
}
