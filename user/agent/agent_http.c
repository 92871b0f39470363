// SPDX-License-Identifier: GPL-2.0
/* agent_http.c: the agent's routes on libmicrohttpd, with its limits, TLS (gnutls) and basic auth */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "agent_http.h"
#include "lib/log.h"

struct agent_http {
	struct MHD_Daemon *d;
	const struct web_config *web;
	agent_http_handler h;
	void *ctx;
	int fd;
	/* Counted from the server's threads. */
	unsigned long long requests, refused, unauthorized;
};

int agent_http_parse_listen(const char *text, struct sockaddr_storage *ss, socklen_t *len,
			    char *err, size_t errlen)
{
	char host[64];
	const char *colon, *h = text;
	size_t hl;
	unsigned long port;
	char *end;

	memset(ss, 0, sizeof(*ss));
	colon = strrchr(text, ':');
	if (!colon) {
		snprintf(err, errlen, "give ADDR:PORT, e.g. 127.0.0.1:9477 or [::1]:9477");
		return -EINVAL;
	}
	hl = (size_t)(colon - text);
	if (hl >= 2 && text[0] == '[' && text[hl - 1] == ']') {
		h = text + 1;
		hl -= 2;
	}
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (!colon[1] || *end || errno || port > 65535) {
		snprintf(err, errlen, "'%s' is not a port (0 to 65535)", colon + 1);
		return -EINVAL;
	}
	if (hl >= sizeof(host)) {
		snprintf(err, errlen, "the address is too long");
		return -EINVAL;
	}
	memcpy(host, h, hl);
	host[hl] = 0;
	if (inet_pton(AF_INET, host, &((struct sockaddr_in *)ss)->sin_addr) == 1) {
		((struct sockaddr_in *)ss)->sin_family = AF_INET;
		((struct sockaddr_in *)ss)->sin_port = htons((uint16_t)port);
		*len = sizeof(struct sockaddr_in);
		return 0;
	}
	if (inet_pton(AF_INET6, host, &((struct sockaddr_in6 *)ss)->sin6_addr) == 1) {
		((struct sockaddr_in6 *)ss)->sin6_family = AF_INET6;
		((struct sockaddr_in6 *)ss)->sin6_port = htons((uint16_t)port);
		*len = sizeof(struct sockaddr_in6);
		return 0;
	}
	snprintf(err, errlen,
		 "'%s' is not a numeric IPv4 or [IPv6] address (names are not resolved: give "
		 "127.0.0.1, 0.0.0.0, [::1] ...)",
		 host);
	return -EINVAL;
}

bool agent_http_is_loopback(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)ss)->sin_addr.s_addr) >> 24) == 127;
	return ss->ss_family == AF_INET6 &&
	       IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)ss)->sin6_addr);
}

