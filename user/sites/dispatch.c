// SPDX-License-Identifier: GPL-2.0
/* dispatch.c: the live copy-routine dispatch, decoded from the patched text in /proc/kcore */
#include <capstone/capstone.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "callsites.h"
#include "dispatch.h"
#include "lib/log.h"

#define MAX_STEPS 48

/* What one instruction on the decoded path means for the dispatch. */
enum step_kind {
	ST_OTHER,
	ST_CMP_LEN_32, /* cmp rdx, 0x20: memmove's short-length check */
	ST_JCC,	       /* a forward conditional branch; the walk falls through */
	ST_LOOP,       /* a backward conditional branch: loop code */
	ST_REP,	       /* an inline rep movs/stos */
	ST_CALL,       /* a call to a named function */
	ST_EXIT_JMP,   /* a jump out of the function: the code that runs is elsewhere */
	ST_RET,
};

struct step {
	enum step_kind kind;
	uint64_t target;
	char name[64]; /* ST_REP: "rep movsb"; ST_CALL/ST_EXIT_JMP: the target symbol */
	char text[200];
};

/* One function's bytes from kcore. */
struct func_text {
	const struct ksym *sym;
	uint64_t addr, size;
	uint8_t *code;
};

static bool read_func(const struct ksyms *ks, struct kimage *ki, const char *name,
		      struct func_text *f)
{
	f->sym = ksyms_find(ks, name, NULL);
	if (!f->sym)
		return false;
	f->addr = f->sym->addr;
	f->size = ksyms_size(ks, f->sym);
	if (!f->size || f->size > 65536 || !(f->code = malloc(f->size)))
		return false;
	if (kimage_read(ki, f->addr, f->code, f->size)) {
		free(f->code);
		f->code = NULL;
		return false;
	}
	return true;
}

static const char *symbol_name(const struct ksyms *ks, uint64_t addr)
{
	uint64_t off;
	const struct ksym *s = ksyms_at(ks, addr, &off, NULL);

	return s && !off ? s->name : "?";
}

/*
 * Decodes the straight-line path from @start: falls through conditional branches, follows
 * jumps inside the function, skips NOPs (alternative padding), and stops at a return, a
 * jump out, a backward branch (a loop) or after MAX_STEPS instructions.
 */
static size_t walk(const struct ksyms *ks, const struct func_text *f, uint64_t start,
		   struct step *out)
{
	size_t n = 0, guard = 0;
	uint64_t pc = start, t;
	const uint8_t *code;
	size_t left;
	csh cs;
	cs_insn *insn;
	const cs_x86 *x;
	struct step *s;

	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
		return 0;
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	insn = cs_malloc(cs);
	while (insn && n < MAX_STEPS && guard++ < 4 * MAX_STEPS && pc >= f->addr &&
	       pc < f->addr + f->size) {
		code = f->code + (pc - f->addr);
		left = f->size - (pc - f->addr);
		if (!cs_disasm_iter(cs, &code, &left, &pc, insn))
			break;
		/* Padding, and the IBT landing pad (or the NOP that sealing leaves). */
		if (insn->id == X86_INS_NOP || insn->id == X86_INS_ENDBR64)
			continue;
		x = &insn->detail->x86;
		s = &out[n++];
		*s = (struct step){ .kind = ST_OTHER };
		snprintf(s->text, sizeof(s->text), "%s%s%s", insn->mnemonic,
			 *insn->op_str ? " " : "", insn->op_str);
		t = x->op_count == 1 && x->operands[0].type == X86_OP_IMM
			    ? (uint64_t)x->operands[0].imm
			    : 0;
		if (insn->id == X86_INS_RET) {
			s->kind = ST_RET;
		} else if (insn->id == X86_INS_CMP && x->op_count == 2 &&
			   x->operands[0].type == X86_OP_REG && x->operands[0].reg == X86_REG_RDX &&
			   x->operands[1].type == X86_OP_IMM && x->operands[1].imm == 0x20) {
			s->kind = ST_CMP_LEN_32;
		} else if (x->prefix[0] == X86_PREFIX_REP &&
			   (insn->id == X86_INS_MOVSB || insn->id == X86_INS_MOVSQ ||
			    insn->id == X86_INS_STOSB || insn->id == X86_INS_STOSQ)) {
			s->kind = ST_REP;
			snprintf(s->name, sizeof(s->name), "rep %s", insn->mnemonic + 4);
		} else if (insn->id == X86_INS_CALL && t) {
			s->kind = ST_CALL;
			s->target = t;
			snprintf(s->name, sizeof(s->name), "%s", symbol_name(ks, t));
			snprintf(s->text, sizeof(s->text), "call %s", s->name);
		} else if (insn->id == X86_INS_JMP && t) {
			if (t >= f->addr && t < f->addr + f->size) {
				n--; /* inside: alternative padding or a shared tail; follow it */
				pc = t;
				continue;
			}
			snprintf(s->name, sizeof(s->name), "%s", symbol_name(ks, t));
			snprintf(s->text, sizeof(s->text), "jmp %s", s->name);
			s->kind = strstr(s->name, "return_thunk") ? ST_RET : ST_EXIT_JMP;
			s->target = t;
		} else if (cs_insn_group(cs, insn, CS_GRP_JUMP) && t) {
			s->kind = t < pc ? ST_LOOP : ST_JCC;
			s->target = t;
		}
		if (s->kind == ST_RET || s->kind == ST_EXIT_JMP || s->kind == ST_LOOP)
			break;
	}
	if (insn)
		cs_free(insn, 1);
	cs_close(&cs);
	return n;
}

