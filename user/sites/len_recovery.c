// SPDX-License-Identifier: GPL-2.0
/* len_recovery.c: the length-recovery rules of docs/sampling.md, from decoded code and registers */
#include <string.h>
#include <linux/types.h>
#include "cp_shared.h"
#include "len_recovery.h"

/* Lengths at or above 2^40 are taken as garbage: a rule met registers it did not expect. */
#define LEN_SANE_MAX (1ULL << CP_MAX_LOG2)

static const char *const rule_names[LR_NR] = {
	[LR_NONE] = "none",	      [LR_ENTRY_LEN] = "entry-len", [LR_REP_COUNT] = "rep-count",
	[LR_REP_START] = "rep-start", [LR_LOOP] = "loop",	    [LR_CALLER] = "caller",
	[LR_REMAINDER] = "remainder",
};

const char *len_recovery_rule_name(int id)
{
	return id >= 0 && id < LR_NR ? rule_names[id] : "?";
}

const char *len_quality_name(int q)
{
	static const char *const names[] = { "unknown", "approximate", "exact" };

	return q >= 0 && q < LEN_NR_QUALITIES ? names[q] : "?";
}

static void rule_set(struct len_recovery_rule *r, int id, int quality, int a, int scale, bool mask)
{
	memset(r, 0, sizeof(*r));
	r->id = (uint8_t)id;
	r->quality = (uint8_t)quality;
	r->a = (int8_t)a;
	r->a_scale = (uint8_t)scale;
	r->a_mask32 = mask;
	r->b = r->c = r->floor = -1;
}

/* No branch leaves the straight line before instruction @i: every path passes through it. */
static bool dominates_rest(const struct flow_fn *f, long i)
{
	long j;

	for (j = 0; j < i; j++)
		if (f->insns[j].is_branch || f->insns[j].label)
			return false;
	return !f->insns[i].label;
}

/* Registers a sampled rep movs/stos is in the middle of changing. */
static uint16_t in_flight(const struct flow_insn *in)
{
	if (in->op != FLOW_REP_STR)
		return 0;
	return (1u << FLOW_RCX) | (1u << FLOW_RDI) | (in->str_movs ? 1u << FLOW_RSI : 0);
}

/*
 * A register that holds, at instruction @i, the value @reg had when the function was
 * entered: @reg itself, a straight-line copy, or a copy made once at the top and never
 * overwritten. Registers the instruction at @i is changing do not count. Returns the
 * register or -1; *@mask32 if only the low 32 bits were copied.
 */
static int entry_holder(const struct flow_fn *f, size_t i, int reg, bool *mask32)
{
	uint16_t busy = in_flight(&f->insns[i]);
	int x;

	*mask32 = false;
	if (!(busy & (1u << reg)) && flow_last_def(f, i, reg) == FLOW_ENTRY)
		return reg;
	for (x = 0; x < FLOW_NR_GPRS; x++) {
		long d = flow_last_def(f, i, x);
		const struct flow_insn *in;

		if (x == FLOW_RSP || x == reg || (busy & (1u << x)))
			continue;
		if (d < 0) {
			d = flow_single_def(f, x);
			if (d < 0 || !dominates_rest(f, d) || d >= (long)i)
				continue;
		}
		in = &f->insns[d];
		if (in->op == FLOW_MOV_RR && in->src == reg &&
		    flow_last_def(f, d, reg) == FLOW_ENTRY) {
			*mask32 = in->dst_bytes == 4;
			return x;
		}
	}
	return -1;
}

/* The register @reg was copied from at its last straight-line write, if that one is intact. */
static int copied_from(const struct flow_fn *f, size_t i, int reg, bool lea_too, bool *mask32)
{
	long d = flow_last_def(f, i, reg);
	const struct flow_insn *in;

	if (d < 0)
		return -1;
	in = &f->insns[d];
	if (!(in->op == FLOW_MOV_RR || (lea_too && in->op == FLOW_LEA_RR)) || in->src == FLOW_RSP ||
	    (in_flight(&f->insns[i]) & (1u << in->src)))
		return -1;
	if (!flow_untouched(f, d, i, in->src) || (in->src == reg))
		return -1;
	*mask32 = in->dst_bytes == 4;
	return in->src;
}

