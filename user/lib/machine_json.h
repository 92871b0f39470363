/* SPDX-License-Identifier: GPL-2.0 */
/* machine_json.h: a meta's "cpu_flags" and "machine" object, written and read in one place */
#ifndef CP_MACHINE_JSON_H
#define CP_MACHINE_JSON_H

#include <json-c/json.h>
#include "host.h"

/*
 * Adds "cpu_flags" (an array, or null when the flags are unknown) and "machine" (vendor,
 * family, model, stepping, flags, caches, TSC; docs/profile-format.md#machine) to @meta.
 */
void machine_json_put(json_object *meta, const struct host_meta *m);
/*
 * Reads them back into @m. Lenient: a file without "machine" (written before it existed) leaves
 * @m->machine unknown; a wrongly typed field reads as unknown. "cpu_flags": null, or a
 * "machine" whose flags are null, marks the flags unknown.
 */
void machine_json_get(json_object *meta, struct host_meta *m);

#endif
