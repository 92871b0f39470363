/* SPDX-License-Identifier: GPL-2.0 */
/* agent_conns.h: the agent's connections: shares per client and per user, deadlines, who gives way */
#ifndef CP_AGENT_CONNS_H
#define CP_AGENT_CONNS_H

#include <stdbool.h>
#include <sys/socket.h>
#include "agent_peer.h"

/*
 * What no client can exceed (docs/fleet.md#limits). A client is an address, and over loopback
 * an address and the user owning the connecting socket (agent_peer.h); a user is that uid
 * whatever the address (any local user may bind all of 127.0.0.0/8), and off loopback the
 * address again.
 */
#define AGENT_CONN_MAX 64	/* connections at once being served, all clients */
#define AGENT_CONN_PER_CLIENT 8 /* ... of one client */
#define AGENT_CONN_PER_USER 16	/* ... of one user, all its addresses */
/*
 * Every connection handed to the HTTP library counts here from its admission until the library
 * says it released it, those the agent shut down included: the library's own limit
 * (agent_http.c) is never reached. A user's are at most AGENT_CONN_PER_USER + 8 of them.
 */
#define AGENT_CONN_HELD_MAX 96
#define AGENT_CONN_HELD_PER_USER (AGENT_CONN_PER_USER + 8)
#define AGENT_CONN_REQUEST_S 5.0    /* accepted (TLS handshake included) to a whole request */
#define AGENT_CONN_IDLE_S 30.0	    /* keep-alive: a response sent to the next whole request */
#define AGENT_CONN_SEND_S 30.0	    /* a response queued to its last byte taken by the client */
#define AGENT_CONN_MAX_REQUESTS 100 /* on one connection; the last says Connection: close */
#define AGENT_CONN_RATE 20.0	    /* new connections per second a client may open ... */
#define AGENT_CONN_BURST 40.0	    /* ... after a burst of this many */
#define AGENT_CONN_USER_RATE 50.0   /* ... and a user, all its addresses */
#define AGENT_CONN_USER_BURST 100.0
/* Profiles over a window (pprof's seconds=N) wait long: a pool of their own. */
#define AGENT_DELTA_MAX 4
#define AGENT_DELTA_PER_USER 2
/* Wrong passwords: tries at once, then per second, for a client, a user and everyone. */
#define AGENT_AUTH_FAIL_BURST 5.0
#define AGENT_AUTH_FAIL_RATE 0.5
#define AGENT_AUTH_USER_FAIL_BURST 10.0
#define AGENT_AUTH_USER_FAIL_RATE 1.0
#define AGENT_AUTH_ALL_FAIL_BURST 20.0
#define AGENT_AUTH_ALL_FAIL_RATE 2.0

struct agent_conns;
struct agent_conn;

struct agent_conn_stats {
	unsigned long long accepted;	  /* handed to the HTTP server */
	unsigned long long refused_rate;  /* closed at once: the client opened too many too fast */
	unsigned long long refused_full;  /* closed at once: no slot, none could give way */
	unsigned long long evicted;	  /* an idle or unfinished one closed for a newer one */
	unsigned long long timed_out;	  /* past a deadline */
	unsigned long long open;	  /* now, not closing */
	unsigned long long held;	  /* now, closing ones the library still holds included */
	unsigned long long deltas;	  /* profiles over a window being waited for now */
	unsigned long long delta_refused; /* ... refused: the pool was full (503) */
	unsigned long long delta_cancelled; /* ... ended: gave way to another user's */
};

struct agent_conns *agent_conns_new(void);
void agent_conns_free(struct agent_conns *t);

/*
 * A connection just accepted: admitted (0; MHD may take @fd) or refused (-EAGAIN: too fast,
 * -ENOSPC: no slot; the caller closes @fd). To admit it over a share, the oldest connection
 * that is not being answered gives way: of this client, of this user, else of the user
 * holding the most.
 */
int agent_conns_admit(struct agent_conns *t, int fd, const struct sockaddr *peer, socklen_t len);
/* MHD could not take an admitted @fd (it closed it). */
void agent_conns_abandon(struct agent_conns *t, int fd);
/*
 * MHD started serving @fd: the connection admitted for it, or NULL. MHD starts connections in
 * the order they were added, so one admitted before it and not started was dropped by MHD.
 */
struct agent_conn *agent_conns_started(struct agent_conns *t, int fd);
/*
 * A whole request arrived on @c: its deadline stops while it is answered. Returns true when
 * it is the connection's last (AGENT_CONN_MAX_REQUESTS): answer with Connection: close.
 */
bool agent_conns_request(struct agent_conns *t, struct agent_conn *c);
/* The answer is queued: AGENT_CONN_SEND_S to send it. */
void agent_conns_sending(struct agent_conns *t, struct agent_conn *c);
/* The answer is sent: idle, AGENT_CONN_IDLE_S until the next whole request. */
void agent_conns_completed(struct agent_conns *t, struct agent_conn *c);
/* MHD released @c (its thread ended, its socket closed): it stops counting. */
void agent_conns_closed(struct agent_conns *t, struct agent_conn *c);
/* Ends every connection past its deadline; says what was refused now and then. */
void agent_conns_expire(struct agent_conns *t);
/* Ends every connection not being answered, and every wait (the server stops). */
void agent_conns_shutdown(struct agent_conns *t);
void agent_conns_stats(struct agent_conns *t, struct agent_conn_stats *st);
const struct agent_peer *agent_conn_peer(const struct agent_conn *c);

/*
 * A profile over a window on @c: a place in the pool (0), or -EBUSY. A full pool makes room
 * by ending the oldest wait of a user holding at least two more than @c's user.
 */
int agent_conns_delta_begin(struct agent_conns *t, struct agent_conn *c);
void agent_conns_delta_end(struct agent_conns *t, struct agent_conn *c);
/*
 * Waits up to @seconds for @c's window: 0 at its end, -ECONNRESET when the client went away,
 * -ECANCELED when it gave way to another's, -ESHUTDOWN when the server stops.
 */
int agent_conns_delta_wait(struct agent_conns *t, struct agent_conn *c, double seconds);

/*
 * A password check by @c's client: false when wrong passwords used up its client's, its user's
 * or everyone's share (AGENT_AUTH_*FAIL*): answer 429 without checking. Otherwise one try is
 * taken from each, and agent_conns_auth_done() gives them back when the password was right.
 */
bool agent_conns_auth_begin(struct agent_conns *t, struct agent_conn *c);
void agent_conns_auth_done(struct agent_conns *t, struct agent_conn *c, bool ok);

#endif
