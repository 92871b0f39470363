/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of glibc 2.36's __memset_avx2_unaligned_erms (memset, AVX2, VEC 32, ymm0-15). */

#define GLIBC_SYM asmref_glibc_memset_avx2
#include "glibc_vec_ymm.inc"
#include "glibc_memset_body.inc"

	.section .note.GNU-stack, "", @progbits
