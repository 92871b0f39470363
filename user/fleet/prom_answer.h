/* SPDX-License-Identifier: GPL-2.0 */
/* prom_answer.h: a Prometheus query API answer, its JSON shape checked before anything is read */
#ifndef CP_PROM_ANSWER_H
#define CP_PROM_ANSWER_H

#include <stddef.h>
#include <json-c/json.h>

/*
 * The body @text (@len bytes) that @base answered with HTTP @code to @query: on success
 * *@result is data.result, an array whose every element is an object with a "metric" object
 * of string labels and either "value" [number, string] or "histogram" [number, object]
 * (owned by the caller: json_object_put). Anything else is refused with a message that says
 * what was wrong (Prometheus's own error text for an HTTP error), -EIO.
 */
int prom_answer_parse(const char *base, const char *query, long code, const char *text, size_t len,
		      json_object **result);

#endif