static enum MHD_Result reply_text(struct MHD_Connection *c, unsigned int status, const char *text,
				  const char *allow)
{
	struct MHD_Response *r =
		MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	if (allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static bool authorized(struct agent_http *s, struct MHD_Connection *c)
{
	char *pass = NULL, *user;
	bool ok;

	if (!s->web || !s->web->nr_users)
		return true;
	user = MHD_basic_auth_get_username_password(c, &pass);
	ok = web_config_check(s->web, user, pass);
	if (pass)
		explicit_bzero(pass, strlen(pass));
	MHD_free(user);
	MHD_free(pass);
	return ok;
}

static int route_of(const char *url)
{
	if (!strcmp(url, "/metrics"))
		return AGENT_ROUTE_METRICS;
	if (!strcmp(url, "/profile"))
		return AGENT_ROUTE_PROFILE;
	if (!strcmp(url, "/debug/pprof/profile"))
		return AGENT_ROUTE_PPROF;
	return -1;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **state)
{
	struct agent_http *s = cls;
	struct agent_reply rep = { 0 };
	struct MHD_Response *r;
	enum MHD_Result ret;
	int route;

	__atomic_add_fetch(&s->requests, 1, __ATOMIC_RELAXED);
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD)) {
		__atomic_add_fetch(&s->refused, 1, __ATOMIC_RELAXED);
		return reply_text(c, MHD_HTTP_METHOD_NOT_ALLOWED,
				  "copyprof agent: only GET and HEAD are served\n", "GET, HEAD");
	}
	if (!authorized(s, c)) {
		static const char msg[] = "copyprof agent: a user and password are needed\n";

		__atomic_add_fetch(&s->unauthorized, 1, __ATOMIC_RELAXED);
		r = MHD_create_response_from_buffer(sizeof(msg) - 1, (void *)msg,
						    MHD_RESPMEM_PERSISTENT);
		if (!r)
			return MHD_NO;
		ret = MHD_queue_basic_auth_fail_response(c, "copyprof", r);
		MHD_destroy_response(r);
		return ret;
	}
	route = route_of(url);
	if (route < 0) {
		__atomic_add_fetch(&s->refused, 1, __ATOMIC_RELAXED);
		return reply_text(c, MHD_HTTP_NOT_FOUND,
				  "copyprof agent: no such page; try /metrics, /profile or "
				  "/debug/pprof/profile\n",
				  NULL);
	}
	if (s->h(s->ctx, (enum agent_route)route, &rep) || !rep.body) {
		free(rep.body);
		return reply_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR,
				  "copyprof agent: the snapshot failed; see the agent's log\n",
				  NULL);
	}
	r = MHD_create_response_from_buffer(rep.len, rep.body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(rep.body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, rep.type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	ret = MHD_queue_response(c, rep.status ? rep.status : MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

static int bind_listen(const char *where, char *why, size_t whylen)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd, one = 1;

	if (agent_http_parse_listen(where, &ss, &len, why, whylen))
		return -EINVAL;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(why, whylen, "socket: %s", strerror(errno));
		return -errno;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 64)) {
		int err = errno;

		snprintf(why, whylen, "%s%s", strerror(err),
			 err == EADDRINUSE	? " (another program listens there: pick another "
						  "port with --listen)"
			 : err == EADDRNOTAVAIL ? " (no interface of this host has that address)"
			 : err == EACCES	? " (ports below 1024 need CAP_NET_BIND_SERVICE)"
						: "");
		close(fd);
		return -err;
	}
	return fd;
}

struct agent_http *agent_http_start(const char *listen, const struct web_config *web,
				    agent_http_handler h, void *ctx)
{
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION;
	struct agent_http *s = calloc(1, sizeof(*s));
	char why[256];

	if (!s)
		return NULL;
	s->web = web;
	s->h = h;
	s->ctx = ctx;
	s->fd = bind_listen(listen, why, sizeof(why));
	if (s->fd < 0) {
		p_err("--listen %s: %s", listen, why);
		free(s);
		return NULL;
	}
	/* The limits every listener has; a TLS one adds its certificate and key. */
	struct MHD_OptionItem opts[] = {
		{ MHD_OPTION_LISTEN_SOCKET, s->fd, NULL },
		{ MHD_OPTION_CONNECTION_LIMIT, AGENT_HTTP_MAX_CONNECTIONS, NULL },
		{ MHD_OPTION_PER_IP_CONNECTION_LIMIT, AGENT_HTTP_MAX_PER_IP, NULL },
		{ MHD_OPTION_CONNECTION_TIMEOUT, AGENT_HTTP_TIMEOUT_S, NULL },
		{ MHD_OPTION_CONNECTION_MEMORY_LIMIT, AGENT_HTTP_REQUEST_MEMORY, NULL },
		{ MHD_OPTION_END, 0, NULL }, /* TLS: the certificate */
		{ MHD_OPTION_END, 0, NULL }, /* TLS: the key */
		{ MHD_OPTION_END, 0, NULL },
	};

	if (web && web->cert_pem) {
		flags |= MHD_USE_TLS;
		opts[5] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, web->cert_pem };
		opts[6] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, web->key_pem };
	}
	s->d = MHD_start_daemon(flags, 0, NULL, NULL, on_request, s, MHD_OPTION_ARRAY, opts,
				MHD_OPTION_END);
	if (!s->d) {
		p_err("--listen %s: libmicrohttpd cannot serve it%s", listen,
		      web && web->cert_pem ? " (is the TLS key the certificate's, in PEM?)" : "");
		close(s->fd);
		free(s);
		return NULL;
	}
	return s;
}

void agent_http_stats(struct agent_http *s, struct agent_http_stats *st)
{
	st->requests = __atomic_load_n(&s->requests, __ATOMIC_RELAXED);
	st->refused = __atomic_load_n(&s->refused, __ATOMIC_RELAXED);
	st->unauthorized = __atomic_load_n(&s->unauthorized, __ATOMIC_RELAXED);
}

void agent_http_stop(struct agent_http *s)
{
	if (!s)
		return;
	MHD_stop_daemon(s->d);
	close(s->fd);
	free(s);
}
