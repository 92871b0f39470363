/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of glibc 2.36's __memmove_evex_unaligned_erms (memmove/memcpy, EVEX (AVX-512VL), VEC 32, ymm16-31). */

#define GLIBC_SYM asmref_glibc_memmove_evex
#include "glibc_vec_evex256.inc"
#include "glibc_memmove_body.inc"

	.section .note.GNU-stack, "", @progbits
