/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of the kernel's memmove without ERMS: 32-byte loops, rep movsq rule from 680 bytes. */

#include "memmove_body.inc"

	.text
	.p2align 5
	.globl	asmref_memmove_orig
	.type	asmref_memmove_orig, @function
asmref_memmove_orig:
	MEMMOVE_BODY 0
	.size	asmref_memmove_orig, . - asmref_memmove_orig

	.section .note.GNU-stack, "", @progbits
