// SPDX-License-Identifier: GPL-2.0
/* fleet_absent.c: estimate --prometheus in the static build, which has no HTTP client to link */
#include <errno.h>
#include "fleet_profile.h"
#include "lib/log.h"

bool fleet_range_valid(const char *s)
{
	return s != NULL;
}

bool fleet_selector_valid(const char *s, char *why, size_t len)
{
	(void)why;
	(void)len;
	return s != NULL;
}

int fleet_profile_fetch(const struct fleet_query *q, struct profile **out)
{
	*out = NULL;
	p_err("this is copyprof-static, built for the VM guest without libcurl (Debian ships no "
	      "static Kerberos libraries for it: docs/design.md#linking); run the dynamically "
	      "linked copyprof for --prometheus");
	return -ENOTSUP;
}
