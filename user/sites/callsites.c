// SPDX-License-Identifier: GPL-2.0
/* callsites.c: decode a kernel function with Capstone and list its calls into the copy family */
#include <capstone/capstone.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "callsites.h"
#include "kernel/kprobe_rules.h"
#include "lib/log.h"
#include "lib/reason.h"

#define MAX_FUNC_SIZE (1u << 20)

/* The preferred copy-target name among the aliases of @sym, or NULL if none is one. */
static const struct copy_target *target_of(const struct ksyms *ks, const struct ksym *sym)
{
	const struct ksym *al[16];
	const struct copy_target *t, *best = NULL;
	size_t n = ksyms_aliases(ks, sym, al, 16), i;

	for (i = 0; i < n; i++) {
		t = copy_target_lookup(al[i]->name);
		if (t && (!best || t < best))
			best = t;
	}
	return best;
}

/* The copy target that starts at @addr (or whose __pfx_ padding contains it), or NULL. */
static const struct copy_target *target_at(const struct ksyms *ks, uint64_t addr)
{
	uint64_t off, size;
	const struct ksym *s = ksyms_at(ks, addr, &off, &size);

	if (!s)
		return NULL;
	/* Call-depth tracking turns a function's padding into a thunk that calls go to. */
	if (!strncmp(s->name, "__pfx_", 6) && size) {
		s = ksyms_at(ks, s->addr + size, &off, NULL);
		return s && !off ? target_of(ks, s) : NULL;
	}
	return off ? NULL : target_of(ks, s);
}

/* The copy target named by a .ko relocation at @field (offset from the blob's start). */
static const struct copy_target *target_by_reloc(const struct ksyms *ks, const struct code_blob *b,
						 uint64_t field)
{
	const struct kmod_reloc *r;
	const struct copy_target *t;
	const struct ksym *s;
	size_t lo = 0, hi = b->nr_relocs, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (b->relocs[mid].offset < field)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == b->nr_relocs || b->relocs[lo].offset != field)
		return NULL;
	r = &b->relocs[lo];
	if (r->type != R_X86_64_PLT32 && r->type != R_X86_64_PC32)
		return NULL;
	t = copy_target_lookup(r->symbol);
	if (!t || !ks || ks->restricted)
		return t;
	/* The module links against the core kernel's memcpy: name it as kallsyms does. */
	s = ksyms_find(ks, r->symbol, NULL);
	return s ? target_of(ks, s) ?: t : t;
}

uint64_t callsites_padding_start(const struct ksyms *ks, uint64_t entry)
{
	uint64_t size;
	const struct ksym *s = ksyms_at(ks, entry - 1, NULL, &size);

	if (s && !strncmp(s->name, "__pfx_", 6) && s->addr + size == entry && entry - s->addr <= 64)
		return s->addr;
	return entry;
}

/* For only_target: how its sites are named, as a copy target if it is one. */
static struct copy_target only_target_of(const struct ksyms *ks, uint64_t entry)
{
	const struct ksym *s = ksyms_at(ks, entry, NULL, NULL);
	const struct copy_target *t = s && s->addr == entry ? target_of(ks, s) : NULL;

	if (t)
		return *t;
	return (struct copy_target){ s && s->addr == entry ? s->name : "?", CF_NONE, NULL };
}

