// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the agent's web.config.yml (web_config_parse on a buffer) on any bytes */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "agent/web_config.h"

/*
 * The buffer-taking parser that web_config_load() wraps: web_config_load() goes on to read
 * the certificate and key files the input names (any path, a FIFO included), which is not
 * the parser's business. What is checked besides the sanitizers: a refusal says why, and an
 * accepted config names both TLS files or neither. Users are then looked up by a name no
 * user can have (empty), which walks the table without running bcrypt (whose cost the input
 * chooses).
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct web_config c;
	char *cert, *key, err[256] = "";
	int ret;

	ret = web_config_parse((const char *)data, size, &c, &cert, &key, err, sizeof(err));
	if (ret) {
		if (ret == -EINVAL && !err[0])
			__builtin_trap();
		return 0;
	}
	if (!cert != !key || c.nr_users > WEB_CONFIG_MAX_USERS || web_config_check(&c, "", "x"))
		__builtin_trap();
	free(cert);
	free(key);
	web_config_free(&c);
	return 0;
}
