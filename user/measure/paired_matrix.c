// SPDX-License-Identifier: GPL-2.0
/* paired_matrix.c: the conditions calibrate --mix measures a mix in: cache state, working set */
#include <stdio.h>
#include <string.h>
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

const char *paired_condition_words(const struct paired_condition *c, char *buf, size_t len)
{
	char ws[24];

	snprintf(buf, len, "%s, %s a side", c->cache.label,
		 num_format_bytes(c->ws_bytes ? c->ws_bytes : replay_default_ws(), ws, sizeof(ws)));
	return buf;
}
