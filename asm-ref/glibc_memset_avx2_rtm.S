/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of glibc 2.36's __memset_avx2_unaligned_erms_rtm (memset, AVX2 with RTM, VEC 32). */

#define GLIBC_SYM asmref_glibc_memset_avx2_rtm
#define GLIBC_RTM
#include "glibc_vec_ymm.inc"
#include "glibc_memset_body.inc"

	.section .note.GNU-stack, "", @progbits