static char *join_steps(const struct step *st, size_t n)
{
	char buf[1024] = "";
	size_t i, used = 0;

	for (i = 0; i < n && i < 8 && used < sizeof(buf) - 100; i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s", i ? "; " : "",
					 st[i].text);
	return strdup(buf);
}

/*
 * The first rep string op on the path, with the rep movsb/stosb that follows a rep movsq/stosq
 * (the REP_GOOD body: n/8 quadwords, then n%8 bytes). A static string, or NULL.
 */
static const char *inline_op(const struct step *st, size_t n)
{
	static const char *const ops[] = { "rep movsb", "rep stosb", "rep movsq + rep movsb",
					   "rep stosq + rep stosb" };
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (st[i].kind != ST_REP)
			continue;
		if (strstr(st[i].name, "sq"))
			for (j = i + 1; j < n && j <= i + 3; j++)
				if (st[j].kind == ST_REP)
					return strstr(st[i].name, "movs") ? ops[2] : ops[3];
		for (j = 0; j < 2; j++)
			if (!strcmp(st[i].name, ops[j]))
				return ops[j];
		return NULL;
	}
	return NULL;
}

/* __memcpy / __memset: a jump out to the helper that runs, or the inline string op. */
static bool decode_memcpy_like(const struct ksyms *ks, struct kimage *ki, const char *entry,
			       const char *fallback, const struct dispatch *d, enum copy_family r,
			       struct dispatch_entry *e)
{
	struct func_text f = { 0 };
	struct step st[MAX_STEPS];
	const char *op;
	size_t n, i;

	if (!read_func(ks, ki, entry, &f) && !read_func(ks, ki, fallback, &f))
		return false;
	n = walk(ks, &f, f.addr, st);
	op = inline_op(st, n);
	/* Whichever comes first decides: a jump out to a helper, or a string op inline. */
	for (i = 0; i < n && st[i].kind != ST_EXIT_JMP && st[i].kind != ST_REP; i++)
		;
	if (i < n && st[i].kind == ST_EXIT_JMP)
		dispatch_helper_rows(d->major, d->minor, &d->cpu, r, st[i].name, NULL, e);
	else if (op)
		dispatch_helper_rows(d->major, d->minor, &d->cpu, r, "inline", op, e);
	else
		n = 0;
	if (n) {
		e->read_at = strdup(f.sym->name);
		e->decoded = join_steps(st, n);
	}
	free(f.code);
	return n > 0;
}

/* __memmove: follow the first branch (src >= dst: forward), then look for the length check. */
static bool decode_memmove(const struct ksyms *ks, struct kimage *ki, const struct dispatch *d,
			   struct dispatch_entry *e)
{
	struct func_text f = { 0 };
	struct step st[MAX_STEPS], fw[MAX_STEPS];
	size_t n, m = 0, i;
	bool check = false, movsb = false;

