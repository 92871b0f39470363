/* SPDX-License-Identifier: GPL-2.0 */
/* profile_dist.h: a site's pointer distances, (dst - src) mod 4096 in classes, per length bucket */
#ifndef CP_PROFILE_DIST_H
#define CP_PROFILE_DIST_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>
#include "lib/hist.h"

/* One length bucket's calls by distance class (enum cp_dist_class). */
struct dist_count {
	uint32_t bucket; /* < CP_NBUCKETS */
	uint64_t c[CP_NR_DIST];
};

/*
 * The "distance" rows of docs/profile-format.md#distance, by bucket ascending, all-zero rows
 * left out. @recorded: the recorder counted distances (the site has both pointers); a profile
 * without them (older, or a site without a source) says the distance is unknown.
 */
struct site_dist {
	struct dist_count *v;
	uint32_t nr;
	bool recorded;
};

/* The classes' names in the profile and in estimate's output, by enum cp_dist_class. */
const char *dist_class_name(int c);
/* Adds @c (CP_NR_DIST counts) to @bucket's row; marks @d recorded. 0 or -ENOMEM. */
int site_dist_add(struct site_dist *d, uint32_t bucket, const uint64_t *c);
/* The calls in class @c over all buckets. */
uint64_t site_dist_class_calls(const struct site_dist *d, int c);
void site_dist_clear(struct site_dist *d);
void site_dist_free(struct site_dist *d);
/* The rows as JSON (an array of objects with lo, hi and one count per class). */
json_object *site_dist_to_json(const struct site_dist *d);
/*
 * @o's rows into @d (recorded); @a NULL leaves @d not recorded. 0, -EINVAL after printing
 * why (@name and @site say where), or -ENOMEM.
 */
int site_dist_from_json(json_object *a, struct site_dist *d, const char *name, uint32_t site);

#endif