static bool rule_rep(const struct flow_fn *f, size_t i, const struct len_recovery_conv *conv,
		     struct len_recovery_rule *r)
{
	const struct flow_insn *in = &f->insns[i];
	int w = in->str_width, x;
	bool mask;

	if (in->op != FLOW_REP_STR)
		return false;
	x = copied_from(f, i, FLOW_RCX, false, &mask);
	if (x >= 0) {
		rule_set(r, LR_REP_COUNT, LEN_EXACT, x, w, mask);
		r->floor = FLOW_RCX;
		r->floor_scale = (uint8_t)w;
		return true;
	}
	/* The start: rdi's last source, or (rdi untouched since entry) a copy of the entry rdi. */
	x = copied_from(f, i, FLOW_RDI, true, &mask);
	if (x < 0 && conv && conv->dst_reg == FLOW_RDI &&
	    flow_last_def(f, i, FLOW_RDI) == FLOW_ENTRY)
		x = entry_holder(f, i, FLOW_RDI, &mask);
	if (x >= 0 && x != FLOW_RDI && !mask) {
		rule_set(r, LR_REP_START, LEN_EXACT, FLOW_RCX, w, false);
		r->b = FLOW_RDI;
		r->c = (int8_t)x;
		r->floor = FLOW_RCX;
		r->floor_scale = (uint8_t)w;
		return true;
	}
	return false;
}

/*
 * memcpy_orig's shape: a loop that takes K off the length register and adds K to rdi per
 * iteration, after a straight-line prologue that only subtracts constants (the bias) from
 * the length and leaves rdi alone. At the loop head, length = (rdi - dst) + len_reg + bias;
 * inside the body, the K of an update already done this iteration is put back.
 */
static bool rule_loop(const struct flow_fn *f, size_t i, const struct len_recovery_conv *conv,
		      struct len_recovery_rule *r)
{
	long head = -1, tail = -1, sub = -1, add = -1, j;
	int L = conv->len_reg, y;
	int64_t bias = 0, K = 0;
	bool mask;

	if (L < 0 || conv->dst_reg != FLOW_RDI)
		return false;
	for (j = (long)i; j < (long)f->nr; j++) {
		const struct flow_insn *in = &f->insns[j];
		long t;

		if (!in->is_branch || !in->target || in->target > f->insns[i].addr)
			continue;
		t = flow_index(f, in->target);
		if (t > head) {
			head = t;
			tail = j;
		}
	}
	if (head < 0)
		return false;
	y = entry_holder(f, i, FLOW_RDI, &mask);
	if (y < 0 || y == FLOW_RDI || mask)
		return false;
	for (j = head; j <= tail; j++) {
		const struct flow_insn *in = &f->insns[j];

		if (in->writes & (1u << y))
			return false;
		if (in->writes & (1u << L)) {
			if (sub >= 0 || in->op != FLOW_SUB_IMM || in->dst != L ||
			    in->dst_bytes != 8)
				return false;
			sub = j;
		}
		if (in->writes & (1u << FLOW_RDI)) {
			if (add >= 0 || in->op != FLOW_ADD_IMM || in->dst != FLOW_RDI)
				return false;
			add = j;
		}
	}
	if (sub < 0 || add < 0 || f->insns[sub].imm <= 0 || f->insns[sub].imm != f->insns[add].imm)
		return false;
	K = f->insns[sub].imm;
	for (j = 0; j < head; j++) {
		const struct flow_insn *in = &f->insns[j];

		if ((j && in->label) || (in->writes & (1u << FLOW_RDI)))
			return false;
		if (in->writes & (1u << L)) {
			if (in->op != FLOW_SUB_IMM || in->dst != L || in->dst_bytes != 8)
				return false;
			bias += in->imm;
		}
	}
	rule_set(r, LR_LOOP, LEN_EXACT, L, 1, false);
	r->b = FLOW_RDI;
	r->c = (int8_t)y;
	r->k = bias + (sub < (long)i ? K : 0) - (add < (long)i ? K : 0);
	return true;
}

