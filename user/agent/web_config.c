// SPDX-License-Identifier: GPL-2.0
/* web_config.c: web.config.yml (exporter-toolkit's shape) read with libyaml; bcrypt with crypt_r */
#include <crypt.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "lib/log.h"
#include "web_config.h"

#define WEB_CONFIG_MAX_BYTES (1 << 20)

static const char *scalar(yaml_document_t *d, yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int fail(char *err, size_t errlen, const char *why, const char *what)
{
	snprintf(err, errlen, "%s%s%s", why, what ? ": " : "", what ?: "");
	return -EINVAL;
}

static int parse_tls(yaml_document_t *d, yaml_node_t *m, char **cert, char **key, char *err,
		     size_t errlen)
{
	yaml_node_pair_t *p;

	if (m->type != YAML_MAPPING_NODE)
		return fail(err, errlen, "tls_server_config is not a mapping", NULL);
	for (p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
		const char *k = scalar(d, yaml_document_get_node(d, p->key));
		const char *v = scalar(d, yaml_document_get_node(d, p->value));
		char **slot = k && !strcmp(k, "cert_file")  ? cert
			      : k && !strcmp(k, "key_file") ? key
							    : NULL;

		if (!slot)
			return fail(err, errlen,
				    "tls_server_config: copyprof knows cert_file and key_file only",
				    k ?: "(not a string)");
		if (!v || !*v)
			return fail(err, errlen, "tls_server_config: give a file name", k);
		if (*slot)
			return fail(err, errlen, "tls_server_config: a key is given twice", k);
		if (!(*slot = strdup(v)))
			return -ENOMEM;
	}
	if (!*cert || !*key)
		return fail(err, errlen, "tls_server_config needs both cert_file and key_file",
			    NULL);
	return 0;
}

static int parse_users(yaml_document_t *d, yaml_node_t *m, struct web_config *c, char *err,
		       size_t errlen)
{
	yaml_node_pair_t *p;
	size_t i;

	if (m->type != YAML_MAPPING_NODE)
		return fail(err, errlen, "basic_auth_users is not a mapping of name: bcrypt hash",
			    NULL);
	if (m->data.mapping.pairs.start == m->data.mapping.pairs.top)
		return fail(err, errlen,
			    "basic_auth_users has no user: it would let everyone in; add one "
			    "(htpasswd -nbBC 10 USER PASSWORD) or remove the key",
			    NULL);
	for (p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
		const char *k = scalar(d, yaml_document_get_node(d, p->key));
		const char *v = scalar(d, yaml_document_get_node(d, p->value));
		struct web_user *u;

		if (!k || !*k || strchr(k, ':'))
			return fail(err, errlen,
				    "basic_auth_users: a user name is empty or has ':'", k);
		if (!v || strncmp(v, "$2", 2) || strlen(v) != 60)
			return fail(err, errlen,
				    "basic_auth_users: not a bcrypt hash (htpasswd -nbBC 10 USER "
				    "PASSWORD makes one)",
				    k);
		if (c->nr_users == WEB_CONFIG_MAX_USERS)
			return fail(err, errlen, "basic_auth_users: too many users", NULL);
		for (i = 0; i < c->nr_users; i++)
			if (!strcmp(c->users[i].name, k))
				return fail(err, errlen,
					    "basic_auth_users: a user is given twice (which hash "
					    "would count?)",
					    k);
		u = &c->users[c->nr_users++];
		u->name = strdup(k);
		u->hash = strdup(v);
		if (!u->name || !u->hash)
			return -ENOMEM;
	}
	return 0;
}

/*
 * Only the first document is read: a second one ("---" and settings after it) would be ignored,
 * so it is refused, as any other setting copyprof would not apply.
 */
static int one_document(yaml_parser_t *parser, char *err, size_t errlen)
{
	yaml_document_t next;
	yaml_node_t *root;
	bool more;

	if (!yaml_parser_load(parser, &next))
		return fail(err, errlen, "not YAML after the first document",
			    parser->problem ?: "parse error");
	root = yaml_document_get_root_node(&next);
	/* A bare "---" at the end (an empty document) sets nothing. */
	more = root && !(root->type == YAML_SCALAR_NODE && !root->data.scalar.length);
	yaml_document_delete(&next);
	return more ? fail(err, errlen,
			   "more than one YAML document (---); copyprof reads the first only, "
			   "put every setting in it",
			   NULL)
		    : 0;
}

int web_config_parse(const char *text, size_t len, struct web_config *c, char **cert_path,
		     char **key_path, char *err, size_t errlen)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	yaml_node_pair_t *p;
	int ret = 0, seen_tls = 0, seen_users = 0;

	memset(c, 0, sizeof(*c));
	*cert_path = *key_path = NULL;
	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		snprintf(err, errlen, "not YAML: %s at line %zu", parser.problem ?: "parse error",
			 parser.problem_mark.line + 1);
		yaml_parser_delete(&parser);
		return -EINVAL;
	}
	root = yaml_document_get_root_node(&doc);
	if (root && root->type != YAML_MAPPING_NODE)
		ret = fail(err, errlen, "the top level is not a mapping", NULL);
	if (!ret && root)
		ret = one_document(&parser, err, errlen);
	for (p = root && !ret ? root->data.mapping.pairs.start : NULL;
	     p && !ret && p < root->data.mapping.pairs.top; p++) {
		const char *k = scalar(&doc, yaml_document_get_node(&doc, p->key));
		yaml_node_t *v = yaml_document_get_node(&doc, p->value);

		if (!v)
			ret = fail(err, errlen, "a key without a value", k);
		else if (k && !strcmp(k, "tls_server_config"))
			ret = seen_tls++ ? fail(err, errlen, "a key is given twice", k)
					 : parse_tls(&doc, v, cert_path, key_path, err, errlen);
		else if (k && !strcmp(k, "basic_auth_users"))
			ret = seen_users++ ? fail(err, errlen, "a key is given twice", k)
					   : parse_users(&doc, v, c, err, errlen);
		else
			ret = fail(err, errlen,
				   "copyprof knows tls_server_config and basic_auth_users only; "
				   "this key would be ignored",
				   k ?: "(not a string)");
	}
	/*
	 * A file that sets nothing would start the agent as if there were no --web-config, and
	 * look like protection: refused, as exporter-toolkit's users would not expect it.
	 */
	if (!ret && !seen_tls && !seen_users)
		ret = fail(err, errlen,
			   "the file sets neither tls_server_config nor basic_auth_users, so it "
			   "would protect nothing; give one of them, or leave --web-config out",
			   NULL);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	if (ret) {
		free(*cert_path);
		free(*key_path);
		*cert_path = *key_path = NULL;
		web_config_free(c);
	}
	return ret;
}

