/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of memset_erms (<6.4 with ERMS) and the 6.4+ FSRS memset: rep stosb. */

	.text
	.p2align 5
	.globl	asmref_stosb
	.type	asmref_stosb, @function
asmref_stosb:
	movq	%rdi, %r9
	movl	%esi, %eax
	movq	%rdx, %rcx
	rep stosb
	movq	%r9, %rax
	ret
	.size	asmref_stosb, . - asmref_stosb

	.section .note.GNU-stack, "", @progbits
