/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of the kernel's memmove on ERMS without FSRM: forward rep movsb from 32 bytes. */

#include "memmove_body.inc"

	.text
	.p2align 5
	.globl	asmref_memmove_erms
	.type	asmref_memmove_erms, @function
asmref_memmove_erms:
	MEMMOVE_BODY 1
	.size	asmref_memmove_erms, . - asmref_memmove_erms

	.section .note.GNU-stack, "", @progbits
