// SPDX-License-Identifier: GPL-2.0
/* glibc rows of the registry, called through volatile pointers so they stay real calls. */
#include <string.h>

#include "asmref.h"

/*
 * A direct memcpy() call with a known size could be expanded inline by the compiler;
 * loading the target from a volatile pointer forces a genuine call into libc.
 */
static void *(*volatile libc_memcpy_ptr)(void *, const void *, size_t) = memcpy;
static void *(*volatile libc_memmove_ptr)(void *, const void *, size_t) = memmove;
static void *(*volatile libc_memset_ptr)(void *, int, size_t) = memset;

__attribute__((noinline)) void *asmref_libc_memcpy(void *dst, const void *src, size_t n)
{
	return libc_memcpy_ptr(dst, src, n);
}

__attribute__((noinline)) void *asmref_libc_memmove(void *dst, const void *src, size_t n)
{
	return libc_memmove_ptr(dst, src, n);
}

__attribute__((noinline)) void *asmref_libc_memset(void *dst, int c, size_t n)
{
	return libc_memset_ptr(dst, c, n);
}

__attribute__((noinline)) size_t asmref_libc_clear(void *dst, size_t n)
{
	libc_memset_ptr(dst, 0, n);
	return 0;
}
