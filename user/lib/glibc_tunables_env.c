// SPDX-License-Identifier: GPL-2.0
/* glibc_tunables_env.c: a GLIBC_TUNABLES value with one tunable set, the others kept */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "glibc_tunables_env.h"

/* True if the entry @e (@len bytes, up to a ':' or the end) sets @name. */
static bool entry_is(const char *e, size_t len, const char *name)
{
	size_t n = strlen(name);

	return len > n && !strncmp(e, name, n) && e[n] == '=';
}

char *glibc_tunables_env_set(const char *existing, const char *name, uint64_t value)
{
	const char *p = existing ?: "";
	char set[160], *out;
	size_t room, len = 0;
	bool placed = false;

	snprintf(set, sizeof(set), "%s=%llu", name, (unsigned long long)value);
	room = strlen(p) + strlen(set) + 2;
	out = malloc(room);
	if (!out)
		return NULL;
	out[0] = '\0';
	while (*p) {
		const char *end = strchrnul(p, ':');
		size_t n = (size_t)(end - p);

		if (entry_is(p, n, name)) {
			if (!placed)
				len += (size_t)snprintf(out + len, room - len, "%s%s",
							len ? ":" : "", set);
			placed = true;
		} else if (n) {
			len += (size_t)snprintf(out + len, room - len, "%s%.*s", len ? ":" : "",
						(int)n, p);
		}
		p = *end ? end + 1 : end;
	}
	if (!placed)
		snprintf(out + len, room - len, "%s%s", len ? ":" : "", set);
	return out;
}
