// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: Prometheus's answers to estimate --prometheus, into the fleet's profile */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fleet/fleet_native.h"
#include "fleet/fleet_profile.h"
#include "fleet/fleet_series.h"
#include "fleet/prom_answer.h"
#include "lib/log.h"

#define NR_PARTS 11

/*
 * The input is up to eleven answer bodies separated by lines "--" (tests/cli/fakeprom.py dump
 * writes them), as fleet_profile_fetch() reads them: the classic calls and bytes buckets;
 * for the native calls and then bytes histograms, M now, M offset R, resets(M[R]) > 0 and
 * increase(M[R]); copyprof_agent_info (the join's and the hosts' at once). Each goes
 * through prom_answer_parse(), then the
 * classic series table or fleet_native_combine(), fleet_series_check() and
 * fleet_profile_build(). Checked besides the sanitizers: a site of the profile never has 2^63
 * calls or more (but for the rounding of its ranges: the check refuses more), and every group
 * has a CPU model.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *part[NR_PARTS] = { NULL }, *p, *sep;
	json_object *a[NR_PARTS] = { NULL };
	struct fleet_series fs = { 0 };
	struct profile *prof = NULL;
	int n = 0, i, err = 0;
	size_t s;

	if (!text)
		return 0;
	log_json = true;
	memcpy(text, data, size);
	text[size] = 0;
	for (p = text; p && n < NR_PARTS; n++) {
		part[n] = p;
		sep = strstr(p, "\n--\n");
		if (sep)
			*sep = 0;
		p = sep ? sep + 4 : NULL;
	}
	for (i = 0; i < n && !err; i++)
		err = prom_answer_parse("fuzz", "q", 200, part[i], strlen(part[i]), &a[i]);
	if (!err && a[0])
		err = fleet_series_add_classic(&fs, a[0], FLEET_CALLS);
	if (!err && a[1])
		err = fleet_series_add_classic(&fs, a[1], FLEET_BYTES);
	if (!err)
		err = fleet_native_combine(&fs, FLEET_CALLS, a[2], a[3], a[4], a[5], a[10]);
	if (!err)
		err = fleet_native_combine(&fs, FLEET_BYTES, a[6], a[7], a[8], a[9], a[10]);
	if (!err && !fleet_series_check(&fs) && !fleet_profile_build(&fs, a[10], &prof)) {
		for (s = 0; s < prof->nr_sites; s++)
			if (prof->sites[s].calls > (1ULL << 63) + FLEET_NR_RANGES + FLEET_NR_NATIVE)
				__builtin_trap();
		for (s = 0; s < prof->nr_groups; s++)
			if (!prof->groups[s].cpu_model)
				__builtin_trap();
	}
	profile_free(prof);
	for (i = 0; i < NR_PARTS; i++)
		json_object_put(a[i]);
	fleet_series_free(&fs);
	free(text);
	return 0;
}
