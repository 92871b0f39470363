/* SPDX-License-Identifier: GPL-2.0 */
/* prom_client.h: instant queries to the Prometheus HTTP API (libcurl), answers read with json-c */
#ifndef CP_PROM_CLIENT_H
#define CP_PROM_CLIENT_H

#include <json-c/json.h>

#define PROM_MAX_ANSWER (256 << 20) /* bytes of one answer */
#define PROM_TIMEOUT_S 120

/*
 * GET @base/api/v1/query?query=@query. On success *@result is data.result (a vector's array,
 * owned by the caller: json_object_put). Prints a precise message and returns -errno for an
 * unreachable server, an HTTP error (with Prometheus's own error text) or an answer that is
 * not a vector.
 */
int prom_query(const char *base, const char *query, json_object **result);

#endif
