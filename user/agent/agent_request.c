// SPDX-License-Identifier: GPL-2.0
/* agent_request.c: routes, Accept and Accept-Encoding negotiation, and pprof's seconds= */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "agent_request.h"

/* A token of an Accept element: [s, s + n). */
struct span {
	const char *s;
	size_t n;
};

static struct span trim(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return (struct span){ s, n };
}

static bool span_is(struct span a, const char *b)
{
	return a.n == strlen(b) && !strncasecmp(a.s, b, a.n);
}

/* A parameter's value without its quotes. */
static struct span unquote(struct span v)
{
	if (v.n >= 2 && v.s[0] == '"' && v.s[v.n - 1] == '"')
		return (struct span){ v.s + 1, v.n - 2 };
	return v;
}

/* "0", "0.5", "1", "1.000": RFC 9110's qvalue; anything else is not one (-1). */
static double qvalue(struct span v)
{
	double q = 0, scale = 1;
	size_t i;

	if (!v.n || (v.s[0] != '0' && v.s[0] != '1'))
		return -1;
	q = v.s[0] - '0';
	if (v.n == 1)
		return q;
	if (v.s[1] != '.' || v.n > 5)
		return -1;
	for (i = 2; i < v.n; i++) {
		if (!isdigit((unsigned char)v.s[i]) || (q == 1 && v.s[i] != '0'))
			return -1;
		scale /= 10;
		q += (v.s[i] - '0') * scale;
	}
	return q;
}

/*
 * How well one element "type/sub;p=v;q=0.5" takes @want (with parameter @param=@value when
 * @param): its q, -1 when it does not match. "*" matches any type or subtype only when
 * @wildcards.
 */
static double element_quality(struct span e, const char *want, const char *param, const char *value,
			      bool wildcards)
{
	const char *semi = memchr(e.s, ';', e.n), *slash;
	struct span range = trim(e.s, semi ? (size_t)(semi - e.s) : e.n), type, sub;
	const char *wslash = strchr(want, '/');
	double q = 1;
	bool param_seen = !param;

	slash = memchr(range.s, '/', range.n);
	if (!slash || !wslash)
		return -1;
	type = (struct span){ range.s, (size_t)(slash - range.s) };
	sub = (struct span){ slash + 1, range.n - (size_t)(slash - range.s) - 1 };
	if (!(type.n == (size_t)(wslash - want) && !strncasecmp(type.s, want, type.n)) &&
	    !(wildcards && span_is(type, "*")))
		return -1;
	if (!span_is(sub, wslash + 1) && !(wildcards && span_is(sub, "*")))
		return -1;
	while (semi) {
		const char *p = semi + 1, *end = e.s + e.n, *eq, *next;
		struct span name, v;

		next = memchr(p, ';', (size_t)(end - p));
		eq = memchr(p, '=', (size_t)((next ? next : end) - p));
		semi = next;
		if (!eq)
			continue;
		name = trim(p, (size_t)(eq - p));
		v = unquote(trim(eq + 1, (size_t)((next ? next : end) - eq - 1)));
		if (span_is(name, "q")) {
			q = qvalue(v);
			if (q < 0)
				return -1;
		} else if (param && span_is(name, param)) {
			if (!span_is(v, value))
				return -1;
			param_seen = true;
		}
	}
	return param_seen ? q : -1;
}

double agent_request_quality(const char *header, const char *want, const char *param,
			     const char *param_value)
{
	const char *p = header;
	double best = -1;
	bool wildcards = !param; /* "*" never stands for a format that needs a parameter */

	while (p && *p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		double q =
			element_quality((struct span){ p, n }, want, param, param_value, wildcards);

		if (q > best)
			best = q;
		p = comma ? comma + 1 : NULL;
	}
	return best;
}

/*
 * Prometheus asks for protobuf only with native histograms on; ties go to the text, and
 * between the texts to OpenMetrics: text/plain (Prometheus's text 0.0.4, which node_exporter
 * and promtool read, and `Accept: text/plain;version=0.0.4` asks for) only when it is preferred.
 */
static enum agent_format negotiate(const char *accept)
{
	double pb, om, plain;

	if (!accept)
		return AGENT_FORMAT_OPENMETRICS;
	pb = agent_request_quality(accept, "application/vnd.google.protobuf", "proto",
				   "io.prometheus.client.MetricFamily");
	if (pb > 0 && agent_request_quality(accept, "application/vnd.google.protobuf", "encoding",
					    "delimited") <= 0)
		pb = -1;
	om = agent_request_quality(accept, "application/openmetrics-text", NULL, NULL);
	plain = agent_request_quality(accept, "text/plain", NULL, NULL);
	if (pb > 0 && pb > om && pb > plain)
		return AGENT_FORMAT_PROTOBUF;
	return plain > 0 && plain > om ? AGENT_FORMAT_TEXT_004 : AGENT_FORMAT_OPENMETRICS;
}

static bool takes_gzip(const char *accept_encoding)
{
	const char *p = accept_encoding;

	/* Accept-Encoding has no type/subtype: give each element one to reuse the parser. */
	while (p && *p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		const char *semi = memchr(p, ';', n);
		struct span coding = trim(p, semi ? (size_t)(semi - p) : n);
		double q = 1;

		if (semi) {
			struct span params = trim(semi + 1, n - (size_t)(semi + 1 - p));

			if (params.n > 2 && !strncasecmp(params.s, "q=", 2))
				q = qvalue(trim(params.s + 2, params.n - 2));
		}
		if ((span_is(coding, "gzip") || span_is(coding, "x-gzip")) && q > 0)
			return true;
		p = comma ? comma + 1 : NULL;
	}
	return false;
}

static const char *const paths[] = {
	[AGENT_ROUTE_METRICS] = "/metrics",
	[AGENT_ROUTE_PROFILE] = "/profile",
	[AGENT_ROUTE_PPROF] = "/debug/pprof/profile",
};

unsigned int agent_request_parse(const char *method, const char *path, const char *accept,
				 const char *accept_encoding, const char *seconds,
				 struct agent_request *r, const char **why)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	if (!method || (strcmp(method, "GET") && strcmp(method, "HEAD"))) {
		*why = "copyprof agent: only GET and HEAD are served\n";
		return 405;
	}
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (path && !strcmp(path, paths[i]))
			break;
	if (i == sizeof(paths) / sizeof(paths[0])) {
		*why = "copyprof agent: no such page; try /metrics, /profile or "
		       "/debug/pprof/profile\n";
		return 404;
	}
	r->route = (enum agent_route)i;
	r->gzip = takes_gzip(accept_encoding);
	if (r->route == AGENT_ROUTE_METRICS)
		r->format = negotiate(accept);
	if (r->route == AGENT_ROUTE_PPROF && seconds) {
		char *end;
		unsigned long v;

		v = strtoul(seconds, &end, 10);
		if (!isdigit((unsigned char)*seconds) || *end || !v ||
		    v > AGENT_PPROF_MAX_SECONDS) {
			*why = "copyprof agent: seconds= takes a whole number of seconds, 1 to 600 "
			       "(a delta over that time); leave it out for the counts since the "
			       "start\n";
			return 400;
		}
		r->seconds = (unsigned int)v;
	}
	return 0;
}
