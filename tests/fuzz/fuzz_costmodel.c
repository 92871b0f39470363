// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the cost-model reader (costmodel_read) on any bytes, then costs looked up */
#include <json-c/json.h>
#include "costmodel/costmodel.h"
#include "fuzz_file.h"

/* A cost model that is read must also be usable: every curve is asked for a few costs. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t sizes[] = { 0, 1, 63, 64, 4096, 1ULL << 20, 1ULL << 40 };
	struct costmodel *m = NULL;
	json_object *o;
	size_t i, j;

	if (costmodel_read(fuzz_file(data, size), &m))
		return 0;
	for (i = 0; i < m->nr_curves; i++)
		for (j = 0; j + 1 < sizeof(sizes) / sizeof(sizes[0]); j++) {
			costmodel_cost_ns(&m->curves[i], (double)sizes[j]);
			costmodel_avg_ns(&m->curves[i], sizes[j], sizes[j + 1]);
		}
	o = costmodel_to_json(m);
	json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	json_object_put(o);
	costmodel_free(m);
	return 0;
}
