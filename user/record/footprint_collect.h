/* SPDX-License-Identifier: GPL-2.0 */
/* footprint_collect.h: a site's sampled addresses read from the BPF rings into its footprint */
#ifndef CP_FOOTPRINT_COLLECT_H
#define CP_FOOTPRINT_COLLECT_H

#include <stdint.h>
#include "profile/profile.h"

/*
 * Site @id's rings (map @rings_fd, one per CPU of @nr_cpus; bpf/footprint.h) merged by time,
 * the last CP_FOOTPRINT_RING samples kept, into @site->footprint; the site's pointers from
 * its configuration in map @sites_fd. A site with neither pointer is left not recorded.
 * 0 or -errno.
 */
int footprint_collect(int rings_fd, int sites_fd, int nr_cpus, uint32_t id,
		      struct profile_site *site);

#endif
