// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the profile reader (profile_read) on any bytes, then merged, estimated, written */
#include <stdlib.h>
#include <json-c/json.h>
#include "estimate/estimate_input.h"
#include "fuzz_file.h"
#include "profile/merge.h"
#include "profile/profile.h"

/*
 * A profile read from another machine must be refused with a message or read: never a crash,
 * a leak or undefined behaviour. What is read then goes where the commands take it: merged
 * with itself (merge), split into estimate's inputs, and written back as JSON.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile *p = NULL, *m = NULL;
	struct est_input *in = NULL;
	size_t nr = 0, i;
	json_object *o;

	if (profile_read(fuzz_file(data, size), &p))
		return 0;
	if (!merge_profiles((struct profile *const[]){ p, p }, 2, &m)) {
		o = profile_to_json(m);
		json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
		json_object_put(o);
		profile_free(m);
	}
	if (!est_inputs_from_profile(p, "fuzz", &in, &nr)) {
		for (i = 0; i < nr; i++)
			est_input_free(&in[i]);
		free(in);
	}
	o = profile_to_json(p);
	json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	json_object_put(o);
	profile_free(p);
	return 0;
}
