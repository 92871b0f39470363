/* SPDX-License-Identifier: GPL-2.0 */
/* glibc_tunables_env.h: a GLIBC_TUNABLES value with one tunable set, the others kept */
#ifndef CP_GLIBC_TUNABLES_ENV_H
#define CP_GLIBC_TUNABLES_ENV_H

#include <stdint.h>

/*
 * @existing (a GLIBC_TUNABLES value, "name=value:name=value"; NULL or "" for none) with
 * @name=@value: every entry of @name replaced by one, at the place of the first, the other
 * entries kept as they are and in their order (an entry without '=' too); appended after a ':'
 * when @existing has none. malloc'd; NULL without memory.
 */
char *glibc_tunables_env_set(const char *existing, const char *name, uint64_t value);

#endif
