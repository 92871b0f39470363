/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of glibc 2.36's __memmove_avx_unaligned_erms (memmove/memcpy, AVX2, VEC 32, ymm0-15). */

#define GLIBC_SYM asmref_glibc_memmove_avx2
#include "glibc_vec_ymm.inc"
#include "glibc_memmove_body.inc"

	.section .note.GNU-stack, "", @progbits
