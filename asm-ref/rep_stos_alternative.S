/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of rep_stos_alternative (6.4+ without FSRS): 64-byte, 8-byte and byte loops. */

#include "clear_original_body.inc"

	.text
	.p2align 5
	.globl	asmref_rep_stos_alternative
	.type	asmref_rep_stos_alternative, @function
asmref_rep_stos_alternative:
	CLEAR_ENTRY
	cmpq	$64, %rcx
	jae	.Lrsa_64
.Lrsa_lt64:
	cmpl	$8, %ecx
	jae	.Lrsa_8
	testl	%ecx, %ecx
	jz	.Lrsa_out
.Lrsa_1:
	movb	%al, (%rdi)
	incq	%rdi
	decl	%ecx
	jnz	.Lrsa_1
.Lrsa_out:
	movq	%rcx, %rax
	ret

	/* 8..63 bytes left: qword stores, no attempt to align dst. */
.Lrsa_8:
	movq	%rax, (%rdi)
	addq	$8, %rdi
	subl	$8, %ecx
	cmpl	$8, %ecx
	jae	.Lrsa_8
	testl	%ecx, %ecx
	jnz	.Lrsa_1
	jmp	.Lrsa_out

	.p2align 4
.Lrsa_64:
	movq	%rax, 0(%rdi)
	movq	%rax, 8(%rdi)
	movq	%rax, 16(%rdi)
	movq	%rax, 24(%rdi)
	movq	%rax, 32(%rdi)
	movq	%rax, 40(%rdi)
	movq	%rax, 48(%rdi)
	movq	%rax, 56(%rdi)
	addq	$64, %rdi
	subq	$64, %rcx
	cmpq	$64, %rcx
	jae	.Lrsa_64
	jmp	.Lrsa_lt64
	.size	asmref_rep_stos_alternative, . - asmref_rep_stos_alternative

	.section .note.GNU-stack, "", @progbits
