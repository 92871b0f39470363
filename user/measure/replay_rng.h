/* SPDX-License-Identifier: GPL-2.0 */
/* replay_rng.h: the replays' one random generator (xorshift64*): fixed seeds, same draws */
#ifndef CP_REPLAY_RNG_H
#define CP_REPLAY_RNG_H

#include <stddef.h>
#include <stdint.h>

static inline uint64_t replay_rng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

/* Uniform in [0, 1). */
static inline double replay_rng_unit(uint64_t *s)
{
	return (double)(replay_rng_next(s) >> 11) / 9007199254740992.0;
}

/* Uniform in [0, n) (n > 0; the bias of a modulo of 64 bits is negligible here). */
static inline size_t replay_rng_below(uint64_t *s, size_t n)
{
	return (size_t)(replay_rng_next(s) % n);
}

/* 0 .. n - 1 in an order drawn from @s (Fisher-Yates). */
static inline void replay_rng_shuffle(size_t *order, size_t n, uint64_t *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n; i > 1; i--) {
		size_t j = replay_rng_below(s, i), t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}

#endif
