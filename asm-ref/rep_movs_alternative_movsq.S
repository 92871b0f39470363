/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of rep_movs_alternative without ERMS, 6.15+ (and 6.12.23+): dst aligned, rep movsq. */

/*
 * Below 64 bytes the same as the ERMS form (asm-ref/rep_movs_alternative.S): bytes below 8,
 * then an 8-byte loop. From 64 bytes, a CPU without ERMS copies qwords with rep movsq
 * (ca96b162bfd2, 6.6); from 6.15 (b5322b6ec06a, backported to 6.12.23) the destination is
 * aligned to 8 first: one unaligned qword is stored at the start, both pointers advance to the
 * destination's next 8-byte boundary (0 to 7 bytes, already copied by that store), then rep
 * movsq moves the aligned qwords and the byte loop the rest. n in %rdx (SysV), bytes not
 * copied in %rax: always 0, nothing faults here.
 */
	.text
	.p2align 5
	.globl	asmref_rep_movs_alternative_movsq
	.type	asmref_rep_movs_alternative_movsq, @function
asmref_rep_movs_alternative_movsq:
	movq	%rdx, %rcx
	cmpq	$64, %rcx
	jae	.Lrmq_large
	cmpl	$8, %ecx
	jae	.Lrmq_8
.Lrmq_bytes:
	testl	%ecx, %ecx
	jz	.Lrmq_out
.Lrmq_1:
	movb	(%rsi), %al
	movb	%al, (%rdi)
	incq	%rsi
	incq	%rdi
	decl	%ecx
	jnz	.Lrmq_1
.Lrmq_out:
	movq	%rcx, %rax
	ret

	.p2align 4
.Lrmq_8:
	movq	(%rsi), %rax
	movq	%rax, (%rdi)
	addq	$8, %rsi
	addq	$8, %rdi
	subl	$8, %ecx
	cmpl	$8, %ecx
	jae	.Lrmq_8
	jmp	.Lrmq_bytes

	/* 64 bytes and more: align the destination with one unaligned qword, then rep movsq. */
	.p2align 4
.Lrmq_large:
	movq	(%rsi), %rax
	movq	%rax, (%rdi)
	movl	%edi, %eax
	negl	%eax
	andl	$7, %eax		/* bytes to the next 8-byte boundary, 0..7 */
	addq	%rax, %rsi
	addq	%rax, %rdi
	subq	%rax, %rcx
	movq	%rcx, %rax
	shrq	$3, %rcx
	rep movsq
	movl	%eax, %ecx
	andl	$7, %ecx
	jmp	.Lrmq_bytes
	.size	asmref_rep_movs_alternative_movsq, . - asmref_rep_movs_alternative_movsq

	.section .note.GNU-stack, "", @progbits
