// SPDX-License-Identifier: GPL-2.0
/* agent_conns.c: connections per client, their deadlines, and the oldest idle ones giving way */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "agent_conns.h"
#include "lib/log.h"
#include "lib/monotime.h"

#define MAX_CLIENTS 256
#define REPORT_EVERY_S 10.0

enum conn_state {
	CONN_NEW,      /* accepted, waiting for a whole request */
	CONN_HANDLING, /* a request is being answered: no deadline (the agent renders) */
	CONN_SENDING,  /* the answer is queued */
	CONN_IDLE,     /* keep-alive, waiting for the next request */
	CONN_CLOSING,  /* shut down by us: counts for nothing, gone once MHD says so */
};

/* A rate as a bucket of tokens: @rate come back per second, up to @burst. */
struct bucket {
	double tokens, t;
};

struct client {
	struct agent_peer peer;
	struct bucket conns, auth;
	double last_seen;
	unsigned long long trouble; /* refused, evicted or timed out since the last report */
	bool used;
};

struct agent_conn {
	int fd;	  /* MHD's */
	int hold; /* ours (a dup): shutdown() on it ends the connection wherever MHD is */
	int client;
	struct agent_peer peer;
	enum conn_state state;
	double since;
	unsigned int requests;
	bool started;
	struct agent_conn *next;
};

struct agent_conns {
	pthread_mutex_t lock;
	struct agent_conn *list;
	struct client clients[MAX_CLIENTS];
	struct agent_conn_stats st;
	double last_report;
	struct agent_conn_stats reported;
	bool uid_warned;
};

static bool bucket_take(struct bucket *b, double rate, double burst, double now)
{
	if (!b->t)
		b->tokens = burst;
	else
		b->tokens += (now - b->t) * rate;
	if (b->tokens > burst)
		b->tokens = burst;
	b->t = now;
	if (b->tokens < 1)
		return false;
	b->tokens -= 1;
	return true;
}

struct agent_conns *agent_conns_new(void)
{
	struct agent_conns *t = calloc(1, sizeof(*t));

	if (t) {
		pthread_mutex_init(&t->lock, NULL);
		t->last_report = monotime_s();
	}
	return t;
}

void agent_conns_free(struct agent_conns *t)
{
	struct agent_conn *c, *n;

	if (!t)
		return;
	for (c = t->list; c; c = n) {
		n = c->next;
		close(c->hold);
		free(c);
	}
	pthread_mutex_destroy(&t->lock);
	free(t);
}

/* The client of @p: found, or a new entry in place of the least recently seen one unused. */
static int client_of(struct agent_conns *t, const struct agent_peer *p, double now)
{
	int i, victim = -1;
	bool busy[MAX_CLIENTS] = { false };
	struct agent_conn *c;

	for (i = 0; i < MAX_CLIENTS; i++)
		if (t->clients[i].used && agent_peer_equal(&t->clients[i].peer, p)) {
			t->clients[i].last_seen = now;
			return i;
		}
	for (c = t->list; c; c = c->next)
		busy[c->client] = true;
	for (i = 0; i < MAX_CLIENTS; i++) {
		if (busy[i])
			continue;
		if (!t->clients[i].used) {
			victim = i;
			break;
		}
		if (victim < 0 || t->clients[i].last_seen < t->clients[victim].last_seen)
			victim = i;
	}
	/* At most AGENT_CONN_MAX clients hold a connection, so one entry is always free. */
	memset(&t->clients[victim], 0, sizeof(t->clients[victim]));
	t->clients[victim].peer = *p;
	t->clients[victim].used = true;
	t->clients[victim].last_seen = now;
	return victim;
}

static bool live(const struct agent_conn *c)
{
	return c->state != CONN_CLOSING;
}

static bool may_give_way(const struct agent_conn *c)
{
	return c->state == CONN_NEW || c->state == CONN_IDLE;
}

static void end(struct agent_conns *t, struct agent_conn *c, unsigned long long *counter)
{
	shutdown(c->hold, SHUT_RDWR);
	c->state = CONN_CLOSING;
	(*counter)++;
	t->clients[c->client].trouble++;
}

/* The oldest connection that may give way, of @client (or of any client: -1). */
static struct agent_conn *oldest_idle(struct agent_conns *t, int client)
{
	struct agent_conn *c, *best = NULL;

