// SPDX-License-Identifier: GPL-2.0
/* agent_conns.c: connections per client and per user, their deadlines, and who gives way */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "agent_conns.h"
#include "lib/log.h"
#include "lib/monotime.h"

/* More than AGENT_CONN_HELD_MAX: an entry whose connections are all gone is always free. */
#define MAX_WHO 256
#define REPORT_EVERY_S 10.0
#define WAIT_TICK_MS 100

enum conn_state {
	CONN_NEW,      /* accepted, waiting for a whole request */
	CONN_HANDLING, /* a request is being answered: no deadline (the agent renders) */
	CONN_SENDING,  /* the answer is queued */
	CONN_IDLE,     /* keep-alive, waiting for the next request */
	CONN_CLOSING,  /* shut down by us: still held by MHD until it says it closed it */
};

/* A rate as a bucket of tokens: @rate come back per second, up to @burst. */
struct bucket {
	double tokens, t;
};

/* A client (address and user) or a user (a uid, or an address off loopback). */
struct who {
	struct agent_peer peer;
	struct bucket conns, auth;
	double last_seen;
	unsigned long long trouble; /* refused, evicted or timed out since the last report */
	bool used;
};

struct agent_conn {
	int fd;	  /* MHD's */
	int hold; /* ours (a dup): shutdown() on it ends the connection wherever MHD is */
	int client, user;
	struct agent_peer peer;
	enum conn_state state;
	double since;
	unsigned long long seq; /* the order of admission, which is MHD's order of starting */
	unsigned int requests;
	bool started;
	bool delta;  /* waits for a profile's window, in the pool */
	bool cancel; /* ... and is to give way */
	struct agent_conn *next;
};

struct agent_conns {
	pthread_mutex_t lock;
	struct agent_conn *list; /* every connection MHD may hold, closing ones too */
	struct who clients[MAX_WHO], users[MAX_WHO];
	struct bucket auth_all;
	struct agent_conn_stats st;
	unsigned long long seq;
	double last_report;
	struct agent_conn_stats reported;
	bool uid_warned, stopping;
};

static void bucket_fill(struct bucket *b, double rate, double burst, double now)
{
	if (!b->t)
		b->tokens = burst;
	else
		b->tokens += (now - b->t) * rate;
	if (b->tokens > burst)
		b->tokens = burst;
	b->t = now;
}

static bool bucket_take(struct bucket *b, double rate, double burst, double now)
{
	bucket_fill(b, rate, burst, now);
	if (b->tokens < 1)
		return false;
	b->tokens -= 1;
	return true;
}

