/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of glibc 2.36's __memset_avx512_unaligned_erms (memset, AVX-512, VEC 64, zmm16-31). */

#define GLIBC_SYM asmref_glibc_memset_avx512
#include "glibc_vec_evex512.inc"
#include "glibc_memset_body.inc"

	.section .note.GNU-stack, "", @progbits
