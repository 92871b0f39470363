/* SPDX-License-Identifier: GPL-2.0 */
/* len_recovery.h: recover a copy's original length from the registers at a sampled instruction */
#ifndef CP_LEN_RECOVERY_H
#define CP_LEN_RECOVERY_H

#include <stdbool.h>
#include <stdint.h>
#include "kernel/insn_flow.h"

/* How well a sample's length is known (docs/sampling.md). */
enum len_quality { LEN_UNKNOWN = 0, LEN_APPROX, LEN_EXACT, LEN_NR_QUALITIES };

/* The rules, in the order they are tried; docs/sampling.md states each one. */
enum len_recovery_rule_id {
	LR_NONE,
	LR_ENTRY_LEN, /* a register still holds the length the routine was entered with */
	LR_REP_COUNT, /* rep movs/stos whose rcx was copied from a register that still holds it */
	LR_REP_START, /* rep movs/stos: rcx + (rdi - start), the start kept in a register */
	LR_LOOP,      /* counting loop: (rdi - dst) + remaining counter + bias (memcpy_orig) */
	LR_CALLER,    /* the caller loaded the length register from one the routine leaves alone */
	LR_REMAINDER, /* only the bytes still to do: a lower bound */
	LR_NR,
};

/* Calling convention of an out-of-line copy routine. */
struct len_recovery_conv {
	int len_reg;	      /* FLOW_* register with the length at entry, or -1 */
	int dst_reg;	      /* FLOW_* register with the destination at entry, or -1 */
	bool len_counts_down; /* len_reg holds the bytes still to do throughout */
};

/* len = scale * reg(a) [masked to 32 bits] + reg(b) - reg(c) + k, checked against a floor. */
struct len_recovery_rule {
	uint8_t quality; /* enum len_quality the rule gives when its checks pass */
	uint8_t id;	 /* enum len_recovery_rule_id */
	int8_t a, b, c;	 /* FLOW_* registers or -1 */
	uint8_t a_scale;
	bool a_mask32;
	int8_t floor; /* the result is at least floor_scale * reg(floor), or -1 */
	uint8_t floor_scale;
	int64_t k;
};

/*
 * Works out from the code alone how the length can be recovered at @ip: inside an
 * out-of-line routine with convention @conv, or (conv NULL) at an inline rep movs/stos.
 * @ret is the return address into the caller (0 if unknown). Never fails: the rule may be
 * LR_NONE (quality LEN_UNKNOWN).
 */
void len_recovery_analyse(const struct flow_source *t, const struct len_recovery_conv *conv,
			  uint64_t ip, uint64_t ret, struct len_recovery_rule *out);
/* Applies @r to the registers (FLOW_* order); returns the quality achieved and sets *@len. */
int len_recovery_apply(const struct len_recovery_rule *r, const uint64_t *gprs, uint64_t *len);
/* The registers (FLOW_* bits) len_recovery_apply() reads for @r; 0 for an unknown rule. */
uint16_t len_recovery_regs(const struct len_recovery_rule *r);

const char *len_recovery_rule_name(int id);
const char *len_quality_name(int q);

#endif
