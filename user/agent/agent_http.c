// SPDX-License-Identifier: GPL-2.0
/* agent_http.c: the agent's routes on libmicrohttpd, with its limits, TLS (gnutls) and basic auth */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "agent_http.h"
#include "lib/deadline.h"
#include "lib/gzip.h"
#include "lib/log.h"
#include "lib/monotime.h"

/* Bodies smaller than this are sent as they are: gzip would not pay for itself. */
#define GZIP_MIN_BYTES 1024
#define ACCEPTS_PER_ROUND 64
#define EXPIRE_EVERY_MS 200
/*
 * MHD's own limit, never reached: libmicrohttpd 0.9.75 (Debian 12) keeps a mutex locked when a
 * connection finds it reached (new_connection_process_()), and its polling thread and every
 * connection's thread then wait on it for good. agent_conns counts every connection from its
 * admission until MHD_CONNECTION_NOTIFY_CLOSED, which MHD's polling thread sends just before it
 * stops counting the connection, and that thread is the one that counts new ones: MHD's count
 * is never above ours, and ours never above AGENT_CONN_HELD_MAX.
 */
#define MHD_LIMIT (AGENT_CONN_HELD_MAX + 32)

struct agent_http {
	struct MHD_Daemon *d;
	struct agent_auth *auth;
	struct agent_conns *conns;
	agent_http_handler h;
	void *ctx;
	int fd; /* the listening socket; -1 for agent_http_start_unbound() */
	pthread_t acceptor;
	bool acceptor_running, closed;
	int stopping;
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
				  const char *header, const char *value)
{
	struct MHD_Response *r =
		MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	if (header)
		MHD_add_response_header(r, header, value);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static struct agent_conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

static enum agent_auth_result authorized(struct agent_http *s, struct MHD_Connection *c,
					 struct agent_conn *conn)
{
	char *pass = NULL, *user;
	enum agent_auth_result ok;

	if (!s->auth)
		return AGENT_AUTH_OK;
	user = MHD_basic_auth_get_username_password(c, &pass);
	ok = agent_auth_check(s->auth, s->conns, conn, user, pass);
	if (pass)
		explicit_bzero(pass, strlen(pass));
	MHD_free(user);
	MHD_free(pass);
	return ok;
}

static enum MHD_Result refuse_auth(struct agent_http *s, struct MHD_Connection *c,
				   enum agent_auth_result why)
{
	static const char need[] = "copyprof agent: a user and password are needed\n";
	struct MHD_Response *r;
	enum MHD_Result ret;

	if (why == AGENT_AUTH_THROTTLED)
		return reply_text(c, MHD_HTTP_TOO_MANY_REQUESTS,
				  "copyprof agent: too many wrong passwords from this client, its "
				  "user or everyone; try again later\n",
				  MHD_HTTP_HEADER_RETRY_AFTER, "2");
	__atomic_add_fetch(&s->unauthorized, 1, __ATOMIC_RELAXED);
	r = MHD_create_response_from_buffer(sizeof(need) - 1, (void *)need, MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	ret = MHD_queue_basic_auth_fail_response(c, "copyprof", r);
	MHD_destroy_response(r);
	return ret;
}

/* gzip the body when the client takes it and it is worth it; the body is replaced. */
static void maybe_gzip(const struct agent_request *q, struct agent_reply *rep)
{
	void *z;
	size_t zlen;

	if (!q->gzip || rep->encoding || rep->len < GZIP_MIN_BYTES)
		return;
	if (gzip_compress(rep->body, rep->len, GZIP_FAST, &z, &zlen))
		return; /* sent as it is */
	free(rep->body);
	rep->body = z;
	rep->len = zlen;
	rep->encoding = "gzip";
}

static enum MHD_Result answer(struct agent_http *s, struct MHD_Connection *c,
			      const struct agent_request *q, bool last)
{
	struct agent_reply rep = { 0 };
	struct MHD_Response *r;
	enum MHD_Result ret;

	if (s->h(s->ctx, q, &rep) || !rep.body) {
		free(rep.body);
		return reply_text(c, rep.status ? rep.status : MHD_HTTP_INTERNAL_SERVER_ERROR,
				  "copyprof agent: the snapshot failed; see the agent's log\n",
				  NULL, NULL);
	}
	maybe_gzip(q, &rep);
	r = MHD_create_response_from_buffer(rep.len, rep.body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(rep.body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, rep.type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, "Accept, Accept-Encoding");
	if (rep.encoding)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, rep.encoding);
	if (last)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
	ret = MHD_queue_response(c, rep.status ? rep.status : MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

/* Content-Length other than 0, or any Transfer-Encoding: a body follows the headers. */
static bool announces_body(struct MHD_Connection *c)
{
	const char *cl =
		MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);

	return (cl && strcmp(cl, "0")) ||
	       MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
}

/*
 * MHD calls this when a request's headers are in, then for each piece of a body, then once
 * more with none. Only a GET or HEAD without a body is answered at that last call, which
 * leaves the connection reusable (keep-alive); anything else is answered at once, and MHD
 * closes the connection after the answer.
 */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **state)
{
	static int headers_seen, body_seen, answered;
	struct agent_http *s = cls;
	struct agent_conn *conn = conn_of(c);
	struct agent_request q;
	enum agent_auth_result auth;
	enum MHD_Result ret;
	const char *why = NULL;
	unsigned int status;
	bool last = false;

	if (*state == &answered) {
		*upload_size = 0; /* the rest of a body no one reads */
		return MHD_YES;
	}
	status = agent_request_parse(
		method, url,
		MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT),
		MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING),
		MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "seconds"), &q, &why);
	if (!*state && status != MHD_HTTP_METHOD_NOT_ALLOWED && !announces_body(c)) {
		*state = &headers_seen; /* the end of the request is still to come */
		return MHD_YES;
	}
	if (*upload_size) { /* a body nobody announced: read and dropped, answered at its end */
		*upload_size = 0;
		*state = &body_seen;
		return MHD_YES;
	}
	if (conn)
		last = agent_conns_request(s->conns, conn);
	__atomic_add_fetch(&s->requests, 1, __ATOMIC_RELAXED);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED) {
		__atomic_add_fetch(&s->refused, 1, __ATOMIC_RELAXED);
		ret = reply_text(c, status, why, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	} else if (*state == &body_seen || (!*state && announces_body(c))) {
		__atomic_add_fetch(&s->refused, 1, __ATOMIC_RELAXED);
		ret = reply_text(c, MHD_HTTP_BAD_REQUEST,
				 "copyprof agent: a GET or HEAD has no body\n", NULL, NULL);
	} else if ((auth = authorized(s, c, conn)) != AGENT_AUTH_OK) {
		ret = refuse_auth(s, c, auth);
	} else if (status) {
		__atomic_add_fetch(&s->refused, 1, __ATOMIC_RELAXED);
		ret = reply_text(c, status, why, NULL, NULL);
	} else if (q.seconds && conn && agent_conns_delta_begin(s->conns, conn)) {
		ret = reply_text(c, MHD_HTTP_SERVICE_UNAVAILABLE,
				 "copyprof agent: too many profiles over a window are under way "
				 "(yours or everyone's); try again later\n",
				 MHD_HTTP_HEADER_RETRY_AFTER, "10");
	} else {
		q.conn = conn;
		ret = answer(s, c, &q, last);
		if (q.seconds && conn)
			agent_conns_delta_end(s->conns, conn);
	}
	*state = &answered;
	if (conn)
		agent_conns_sending(s->conns, conn);
	return ret;
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
			  enum MHD_ConnectionNotificationCode toe)
{
	struct agent_http *s = cls;
	const union MHD_ConnectionInfo *ci;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		*socket_context = ci ? agent_conns_started(s->conns, ci->connect_fd) : NULL;
	} else if (*socket_context) {
		agent_conns_closed(s->conns, *socket_context);
		*socket_context = NULL;
	}
}

