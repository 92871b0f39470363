/* SPDX-License-Identifier: GPL-2.0 */
/* agent_peer.h: who is at the other end of a connection: its address, and on loopback its user */
#ifndef CP_AGENT_PEER_H
#define CP_AGENT_PEER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#define AGENT_PEER_UID_UNKNOWN (-1)

/*
 * A client as the agent's limits count it: its address (IPv4-mapped IPv6 read as IPv4), and
 * for a connection over loopback the user that owns the connecting socket, so that one local
 * user cannot take another's share (docs/fleet.md#who-may-read-it).
 */
struct agent_peer {
	uint8_t family;	  /* AF_INET or AF_INET6 */
	uint8_t addr[16]; /* 4 bytes for AF_INET */
	int64_t uid;	  /* the loopback client's user; AGENT_PEER_UID_UNKNOWN elsewhere */
};

/*
 * Fills @p for the connection @fd accepted from @peer. On loopback it asks the kernel
 * (NETLINK_SOCK_DIAG) which user owns the client's socket; when the kernel cannot say
 * (no inet_diag), uid stays unknown and *@uid_failed is set.
 */
void agent_peer_of(int fd, const struct sockaddr *peer, socklen_t len, struct agent_peer *p,
		   bool *uid_failed);
bool agent_peer_equal(const struct agent_peer *a, const struct agent_peer *b);
bool agent_peer_is_loopback(const struct agent_peer *p);
/* "127.0.0.1 (uid 65534)" or "[2001:db8::1]", for the log. */
void agent_peer_name(const struct agent_peer *p, char *buf, size_t len);

#endif
