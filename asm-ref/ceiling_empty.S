/* SPDX-License-Identifier: GPL-2.0 */
/* calibrate's per-call floor: a copy that copies nothing, only returns dst (asmref_ceiling.h). */

	.text
	.p2align 5
	.globl	asmref_ceiling_empty_call
	.type	asmref_ceiling_empty_call, @function
asmref_ceiling_empty_call:
	movq	%rdi, %rax
	ret
	.size	asmref_ceiling_empty_call, . - asmref_ceiling_empty_call

	.section .note.GNU-stack, "", @progbits
