/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of clear_user_erms (6.1-6.3, ERMS without FSRM): rep stosb from 64 bytes. */

#include "clear_original_body.inc"

	.text
	.p2align 5
	.globl	asmref_clear_user_erms
	.type	asmref_clear_user_erms, @function
asmref_clear_user_erms:
	CLEAR_ENTRY
	cmpq	$64, %rcx
	jb	.Lce_original
	rep stosb
	movq	%rcx, %rax
	ret

	.p2align 4
.Lce_original:
	CLEAR_ORIGINAL_BODY ceo
	.size	asmref_clear_user_erms, . - asmref_clear_user_erms

	.section .note.GNU-stack, "", @progbits
