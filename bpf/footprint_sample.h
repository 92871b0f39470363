/* SPDX-License-Identifier: GPL-2.0 */
/* footprint_sample.h: hist.bpf.c's sampling of copy addresses for the footprint (footprint.h) */
#ifndef CP_FOOTPRINT_SAMPLE_H
#define CP_FOOTPRINT_SAMPLE_H

#include "footprint.h"

/* site -> this CPU's ring of the site's sampled calls; user space sizes it nr_sites. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CP_MAX_SITES);
	__type(key, __u32);
	__type(value, struct footprint_ring);
} footprints SEC(".maps");

/*
 * The @nth call of @site on this CPU (site_calls' count before it, which hist.bpf.c keeps
 * anyway: the calls not sampled pay one test): every CP_FOOTPRINT_EVERY-th goes into the
 * ring. A plain add: the ring is this CPU's, and a uprobe preempted by another on the same CPU
 * at worst overwrites one sample, which moves a sampled footprint by nothing that counts.
 */
static __always_inline void footprint_sample(__u32 site, __u64 nth, __u64 dst, __u64 src, __u64 len)
{
	struct footprint_ring *r;
	struct footprint_sample *s;

	if (nth & (CP_FOOTPRINT_EVERY - 1))
		return;
	r = bpf_map_lookup_elem(&footprints, &site);
	if (!r)
		return;
	s = &r->s[r->taken++ & (CP_FOOTPRINT_RING - 1)];
	s->ns = bpf_ktime_get_ns();
	s->dst = dst;
	s->src = src;
	s->len = len;
}

#endif
