/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of the inline clear_user under FSRM (6.1+) or FSRS (6.4+): a bare rep stosb. */

#include "clear_original_body.inc"

	.text
	.p2align 5
	.globl	asmref_rep_stosb
	.type	asmref_rep_stosb, @function
asmref_rep_stosb:
	CLEAR_ENTRY
	rep stosb
	movq	%rcx, %rax
	ret
	.size	asmref_rep_stosb, . - asmref_rep_stosb

	.section .note.GNU-stack, "", @progbits
