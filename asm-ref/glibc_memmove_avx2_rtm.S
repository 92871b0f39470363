/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of glibc 2.36's __memmove_avx_unaligned_erms_rtm (memmove/memcpy, AVX2 with RTM, VEC 32). */

#define GLIBC_SYM asmref_glibc_memmove_avx2_rtm
#define GLIBC_RTM
#include "glibc_vec_ymm.inc"
#include "glibc_memmove_body.inc"

	.section .note.GNU-stack, "", @progbits