static void on_completed(void *cls, struct MHD_Connection *c, void **state,
			 enum MHD_RequestTerminationCode toe)
{
	struct agent_http *s = cls;
	struct agent_conn *conn = conn_of(c);

	if (conn)
		agent_conns_completed(s->conns, conn);
}

int agent_http_add(struct agent_http *s, int fd, const struct sockaddr *peer, socklen_t len)
{
	int err = agent_conns_admit(s->conns, fd, peer, len);

	if (err) {
		close(fd);
		return err;
	}
	if (MHD_add_connection(s->d, fd, peer, len) != MHD_YES) {
		/* MHD closed it. */
		agent_conns_abandon(s->conns, fd);
		return -EIO;
	}
	return 0;
}

/*
 * Accepts connections itself, so that the limits decide before MHD spends a thread on one,
 * and ends those past their deadlines.
 */
static void *accept_loop(void *arg)
{
	struct agent_http *s = arg;
	struct pollfd pfd = { .fd = s->fd, .events = POLLIN };

	while (!__atomic_load_n(&s->stopping, __ATOMIC_ACQUIRE)) {
		int i;

		if (poll(&pfd, 1, EXPIRE_EVERY_MS) > 0)
			for (i = 0; i < ACCEPTS_PER_ROUND; i++) {
				struct sockaddr_storage peer;
				socklen_t len = sizeof(peer);
				int fd = accept4(s->fd, (struct sockaddr *)&peer, &len,
						 SOCK_CLOEXEC | SOCK_NONBLOCK);

				if (fd < 0)
					break;
				agent_http_add(s, fd, (struct sockaddr *)&peer, len);
			}
		agent_conns_expire(s->conns);
	}
	return NULL;
}

