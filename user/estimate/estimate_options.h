/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_options.h: what an estimate is asked for: cache mix, candidate thresholds, family */
#ifndef CP_ESTIMATE_OPTIONS_H
#define CP_ESTIMATE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "costmodel/costmodel.h"
#include "costmodel/policy_key.h"
#include "estimate_family.h"

#define EST_MAX_THRESHOLDS 64

/* How the calls' cache states mix: weights of warm, src-flushed, dst-flushed (sum > 0). */
struct est_cache {
	double w[COSTMODEL_NR_CACHES];
	char label[48];
};

/* What est_cache_parse() takes, for a usage message. */
#define EST_CACHE_HINT                                                                             \
	"give warm, src-flushed, dst-flushed or mixed=W,S,D with weights >= 0, not all 0"
/* "warm", "src-flushed", "dst-flushed" or "mixed=W,S,D". Returns 0 or -EINVAL. */
int est_cache_parse(const char *s, struct est_cache *c);

/*
 * --today glibc: memcpy's, memmove's and memset's today is glibc's implementation that the
 * IFUNC of the input's glibc version picks on its CPU (est_today_of()).
 */
#define EST_TODAY_GLIBC "glibc"

struct est_options {
	struct est_cache cache;
	uint64_t thresholds[EST_MAX_THRESHOLDS];
	size_t nr_thresholds;
	bool thresholds_given; /* --thresholds, not the default list */
	int family;	       /* -1: every family the input has */
	/* --today IMPL per family (an asm-ref name of that family, or EST_TODAY_GLIBC), or
	 * NULL: from facts */
	const char *today[EST_NR_FAMILIES];
	bool at_set; /* per-site breakdown at @at rather than at the best threshold */
	uint64_t at;
};

/* Default candidate thresholds: 0 32 64 128 256 512 1024 1536 2048 4096 8192 never. */
void est_options_default(struct est_options *o);
/* --at is always evaluated: adds @o->at to the candidates if it is set and not one of them. */
void est_options_add_at(struct est_options *o);
/* Parses "0,32,2K,never" into @o. Returns 0 or -EINVAL (@why says why). */
int est_thresholds_parse(const char *s, struct est_options *o, char *why, size_t len);
/*
 * --today IMPL: @impl (an asm-ref replica) is today's code of its own family. Returns 0, or
 * -EINVAL with @why (no such replica; that family already has one).
 */
int est_today_add(struct est_options *o, const char *impl, char *why, size_t len);
/* " --today A --today B" for the families @o names, into @buf ("" for none). */
void est_today_args(const struct est_options *o, char *buf, size_t len);
/* "2048" or "never". */
void est_threshold_str(uint64_t t, char *buf, size_t len);

#endif
