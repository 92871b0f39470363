/* SPDX-License-Identifier: GPL-2.0 */
/* web_config.h: the agent's TLS and basic-auth settings, in exporter-toolkit's web.config.yml shape */
#ifndef CP_WEB_CONFIG_H
#define CP_WEB_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#define WEB_CONFIG_MAX_USERS 64

struct web_user {
	char *name;
	char *hash; /* bcrypt: $2a$, $2b$ or $2y$ */
};

struct web_config {
	char *cert_pem; /* tls_server_config.cert_file, read; NULL: no TLS */
	char *key_pem;	/* tls_server_config.key_file, read */
	struct web_user users[WEB_CONFIG_MAX_USERS];
	size_t nr_users;
};

/*
 * Parses @len bytes of YAML: tls_server_config {cert_file, key_file} and basic_auth_users
 * {name: bcrypt hash}; any other key is refused (a setting copyprof would silently ignore,
 * such as client_ca_file, must not look applied), and so is a second YAML document. Paths are
 * kept as given, in @cert_path and @key_path (malloc()ed). Returns 0, or -EINVAL with why in
 * @err.
 */
int web_config_parse(const char *text, size_t len, struct web_config *c, char **cert_path,
		     char **key_path, char *err, size_t errlen);
/*
 * Reads @path (web_config_parse), then the certificate and key files, relative paths taken
 * from @path's folder as exporter-toolkit does. Prints why and returns -errno/-EINVAL.
 */
int web_config_load(const char *path, struct web_config *c);
/* Whether @user with @password matches a user's bcrypt hash (constant time in the hash). */
bool web_config_check(const struct web_config *c, const char *user, const char *password);
void web_config_free(struct web_config *c);

#endif
