// SPDX-License-Identifier: GPL-2.0
/* estimate_footprint.c: the condition a family's recorded footprint implies: warm set or cold */
#include <stdio.h>
#include "estimate_footprint.h"
#include "lib/num_format.h"
#include "profile/profile_footprint.h"

#define MIN_WS 4096
#define MAX_WS (256ULL << 20)

bool est_footprint_condition(uint64_t bytes, uint64_t l2, const char **cache, uint64_t *ws)
{
	uint64_t w = MIN_WS;

	if (!bytes || !l2)
		return false;
	while (w < bytes && w < MAX_WS)
		w <<= 1;
	*cache = "warm";
	*ws = w;
	return true;
}

uint64_t est_footprint_bytes(const struct est_input *in, enum copy_family f)
{
	uint64_t most = 0;
	size_t i;

	for (i = 0; i < in->nr_sites; i++) {
		const struct est_site *s = &in->sites[i];
		uint64_t b =
			s->family == f && s->footprint ? site_footprint_bytes(s->footprint) : 0;

		if (b > most)
			most = b;
	}
	return most;
}

const char *est_footprint_words(const struct est_family_result *fr, char *buf, size_t len)
{
	char b[24], l2[24], ws[24];
	const char *cache;
	uint64_t w;

	if (len)
		buf[0] = '\0';
	if (!est_footprint_condition(fr->footprint_bytes, fr->footprint_l2, &cache, &w))
		return buf;
	num_format_bytes(fr->footprint_bytes, b, sizeof(b));
	num_format_bytes(fr->footprint_l2, l2, sizeof(l2));
	snprintf(buf, len,
		 "working set from the recorded footprint: %s a side (%s the %s L2): replayed %s "
		 "within %s a side%s",
		 b, 2 * fr->footprint_bytes <= fr->footprint_l2 ? "both sides fit" : "past", l2,
		 cache, num_format_bytes(w, ws, sizeof(ws)),
		 fr->footprint_cell < 0 ? "; calibrate --mix did not measure that condition" : "");
	return buf;
}

uint64_t est_footprint_bytes_all(const struct est_input *ins, size_t n)
{
	uint64_t most = 0;
	size_t i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < ins[i].nr_sites; k++) {
			const struct est_site *s = &ins[i].sites[k];
			uint64_t b = s->footprint ? site_footprint_bytes(s->footprint) : 0;

			if (b > most)
				most = b;
		}
	return most;
}

json_object *est_footprint_to_json(const struct est_family_result *fr)
{
	json_object *o;
	const char *cache;
	char words[256];
	uint64_t ws;

	if (!est_footprint_condition(fr->footprint_bytes, fr->footprint_l2, &cache, &ws))
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "bytes_per_side", json_object_new_uint64(fr->footprint_bytes));
	json_object_object_add(o, "l2", json_object_new_uint64(fr->footprint_l2));
	json_object_object_add(o, "cache", json_object_new_string(cache));
	json_object_object_add(o, "working_set_bytes", ws ? json_object_new_uint64(ws) : NULL);
	json_object_object_add(o, "measured", json_object_new_boolean(fr->footprint_cell >= 0));
	json_object_object_add(
		o, "statement",
		json_object_new_string(est_footprint_words(fr, words, sizeof(words))));
	return o;
}
