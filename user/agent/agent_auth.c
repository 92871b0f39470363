// SPDX-License-Identifier: GPL-2.0
/* agent_auth.c: basic-auth checks: a keyed digest of each verified credential, tries per client */
#include <gnutls/crypto.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include "agent_auth.h"
#include "lib/log.h"

#define DIGEST_LEN 32 /* SHA-256 */
#define KEY_LEN 32

struct agent_auth {
	const struct web_config *web;
	pthread_mutex_t lock;
	uint8_t key[KEY_LEN]; /* random per run: a digest says nothing outside this process */
	uint8_t verified[WEB_CONFIG_MAX_USERS][DIGEST_LEN];
	bool has_verified[WEB_CONFIG_MAX_USERS];
	struct agent_auth_stats st;
};

struct agent_auth *agent_auth_new(const struct web_config *web, bool *failed)
{
	struct agent_auth *a;

	*failed = false;
	if (!web || !web->nr_users)
		return NULL;
	a = calloc(1, sizeof(*a));
	if (!a || getrandom(a->key, sizeof(a->key), 0) != sizeof(a->key)) {
		p_err("cannot set up the password cache: %s", a ? "getrandom failed" : "no memory");
		free(a);
		*failed = true;
		return NULL;
	}
	a->web = web;
	pthread_mutex_init(&a->lock, NULL);
	return a;
}

void agent_auth_free(struct agent_auth *a)
{
	if (!a)
		return;
	explicit_bzero(a, sizeof(*a));
	free(a);
}

/* SHA-256 of key, user, a NUL and the password. */
static int digest_of(const struct agent_auth *a, const char *user, const char *password,
		     uint8_t out[DIGEST_LEN])
{
	size_t ul = strlen(user), pl = strlen(password), n = KEY_LEN + ul + 1 + pl;
	uint8_t *buf = malloc(n);
	int err;

	if (!buf)
		return -1;
	memcpy(buf, a->key, KEY_LEN);
	memcpy(buf + KEY_LEN, user, ul + 1);
	memcpy(buf + KEY_LEN + ul + 1, password, pl);
	err = gnutls_hash_fast(GNUTLS_DIG_SHA256, buf, n, out);
	explicit_bzero(buf, n);
	free(buf);
	return err ? -1 : 0;
}

static int user_index(const struct web_config *w, const char *user)
{
	size_t i;

	for (i = 0; i < w->nr_users; i++)
		if (!strcmp(w->users[i].name, user))
			return (int)i;
	return -1;
}

static bool same(const uint8_t *x, const uint8_t *y)
{
	uint8_t diff = 0;
	int i;

	for (i = 0; i < DIGEST_LEN; i++)
		diff |= x[i] ^ y[i];
	return !diff;
}

enum agent_auth_result agent_auth_check(struct agent_auth *a, struct agent_conns *t,
					struct agent_conn *c, const char *user,
					const char *password)
{
	uint8_t d[DIGEST_LEN];
	bool have = false, ok;
	int u;

	if (!a)
		return AGENT_AUTH_OK;
	if (!user || !password || (u = user_index(a->web, user)) < 0)
		return AGENT_AUTH_DENIED;
	have = !digest_of(a, user, password, d);
	pthread_mutex_lock(&a->lock);
	ok = have && a->has_verified[u] && same(a->verified[u], d);
	if (ok)
		a->st.cached++;
	pthread_mutex_unlock(&a->lock);
	if (ok)
		return AGENT_AUTH_OK;
	if (c && !agent_conns_auth_begin(t, c)) {
		pthread_mutex_lock(&a->lock);
		a->st.throttled++;
		pthread_mutex_unlock(&a->lock);
		return AGENT_AUTH_THROTTLED;
	}
	ok = web_config_check(a->web, user, password);
	if (c)
		agent_conns_auth_done(t, c, ok);
	pthread_mutex_lock(&a->lock);
	a->st.checks++;
	if (ok && have) {
		memcpy(a->verified[u], d, DIGEST_LEN);
		a->has_verified[u] = true;
	}
	pthread_mutex_unlock(&a->lock);
	explicit_bzero(d, sizeof(d));
	return ok ? AGENT_AUTH_OK : AGENT_AUTH_DENIED;
}

void agent_auth_stats(struct agent_auth *a, struct agent_auth_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	*st = a->st;
	pthread_mutex_unlock(&a->lock);
}
