// SPDX-License-Identifier: GPL-2.0
/* footprint_collect.c: a site's sampled addresses read from the BPF rings into its footprint */
#include <errno.h>
#include <stdlib.h>
#include <bpf/bpf.h>
#include <linux/types.h>
#include "cp_shared.h"
#include "footprint.h"
#include "footprint_collect.h"

static int newest_first(const void *a, const void *b)
{
	const struct footprint_call *x = a, *y = b;

	return x->ns > y->ns ? -1 : x->ns < y->ns;
}

int footprint_collect(int rings_fd, int sites_fd, int nr_cpus, uint32_t id,
		      struct profile_site *site)
{
	struct footprint_ring *rings = calloc((size_t)nr_cpus, sizeof(*rings));
	struct footprint_call *calls = calloc((size_t)nr_cpus * CP_FOOTPRINT_RING, sizeof(*calls));
	struct site_cfg cfg;
	size_t n = 0;
	int cpu, err = 0;
	uint64_t i;

	if (!rings || !calls) {
		err = -ENOMEM;
		goto out;
	}
	if (bpf_map_lookup_elem(sites_fd, &id, &cfg) || bpf_map_lookup_elem(rings_fd, &id, rings)) {
		err = -errno;
		goto out;
	}
	if (!cfg.dst_reg && !cfg.src_reg)
		goto out;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		const struct footprint_ring *r = &rings[cpu];
		uint64_t kept = r->taken < CP_FOOTPRINT_RING ? r->taken : CP_FOOTPRINT_RING;

		for (i = 0; i < kept; i++) {
			const struct footprint_sample *s = &r->s[i];

			calls[n++] = (struct footprint_call){ s->ns, s->dst, s->src, s->len };
		}
	}
	/* The last CP_FOOTPRINT_RING of all CPUs: each is among its own CPU's last ones. */
	qsort(calls, n, sizeof(*calls), newest_first);
	if (n > CP_FOOTPRINT_RING)
		n = CP_FOOTPRINT_RING;
	site_footprint_compute(&site->footprint, calls, n, CP_FOOTPRINT_EVERY, cfg.dst_reg != 0,
			       cfg.src_reg != 0);
out:
	free(rings);
	free(calls);
	return err;
}