static int add_site(struct callsite_list *out, const struct callsite *s)
{
	struct callsite *v = realloc(out->v, (out->nr + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	out->v = v;
	v[out->nr++] = *s;
	return 0;
}

/* "a; b; c" from the ring of the last three instructions, oldest first. */
static char *join_context(char ring[3][192], unsigned int count)
{
	char buf[600] = "";
	unsigned int i, first = count > 3 ? count - 3 : 0;

	for (i = first; i < count; i++) {
		if (i > first)
			strcat(buf, "; ");
		strcat(buf, ring[i % 3]);
	}
	return strdup(buf);
}

/* For an inline rep movs/stos: the family, and bytes per count unit; 0 if not one. */
static unsigned int string_op(const cs_insn *insn, enum copy_family *family)
{
	if (insn->detail->x86.prefix[0] != X86_PREFIX_REP)
		return 0;
	switch (insn->id) {
	case X86_INS_MOVSB:
		*family = CF_MOVS;
		return 1;
	case X86_INS_MOVSQ:
		*family = CF_MOVS;
		return 8;
	case X86_INS_STOSB:
		*family = CF_STOS;
		return 1;
	case X86_INS_STOSQ:
		*family = CF_STOS;
		return 8;
	default:
		return 0;
	}
}

int callsites_scan(const struct ksyms *ks, const struct code_blob *b, const struct callsite_opts *o,
		   struct callsite_list *out)
{
	const uint8_t *code = b->code;
	size_t left = b->len;
	uint64_t pc = b->addr, at, to, only_lo = 0;
	char ring[3][192];
	unsigned int count = 0, scale;
	const struct copy_target *t;
	struct copy_target only = { 0 };
	struct callsite s;
	const cs_x86 *x;
	enum copy_family family = CF_NONE;
	csh cs;
	cs_insn *insn;
	int err = 0;

	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
		return -ENOMEM;
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	insn = cs_malloc(cs);
	if (!insn) {
		cs_close(&cs);
		return -ENOMEM;
	}
	if (o && o->only_target) {
		only = only_target_of(ks, o->only_target);
		only_lo = callsites_padding_start(ks, o->only_target);
	}
	while (left && !err) {
		at = pc;
		if (!cs_disasm_iter(cs, &code, &left, &pc, insn)) {
			/* Not an instruction (a data byte, a bad alternative pad): step over it. */
			code++;
			left--;
			pc++;
			out->undecodable++;
			continue;
		}
		x = &insn->detail->x86;
		t = NULL;
		scale = 0;
		if ((cs_insn_group(cs, insn, CS_GRP_CALL) ||
		     cs_insn_group(cs, insn, CS_GRP_JUMP)) &&
		    x->op_count == 1 && x->operands[0].type == X86_OP_IMM) {
			to = (uint64_t)x->operands[0].imm;
			if (only.name)
				t = to >= only_lo && to <= o->only_target ? &only : NULL;
			else if (b->from_ko)
				t = insn->size >= 5
					    ? target_by_reloc(ks, b, at - b->addr + insn->size - 4)
					    : NULL;
			else
				t = target_at(ks, to);
		} else if (o && o->include_inline && !only.name) {
			scale = string_op(insn, &family);
		}
		if (t || scale) {
			s = (struct callsite){
				.offset = at - b->addr,
				.addr = b->addr ? at : 0, /* 0: a .ko not loaded */
				.target = t ? strdup(t->name) : NULL,
				.family = t ? t->family : family,
				.len_reg = t ? t->len_reg : "rcx",
				.len_scale = t ? 1 : scale,
				.context = join_context(ring, count),
			};
			snprintf(s.mnemonic, sizeof(s.mnemonic), "%s", insn->mnemonic);
			err = add_site(out, &s);
		}
		snprintf(ring[count % 3], sizeof(ring[0]), "%s%s%s", insn->mnemonic,
			 *insn->op_str ? " " : "", insn->op_str);
		count++;
	}
	cs_free(insn, 1);
	cs_close(&cs);
	return err;
}

/* A loaded module's function from /proc/kcore, else (or when not loaded) from its .ko. */
static int scan_module_func(const struct ksyms *ks, struct kimage *ki,
			    const struct callsite_opts *o, struct callsite_list *l, char **why)
{
	struct code_blob b = { .addr = l->func_addr };
	struct kmod_func kf;
	uint8_t *buf;
	char *path;
	int err;

	if (ki && kimage_live(ki) && l->func_addr && l->func_size &&
	    l->func_size <= MAX_FUNC_SIZE && (buf = malloc(l->func_size))) {
		if (!kimage_read(ki, l->func_addr, buf, l->func_size)) {
			b.code = buf;
			b.len = l->func_size;
			l->text_source = "kcore";
			l->text_path = strdup(kimage_path(ki));
			err = callsites_scan(ks, &b, o, l);
			free(buf);
			return err;
		}
		free(buf);
		p_debug("%s [%s]: not readable in /proc/kcore; using the .ko", l->function,
			l->module);
	}
	path = kmodule_find(o ? o->modules_dir : NULL, l->module, why);
	if (!path)
		return -ENOENT;
	err = kmodule_read_func(path, l->function, &kf, why);
	free(path);
	if (err)
		return err;
	b = (struct code_blob){ kf.bytes, kf.len, l->func_addr, true, kf.relocs, kf.nr_relocs };
	l->func_size = kf.len;
	l->text_source = "ko";
	l->text_path = strdup(kf.ko_path);
	err = callsites_scan(ks, &b, o, l);
	kmod_func_free(&kf);
	return err;
}

static int scan_core_func(const struct ksyms *ks, struct kimage *ki, const struct callsite_opts *o,
			  struct callsite_list *l, char **why)
{
	struct code_blob b = { .addr = l->func_addr, .len = l->func_size };
	uint8_t *buf;
	int err;

	if (!ki)
		return reason_fail(why, -ENOENT,
				   "%s: no kernel text to read it from (give --vmlinux)",
				   l->function);
	if (!l->func_size || l->func_size > MAX_FUNC_SIZE)
		return reason_fail(why, -EINVAL, "%s: cannot tell its size from kallsyms",
				   l->function);
	buf = malloc(l->func_size);
	if (!buf)
		return reason_fail(why, -ENOMEM, "out of memory");
	err = kimage_read(ki, l->func_addr, buf, l->func_size);
	if (err) {
		free(buf);
		return reason_fail(why, err, "%s at 0x%llx: not in %s", l->function,
				   (unsigned long long)l->func_addr, kimage_path(ki));
	}
	b.code = buf;
	l->text_source = kimage_source(ki);
	l->text_path = strdup(kimage_path(ki));
	err = callsites_scan(ks, &b, o, l);
	free(buf);
	return err;
}

int callsites_find(const struct ksyms *ks, struct kimage *ki, const char *func, const char *module,
		   const struct callsite_opts *o, struct callsite_list **out, char **why)
{
	const struct ksym *syms[32];
	struct callsite_list *lists;
	size_t n, i;
	int err = 0;

	*why = NULL;
	*out = NULL;
	if (ks->restricted)
		return reason_fail(why, -EPERM,
				   "%s: kallsyms shows only zero addresses (run as root)",
				   ks->path);
	n = ksyms_find_all(ks, func, module ?: "*", syms, 32);
	if (!n && (!module || !strcmp(module, "vmlinux")))
		return reason_fail(why, -ENOENT, "%s: not in %s%s", func, ks->path,
				   module ? ""
					  : " (a function of a module that is not loaded? "
					    "give MODULE:FUNC to read its .ko)");
	lists = calloc(n ? n : 1, sizeof(*lists));
	if (!lists)
		return reason_fail(why, -ENOMEM, "out of memory");
	if (!n) {
		/* Not loaded: the .ko still gives offsets and call sites, without addresses. */
		lists[0].function = strdup(func);
		lists[0].module = strdup(module);
		err = scan_module_func(ks, NULL, o, &lists[0], why);
		n = 1;
		goto done;
	}
	for (i = 0; i < n && !err; i++) {
		lists[i].function = strdup(func);
		lists[i].module = syms[i]->module ? strdup(syms[i]->module) : NULL;
		lists[i].func_addr = syms[i]->addr;
		lists[i].func_size = ksyms_size(ks, syms[i]);
		if (syms[i]->module)
			err = scan_module_func(ks, ki, o, &lists[i], why);
		else
			err = scan_core_func(ks, ki, o, &lists[i], why);
	}
done:
	if (err) {
		callsite_lists_free(lists, n);
		return err;
	}
	*out = lists;
	return (int)n;
}

void callsite_lists_free(struct callsite_list *l, size_t nr)
{
	size_t i, j;

	for (i = 0; l && i < nr; i++) {
		for (j = 0; j < l[i].nr; j++) {
			free(l[i].v[j].target);
			free(l[i].v[j].context);
		}
		free(l[i].v);
		free(l[i].function);
		free(l[i].module);
		free(l[i].text_path);
	}
	free(l);
}

static void add_reason(char **reason, const char *msg)
{
	char *joined;

	if (!*reason) {
		*reason = strdup(msg);
	} else if (asprintf(&joined, "%s; %s", *reason, msg) >= 0) {
		free(*reason);
		*reason = joined;
	}
}

int callsites_entry_info(const struct ksyms *ks, const char *func, const struct entry_paths *p,
			 struct entry_info *e)
{
	static const struct entry_paths none;
	const struct ksym *s = ksyms_find(ks, func, "*");
	uint64_t lo = ksyms_addr(ks, "__noinstr_text_start");
	uint64_t hi = ksyms_addr(ks, "__noinstr_text_end");
	struct kprobe_rules *rules;

	if (!p)
		p = &none;
	*e = (struct entry_info){ .symbol = strdup(func),
				  .traceable = TS_UNKNOWN,
				  .blacklisted = TS_UNKNOWN,
				  .noinstr = TS_UNKNOWN,
				  .probeable = TS_NO };
	if (!s) {
		add_reason(&e->reason, "not in kallsyms");
		return -ENOENT;
	}
	e->found = true;
	e->addr = s->addr;
	e->module = s->module ? strdup(s->module) : NULL;
	if (s->module)
		e->noinstr = TS_NO; /* a module's noinstr range is on the blacklist instead */
	else if (lo && hi && !ks->restricted)
		e->noinstr = s->addr >= lo && s->addr < hi ? TS_YES : TS_NO;
	rules = kprobe_rules_load(p->filter_functions, p->blacklist);
	if (!rules) {
		add_reason(&e->reason, "out of memory");
		return -ENOMEM;
	}
	e->traceable = kprobe_rules_traceable(rules, func);
	e->blacklisted = kprobe_rules_blacklisted(rules, func, ks->restricted ? 0 : s->addr);
	kprobe_rules_free(rules);
	if (e->noinstr == TS_YES)
		add_reason(&e->reason, "in .noinstr.text, which kprobes refuse");
	if (e->blacklisted == TS_YES)
		add_reason(&e->reason, "on the kprobe blacklist");
	if (e->traceable == TS_NO)
		add_reason(&e->reason, "not in available_filter_functions: notrace, and kprobe "
				       "events refuse functions ftrace cannot trace");
	if (e->reason)
		return 0;
	if (e->traceable == TS_UNKNOWN || e->blacklisted == TS_UNKNOWN) {
		e->probeable = TS_UNKNOWN;
		add_reason(
			&e->reason,
			e->traceable == TS_UNKNOWN
				? "cannot read available_filter_functions (mount tracefs; run as "
				  "root)"
				: "cannot read the kprobe blacklist (mount debugfs; run as root)");
		return 0;
	}
	e->probeable = TS_YES;
	return 0;
}

void entry_info_free(struct entry_info *e)
{
	free(e->symbol);
	free(e->module);
	free(e->reason);
	*e = (struct entry_info){ 0 };
}
