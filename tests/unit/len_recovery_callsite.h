/* SPDX-License-Identifier: GPL-2.0 */
/* len_recovery_callsite.h: test helper: call sites shaped like the kernel's callers of copy routines */
#ifndef LEN_RECOVERY_CALLSITE_H
#define LEN_RECOVERY_CALLSITE_H

#include <stddef.h>
#include "sites/len_recovery.h"

struct replica {
	const char *name;
	struct len_recovery_conv conv;
	unsigned skip; /* bytes of SysV glue before the kernel's own entry */
};

/* SysV view: the replicas as called (length in rdx, or rsi for clear). */
static const struct replica len_recovery_sysv[] = {
	{ "memcpy_orig", { FLOW_RDX, FLOW_RDI, false }, 0 },
	{ "movsb", { FLOW_RDX, FLOW_RDI, false }, 0 },
	{ "memmove_erms", { FLOW_RDX, FLOW_RDI, false }, 0 },
	{ "memset_orig", { FLOW_RDX, FLOW_RDI, false }, 0 },
	{ "stosb", { FLOW_RDX, FLOW_RDI, false }, 0 },
};

/*
 * Kernel view: rep_stos_alternative and rep_movs_alternative take the length in rcx and
 * count it down; the replicas' first instructions only move SysV registers there.
 */
static const struct replica len_recovery_kview[] = {
	{ "rep_stos_alternative", { FLOW_RCX, FLOW_RDI, true }, 5 }, /* mov %rsi,%rcx; xor */
	{ "rep_movs_alternative", { FLOW_RCX, FLOW_RDI, true }, 3 }, /* mov %rdx,%rcx */
	{ "rep_stosb", { FLOW_RCX, FLOW_RDI, true }, 5 },
};
#define LEN_RECOVERY_NR(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Two call sites in the shapes kernel callers have: the length moved from a callee-saved
 * register just before the call (reg), or loaded from memory (mem). Both put it in rdx (SysV
 * copy/set) and rcx (the kernel's clear_user/copy_user convention).
 * void callsite_X(void *dst, const void *src_or_n, size_t n, void *fn)
 */
__asm__(".text\n"
	".globl callsite_reg\n.type callsite_reg, @function\ncallsite_reg:\n"
	"	push %rbx\n	push %r12\n	sub $8, %rsp\n"
	"	mov %rdx, %rbx\n	mov %rcx, %r12\n"
	"	mov %rbx, %rdx\n	mov %rbx, %rcx\n	call *%r12\n"
	"	add $8, %rsp\n	pop %r12\n	pop %rbx\n	ret\n"
	".size callsite_reg, . - callsite_reg\n"
	".globl callsite_mem\n.type callsite_mem, @function\ncallsite_mem:\n"
	"	push %rbx\n	push %r12\n	sub $8, %rsp\n"
	"	mov %rdx, (%rsp)\n	mov %rcx, %r12\n"
	"	mov (%rsp), %rdx\n	mov (%rsp), %rcx\n	call *%r12\n"
	"	add $8, %rsp\n	pop %r12\n	pop %rbx\n	ret\n"
	".size callsite_mem, . - callsite_mem\n");
void callsite_reg(void *dst, const void *src_or_n, size_t n, void *fn);
void callsite_mem(void *dst, const void *src_or_n, size_t n, void *fn);
typedef void callsite_fn(void *dst, const void *src_or_n, size_t n, void *fn);

#endif
