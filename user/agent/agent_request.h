/* SPDX-License-Identifier: GPL-2.0 */
/* agent_request.h: what a request to the agent asks for: the page, its format, a profile's window */
#ifndef CP_AGENT_REQUEST_H
#define CP_AGENT_REQUEST_H

#include <stdbool.h>

struct agent_conn;

#define AGENT_PPROF_MAX_SECONDS 600

/* The delimited protobuf exposition Prometheus negotiates for native histograms. */
#define AGENT_PROTOBUF_TYPE                                                                        \
	"application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; "               \
	"encoding=delimited"

enum agent_route { AGENT_ROUTE_METRICS, AGENT_ROUTE_PROFILE, AGENT_ROUTE_PPROF };

enum agent_format {
	AGENT_FORMAT_OPENMETRICS, /* text, classic histograms: the default */
	AGENT_FORMAT_PROTOBUF,	  /* native histograms (AGENT_PROTOBUF_TYPE) */
	AGENT_FORMAT_TEXT_004,	  /* Prometheus text 0.0.4, asked for above OpenMetrics */
	AGENT_NR_FORMATS
};

struct agent_request {
	enum agent_route route;
	enum agent_format format; /* /metrics only */
	bool gzip;		  /* the client takes Content-Encoding: gzip */
	unsigned int seconds;	  /* /debug/pprof/profile?seconds=N: a delta; 0: since the start */
	struct agent_conn *conn;  /* the connection it came on (agent_http_wait()), or NULL */
};

/*
 * Decides a GET or HEAD of @path with the Accept, Accept-Encoding headers and the seconds
 * argument as given (any may be NULL). Returns 0, or the HTTP status to answer instead (400,
 * 404, 405) with *@why saying why in a sentence.
 */
unsigned int agent_request_parse(const char *method, const char *path, const char *accept,
				 const char *accept_encoding, const char *seconds,
				 struct agent_request *r, const char **why);
/* The highest quality (0 to 1) at which @header (an Accept-like list) takes @want; -1: none. */
double agent_request_quality(const char *header, const char *want, const char *param,
			     const char *param_value);

#endif