static void bucket_give_back(struct bucket *b, double burst)
{
	b->tokens = b->tokens + 1 > burst ? burst : b->tokens + 1;
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

/* The user a client's connections count for: its uid on loopback, else its address. */
static void user_key(const struct agent_peer *p, struct agent_peer *u)
{
	*u = *p;
	if (p->uid != AGENT_PEER_UID_UNKNOWN) {
		memset(u->addr, 0, sizeof(u->addr));
		u->family = 0;
	}
}

/*
 * The entry of @p in @v: found, or a new one in place of the least recently seen one that no
 * connection counts for (@busy).
 */
static int who_of(struct who *v, const bool *busy, const struct agent_peer *p, double now)
{
	int i, victim = -1;

	for (i = 0; i < MAX_WHO; i++)
		if (v[i].used && agent_peer_equal(&v[i].peer, p)) {
			v[i].last_seen = now;
			return i;
		}
	for (i = 0; i < MAX_WHO; i++) {
		if (busy[i])
			continue;
		if (!v[i].used) {
			victim = i;
			break;
		}
		if (victim < 0 || v[i].last_seen < v[victim].last_seen)
			victim = i;
	}
	/* At most AGENT_CONN_HELD_MAX entries are busy, so one is always free. */
	memset(&v[victim], 0, sizeof(v[victim]));
	v[victim].peer = *p;
	v[victim].used = true;
	v[victim].last_seen = now;
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

/* The oldest connection that may give way of client @client, or of user @user (-1: any). */
static struct agent_conn *oldest_idle(struct agent_conns *t, int client, int user)
{
	struct agent_conn *c, *best = NULL;

	for (c = t->list; c; c = c->next)
		if (may_give_way(c) && (client < 0 || c->client == client) &&
		    (user < 0 || c->user == user) && (!best || c->since < best->since))
			best = c;
	return best;
}

/* Of the users holding the most connections, the oldest connection that may give way. */
static struct agent_conn *victim_overall(struct agent_conns *t)
{
	unsigned int held[MAX_WHO] = { 0 }, most = 0;
	struct agent_conn *c, *best = NULL;

	for (c = t->list; c; c = c->next)
		if (live(c) && ++held[c->user] > most)
			most = held[c->user];
	for (; most && !best; most--)
		for (c = t->list; c; c = c->next)
			if (held[c->user] == most && may_give_way(c) &&
			    (!best || c->since < best->since))
				best = c;
	return best;
}

/* With the lock: whom to end so that a connection of @client and @user fits; -ENOSPC none. */
static int make_room(struct agent_conns *t, int client, int user, struct agent_conn **victim)
{
	unsigned int held = 0, held_user = 0, all = 0, mine = 0, users = 0;
	struct agent_conn *c;

	*victim = NULL;
	for (c = t->list; c; c = c->next) {
		held++;
		held_user += c->user == user;
		if (!live(c))
			continue;
		all++;
		mine += c->client == client;
		users += c->user == user;
	}
	if (t->stopping || held >= AGENT_CONN_HELD_MAX || held_user >= AGENT_CONN_HELD_PER_USER)
		return -ENOSPC; /* only MHD's release makes room */
	if (mine >= AGENT_CONN_PER_CLIENT)
		*victim = oldest_idle(t, client, -1);
	else if (users >= AGENT_CONN_PER_USER)
		*victim = oldest_idle(t, -1, user);
	else if (all >= AGENT_CONN_MAX)
		*victim = victim_overall(t);
	else
		return 0;
	return *victim ? 0 : -ENOSPC;
}

int agent_conns_admit(struct agent_conns *t, int fd, const struct sockaddr *peer, socklen_t len)
{
	bool busy_client[MAX_WHO] = { false }, busy_user[MAX_WHO] = { false }, uid_failed = false;
	struct agent_conn *c, *victim = NULL;
	struct agent_peer p, u;
	double now = monotime_s();
	int client, user, err = 0;

	agent_peer_of(fd, peer, len, &p, &uid_failed);
	user_key(&p, &u);
	c = calloc(1, sizeof(*c));
	pthread_mutex_lock(&t->lock);
	if (uid_failed && !t->uid_warned) {
		p_warn("the kernel does not say which user owns a loopback connection "
		       "(NETLINK_SOCK_DIAG, tcp_diag): local users share one client's limits");
		t->uid_warned = true;
	}
	for (victim = t->list; victim; victim = victim->next)
		busy_client[victim->client] = busy_user[victim->user] = true;
	client = who_of(t->clients, busy_client, &p, now);
	user = who_of(t->users, busy_user, &u, now);
	if (!c) {
		err = -ENOMEM;
		goto out;
	}
	if (!bucket_take(&t->clients[client].conns, AGENT_CONN_RATE, AGENT_CONN_BURST, now) ||
	    !bucket_take(&t->users[user].conns, AGENT_CONN_USER_RATE, AGENT_CONN_USER_BURST, now)) {
		t->st.refused_rate++;
		t->clients[client].trouble++;
		err = -EAGAIN;
		goto out;
	}
	err = make_room(t, client, user, &victim);
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
	c->user = user;
	c->peer = p;
	c->state = CONN_NEW;
	c->since = now;
	c->seq = ++t->seq;
	c->next = t->list;
	t->list = c;
	t->st.accepted++;
	c = NULL;
out:
	pthread_mutex_unlock(&t->lock);
	free(c);
	return err;
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

/*
 * With the lock: the connection of MHD's @fd not started yet. An older one with the same fd
 * was dropped by MHD: only a closed fd is given out again.
 */
static struct agent_conn *unstarted(struct agent_conns *t, int fd)
{
	struct agent_conn *c, *best = NULL;

	for (c = t->list; c; c = c->next)
		if (!c->started && c->fd == fd && (!best || c->seq > best->seq))
			best = c;
	return best;
}

static void forget(struct agent_conn *c)
{
	close(c->hold);
	free(c);
}

void agent_conns_abandon(struct agent_conns *t, int fd)
{
	struct agent_conn *c;

	pthread_mutex_lock(&t->lock);
	c = unstarted(t, fd);
	if (c)
		unlink_conn(t, c);
	pthread_mutex_unlock(&t->lock);
	if (c)
		forget(c);
}

struct agent_conn *agent_conns_started(struct agent_conns *t, int fd)
{
	struct agent_conn *c, *d, **pp;

	pthread_mutex_lock(&t->lock);
	c = unstarted(t, fd);
	if (c) {
		c->started = true;
		/* Added before it, never started: MHD dropped them (and closed their fds). */
		for (pp = &t->list; (d = *pp);) {
			if (!d->started && d->seq < c->seq) {
				*pp = d->next;
				forget(d);
			} else {
				pp = &d->next;
			}
		}
	}
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
	forget(c);
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
		for (i = 0; i < MAX_WHO; i++)
			if (t->clients[i].used && t->clients[i].trouble &&
			    (worst < 0 || t->clients[i].trouble > t->clients[worst].trouble))
				worst = i;
		if (worst >= 0)
			agent_peer_name(&t->clients[worst].peer, who, sizeof(who));
		p_warn("HTTP limits in the last %.0f s: %llu connection(s) refused, %llu gave way "
		       "to newer ones, %llu past a deadline; most from %s",
		       REPORT_EVERY_S, refused, evicted, timed, who);
	}
	for (i = 0; i < MAX_WHO; i++)
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

void agent_conns_shutdown(struct agent_conns *t)
{
	struct agent_conn *c;

	pthread_mutex_lock(&t->lock);
	t->stopping = true;
	for (c = t->list; c; c = c->next)
		if (may_give_way(c))
			shutdown(c->hold, SHUT_RDWR);
	pthread_mutex_unlock(&t->lock);
}

void agent_conns_stats(struct agent_conns *t, struct agent_conn_stats *st)
{
	struct agent_conn *c;

	pthread_mutex_lock(&t->lock);
	*st = t->st;
	st->open = st->held = st->deltas = 0;
	for (c = t->list; c; c = c->next) {
		st->open += live(c);
		st->held++;
		st->deltas += c->delta;
	}
	pthread_mutex_unlock(&t->lock);
}

const struct agent_peer *agent_conn_peer(const struct agent_conn *c)
{
	return &c->peer;
}

int agent_conns_delta_begin(struct agent_conns *t, struct agent_conn *c)
{
	unsigned int held[MAX_WHO] = { 0 }, all = 0;
	struct agent_conn *d, *victim = NULL;
	int err = 0;

	pthread_mutex_lock(&t->lock);
	for (d = t->list; d; d = d->next)
		if (d->delta && !d->cancel) {
			held[d->user]++;
			all++;
		}
	if (held[c->user] >= AGENT_DELTA_PER_USER) {
		err = -EBUSY;
	} else if (all >= AGENT_DELTA_MAX) {
		/* The oldest wait of a user holding two more than this one gives way. */
		for (d = t->list; d; d = d->next)
			if (d->delta && !d->cancel && held[d->user] >= held[c->user] + 2 &&
			    (!victim || held[d->user] > held[victim->user] ||
			     (held[d->user] == held[victim->user] && d->seq < victim->seq)))
				victim = d;
		if (victim) {
			victim->cancel = true;
			t->st.delta_cancelled++;
		} else {
			err = -EBUSY;
		}
	}
	if (err)
		t->st.delta_refused++;
	else
		c->delta = true;
	pthread_mutex_unlock(&t->lock);
	return err;
}

void agent_conns_delta_end(struct agent_conns *t, struct agent_conn *c)
{
	pthread_mutex_lock(&t->lock);
	c->delta = c->cancel = false;
	pthread_mutex_unlock(&t->lock);
}

int agent_conns_delta_wait(struct agent_conns *t, struct agent_conn *c, double seconds)
{
	double until = monotime_s() + seconds, left;
	struct pollfd pfd = { .fd = c->hold, .events = POLLRDHUP };
	bool cancel, stopping;
	int ms;

	while ((left = until - monotime_s()) > 0) {
		pthread_mutex_lock(&t->lock);
		cancel = c->cancel;
		stopping = t->stopping;
		pthread_mutex_unlock(&t->lock);
		if (stopping)
			return -ESHUTDOWN;
		if (cancel)
			return -ECANCELED;
		ms = left * 1000 < WAIT_TICK_MS ? (int)(left * 1000) + 1 : WAIT_TICK_MS;
		/* The client's end of the connection closed: nobody waits for the answer. */
		if (poll(&pfd, 1, ms) > 0 && (pfd.revents & (POLLRDHUP | POLLHUP | POLLERR)))
			return -ECONNRESET;
	}
	return 0;
}

bool agent_conns_auth_begin(struct agent_conns *t, struct agent_conn *c)
{
	struct bucket *cb = &t->clients[c->client].auth, *ub = &t->users[c->user].auth;
	double now = monotime_s();
	bool ok;

	pthread_mutex_lock(&t->lock);
	bucket_fill(cb, AGENT_AUTH_FAIL_RATE, AGENT_AUTH_FAIL_BURST, now);
	bucket_fill(ub, AGENT_AUTH_USER_FAIL_RATE, AGENT_AUTH_USER_FAIL_BURST, now);
	bucket_fill(&t->auth_all, AGENT_AUTH_ALL_FAIL_RATE, AGENT_AUTH_ALL_FAIL_BURST, now);
	ok = cb->tokens >= 1 && ub->tokens >= 1 && t->auth_all.tokens >= 1;
	if (ok) {
		cb->tokens -= 1;
		ub->tokens -= 1;
		t->auth_all.tokens -= 1;
	}
	pthread_mutex_unlock(&t->lock);
	return ok;
}

void agent_conns_auth_done(struct agent_conns *t, struct agent_conn *c, bool ok)
{
	if (!ok)
		return;
	pthread_mutex_lock(&t->lock);
	/* A right password costs no try: only wrong ones use the shares up. */
	bucket_give_back(&t->clients[c->client].auth, AGENT_AUTH_FAIL_BURST);
	bucket_give_back(&t->users[c->user].auth, AGENT_AUTH_USER_FAIL_BURST);
	bucket_give_back(&t->auth_all, AGENT_AUTH_ALL_FAIL_BURST);
	pthread_mutex_unlock(&t->lock);
}
