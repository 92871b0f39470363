/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of the kernel's memcpy_orig: 32-byte qword loop, direction by low address byte. */

#include "memcpy_orig_body.inc"

	.text
	.p2align 5
	.globl	asmref_memcpy_orig
	.type	asmref_memcpy_orig, @function
asmref_memcpy_orig:
	MEMCPY_ORIG_BODY orig
	.size	asmref_memcpy_orig, . - asmref_memcpy_orig

	.section .note.GNU-stack, "", @progbits
