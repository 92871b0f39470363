/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_footprint.h: the condition a family's recorded footprint implies: warm set or cold */
#ifndef CP_ESTIMATE_FOOTPRINT_H
#define CP_ESTIMATE_FOOTPRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>
#include "estimate_input.h"
#include "estimate_result.h"

/*
 * The one rule both calibrate --mix (which measures the condition) and estimate (which keeps
 * that condition's cell) follow (docs/calibrate.md#conditions): a footprint of @bytes a side is
 * replayed warm within a working set of that size, rounded up to a power of two (4 KiB to
 * 256 MiB), at random offsets in it as the replay places calls: the caches then hold what they
 * hold for the workload, L1 or L2 for a few reused buffers, the L3 or memory for a stream.
 * Not the matrix's cold destination for a footprint past the L2: on an AMD EPYC (Zen 3, KVM)
 * a stream through 64 MiB a side in REP MOVSB's slow distance window read -40% or -6% ("no
 * difference") there, run to run, while glibc's real knob showed -52..-61% and the warm replay
 * at the footprint -43..-55% (docs/calibrate.md#conditions). The replay grows a set to hold its longest calls, and
 * estimate takes the warm cell of the smallest set from this one up. @l2 (this CPU's, measured)
 * only words the statement. *@cache is "warm". False when nothing is known (@bytes or @l2 0).
 */
bool est_footprint_condition(uint64_t bytes, uint64_t l2, const char **cache, uint64_t *ws);

/*
 * The recorded footprint of family @f's copies in @in, per side: the largest among its sites
 * that have one read from enough samples (profile_footprint.h); 0 if none has.
 */
uint64_t est_footprint_bytes(const struct est_input *in, enum copy_family f);

/* The largest of every family's in @ins[0..@n), for calibrate --mix over all its inputs. */
uint64_t est_footprint_bytes_all(const struct est_input *ins, size_t n);
/*
 * {"bytes_per_side", "l2", "cache", "working_set_bytes", "measured", "statement"}: @fr's
 * recorded footprint and the condition it chose; NULL with no footprint.
 */
json_object *est_footprint_to_json(const struct est_family_result *fr);
/*
 * "working set from the recorded footprint: 7.9 KiB a side (fits the 1 MiB L2: warm, 8 KiB a
 * side)", and where calibrate did not measure that condition, so; "" with no footprint.
 */
const char *est_footprint_words(const struct est_family_result *fr, char *buf, size_t len);

#endif
