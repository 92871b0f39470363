// SPDX-License-Identifier: GPL-2.0
/* env_copy.c: this process's environment, copied for a child with entries left out or added */
#include <stdlib.h>
#include <string.h>
#include "env_copy.h"

extern char **environ;

char **env_copy(const char *drop, size_t spare, size_t *n)
{
	size_t all = 0, i, len = drop ? strlen(drop) : 0;
	char **env;

	while (environ[all])
		all++;
	env = calloc(all + spare + 1, sizeof(*env));
	if (!env)
		return NULL;
	*n = 0;
	for (i = 0; i < all; i++)
		if (!drop || strncmp(environ[i], drop, len) || environ[i][len] != '=')
			env[(*n)++] = environ[i];
	return env;
}
