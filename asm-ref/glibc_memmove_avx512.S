/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of glibc 2.36's __memmove_avx512_unaligned_erms (memmove/memcpy, AVX-512, VEC 64, zmm16-31). */

#define GLIBC_SYM asmref_glibc_memmove_avx512
#include "glibc_vec_evex512.inc"
#include "glibc_memmove_body.inc"

	.section .note.GNU-stack, "", @progbits
