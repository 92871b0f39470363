/* SPDX-License-Identifier: GPL-2.0 */
/* sample_agg.h: leaf/caller attribution of stack samples and their sum into profile sites */
#ifndef CP_SAMPLE_AGG_H
#define CP_SAMPLE_AGG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sites/copy_family.h"
#include "profile.h"

/* One frame of a sample's stack; stacks are given leaf first. */
struct sample_frame {
	const char *sym;    /* NULL: unresolved ("[unknown]") */
	uint64_t off;	    /* offset of the address in sym */
	const char *module; /* "vmlinux", a module name or a user DSO; NULL if unknown */
	bool inlined;	    /* an inlined function perf reported at the same address */
	bool user;	    /* a user-space frame: never a built-in copy routine */
};

/* Who a copy-family sample is charged to. */
struct sample_attr {
	const char *leaf; /* canonical routine, or the inline_rep_* pseudo leaf */
	enum copy_family family;
	const struct len_recovery_conv *conv; /* NULL for inline rep instructions */
	long caller; /* index of the caller frame; -1 if the stack ends at the leaf */
};

/*
 * The one attribution rule, used by record --sample and import-perf alike: a sample is copy
 * family if its leaf frame is a kernel copy-family routine or a --leaf symbol (copy_family.h; the
 * caller is the frame below)
 * or, @rep_width > 0, if it sits at a rep movs/stos instruction of another function (an inline
 * copy; the caller is that function, at the instruction). Returns true if copy family.
 */
bool sample_attribute(const struct sample_frame *frames, size_t nr, int rep_width, bool rep_movs,
		      struct sample_attr *out);

struct sample_agg;

struct sample_agg *sample_agg_new(void);
void sample_agg_free(struct sample_agg *a);
/*
 * Adds @weight samples of an attributed stack taken in @task (NULL: unknown): one site per
 * (leaf, caller module, caller function, caller offset), the folded stack per task, and @len
 * in the time-weighted histogram when @quality is exact or approximate. @frames are leaf
 * first: kernel frames, then user frames (.user) if the stack has them. Returns 0 or -ENOMEM.
 */
int sample_agg_add(struct sample_agg *a, const struct sample_attr *at,
		   const struct sample_frame *frames, size_t nr, const struct sample_task *task,
		   int quality, uint64_t len, uint64_t weight);
/* Appends the sites to @p, most sampled first (ties: by leaf, caller), with sorted stacks. */
int sample_agg_to_profile(struct sample_agg *a, struct profile *p);
/* Samples added so far. */
uint64_t sample_agg_samples(const struct sample_agg *a);

#endif
