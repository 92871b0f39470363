// SPDX-License-Identifier: GPL-2.0
/* cmocka tests: the agent's admission: shares, connections held until MHD lets go, the pool */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "agent/agent_conns.h"
#include "lib/monotime.h"

/*
 * Each connection is one end of a socketpair, "accepted" from 10.0.0.@host: off loopback a
 * client and its user are its address. The other end is kept to close it at will.
 */
struct fake {
	int ours, theirs;
	struct agent_conn *c;
};

static int admit(struct agent_conns *t, struct fake *f, uint8_t host)
{
	struct sockaddr_in peer = { .sin_family = AF_INET, .sin_port = htons(40000) };
	int sv[2], err;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	peer.sin_addr.s_addr = htonl(0x0a000000u | host);
	err = agent_conns_admit(t, sv[0], (struct sockaddr *)&peer, sizeof(peer));
	f->ours = sv[0];
	f->theirs = sv[1];
	f->c = NULL;
	if (err) {
		close(sv[0]);
		close(sv[1]);
		f->ours = f->theirs = -1;
	}
	return err;
}

static void release(struct agent_conns *t, struct fake *f)
{
	agent_conns_closed(t, f->c);
	close(f->ours);
	close(f->theirs);
}

static struct agent_conn_stats stats(struct agent_conns *t)
{
	struct agent_conn_stats st;

	agent_conns_stats(t, &st);
	return st;
}

/* A client past its share evicts its own oldest; the evicted stay held until MHD lets go. */
static void test_held_until_closed(void **state)
{
	struct agent_conns *t = agent_conns_new();
	struct fake f[AGENT_CONN_HELD_PER_USER + 1];
	int i;

	(void)state;
	for (i = 0; i < AGENT_CONN_HELD_PER_USER; i++) {
		assert_int_equal(admit(t, &f[i], 1), 0);
		f[i].c = agent_conns_started(t, f[i].ours);
		assert_non_null(f[i].c);
	}
	assert_int_equal(stats(t).open, AGENT_CONN_PER_CLIENT);
	assert_int_equal(stats(t).held, AGENT_CONN_HELD_PER_USER);
	assert_int_equal(stats(t).evicted, AGENT_CONN_HELD_PER_USER - AGENT_CONN_PER_CLIENT);
	/* Nothing more for this user until MHD releases one; another user is let in. */
	assert_int_equal(admit(t, &f[i], 1), -ENOSPC);
	assert_int_equal(admit(t, &f[i], 2), 0);
	f[i].c = agent_conns_started(t, f[i].ours);
	release(t, &f[0]); /* evicted first */
	assert_int_equal(admit(t, &f[0], 1), 0);
	f[0].c = agent_conns_started(t, f[0].ours);
	assert_int_equal(stats(t).held, AGENT_CONN_HELD_PER_USER + 1);
	for (i = 0; i <= AGENT_CONN_HELD_PER_USER; i++)
		release(t, &f[i]);
	assert_int_equal(stats(t).held, 0);
	agent_conns_free(t);
}

/* Never more held than AGENT_CONN_HELD_MAX, whoever asks. */
static void test_held_max(void **state)
{
	struct agent_conns *t = agent_conns_new();
	struct fake f[AGENT_CONN_HELD_MAX + 1];
	int i, n = 0;

	(void)state;
	for (i = 0; i < AGENT_CONN_HELD_MAX + 1; i++)
		if (!admit(t, &f[n], (uint8_t)(1 + i / AGENT_CONN_PER_CLIENT))) {
			f[n].c = agent_conns_started(t, f[n].ours);
			n++;
		}
	assert_int_equal(n, AGENT_CONN_HELD_MAX);
	assert_int_equal(stats(t).open, AGENT_CONN_MAX);
	assert_int_equal(stats(t).refused_full, 1);
	for (i = 0; i < n; i++)
		release(t, &f[i]);
	agent_conns_free(t);
}

