/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_json.h: estimate --json (docs/estimate.md#json) */
#ifndef CP_ESTIMATE_JSON_H
#define CP_ESTIMATE_JSON_H

#include <json-c/json.h>
#include "estimate_options.h"
#include "estimate_run.h"

/* One input's object: its machine, the cost model, and per family the policies and more. */
json_object *est_report_to_json(const struct est_report *r);
/*
 * The document estimate --json prints: format, version, the cache mix, and @inputs, an array
 * of est_report_to_json() objects (a reference to it is taken).
 */
json_object *est_json_document(const struct est_cache *cache, json_object *inputs);

#endif
