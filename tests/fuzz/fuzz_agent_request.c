// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the agent's request decisions (path, Accept, Accept-Encoding, seconds=) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "agent/agent_request.h"

/*
 * The input is up to five lines: method, path, Accept, Accept-Encoding, seconds (a missing
 * line is a header the request did not have). Checked besides the sanitizers: a request
 * refused says why with a 4xx status; one taken names a route, a format and seconds within
 * bounds; every quality is -1 or within [0, 1].
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1), *field[5] = { NULL }, *p;
	struct agent_request r;
	const char *why = NULL;
	unsigned int status;
	double q;
	int n = 0;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = 0;
	for (p = copy; n < 5 && p; n++) {
		field[n] = p;
		p = strchr(p, '\n');
		if (p)
			*p++ = 0;
	}
	status = agent_request_parse(field[0], field[1], field[2], field[3], field[4], &r, &why);
	if (status && (status < 400 || status > 499 || !why || !*why))
		__builtin_trap();
	if (!status &&
	    (r.route > AGENT_ROUTE_PPROF || r.format >= AGENT_NR_FORMATS ||
	     r.seconds > AGENT_PPROF_MAX_SECONDS || (r.seconds && r.route != AGENT_ROUTE_PPROF)))
		__builtin_trap();
	if (field[2]) {
		q = agent_request_quality(field[2], "application/openmetrics-text", NULL, NULL);
		if (q != -1 && (q < 0 || q > 1))
			__builtin_trap();
		q = agent_request_quality(field[2], "application/vnd.google.protobuf", "proto",
					  "io.prometheus.client.MetricFamily");
		if (q != -1 && (q < 0 || q > 1))
			__builtin_trap();
	}
	free(copy);
	return 0;
}
