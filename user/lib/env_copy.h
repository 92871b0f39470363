/* SPDX-License-Identifier: GPL-2.0 */
/* env_copy.h: this process's environment, copied for a child with entries left out or added */
#ifndef CP_ENV_COPY_H
#define CP_ENV_COPY_H

#include <stddef.h>

/*
 * The environment's entries (its own strings, not copied) without those named @drop (NULL:
 * none), NULL-terminated, with room for @spare more after them; their count in @n, where the
 * caller adds. free() the array only. NULL without memory.
 */
char **env_copy(const char *drop, size_t spare, size_t *n);

#endif
