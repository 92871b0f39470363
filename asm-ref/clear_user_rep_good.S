/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of clear_user_rep_good (6.1-6.3, REP_GOOD without ERMS): rep stosq + rep stosb. */

#include "clear_original_body.inc"

	.text
	.p2align 5
	.globl	asmref_clear_user_rep_good
	.type	asmref_clear_user_rep_good, @function
asmref_clear_user_rep_good:
	CLEAR_ENTRY
	/* Below a cache line the string start-up cost dominates: use the loop. */
	cmpq	$64, %rcx
	jb	.Lrg_original
	movl	%ecx, %edx
	shrq	$3, %rcx
	rep stosq
	andl	$7, %edx
	jz	.Lrg_out
	movl	%edx, %ecx
	rep stosb
.Lrg_out:
	movq	%rcx, %rax
	ret

	.p2align 4
.Lrg_original:
	CLEAR_ORIGINAL_BODY rgo
	.size	asmref_clear_user_rep_good, . - asmref_clear_user_rep_good

	.section .note.GNU-stack, "", @progbits
