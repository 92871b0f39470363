/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_corr.h: the mix and neighbour corrections stored in a cost model, by mix digest */
#ifndef CP_ESTIMATE_CORR_H
#define CP_ESTIMATE_CORR_H

#include <stdint.h>
#include <json-c/json.h>
#include "calib/costmodel.h"
#include "estimate_options.h"
#include "estimate_result.h"

/*
 * `calibrate --mix` measures the corrections for a profile's length mix and stores them in the
 * cost model's "corrections" array, one entry per (family, cache mix, length mix), keyed by a
 * digest of what the pure model's evaluation of the profile gives: the family, the cache
 * weights, today's implementation, and every bucket's calls and bytes. `estimate` recomputes
 * the digest and applies an entry only when it matches: estimate itself never times anything
 * (docs/estimate.md#the-mix-correction).
 */

/* The digest of @fr's mix (from est_family_evaluate() without corrections) under @cache. */
uint64_t est_corr_digest(const struct est_family_result *fr, const struct est_cache *cache);
/* "%016llx" of @d into @buf (at least 17 bytes). */
void est_corr_digest_str(uint64_t d, char *buf, size_t len);

/* A new entry for @fr's mix and neighbour corrections (as measured), under @digest. */
json_object *est_corr_to_json(const struct est_family_result *fr, const struct est_cache *cache,
			      uint64_t digest);
/* Adds @entry to @m's corrections, replacing one with the same family and digest. */
int est_corr_store(struct costmodel *m, json_object *entry);
/* @m's entry for family @f and @digest, or NULL. */
json_object *est_corr_find(const struct costmodel *m, enum est_family f, uint64_t digest);
/*
 * The mix correction of @entry, for @fr (its bucket_calls give the size classes): fills @mix
 * (applied) or skips it, saying why. Strings point into @entry: keep the model alive.
 */
void est_corr_mix(json_object *entry, const struct est_family_result *fr, struct est_mix *mix);
/*
 * The neighbour correction of @entry for @fr's rows, matched by policy name: fills @nb
 * (applied; residual_ns per row, NAN for the oracle) or skips it when a row was not measured
 * (other thresholds) or the entry has none. Returns 0 or -ENOMEM.
 */
int est_corr_neighbour(json_object *entry, const struct est_family_result *fr,
		       struct est_neighbour *nb);

#endif
