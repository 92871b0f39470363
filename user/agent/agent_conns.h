/* SPDX-License-Identifier: GPL-2.0 */
/* agent_conns.h: the agent's connections: a share per client, deadlines, and who gives way */
#ifndef CP_AGENT_CONNS_H
#define CP_AGENT_CONNS_H

#include <stdbool.h>
#include <sys/socket.h>
#include "agent_peer.h"

/*
 * What no client can exceed (docs/fleet.md#who-may-read-it). A client is an address, and over
 * loopback an address and the user owning the connecting socket (agent_peer.h).
 */
#define AGENT_CONN_MAX 64	    /* connections at once, all clients */
#define AGENT_CONN_PER_CLIENT 8	    /* ... of one client */
#define AGENT_CONN_REQUEST_S 5.0    /* accepted (TLS handshake included) to a whole request */
#define AGENT_CONN_IDLE_S 30.0	    /* keep-alive: a response sent to the next whole request */
#define AGENT_CONN_SEND_S 30.0	    /* a response queued to its last byte taken by the client */
#define AGENT_CONN_MAX_REQUESTS 100 /* on one connection; the last says Connection: close */
#define AGENT_CONN_RATE 20.0	    /* new connections per second a client may open ... */
#define AGENT_CONN_BURST 40.0	    /* ... after a burst of this many */
#define AGENT_AUTH_FAIL_BURST 5.0   /* wrong passwords a client may try at once ... */
#define AGENT_AUTH_FAIL_RATE 0.5    /* ... then this many per second */

struct agent_conns;
struct agent_conn;

struct agent_conn_stats {
	unsigned long long accepted;	 /* handed to the HTTP server */
	unsigned long long refused_rate; /* closed at once: the client opened too many too fast */
	unsigned long long refused_full; /* closed at once: no slot, none could give way */
	unsigned long long evicted;	 /* an idle or unfinished one closed for a newer one */
	unsigned long long timed_out;	 /* past a deadline */
	unsigned long long open;	 /* now, not closing */
};

struct agent_conns *agent_conns_new(void);
void agent_conns_free(struct agent_conns *t);

/*
 * A connection just accepted: admitted (0; MHD may take @fd) or refused (-EAGAIN: too fast,
 * -ENOSPC: no slot; the caller closes @fd). To admit it over the limits, the oldest
 * connection of this client that is not being answered gives way, else the oldest such one
 * of the client holding the most.
 */
int agent_conns_admit(struct agent_conns *t, int fd, const struct sockaddr *peer, socklen_t len);
/* MHD could not take an admitted @fd (it closed it). */
void agent_conns_abandon(struct agent_conns *t, int fd);
/* MHD started serving @fd: the connection admitted for it, or NULL. */
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
void agent_conns_closed(struct agent_conns *t, struct agent_conn *c);
/* Ends every connection past its deadline; says what was refused now and then. */
void agent_conns_expire(struct agent_conns *t);
void agent_conns_stats(struct agent_conns *t, struct agent_conn_stats *st);
const struct agent_peer *agent_conn_peer(const struct agent_conn *c);

/*
 * A password check by @c's client: false when its wrong passwords used up its share
 * (AGENT_AUTH_FAIL_*): answer 429 without checking. Otherwise one try is taken, and
 * agent_conns_auth_done() gives it back when the password was right.
 */
bool agent_conns_auth_begin(struct agent_conns *t, struct agent_conn *c);
void agent_conns_auth_done(struct agent_conns *t, struct agent_conn *c, bool ok);

#endif
