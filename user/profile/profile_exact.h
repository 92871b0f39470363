/* SPDX-License-Identifier: GPL-2.0 */
/* profile_exact.h: a site's calls at exact lengths (from 64 B), beside its length buckets */
#ifndef CP_PROFILE_EXACT_H
#define CP_PROFILE_EXACT_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>

/* One length's calls; they are counted in the length's bucket as well. */
struct exact_count {
	uint64_t len; /* >= CP_EXACT_LIMIT */
	uint64_t calls;
};

/*
 * The "exact" list of docs/profile-format.md#exact, ascending by length. @recorded: the
 * recorder kept exact lengths (the first CP_EXACT_PER_SITE distinct lengths from 64 B of the
 * site, each counted exactly); a profile without the list is smoothed within its buckets.
 */
struct site_exact {
	struct exact_count *v;
	uint32_t nr;
	bool recorded;
};

/* Adds @calls at @len (lengths below CP_EXACT_LIMIT are left out); marks @e recorded. */
int site_exact_add(struct site_exact *e, uint64_t len, uint64_t calls);
/* @e += @a (merge: the calls of each length summed); marks @e recorded. 0 or -ENOMEM. */
int site_exact_sum(struct site_exact *e, const struct site_exact *a);
void site_exact_clear(struct site_exact *e);
void site_exact_free(struct site_exact *e);
/* The list as JSON: an array of {"len": N, "calls": N}. */
json_object *site_exact_to_json(const struct site_exact *e);
/*
 * @a's rows into @e (recorded); @a NULL leaves @e not recorded. 0, -EINVAL after printing why
 * (@name and @site say where), or -ENOMEM.
 */
int site_exact_from_json(json_object *a, struct site_exact *e, const char *name, uint32_t site);

#endif
