/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of clear_user_original (6.1-6.3; same loop as the C __clear_user of <=6.0). */

#include "clear_original_body.inc"

	.text
	.p2align 5
	.globl	asmref_clear_user_original
	.type	asmref_clear_user_original, @function
asmref_clear_user_original:
	CLEAR_ENTRY
	CLEAR_ORIGINAL_BODY cuo
	.size	asmref_clear_user_original, . - asmref_clear_user_original

	.section .note.GNU-stack, "", @progbits