	if (!read_func(ks, ki, "__memmove", &f) && !read_func(ks, ki, "memmove", &f))
		return false;
	n = walk(ks, &f, f.addr, st);
	for (i = 0; i < n && !m; i++)
		if (st[i].kind == ST_JCC)
			m = walk(ks, &f, st[i].target, fw);
	for (i = 0; i < m; i++) {
		if (fw[i].kind == ST_CMP_LEN_32 && i + 1 < m && fw[i + 1].kind == ST_JCC)
			check = true;
		if (fw[i].kind == ST_REP && !strcmp(fw[i].name, "rep movsb"))
			movsb = true;
	}
	if (m) {
		dispatch_helper_rows(d->major, d->minor, &d->cpu, CF_MEMMOVE,
				     movsb ? (check ? "rep movsb>=32" : "rep movsb") : "loop", NULL,
				     e);
		e->read_at = strdup(f.sym->name);
		e->decoded = join_steps(fw, m);
	}
	free(f.code);
	return m > 0;
}

/*
 * clear_user and copy_{to,from}_user are inline alternatives since 6.1 and 6.4: decode a
 * caller and see what it calls, or which string op sits inline.
 */
static bool decode_via_caller(const struct ksyms *ks, struct kimage *ki, const char *const *callers,
			      const char *op, const struct dispatch *d, enum copy_family r,
			      struct dispatch_entry *e)
{
	struct callsite_opts o = { .include_inline = true };
	struct callsite_list *l;
	const struct callsite *s;
	char *why, ctx[256];
	size_t i;
	int n;

	for (; *callers; callers++) {
		n = callsites_find(ks, ki, *callers, "vmlinux", &o, &l, &why);
		free(why);
		if (n <= 0)
			continue;
		for (i = 0; i < l[0].nr; i++) {
			s = &l[0].v[i];
			if (s->target && s->family == r) {
				dispatch_helper_rows(d->major, d->minor, &d->cpu, r, s->target,
						     NULL, e);
			} else if (!s->target && !strcmp(s->mnemonic, op)) {
				dispatch_helper_rows(d->major, d->minor, &d->cpu, r, "inline", op,
						     e);
			} else {
				continue;
			}
			if (asprintf(&e->read_at, "%s+0x%llx", *callers,
				     (unsigned long long)s->offset) < 0)
				e->read_at = NULL;
			snprintf(ctx, sizeof(ctx), "%s%s%s %s", s->context ?: "",
				 s->context && *s->context ? "; " : "", s->mnemonic,
				 s->target ?: "");
			e->decoded = strdup(ctx);
			callsite_lists_free(l, (size_t)n);
			return true;
		}
		callsite_lists_free(l, (size_t)n);
	}
	return false;
}

void dispatch_probe(const struct ksyms *ks, struct kimage *ki, const char *release,
		    const struct host_meta *m, struct dispatch *d)
{
	static const char *const clear_callers[] = { "read_zero", "iov_iter_zero", NULL };
	static const char *const copy_callers[] = { "_copy_to_user", "_copy_from_user", NULL };
	struct dispatch_cpu cpu;
	int major = 0, minor = 0;
	bool ok[CF_NR_ROUTINES] = { 0 };
	int r;

	if (!dispatch_parse_release(release, &major, &minor))
		p_warn("kernel release '%s' not understood; the table assumes 6.4+", release ?: "");
	if (!major)
		major = 6, minor = 4;
	dispatch_cpu_from_meta(m, major, minor, &cpu);
	dispatch_from_table(major, minor, &cpu, d);
	if (!ki || !kimage_live(ki) || ks->restricted)
		return;
	ok[CF_MEMCPY] =
		decode_memcpy_like(ks, ki, "__memcpy", "memcpy", d, CF_MEMCPY, &d->e[CF_MEMCPY]);
	ok[CF_MEMSET] =
		decode_memcpy_like(ks, ki, "__memset", "memset", d, CF_MEMSET, &d->e[CF_MEMSET]);
	ok[CF_MEMMOVE] = decode_memmove(ks, ki, d, &d->e[CF_MEMMOVE]);
	ok[CF_CLEAR_USER] = decode_via_caller(ks, ki, clear_callers, "rep stosb", d, CF_CLEAR_USER,
					      &d->e[CF_CLEAR_USER]);
	ok[CF_COPY_USER] = decode_via_caller(ks, ki, copy_callers, "rep movsb", d, CF_COPY_USER,
					     &d->e[CF_COPY_USER]);
	for (r = 0; r < CF_NR_ROUTINES; r++) {
		if (ok[r])
			d->e[r].source = kimage_source(ki);
		else
			p_debug("dispatch of %s: could not decode it from kcore; using the table",
				d->e[r].routine);
	}
}
