/* SPDX-License-Identifier: GPL-2.0 */
/* profile_diff.h: two profiles compared: context, families, sites and buckets, with significance */
#ifndef CP_PROFILE_DIFF_H
#define CP_PROFILE_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/hist.h"
#include "profile.h"
#include "profile_match.h"

#define DIFF_ALPHA 0.01 /* default significance level of every test */

/* What the machine ran under the workload, if it changed (kernel, CPU, dispatch ...). */
struct diff_change {
	char *what;   /* "dispatch memcpy", "kernel", "cpu_model", "cpu_flags", "sampling" ... */
	char *before; /* NULL: not known on that side */
	char *after;
	bool changed;
};

/* One side of a row: sums over its sites (sampled: samples, not calls). */
struct diff_side {
	double calls, bytes; /* all calls (samples); bytes of the buckets */
	double known;	     /* calls (samples) in buckets: of a known length */
	double rate;	     /* calls per exposure (per second, or per recording: --totals) */
	double mean;	     /* bytes / known, 0 if none */
	double share;	     /* counted: of the family's (row) or all (family) calls; sampled: of
				the recording's non-idle samples (its share of CPU time) */
	double share_of;     /* the share's denominator */
	/*
	 * Multiplexed sites' counts are scaled estimates: raw_frac is the smallest raw / scaled
	 * calls of the side's sites (0: none scaled, read as 1), share_frac that of the share's
	 * denominator's sites. Tests run on counts times it (raw counts for one such site).
	 */
	double raw_frac, share_frac;
	bool scaled;		    /* some site's counts are scaled (multiplexed) */
	struct sparse_hist buckets; /* the side's sites' buckets summed, modulo 2^64 ... */
	struct sparse_hist carry;   /* ... and how often each passed 2^64 (lib/count_sum.h) */
};

struct diff_bucket {
	uint32_t b; /* bucket index: [hist_bucket_lo(b), hist_bucket_hi(b)) */
	double n[2], bytes[2], rate[2];
	double share[2]; /* of the row's calls of a known length */
	double p_count;	 /* diff_stats_rate() on the counts */
	double p_share;	 /* diff_stats_prop() on the shares */
	bool sig_count, sig_share;
};

/* A modelled time (filled by the estimate layer's diff_model, est_diff_model()). */
struct diff_model {
	bool known;
	double ns[2];	  /* per exposure: BEFORE's lengths on BEFORE's code, AFTER's on AFTER's */
	double ns_mixed;  /* AFTER's lengths on BEFORE's code */
	double share[2];  /* of the family's (row) or all (family) modelled time */
	char code[2][32]; /* the replica costed: "movsb", "memcpy_orig" ... */
};

struct diff_row {
	char *name;	    /* "vmlinux:ZSTD_decompressStream+0x80e [zdss_flush]" or a family */
	const char *family; /* memcpy, memmove, memset, clear_user (from the family callback) */
	struct profile_match_row *match; /* sites only; NULL for a family row */
	bool sampled; /* a row of sampled sites (samples); else of counted sites (calls) */
	struct diff_side s[2];
	double p_calls, p_share;
	bool sig_calls, sig_share, sig_bucket; /* sig_bucket: some bucket changed significantly */
	struct diff_bucket *buckets;	       /* non-empty on either side, ascending */
	size_t nr_buckets;
	struct diff_model model;
};

/* The family a site's copies belong to ("memcpy" ...): the estimate layer knows (est_site_family). */
typedef const char *(*diff_family_fn)(const struct profile_site *s);

/*
 * Totals or rates (docs/diff.md#normalisation): AUTO compares like with like, totals for two
 * recordings of a command that ran to its end (the same work), rates per second for anything
 * bounded by time; --totals and --rates choose.
 */
enum diff_norm { DIFF_NORM_AUTO, DIFF_NORM_TOTALS, DIFF_NORM_RATES };

struct profile_diff_opts {
	double alpha; /* 0: DIFF_ALPHA */
	enum diff_norm norm;
	diff_family_fn family_of;
};

struct profile_diff {
	const struct profile *p[2];
	bool sampled;	    /* every site sampled; if neither this nor mixed, every site counted */
	bool mixed;	    /* a profile holds both kinds: each row is of one kind (row.sampled) */
	bool per_second;    /* rates per second of recording; else totals (exposure 1) */
	char norm_why[200]; /* why per_second is what it is: "both ran a command to its end" */
	double exposure[2]; /* seconds, or 1 */
	double alpha;
	struct diff_change *changes; /* context, the dispatch first */
	size_t nr_changes;
	struct profile_match_row *match;
	size_t nr_match;
	struct diff_row *sites; /* one per match row */
	size_t nr_sites;
	struct diff_row *families;
	size_t nr_families;
};

/* True if the two files hold the same bytes (or are the same file). */
bool profile_diff_same_file(const char *a, const char *b);
/*
 * Whether @a (@na) and @b (@nb) can be compared: each has calls, and not one all sampled and
 * the other all counted (a mixed profile compares counted sites with counted ones and sampled
 * with sampled ones). Prints what is wrong (and what can be done) and returns -EINVAL, else 0.
 */
int profile_diff_check(const struct profile *a, const char *na, const struct profile *b,
		       const char *nb);
/*
 * Reads BEFORE (@path[0]) and AFTER (@path[1]) into @p, checks them (profile_diff_check) and
 * compares them into @d: what diff and flamegraph --diff do first. On failure the reason is
 * printed, @p are freed and NULL, and @d is not built. 0 or -errno/-EINVAL/-ENOMEM.
 */
int profile_diff_open(const char *const path[2], const struct profile_diff_opts *o,
		      struct profile *p[2], struct profile_diff *d);
/* Compares @a (BEFORE) with @b (AFTER). 0 or -ENOMEM. */
int profile_diff_build(const struct profile *a, const struct profile *b,
		       const struct profile_diff_opts *o, struct profile_diff *d);
/*
 * Sorts sites and families by the largest change: of modelled time when known, else of
 * the call rate, then of bytes.
 */
void profile_diff_sort(struct profile_diff *d);
/* True if nothing differs: no context change, every count equal. */
bool profile_diff_none(const struct profile_diff *d);
void profile_diff_free(struct profile_diff *d);

#endif
