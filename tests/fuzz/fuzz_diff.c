// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: diff's two profiles (profile_diff_open) on any bytes, compared and printed */
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "cmd_diff_print.h"
#include "estimate/estimate_diff.h"
#include "estimate/estimate_family.h"
#include "fuzz_file.h"
#include "profile/profile_diff.h"

/*
 * The input is BEFORE, a NUL byte and AFTER (a NUL cannot be in a JSON file, so the two never
 * mix); without a NUL the same bytes are both. What diff reads must be refused with a message
 * or compared: never a crash, a leak or undefined behaviour. A compared pair is then costed with the cost model named by $COPYPROF_FUZZ_COSTMODEL (t0021 gives the golden one)
 * and printed as text and as JSON, as `copyprof diff -m` does.
 */
static const char *site_family(const struct profile_site *s)
{
	return est_family(est_site_family(s))->name;
}

static const struct costmodel *fuzz_model(void)
{
	static struct costmodel *m;
	static bool tried;
	const char *path = getenv("COPYPROF_FUZZ_COSTMODEL");

	if (!tried && path) {
		tried = true;
		if (costmodel_read(path, &m))
			abort(); /* the seed model itself must read */
	}
	return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t na = nul ? (size_t)(nul - data) : size;
	struct profile_diff_opts o = { .family_of = site_family,
				       .alpha = 0.01,
				       /* auto, totals, rates: each policy of enum diff_norm */
				       .norm = (enum diff_norm)(size % 3) };
	struct diff_print_opts po = { .names = { "before", "after" }, .all = true };
	const struct costmodel *m = fuzz_model();
	struct profile *p[2];
	struct profile_diff d;
	struct est_cache cache;
	const char *path[2];
	json_object *j;
	FILE *devnull;

	path[0] = fuzz_file_slot(0, data, na);
	path[1] = nul ? fuzz_file_slot(1, nul + 1, size - na - 1) : fuzz_file_slot(1, data, na);
	if (profile_diff_open(path, &o, p, &d))
		return 0;
	po.no_change = profile_diff_none(&d);
	est_cache_parse("warm", &cache);
	if (m && !est_diff_model(&d, m, "fuzz-model", &cache)) {
		po.model = "fuzz-model";
		po.cache = cache.label;
	}
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	diff_print_text(devnull, &d, &po);
	fclose(devnull);
	j = diff_print_json(&d, &po);
	json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN);
	json_object_put(j);
	profile_diff_free(&d);
	profile_free(p[0]);
	profile_free(p[1]);
	return 0;
}
