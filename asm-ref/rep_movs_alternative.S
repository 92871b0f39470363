/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of rep_movs_alternative (copy_user without FSRM, ERMS flavour of 6.4-rc4+). */

/*
 * The kernel takes dst in %rdi, src in %rsi, n in %rcx and returns the bytes
 * NOT copied in %rcx.  This replica takes n in %rdx (SysV third argument)
 * and returns the bytes not copied in %rax: always 0, nothing can fault here.
 */
	.text
	.p2align 5
	.globl	asmref_rep_movs_alternative
	.type	asmref_rep_movs_alternative, @function
asmref_rep_movs_alternative:
	movq	%rdx, %rcx
	cmpq	$64, %rcx
	jae	.Lrma_large
	cmpl	$8, %ecx
	jae	.Lrma_8
	testl	%ecx, %ecx
	jz	.Lrma_out
.Lrma_1:
	movb	(%rsi), %al
	movb	%al, (%rdi)
	incq	%rsi
	incq	%rdi
	decl	%ecx
	jnz	.Lrma_1
.Lrma_out:
	movq	%rcx, %rax
	ret

	/* 8..63 bytes: qword moves while 8 or more remain, then bytes. */
	.p2align 4
.Lrma_8:
	movq	(%rsi), %rax
	movq	%rax, (%rdi)
	addq	$8, %rsi
	addq	$8, %rdi
	subl	$8, %ecx
	cmpl	$8, %ecx
	jae	.Lrma_8
	testl	%ecx, %ecx
	jnz	.Lrma_1
	jmp	.Lrma_out

	/* 64 bytes and more: ERMS rep movsb (47ee3f1dd93b). */
.Lrma_large:
	rep movsb
	movq	%rcx, %rax
	ret
	.size	asmref_rep_movs_alternative, . - asmref_rep_movs_alternative

	.section .note.GNU-stack, "", @progbits
