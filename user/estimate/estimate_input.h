/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_input.h: what estimate reads: one histogram per site and family, and the machine */
#ifndef CP_ESTIMATE_INPUT_H
#define CP_ESTIMATE_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/hist.h"
#include "lib/host.h"
#include "estimate_family.h"

struct profile;
struct profile_caller;
struct profile_glibc;
struct profile_site;
struct site_align; /* profile/profile_align.h */
struct site_dist;  /* profile/profile_dist.h */
struct est_exact;  /* estimate_exact.h */
struct site_order; /* profile/profile_order.h */

/* One non-empty length bucket of a site. */
struct est_bucket {
	uint32_t b;   /* the bucket (lib/hist.h) */
	double n;     /* calls, or samples when the site is time_weighted; > 0 */
	double bytes; /* summed lengths of those calls (or samples) */
};

/* One site's histogram for one family: its non-empty buckets only (issue 23). */
struct est_site {
	char *label; /* "vmlinux:ZSTD_decompressStream+0x794 (kprobe)" */
	enum copy_family family;
	bool time_weighted; /* n[] are samples (time-weighted), not calls */
	bool counted;	    /* n[] are event counts: Poisson counting error applies */
	bool user;	    /* a uprobe in a user-space program (not the kernel's code) */
	const char *symbol; /* the probed function (borrowed), or NULL */
	double running;	    /* share of the calls counted (multiplexed breakpoints); 0 read as 1 */
	bool ref_scaled;    /* scaled by a reference site's calls, not by time */
	/* address alignments (borrowed from the profile site, profile_align.h), on one row per site */
	const struct site_align *align; /* NULL: none, or not this row */
	/* pointer distances per bucket (borrowed, profile_dist.h), on the same one row */
	const struct site_dist *dist; /* NULL: not recorded, or not this row */
	/* bytes touched per window (borrowed, profile_footprint.h), on the same one row */
	const struct site_footprint *footprint; /* NULL: not recorded, or not this row */
	/* sampled runs of consecutive lengths (borrowed, profile_order.h), on the same one row */
	const struct site_order *order; /* NULL: none recorded, or not this row */
	struct est_bucket *buckets;	/* ascending by bucket; owned by the input */
	uint32_t nr_buckets;
	/* lengths known exactly (a size table's), counted within their buckets too: ascending by
	 * length, owned by the input; none for a profile (estimate_exact.h) */
	struct est_exact *exact;
	uint32_t nr_exact;
};

/* One thing to estimate: a profile, one group of a merged profile, or a --hist table. */
struct est_input {
	char *name;	       /* what it is, for the output */
	char *label;	       /* the file (or fleet) it came from, for the commit paragraph */
	struct host_meta meta; /* kernel, CPU model and flags: borrowed strings, not freed */
	double duration_s;     /* recorded seconds (summed over hosts); 0 if unknown */
	double total_samples;  /* sampled: every sample taken while recording; 0 if unknown */
	double sample_hz;      /* sampled: samples per second per CPU; 0 if unknown */
	size_t nr_hosts;       /* hosts behind it (a merged group, the fleet); 0: one, unnamed */
	const struct profile_glibc *glibc; /* meta.glibc (borrowed), or NULL */
	struct est_site *sites;
	size_t nr_sites;
	size_t cap_sites; /* allocated slots of sites (doubled as rows are added) */
};

/*
 * The label of @s's row for caller @c (NULL: the site's own row), or its "(no caller)" row:
 * "vmlinux:read_zero+0x0 <- vfs_read+0xe7 (kprobe)". What the per-site rows, a site's own
 * measurement and the threshold flame graph's frames are matched by. NULL: no memory.
 */
char *est_site_label(const struct profile_site *s, const struct profile_caller *c, bool no_caller);

/* One input per group of @p (one in all for an unmerged profile); *@nr inputs. 0 or -ENOMEM. */
int est_inputs_from_profile(const struct profile *p, const char *name, struct est_input **out,
			    size_t *nr);
/*
 * A size table's longest line and largest size (docs/cli.md#input-limits): a row is two
 * numbers; the rows are summed as they are read, so only reading time grows with the size.
 */
#define EST_HIST_MAX_LINE 4096
#define EST_HIST_MAX_BYTES (1ULL << 30)
/*
 * Reads a size table as one site of @family: "size,count" CSV rows or fleetbench's
 * "size<TAB>probability" rows (any weight: a probability is a relative call count), '#'
 * comments and a non-numeric header line allowed. Every size is kept exact as well (the
 * EST_MAX_EXACT with the most calls, estimate_exact.h). 0, or -errno/-EINVAL after printing why.
 */
int est_input_from_hist(const char *path, enum copy_family family, struct est_input *in);
void est_input_free(struct est_input *in);
bool est_input_has_family(const struct est_input *in, enum copy_family f);
/* False if a site of family @f has relative weights (a probability table), not counts. */
bool est_input_counted(const struct est_input *in, enum copy_family f);

#endif
