/* SPDX-License-Identifier: GPL-2.0 */
/* len_rules.h: the length-recovery rule of each sampled (ip, return address), worked out once */
#ifndef CP_LEN_RULES_H
#define CP_LEN_RULES_H

#include <stdint.h>
#include "kernel/insn_flow.h"
#include "len_recovery.h"

/* Every general-purpose register (FLOW_* bits): what record --sample always has. */
#define LEN_RULES_ALL_REGS ((uint16_t)((1u << FLOW_NR_GPRS) - 1))

struct len_rules;

/* A cache of rules analysed from the code @src gives (kernel text); NULL when out of memory. */
struct len_rules *len_rules_new(const struct flow_source *src);
void len_rules_free(struct len_rules *lr);

/*
 * The one way a sample's length is recovered, for record --sample and import-perf alike: the
 * rule for (@ip, @ret) with convention @conv (NULL: an inline rep movs/stos), applied to @gprs
 * (FLOW_* order). @have is the set of registers the sample carries (FLOW_* bits); a rule that
 * reads one outside it gives LEN_UNKNOWN and sets *@missing to the registers it lacked.
 * Returns the quality (len_recovery.h) and sets *@len and *@rule (enum len_recovery_rule_id,
 * LR_NONE when unknown). @missing may be NULL.
 */
int len_rules_recover(struct len_rules *lr, const struct len_recovery_conv *conv, uint64_t ip,
		      uint64_t ret, const uint64_t *gprs, uint16_t have, uint64_t *len, int *rule,
		      uint16_t *missing);

#endif
