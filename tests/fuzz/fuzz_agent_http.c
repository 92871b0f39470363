// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: raw bytes as one HTTP connection to the agent's server (MHD, limits, auth) */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "agent/agent_http.h"
#include "lib/log.h"
#include "lib/monotime.h"

/*
 * The whole request path of `copyprof agent` but the BPF behind it: each input is written to
 * one connection (a socketpair handed to the server as if accepted from its own client
 * address, so that no client's limits carry over), its write side then closed, and the
 * answer read to the end. The pages answer a fixed body (2 KiB for /metrics, so that gzip
 * runs when asked); basic auth is on for user "u", password "p" (bcrypt cost 4). Checked
 * besides the sanitizers: the server ends the connection within 10 s (nothing hangs) and
 * whatever it answers starts as HTTP/1.x does.
 */
static char metrics_body[2048];

static int page(void *ctx, const struct agent_request *q, struct agent_reply *r)
{
	const char *b = q->route == AGENT_ROUTE_METRICS	  ? metrics_body
			: q->route == AGENT_ROUTE_PROFILE ? "{}"
							  : "pprof";

	(void)ctx;
	r->body = strdup(b);
	r->len = strlen(b);
	r->type = q->format == AGENT_FORMAT_PROTOBUF ? AGENT_PROTOBUF_TYPE : "text/plain";
	return r->body ? 0 : -ENOMEM;
}

static struct agent_http *server(void)
{
	static struct web_config web;
	static struct agent_http *s;

	if (s)
		return s;
	signal(SIGPIPE, SIG_IGN);
	log_json = true;
	memset(metrics_body, 'm', sizeof(metrics_body) - 1);
	web.users[0].name = "u";
	web.users[0].hash = "$2b$04$/Z0UMoP.CXtgXqbEJEPqe.7Tk6JphwEfXUuMjmQ3cXmo/58PMlera";
	web.nr_users = 1;
	s = agent_http_start_unbound(&web, page, NULL);
	if (!s)
		abort();
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint32_t next_client = 0x0a000001; /* 10.0.0.1, 10.0.0.2 ... */
	struct sockaddr_in peer = { .sin_family = AF_INET, .sin_port = htons(40000) };
	char answer[8] = "";
	size_t sent = 0, got = 0;
	double give_up;
	bool ended = false;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, sv))
		abort();
	peer.sin_addr.s_addr = htonl(next_client++);
	if (agent_http_add(server(), sv[1], (struct sockaddr *)&peer, sizeof(peer))) {
		close(sv[0]);
		return 0;
	}
	if (!size)
		shutdown(sv[0], SHUT_WR);
	/* Written and read together: a long answer must not block the input's writing. */
	give_up = monotime_s() + 10;
	while (monotime_s() < give_up) {
		struct pollfd pfd = { .fd = sv[0], .events = POLLIN | (sent < size ? POLLOUT : 0) };
		char buf[4096];
		ssize_t n;

		if (poll(&pfd, 1, 10) < 0)
			abort();
		if (sent < size && (pfd.revents & POLLOUT)) {
			n = write(sv[0], data + sent, size - sent);
			if (n > 0 && (sent += (size_t)n) == size)
				shutdown(sv[0], SHUT_WR);
			if (n < 0 && errno != EAGAIN) /* the server closed early */
				sent = size;
		}
		if (pfd.revents & (POLLIN | POLLHUP)) {
			n = read(sv[0], buf, sizeof(buf));
			if (n == 0 || (n < 0 && errno != EAGAIN)) {
				ended = true;
				break;
			}
			if (n > 0 && got < sizeof(answer) - 1)
				memcpy(answer + got, buf,
				       (size_t)n < sizeof(answer) - 1 - got
					       ? (size_t)n
					       : sizeof(answer) - 1 - got);
			if (n > 0)
				got += (size_t)n;
		}
	}
	close(sv[0]);
	if (!ended) {
		fprintf(stderr, "the server did not end the connection\n");
		__builtin_trap();
	}
	if (got >= 7 && strncmp(answer, "HTTP/1.", 7))
		__builtin_trap();
	return 0;
}