static int bind_listen(const char *where, char *why, size_t whylen)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd, one = 1;

	if (agent_http_parse_listen(where, &ss, &len, why, whylen))
		return -EINVAL;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		snprintf(why, whylen, "socket: %s", strerror(errno));
		return -errno;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 128)) {
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

static struct agent_http *start(int fd, const struct web_config *web, agent_http_handler h,
				void *ctx)
{
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION |
			     MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC;
	struct agent_http *s = calloc(1, sizeof(*s));
	bool failed;

	if (!s)
		return NULL;
	s->h = h;
	s->ctx = ctx;
	s->fd = fd;
	s->conns = agent_conns_new();
	s->auth = agent_auth_new(web, &failed);
	if (!s->conns || failed) {
		agent_conns_free(s->conns);
		free(s);
		return NULL;
	}
	/* The limits every server has (agent_conns.h decides the rest); TLS adds its files. */
	struct MHD_OptionItem opts[] = {
		{ MHD_OPTION_CONNECTION_LIMIT, MHD_LIMIT, NULL },
		/* A backstop: agent_conns' deadlines are shorter. */
		{ MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)AGENT_CONN_IDLE_S + 5, NULL },
		{ MHD_OPTION_CONNECTION_MEMORY_LIMIT, AGENT_HTTP_REQUEST_MEMORY, NULL },
		{ MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)on_connection, s },
		{ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)on_completed, s },
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
		agent_auth_free(s->auth);
		agent_conns_free(s->conns);
		free(s);
		return NULL;
	}
	return s;
}

struct agent_http *agent_http_start_unbound(const struct web_config *web, agent_http_handler h,
					    void *ctx)
{
	return start(-1, web, h, ctx);
}

struct agent_http *agent_http_start(const char *listen, const struct web_config *web,
				    agent_http_handler h, void *ctx)
{
	struct agent_http *s;
	char why[256];
	int fd = bind_listen(listen, why, sizeof(why));

	if (fd < 0) {
		p_err("--listen %s: %s", listen, why);
		return NULL;
	}
	s = start(fd, web, h, ctx);
	if (!s) {
		p_err("--listen %s: libmicrohttpd cannot serve it%s", listen,
		      web && web->cert_pem ? " (is the TLS key the certificate's, in PEM?)" : "");
		close(fd);
		return NULL;
	}
	if (pthread_create(&s->acceptor, NULL, accept_loop, s)) {
		p_err("--listen %s: cannot start the thread that accepts connections", listen);
		agent_http_stop(s, 0);
		return NULL;
	}
	s->acceptor_running = true;
	return s;
}

void agent_http_stats(struct agent_http *s, struct agent_http_stats *st)
{
	st->requests = __atomic_load_n(&s->requests, __ATOMIC_RELAXED);
	st->refused = __atomic_load_n(&s->refused, __ATOMIC_RELAXED);
	st->unauthorized = __atomic_load_n(&s->unauthorized, __ATOMIC_RELAXED);
	agent_conns_stats(s->conns, &st->conns);
	agent_auth_stats(s->auth, &st->auth);
}

int agent_http_wait(struct agent_http *s, const struct agent_request *q, double seconds)
{
	struct timespec tick = { 0, 100 * 1000 * 1000 };
	double until = monotime_s() + seconds;

	if (q->conn)
		return agent_conns_delta_wait(s->conns, q->conn, seconds);
	while (monotime_s() < until) {
		if (__atomic_load_n(&s->stopping, __ATOMIC_ACQUIRE))
			return -ESHUTDOWN;
		nanosleep(&tick, NULL);
	}
	return 0;
}

void agent_http_close(struct agent_http *s)
{
	if (!s || s->closed)
		return;
	s->closed = true;
	__atomic_store_n(&s->stopping, 1, __ATOMIC_RELEASE);
	if (s->acceptor_running)
		pthread_join(s->acceptor, NULL);
	s->acceptor_running = false;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	agent_conns_shutdown(s->conns);
}

static void stop_daemon(void *d)
{
	MHD_stop_daemon(d);
}

int agent_http_stop(struct agent_http *s, double deadline_s)
{
	if (!s)
		return 0;
	agent_http_close(s);
	if (deadline_run(stop_daemon, s->d, deadline_s))
		return -ETIMEDOUT; /* s is left to the threads still in it */
	agent_auth_free(s->auth);
	agent_conns_free(s->conns);
	free(s);
	return 0;
}
