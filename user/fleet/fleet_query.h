/* SPDX-License-Identifier: GPL-2.0 */
/* fleet_query.h: what estimate --prometheus asks of Prometheus: where, which series, over when */
#ifndef CP_FLEET_QUERY_H
#define CP_FLEET_QUERY_H

struct fleet_query {
	const char *url;      /* Prometheus (or Thanos, Mimir's /prometheus) base URL */
	const char *selector; /* "{job=\"copyprof\"}" or NULL */
	const char *range;    /* a PromQL duration: "1h", "7d" */
};

#endif