static char *read_text(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0;

	if (!f)
		return NULL;
	buf = malloc(WEB_CONFIG_MAX_BYTES + 1);
	if (buf)
		n = fread(buf, 1, WEB_CONFIG_MAX_BYTES + 1, f);
	if (buf && (ferror(f) || n > WEB_CONFIG_MAX_BYTES)) {
		free(buf);
		buf = NULL;
		errno = EFBIG;
	}
	fclose(f);
	if (buf) {
		buf[n] = 0;
		*len = n;
	}
	return buf;
}

/* @name relative to @config's folder, unless absolute. */
static char *relative_to(const char *config, const char *name)
{
	char *copy = strdup(config), *out = NULL;

	if (!copy)
		return NULL;
	if (name[0] == '/')
		out = strdup(name);
	else if (asprintf(&out, "%s/%s", dirname(copy), name) < 0)
		out = NULL;
	free(copy);
	return out;
}

static int read_pem(const char *config, const char *name, const char *what, char **out)
{
	char *path = relative_to(config, name);
	size_t len;

	if (!path)
		return -ENOMEM;
	*out = read_text(path, &len);
	if (!*out) {
		p_err("%s: cannot read the TLS %s %s: %s", config, what, path, strerror(errno));
		free(path);
		return -errno;
	}
	free(path);
	return 0;
}

int web_config_load(const char *path, struct web_config *c)
{
	char *text, *cert = NULL, *key = NULL, err[256];
	size_t len;
	int ret;

	memset(c, 0, sizeof(*c));
	text = read_text(path, &len);
	if (!text) {
		p_err("--web-config %s: %s", path, strerror(errno));
		return -errno;
	}
	ret = web_config_parse(text, len, c, &cert, &key, err, sizeof(err));
	free(text);
	if (ret) {
		p_err("--web-config %s: %s", path, err);
		return ret;
	}
	if (cert)
		ret = read_pem(path, cert, "certificate", &c->cert_pem);
	if (!ret && key)
		ret = read_pem(path, key, "key", &c->key_pem);
	free(cert);
	free(key);
	if (ret)
		web_config_free(c);
	return ret;
}

bool web_config_check(const struct web_config *c, const char *user, const char *password)
{
	struct crypt_data *cd;
	bool ok = false;
	size_t i;

	if (!user || !password)
		return false;
	cd = calloc(1, sizeof(*cd));
	for (i = 0; cd && i < c->nr_users; i++) {
		const char *h = c->users[i].hash, *r;
		unsigned char diff = 0;
		size_t k, n = strlen(h);

		if (strcmp(c->users[i].name, user))
			continue;
		r = crypt_r(password, h, cd);
		if (!r || strlen(r) != n)
			break;
		for (k = 0; k < n; k++)
			diff |= (unsigned char)(r[k] ^ h[k]);
		ok = !diff;
		break;
	}
	free(cd);
	return ok;
}

void web_config_free(struct web_config *c)
{
	size_t i;

	free(c->cert_pem);
	if (c->key_pem)
		explicit_bzero(c->key_pem, strlen(c->key_pem));
	free(c->key_pem);
	for (i = 0; i < c->nr_users; i++) {
		free(c->users[i].name);
		free(c->users[i].hash);
	}
	memset(c, 0, sizeof(*c));
}
