/* SPDX-License-Identifier: GPL-2.0 */
/* agent_auth.h: basic auth for the agent: bcrypt once per credential, wrong passwords throttled */
#ifndef CP_AGENT_AUTH_H
#define CP_AGENT_AUTH_H

#include "agent_conns.h"
#include "web_config.h"

enum agent_auth_result {
	AGENT_AUTH_OK,
	AGENT_AUTH_DENIED,    /* no user, an unknown one or a wrong password: 401 */
	AGENT_AUTH_THROTTLED, /* wrong passwords used up a share (agent_conns.h): 429, no check */
};

struct agent_auth_stats {
	unsigned long long checks;    /* bcrypt runs */
	unsigned long long cached;    /* right passwords known without bcrypt */
	unsigned long long throttled; /* answered 429 */
};

struct agent_auth;

/* NULL when @web has no users (every request is let in); also NULL on no memory (printed). */
struct agent_auth *agent_auth_new(const struct web_config *web, bool *failed);
void agent_auth_free(struct agent_auth *a);
/*
 * Checks @user and @password for a request on @c. A credential that once matched its bcrypt
 * hash is remembered as a keyed SHA-256 (never the password), so bcrypt runs once per
 * credential, not per request. Wrong ones each cost a bcrypt and one try of the client's, its
 * user's and everyone's (agent_conns_auth_begin()).
 */
enum agent_auth_result agent_auth_check(struct agent_auth *a, struct agent_conns *t,
					struct agent_conn *c, const char *user,
					const char *password);
void agent_auth_stats(struct agent_auth *a, struct agent_auth_stats *st);

#endif