	for (c = t->list; c; c = c->next)
		if (may_give_way(c) && (client < 0 || c->client == client) &&
		    (!best || c->since < best->since))
			best = c;
	return best;
}

/* Of the clients holding the most connections, the oldest connection that may give way. */
static struct agent_conn *victim_overall(struct agent_conns *t)
{
	unsigned int held[MAX_CLIENTS] = { 0 }, most = 0;
	struct agent_conn *c, *best = NULL;

	for (c = t->list; c; c = c->next)
		if (live(c) && ++held[c->client] > most)
			most = held[c->client];
	for (; most && !best; most--)
		for (c = t->list; c; c = c->next)
			if (held[c->client] == most && may_give_way(c) &&
			    (!best || c->since < best->since))
				best = c;
	return best;
}

int agent_conns_admit(struct agent_conns *t, int fd, const struct sockaddr *peer, socklen_t len)
{
	struct agent_conn *c, *victim = NULL;
	struct agent_peer p;
	unsigned int mine = 0, all = 0;
	bool uid_failed = false;
	double now = monotime_s();
	int client, err = 0;

	agent_peer_of(fd, peer, len, &p, &uid_failed);
	c = calloc(1, sizeof(*c));
	pthread_mutex_lock(&t->lock);
	if (uid_failed && !t->uid_warned) {
		p_warn("the kernel does not say which user owns a loopback connection "
		       "(NETLINK_SOCK_DIAG, tcp_diag): local users share one client's limits");
		t->uid_warned = true;
	}
	client = client_of(t, &p, now);
	if (!c) {
		err = -ENOMEM;
		goto out;
	}
	if (!bucket_take(&t->clients[client].conns, AGENT_CONN_RATE, AGENT_CONN_BURST, now)) {
		t->st.refused_rate++;
		t->clients[client].trouble++;
		err = -EAGAIN;
		goto out;
	}
	for (victim = t->list; victim; victim = victim->next)
		if (live(victim)) {
			all++;
			mine += victim->client == client;
		}
	victim = NULL;
	if (mine >= AGENT_CONN_PER_CLIENT && !(victim = oldest_idle(t, client))) {
		err = -ENOSPC;
	} else if (!victim && all >= AGENT_CONN_MAX && !(victim = victim_overall(t))) {
		err = -ENOSPC;
	}
	if (err) {
		t->st.refused_full++;
		t->clients[client].trouble++;
		goto out;
	}
	c->hold = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (c->hold < 0) {
		err = -errno;
		goto out;
	}
	if (victim)
		end(t, victim, &t->st.evicted);
	c->fd = fd;
	c->client = client;
	c->peer = p;
	c->state = CONN_NEW;
	c->since = now;
	c->next = t->list;
	t->list = c;
	t->st.accepted++;
	c = NULL;
out:
	pthread_mutex_unlock(&t->lock);
	free(c);
	return err;
}

/* With the lock held: the connection of MHD's @fd that is still to start or is started. */
static struct agent_conn *find_fd(struct agent_conns *t, int fd, bool started)
{
	struct agent_conn *c;

	for (c = t->list; c; c = c->next)
		if (c->fd == fd && c->started == started && live(c))
			return c;
	return NULL;
}

static void unlink_conn(struct agent_conns *t, struct agent_conn *c)
{
	struct agent_conn **pp;

	for (pp = &t->list; *pp; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			return;
		}
}

void agent_conns_abandon(struct agent_conns *t, int fd)
{
	struct agent_conn *c;

	pthread_mutex_lock(&t->lock);
	c = find_fd(t, fd, false);
	if (c)
		unlink_conn(t, c);
	pthread_mutex_unlock(&t->lock);
	if (c) {
		close(c->hold);
		free(c);
	}
}

struct agent_conn *agent_conns_started(struct agent_conns *t, int fd)
{
	struct agent_conn *c;

	pthread_mutex_lock(&t->lock);
	c = find_fd(t, fd, false);
	if (c)
		c->started = true;
	pthread_mutex_unlock(&t->lock);
	return c;
}

static void set_state(struct agent_conns *t, struct agent_conn *c, enum conn_state s)
{
	pthread_mutex_lock(&t->lock);
	/* A connection shut down by us stays shut: MHD may still finish its request. */
	if (c->state != CONN_CLOSING) {
		c->state = s;
		c->since = monotime_s();
	}
	pthread_mutex_unlock(&t->lock);
}