/* MHD starts connections in the order they were added: one skipped was dropped by MHD. */
static void test_dropped_by_mhd(void **state)
{
	struct agent_conns *t = agent_conns_new();
	struct fake f[3];
	int i;

	(void)state;
	for (i = 0; i < 3; i++)
		assert_int_equal(admit(t, &f[i], 1), 0);
	f[1].c = agent_conns_started(t, f[1].ours);
	assert_non_null(f[1].c);
	assert_int_equal(stats(t).held, 2); /* f[0] forgotten, f[2] still to start */
	assert_null(agent_conns_started(t, f[0].ours));
	f[2].c = agent_conns_started(t, f[2].ours);
	assert_non_null(f[2].c);
	release(t, &f[1]);
	release(t, &f[2]);
	close(f[0].ours);
	close(f[0].theirs);
	assert_int_equal(stats(t).held, 0);
	agent_conns_free(t);
}

/* The pool: two a user, four in all; a full pool ends the oldest of a user holding 2 more. */
static void test_delta_pool(void **state)
{
	struct agent_conns *t = agent_conns_new();
	struct fake f[7];
	const uint8_t host[] = { 1, 1, 1, 2, 2, 3, 1 };
	int i;

	(void)state;
	for (i = 0; i < 7; i++) {
		assert_int_equal(admit(t, &f[i], host[i]), 0);
		f[i].c = agent_conns_started(t, f[i].ours);
		agent_conns_request(t, f[i].c);
	}
	assert_int_equal(agent_conns_delta_begin(t, f[0].c), 0);
	assert_int_equal(agent_conns_delta_begin(t, f[1].c), 0);
	assert_int_equal(agent_conns_delta_begin(t, f[2].c), -EBUSY); /* host 1's two */
	assert_int_equal(agent_conns_delta_begin(t, f[3].c), 0);
	assert_int_equal(agent_conns_delta_begin(t, f[4].c), 0);
	assert_int_equal(stats(t).deltas, 4);
	/* Host 3 holds none, host 1 two: host 1's oldest gives way. */
	assert_int_equal(agent_conns_delta_begin(t, f[5].c), 0);
	assert_int_equal(agent_conns_delta_wait(t, f[0].c, 5), -ECANCELED);
	agent_conns_delta_end(t, f[0].c);
	assert_int_equal(stats(t).delta_cancelled, 1);
	/* Host 1 holds one, none holds three: full. */
	assert_int_equal(agent_conns_delta_begin(t, f[6].c), -EBUSY);
	assert_int_equal(stats(t).delta_refused, 2);
	/* A wait ends when its client goes, long before its end. */
	close(f[1].theirs);
	f[1].theirs = -1;
	assert_int_equal(agent_conns_delta_wait(t, f[1].c, 600), -ECONNRESET);
	assert_int_equal(agent_conns_delta_wait(t, f[3].c, 0.05), 0);
	agent_conns_shutdown(t);
	assert_int_equal(agent_conns_delta_wait(t, f[3].c, 600), -ESHUTDOWN);
	for (i = 0; i < 7; i++)
		release(t, &f[i]);
	agent_conns_free(t);
}

/* Wrong passwords from ever new addresses: everyone's share holds (20, then 2 a second). */
static void test_auth_everyone(void **state)
{
	struct agent_conns *t = agent_conns_new();
	struct fake f[12];
	double t0;
	int i, k, ok = 0;

	(void)state;
	for (i = 0; i < 12; i++) {
		assert_int_equal(admit(t, &f[i], (uint8_t)(10 + i)), 0);
		f[i].c = agent_conns_started(t, f[i].ours);
	}
	t0 = monotime_s();
	for (k = 0; k < AGENT_AUTH_FAIL_BURST; k++)
		for (i = 0; i < 12; i++)
			if (agent_conns_auth_begin(t, f[i].c)) {
				agent_conns_auth_done(t, f[i].c, false);
				ok++;
			}
	assert_true(ok >= AGENT_AUTH_ALL_FAIL_BURST);
	assert_true(ok <=
		    AGENT_AUTH_ALL_FAIL_BURST + 1 + AGENT_AUTH_ALL_FAIL_RATE * (monotime_s() - t0));
	for (i = 0; i < 12; i++)
		release(t, &f[i]);
	agent_conns_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_held_until_closed), cmocka_unit_test(test_held_max),
		cmocka_unit_test(test_dropped_by_mhd),	  cmocka_unit_test(test_delta_pool),
		cmocka_unit_test(test_auth_everyone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
