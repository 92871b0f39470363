/* SPDX-License-Identifier: GPL-2.0 */
/* agent_http.h: the agent's HTTP server (libmicrohttpd): routes, limits, TLS and basic auth */
#ifndef CP_AGENT_HTTP_H
#define CP_AGENT_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include "agent_auth.h"
#include "agent_conns.h"
#include "agent_request.h"
#include "web_config.h"

#define AGENT_HTTP_DEFAULT_LISTEN "127.0.0.1:9477"
#define AGENT_HTTP_REQUEST_MEMORY (32 * 1024) /* request line and headers */

/* What a route answers: @body is malloc()ed and taken over by the server. */
struct agent_reply {
	char *body;
	size_t len;
	const char *type;
	unsigned int status;
	const char
		*encoding; /* Content-Encoding the body already has ("gzip" for pprof), or NULL */
};

/* Renders the request @q into @r; called from the server's threads, one call per request. */
typedef int (*agent_http_handler)(void *ctx, const struct agent_request *q, struct agent_reply *r);

struct agent_http_stats {
	unsigned long long requests, refused, unauthorized;
	struct agent_conn_stats conns;
	struct agent_auth_stats auth;
};

struct agent_http;

/*
 * Parses "ADDR:PORT" (IPv4, or [IPv6]:PORT; numeric only) into @ss. Returns 0, or -EINVAL
 * with why in @err.
 */
int agent_http_parse_listen(const char *text, struct sockaddr_storage *ss, socklen_t *len,
			    char *err, size_t errlen);
bool agent_http_is_loopback(const struct sockaddr_storage *ss);
/*
 * Binds @listen and serves GET and HEAD of /metrics, /profile and /debug/pprof/profile (404
 * for another path, 405 for another method), with TLS and basic auth when @web has them, under
 * the limits of agent_conns.h. Prints why and returns NULL (port in use, bad address, TLS
 * refused).
 */
struct agent_http *agent_http_start(const char *listen, const struct web_config *web,
				    agent_http_handler h, void *ctx);
/*
 * The same server on no socket of its own: each agent_http_add() hands it one connection
 * (tests/fuzz/fuzz_agent_http.c feeds it a socketpair). NULL on failure.
 */
struct agent_http *agent_http_start_unbound(const struct web_config *web, agent_http_handler h,
					    void *ctx);
/* Serves the connected socket @fd as if accepted from @peer (agent_conns.h decides); taken. */
int agent_http_add(struct agent_http *s, int fd, const struct sockaddr *peer, socklen_t len);
void agent_http_stats(struct agent_http *s, struct agent_http_stats *st);
/*
 * For a handler answering pprof's seconds=N: waits @seconds. 0 at their end; -ECONNRESET when
 * the client went away, -ECANCELED when the wait gave way to another user's (agent_conns.h),
 * -ESHUTDOWN when the server stops: answer nothing more then.
 */
int agent_http_wait(struct agent_http *s, const struct agent_request *q, double seconds);
/* Accepts no more connections, ends idle ones and every wait; the requests under way go on. */
void agent_http_close(struct agent_http *s);
/*
 * Stops serving: closes (agent_http_close()), then waits for the requests under way, at most
 * @deadline_s (0: however long). 0, or -ETIMEDOUT: threads are still in the server, which is
 * left to them (exit the process). NULL is fine.
 */
int agent_http_stop(struct agent_http *s, double deadline_s);

#endif