/* The caller set the length register from X just before the call, and the routine keeps X. */
static bool rule_caller(const struct flow_source *t, const struct flow_fn *f,
			const struct len_recovery_conv *conv, uint64_t ret,
			struct len_recovery_rule *r)
{
	const struct flow_fn *c = t->fn_at(t->ctx, ret);
	const struct flow_insn *call;
	uint16_t clobbered = f->writes;
	long j;
	int x;
	bool mask;

	if (!c || conv->len_reg < 0 || (j = flow_index(c, ret)) <= 0)
		return false;
	call = &c->insns[j - 1];
	if (!call->is_call || call->addr + call->size != ret)
		return false;
	if (call->target && (call->target < f->start || call->target >= f->insns[f->nr - 1].addr)) {
		const struct flow_fn *callee = t->fn_at(t->ctx, call->target);

		/* Entered elsewhere (__memcpy jumping to memcpy_orig): that code's writes count. */
		if (!callee)
			return false;
		clobbered |= callee->writes;
	}
	x = copied_from(c, (size_t)(j - 1), conv->len_reg, false, &mask);
	if (x < 0 || (clobbered & (1u << x)))
		return false;
	rule_set(r, LR_CALLER, LEN_EXACT, x, 1, mask);
	if (conv->len_counts_down) {
		r->floor = (int8_t)conv->len_reg;
		r->floor_scale = 1;
	}
	return true;
}

void len_recovery_analyse(const struct flow_source *t, const struct len_recovery_conv *conv,
			  uint64_t ip, uint64_t ret, struct len_recovery_rule *r)
{
	const struct flow_fn *f = t->fn_at(t->ctx, ip);
	const struct flow_insn *in;
	long i;
	int x;
	bool mask;

	rule_set(r, LR_NONE, LEN_UNKNOWN, -1, 0, false);
	if (!f || (i = flow_index(f, ip)) < 0)
		return;
	in = &f->insns[i];
	if (conv && conv->len_reg >= 0 &&
	    (x = entry_holder(f, (size_t)i, conv->len_reg, &mask)) >= 0) {
		rule_set(r, LR_ENTRY_LEN, LEN_EXACT, x, 1, mask);
		return;
	}
	if (rule_rep(f, (size_t)i, conv, r))
		return;
	if (conv && rule_loop(f, (size_t)i, conv, r))
		return;
	if (conv && ret && rule_caller(t, f, conv, ret, r))
		return;
	if (conv && conv->len_counts_down && conv->len_reg >= 0) {
		rule_set(r, LR_REMAINDER, LEN_APPROX, conv->len_reg, 1, false);
		return;
	}
	if (in->op == FLOW_REP_STR)
		rule_set(r, LR_REMAINDER, LEN_APPROX, FLOW_RCX, in->str_width, false);
}

int len_recovery_apply(const struct len_recovery_rule *r, const uint64_t *gprs, uint64_t *len)
{
	uint64_t v = 0, a;

	*len = 0;
	if (r->quality == LEN_UNKNOWN || r->a < 0)
		return LEN_UNKNOWN;
	a = gprs[r->a];
	if (r->a_mask32)
		a &= 0xffffffffULL;
	/* Wrapping arithmetic: a borrowed loop counter plus its bias comes out right. */
	v = a * r->a_scale;
	if (r->b >= 0)
		v += gprs[r->b] - gprs[r->c];
	v += (uint64_t)r->k;
	if (v >= LEN_SANE_MAX)
		return LEN_UNKNOWN;
	if (r->floor >= 0 && v < gprs[r->floor] * r->floor_scale)
		return LEN_UNKNOWN;
	*len = v;
	return r->quality;
}

uint16_t len_recovery_regs(const struct len_recovery_rule *r)
{
	uint16_t m = 0;

	if (r->quality == LEN_UNKNOWN || r->a < 0)
		return 0;
	m |= (uint16_t)(1u << r->a);
	if (r->b >= 0)
		m |= (uint16_t)(1u << r->b | 1u << r->c);
	if (r->floor >= 0)
		m |= (uint16_t)(1u << r->floor);
	return m;
}
