/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of the seed-004 __clear_user (ERMS case): rep stosb from 256 bytes, loop below. */

#include "clear_original_body.inc"

	.text
	.p2align 5
	.globl	asmref_clear_user_split256
	.type	asmref_clear_user_split256, @function
asmref_clear_user_split256:
	CLEAR_ENTRY
	cmpq	$256, %rcx
	jae	.Ls_string
	CLEAR_ORIGINAL_BODY so
.Ls_string:
	/* With ERMS the patch patches out its rep stosq step and does it all with stosb. */
	rep stosb
	movq	%rcx, %rax
	ret
	.size	asmref_clear_user_split256, . - asmref_clear_user_split256

	.section .note.GNU-stack, "", @progbits
