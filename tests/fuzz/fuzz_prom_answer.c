// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: Prometheus's answers to estimate --prometheus, into the fleet's profile */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fleet/fleet_profile.h"
#include "fleet/fleet_series.h"
#include "fleet/prom_answer.h"
#include "lib/log.h"

/*
 * The input is up to five answer bodies separated by lines "--" (tests/cli/fakeprom.py dump
 * writes them): the classic calls and bytes buckets, the native calls and bytes histograms,
 * and copyprof_agent_info, as fleet_profile_fetch() reads them. Each goes through
 * prom_answer_parse(), the series table, fleet_series_check() and fleet_profile_build().
 * Checked besides the sanitizers: a site of the profile never has 2^63 calls or more (but for
 * the rounding of its ranges: the check refuses more), and every group has a CPU model.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum fleet_kind kinds[4] = { FLEET_CALLS, FLEET_BYTES, FLEET_CALLS,
						  FLEET_BYTES };
	char *text = malloc(size + 1), *part[5] = { NULL }, *p, *sep;
	struct fleet_series fs = { 0 };
	struct profile *prof = NULL;
	json_object *info = NULL;
	int n = 0, i, err = 0;
	size_t s;

	if (!text)
		return 0;
	log_json = true;
	memcpy(text, data, size);
	text[size] = 0;
	for (p = text; p && n < 5; n++) {
		part[n] = p;
		sep = strstr(p, "\n--\n");
		if (sep)
			*sep = 0;
		p = sep ? sep + 4 : NULL;
	}
	for (i = 0; i < 4 && !err && part[i]; i++) {
		json_object *res = NULL;

		err = prom_answer_parse("fuzz", "q", 200, part[i], strlen(part[i]), &res);
		if (!err)
			err = i < 2 ? fleet_series_add_classic(&fs, res, kinds[i])
				    : fleet_series_add_native(&fs, res, kinds[i]);
		json_object_put(res);
	}
	if (!err && part[4] && prom_answer_parse("fuzz", "q", 200, part[4], strlen(part[4]), &info))
		info = NULL;
	if (!err && !fleet_series_check(&fs) && !fleet_profile_build(&fs, info, &prof)) {
		for (s = 0; s < prof->nr_sites; s++)
			if (prof->sites[s].calls > (1ULL << 63) + FLEET_NR_RANGES + FLEET_NR_NATIVE)
				__builtin_trap();
		for (s = 0; s < prof->nr_groups; s++)
			if (!prof->groups[s].cpu_model)
				__builtin_trap();
	}
	profile_free(prof);
	json_object_put(info);
	fleet_series_free(&fs);
	free(text);
	return 0;
}
