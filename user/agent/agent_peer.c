// SPDX-License-Identifier: GPL-2.0
/* agent_peer.c: a client's address, and over loopback the owner of its socket from sock_diag */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include "agent_peer.h"

/* An address and port, IPv4-mapped IPv6 taken as the IPv4 it is. */
struct endpoint {
	uint8_t family;
	uint8_t addr[16];
	uint16_t port; /* network order */
};

static void endpoint_of(const struct sockaddr *sa, struct endpoint *e)
{
	memset(e, 0, sizeof(*e));
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const void *)sa;

		e->family = AF_INET;
		memcpy(e->addr, &in->sin_addr, 4);
		e->port = in->sin_port;
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)sa;

		e->port = in6->sin6_port;
		if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
			e->family = AF_INET;
			memcpy(e->addr, in6->sin6_addr.s6_addr + 12, 4);
		} else {
			e->family = AF_INET6;
			memcpy(e->addr, &in6->sin6_addr, 16);
		}
	}
}

static bool endpoint_is_loopback(uint8_t family, const uint8_t *addr)
{
	static const uint8_t v6_loopback[16] = { [15] = 1 };

	return family == AF_INET ? addr[0] == 127 : !memcmp(addr, v6_loopback, 16);
}

/*
 * The user that owns the TCP socket whose own end is @client and whose other end is @server:
 * one exact lookup (no dump) over NETLINK_SOCK_DIAG, which needs no privilege.
 */
static int64_t socket_owner(const struct endpoint *client, const struct endpoint *server)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 req;
	} q = { 0 };
	union {
		struct nlmsghdr nlh;
		char buf[1024];
	} a;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct timeval tmo = { .tv_sec = 1 };
	struct inet_diag_msg *m;
	int64_t uid = AGENT_PEER_UID_UNKNOWN;
	ssize_t n;
	int fd;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0)
		return uid;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tmo, sizeof(tmo));
	q.nlh.nlmsg_len = sizeof(q);
	q.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	q.nlh.nlmsg_flags = NLM_F_REQUEST;
	q.req.sdiag_family = client->family;
	q.req.sdiag_protocol = IPPROTO_TCP;
	q.req.idiag_states = ~0U;
	q.req.id.idiag_sport = client->port;
	q.req.id.idiag_dport = server->port;
	memcpy(q.req.id.idiag_src, client->addr, client->family == AF_INET ? 4 : 16);
	memcpy(q.req.id.idiag_dst, server->addr, server->family == AF_INET ? 4 : 16);
	q.req.id.idiag_cookie[0] = q.req.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
	if (sendto(fd, &q, sizeof(q), 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		goto out;
	n = recv(fd, &a, sizeof(a), 0);
	if (n < (ssize_t)NLMSG_LENGTH(sizeof(*m)) || !NLMSG_OK(&a.nlh, (size_t)n) ||
	    a.nlh.nlmsg_type != SOCK_DIAG_BY_FAMILY)
		goto out;
	m = NLMSG_DATA(&a.nlh);
	uid = m->idiag_uid;
out:
	close(fd);
	return uid;
}

void agent_peer_of(int fd, const struct sockaddr *peer, socklen_t len, struct agent_peer *p,
		   bool *uid_failed)
{
	struct sockaddr_storage local;
	socklen_t llen = sizeof(local);
	struct endpoint client, server;

	(void)len;
	memset(p, 0, sizeof(*p));
	p->uid = AGENT_PEER_UID_UNKNOWN;
	endpoint_of(peer, &client);
	p->family = client.family;
	memcpy(p->addr, client.addr, sizeof(p->addr));
	if (!endpoint_is_loopback(client.family, client.addr) ||
	    getsockname(fd, (struct sockaddr *)&local, &llen))
		return;
	endpoint_of((struct sockaddr *)&local, &server);
	if (server.family != client.family)
		return;
	p->uid = socket_owner(&client, &server);
	if (p->uid == AGENT_PEER_UID_UNKNOWN && uid_failed)
		*uid_failed = true;
}

bool agent_peer_equal(const struct agent_peer *a, const struct agent_peer *b)
{
	return a->family == b->family && a->uid == b->uid &&
	       !memcmp(a->addr, b->addr, a->family == AF_INET ? 4 : 16);
}

bool agent_peer_is_loopback(const struct agent_peer *p)
{
	return endpoint_is_loopback(p->family, p->addr);
}

void agent_peer_name(const struct agent_peer *p, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN] = "?";

	inet_ntop(p->family == AF_INET ? AF_INET : AF_INET6, p->addr, a, sizeof(a));
	if (p->uid != AGENT_PEER_UID_UNKNOWN)
		snprintf(buf, len, "%s (uid %lld)", a, (long long)p->uid);
	else
		snprintf(buf, len, p->family == AF_INET6 ? "[%s]" : "%s", a);
}
