/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of __memcpy's FSRM path (6.4+ with FSRM): rep movsb for every length. */

	.text
	.p2align 5
	.globl	asmref_movsb
	.type	asmref_movsb, @function
asmref_movsb:
	movq	%rdi, %rax
	movq	%rdx, %rcx
	rep movsb
	ret
	.size	asmref_movsb, . - asmref_movsb

	.section .note.GNU-stack, "", @progbits