bool agent_conns_request(struct agent_conns *t, struct agent_conn *c)
{
	bool last;

	set_state(t, c, CONN_HANDLING);
	pthread_mutex_lock(&t->lock);
	last = ++c->requests >= AGENT_CONN_MAX_REQUESTS;
	pthread_mutex_unlock(&t->lock);
	return last;
}

void agent_conns_sending(struct agent_conns *t, struct agent_conn *c)
{
	set_state(t, c, CONN_SENDING);
}

void agent_conns_completed(struct agent_conns *t, struct agent_conn *c)
{
	set_state(t, c, CONN_IDLE);
}

void agent_conns_closed(struct agent_conns *t, struct agent_conn *c)
{
	pthread_mutex_lock(&t->lock);
	unlink_conn(t, c);
	pthread_mutex_unlock(&t->lock);
	close(c->hold);
	free(c);
}

/* Now and then, what the limits refused, and from whom the most. */
static void report(struct agent_conns *t, double now)
{
	struct agent_conn_stats *r = &t->reported, *s = &t->st;
	unsigned long long refused = s->refused_rate + s->refused_full - r->refused_rate -
				     r->refused_full,
			   evicted = s->evicted - r->evicted, timed = s->timed_out - r->timed_out;
	int i, worst = -1;
	char who[96] = "?";

	if (now - t->last_report < REPORT_EVERY_S)
		return;
	t->last_report = now;
	if (refused || evicted || timed) {
		for (i = 0; i < MAX_CLIENTS; i++)
			if (t->clients[i].used && t->clients[i].trouble &&
			    (worst < 0 || t->clients[i].trouble > t->clients[worst].trouble))
				worst = i;
		if (worst >= 0)
			agent_peer_name(&t->clients[worst].peer, who, sizeof(who));
		p_warn("HTTP limits in the last %.0f s: %llu connection(s) refused, %llu gave way "
		       "to newer ones, %llu past a deadline; most from %s",
		       REPORT_EVERY_S, refused, evicted, timed, who);
	}
	for (i = 0; i < MAX_CLIENTS; i++)
		t->clients[i].trouble = 0;
	*r = *s;
}

void agent_conns_expire(struct agent_conns *t)
{
	double now = monotime_s();
	struct agent_conn *c;

	pthread_mutex_lock(&t->lock);
	for (c = t->list; c; c = c->next) {
		double age = now - c->since;

		if ((c->state == CONN_NEW && age > AGENT_CONN_REQUEST_S) ||
		    (c->state == CONN_IDLE && age > AGENT_CONN_IDLE_S) ||
		    (c->state == CONN_SENDING && age > AGENT_CONN_SEND_S))
			end(t, c, &t->st.timed_out);
	}
	report(t, now);
	pthread_mutex_unlock(&t->lock);
}

void agent_conns_stats(struct agent_conns *t, struct agent_conn_stats *st)
{
	struct agent_conn *c;

	pthread_mutex_lock(&t->lock);
	*st = t->st;
	st->open = 0;
	for (c = t->list; c; c = c->next)
		st->open += live(c);
	pthread_mutex_unlock(&t->lock);
}

const struct agent_peer *agent_conn_peer(const struct agent_conn *c)
{
	return &c->peer;
}

bool agent_conns_auth_begin(struct agent_conns *t, struct agent_conn *c)
{
	bool ok;

	pthread_mutex_lock(&t->lock);
	ok = bucket_take(&t->clients[c->client].auth, AGENT_AUTH_FAIL_RATE, AGENT_AUTH_FAIL_BURST,
			 monotime_s());
	pthread_mutex_unlock(&t->lock);
	return ok;
}

void agent_conns_auth_done(struct agent_conns *t, struct agent_conn *c, bool ok)
{
	if (!ok)
		return;
	pthread_mutex_lock(&t->lock);
	/* A right password costs no try: only wrong ones use the share up. */
	t->clients[c->client].auth.tokens += 1;
	if (t->clients[c->client].auth.tokens > AGENT_AUTH_FAIL_BURST)
		t->clients[c->client].auth.tokens = AGENT_AUTH_FAIL_BURST;
	pthread_mutex_unlock(&t->lock);
}
