/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of the kernel memset_orig: one unaligned store to align, then 64/8/1-byte loops. */

	.text
	.p2align 5
	.globl	asmref_memset_orig
	.type	asmref_memset_orig, @function
asmref_memset_orig:
	movq	%rdi, %r10		/* return value */
	/* Broadcast the low byte of c into all 8 bytes of %rax. */
	movzbl	%sil, %ecx
	movabsq	$0x0101010101010101, %rax
	imulq	%rcx, %rax

	movl	%edi, %r9d
	andl	$7, %r9d
	jnz	.Lmo_unaligned

.Lmo_aligned:
	movq	%rdx, %rcx
	shrq	$6, %rcx
	jz	.Lmo_qwords
	.p2align 4
.Lmo_64:
	movq	%rax, 0(%rdi)
	movq	%rax, 8(%rdi)
	movq	%rax, 16(%rdi)
	movq	%rax, 24(%rdi)
	movq	%rax, 32(%rdi)
	movq	%rax, 40(%rdi)
	movq	%rax, 48(%rdi)
	movq	%rax, 56(%rdi)
	leaq	64(%rdi), %rdi
	decq	%rcx
	jnz	.Lmo_64

.Lmo_qwords:
	/* (n & 56) / 8 qword stores. */
	movl	%edx, %ecx
	andl	$56, %ecx
	jz	.Lmo_bytes
	shrl	$3, %ecx
.Lmo_8:
	movq	%rax, (%rdi)
	leaq	8(%rdi), %rdi
	decl	%ecx
	jnz	.Lmo_8

.Lmo_bytes:
	andl	$7, %edx
	jz	.Lmo_out
.Lmo_1:
	movb	%al, (%rdi)
	leaq	1(%rdi), %rdi
	decl	%edx
	jnz	.Lmo_1
.Lmo_out:
	movq	%r10, %rax
	ret

	/*
	 * dst not 8-aligned: short fills go straight to the byte loop; longer ones
	 * get one unaligned qword store and skip to the next 8-byte boundary.
	 */
.Lmo_unaligned:
	cmpq	$7, %rdx
	jbe	.Lmo_bytes
	movq	%rax, (%rdi)
	movl	$8, %r8d
	subl	%r9d, %r8d
	addq	%r8, %rdi
	subq	%r8, %rdx
	jmp	.Lmo_aligned
	.size	asmref_memset_orig, . - asmref_memset_orig

	.section .note.GNU-stack, "", @progbits
