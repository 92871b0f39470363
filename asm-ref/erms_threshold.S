/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of the proposed ERMS entry: rep movsb from T bytes up, memcpy_orig below. */

#include "memcpy_orig_body.inc"

/*
 * Layout follows the patch in seeds/000: the entry alternative is a 5-byte
 * "jmp <dispatch>" (FSRM would patch in "movq %rdi,%rax" + a 2-byte nop there),
 * followed by the FSRM body, then a private memcpy_orig, then the dispatch helper.
 * The ERMS path thus costs one direct jmp plus one compare-and-branch more than
 * memcpy_orig.  The kernel compares with an immediate; here T is loaded from
 * asmref_erms_threshold_T so one binary can sweep thresholds (one extra load, which
 * the branch does not wait on for long: the line is hot).
 */
	.data
	.p2align 3
	.globl	asmref_erms_threshold_T
	.type	asmref_erms_threshold_T, @object
	.size	asmref_erms_threshold_T, 8
asmref_erms_threshold_T:
.Lthreshold:				/* local alias: PC-relative even in a shared object */
	.quad	2048

	.text
	.p2align 5
	.globl	asmref_erms_threshold
	.type	asmref_erms_threshold, @function
asmref_erms_threshold:
	/* Force the rel32 form so the entry is 5 bytes, as in the patched kernel. */
	.byte	0xe9
	.long	.Lerms_dispatch - (. + 4)
	/* FSRM body: unreachable here, kept so the code after the entry is laid out alike. */
	movq	%rdx, %rcx
	rep movsb
	ret

	/* Private memcpy_orig, so "jb" below is a near branch as in the kernel. */
	.p2align 4
.Lerms_orig:
	MEMCPY_ORIG_BODY eorig

	.p2align 4
.Lerms_dispatch:
	cmpq	.Lthreshold(%rip), %rdx
	jb	.Lerms_orig
	movq	%rdi, %rax
	movq	%rdx, %rcx
	rep movsb
	ret
	.size	asmref_erms_threshold, . - asmref_erms_threshold

	.section .note.GNU-stack, "", @progbits
