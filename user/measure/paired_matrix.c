// SPDX-License-Identifier: GPL-2.0
/* paired_matrix.c: the conditions calibrate --mix measures a mix in: cache state, working set */
#include <stdio.h>
#include <string.h>
#include "estimate/estimate_footprint.h"
#include "lib/machine.h"
#include "lib/num_format.h"
#include "paired_matrix.h"
#include "replay_regions.h"

size_t paired_matrix_default(struct paired_condition *c)
{
	static const char *const cache[PAIRED_MAX_CONDITIONS] = { "warm", "warm", "dst-flushed" };
	size_t i;

	memset(c, 0, PAIRED_MAX_CONDITIONS * sizeof(*c));
	for (i = 0; i < PAIRED_MAX_CONDITIONS; i++)
		est_cache_parse(cache[i], &c[i].cache);
	c[0].ws_bytes = replay_default_ws();
	c[1].ws_bytes = replay_small_ws();
	c[2].ws_bytes = replay_default_ws();
	return PAIRED_MAX_CONDITIONS;
}

size_t paired_matrix_footprint(struct paired_condition *c, size_t n, uint64_t bytes)
{
	const char *cache;
	uint64_t ws;

	if (!n || !est_footprint_condition(bytes, machine_this()->caches.l2, &cache, &ws))
		return n;
	/* The reference stays (the sites' own mixes are measured there); the rest give way. */
	if (!strcmp(c[0].cache.label, cache) && c[0].ws_bytes == ws)
		return 1;
	memset(&c[1], 0, sizeof(c[1]));
	est_cache_parse(cache, &c[1].cache);
	c[1].ws_bytes = ws;
	return 2;
}

const char *paired_condition_words(const struct paired_condition *c, char *buf, size_t len)
{
	char ws[24];

	snprintf(buf, len, "%s, %s a side", c->cache.label,
		 num_format_bytes(c->ws_bytes ? c->ws_bytes : replay_default_ws(), ws, sizeof(ws)));
	return buf;
}
