// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: perf script text through import-perf (parse, attribute, aggregate, profile) */
#include "fuzz_file.h"
#include "import/import_perf.h"
#include "profile/profile.h"

/* As `import-perf --script FILE --no-text`: no perf run, no kernel text read. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct import_perf_args a = { .script = fuzz_file(data, size), .no_text = true };
	struct import_perf_stats st = { 0 };
	struct profile *p = profile_new();

	if (!p)
		abort();
	if (!import_perf_run(&a, p, &st)) {
		json_object *o = profile_to_json(p);

		json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
		json_object_put(o);
	}
	profile_free(p);
	return 0;
}
