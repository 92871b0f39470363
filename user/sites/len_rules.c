// SPDX-License-Identifier: GPL-2.0
/* len_rules.c: a cache of length-recovery rules per (ip, return address), and their application */
#include <stdio.h>
#include <stdlib.h>
#include "lib/counter_map.h"
#include "len_rules.h"

struct len_rules {
	const struct flow_source *src;
	struct counter_map index; /* "ip:ret" -> position + 1 in rules */
	struct len_recovery_rule *rules;
	size_t nr, cap;
};

struct len_rules *len_rules_new(const struct flow_source *src)
{
	struct len_rules *lr = calloc(1, sizeof(*lr));

	if (lr)
		lr->src = src;
	return lr;
}

void len_rules_free(struct len_rules *lr)
{
	if (!lr)
		return;
	counter_map_free(&lr->index);
	free(lr->rules);
	free(lr);
}

/* The rule for (ip, return address), worked out once from the code; NULL when out of memory. */
static const struct len_recovery_rule *
rule_get(struct len_rules *lr, const struct len_recovery_conv *conv, uint64_t ip, uint64_t ret)
{
	struct counter_map_ent *e;
	char key[48];

	snprintf(key, sizeof(key), "%llx:%llx", (unsigned long long)ip, (unsigned long long)ret);
	e = counter_map_get(&lr->index, key);
	if (!e)
		return NULL;
	if (!e->value) {
		if (lr->nr == lr->cap) {
			size_t cap = lr->cap ? lr->cap * 2 : 256;
			struct len_recovery_rule *n = realloc(lr->rules, cap * sizeof(*n));

			if (!n)
				return NULL;
			lr->rules = n;
			lr->cap = cap;
		}
		len_recovery_analyse(lr->src, conv, ip, ret, &lr->rules[lr->nr]);
		e->value = ++lr->nr;
	}
	return &lr->rules[e->value - 1];
}

int len_rules_recover(struct len_rules *lr, const struct len_recovery_conv *conv, uint64_t ip,
		      uint64_t ret, const uint64_t *gprs, uint16_t have, uint64_t *len, int *rule,
		      uint16_t *missing)
{
	const struct len_recovery_rule *r;
	uint16_t lack;
	int q;

	*len = 0;
	*rule = LR_NONE;
	if (missing)
		*missing = 0;
	if (!lr || !gprs || !(r = rule_get(lr, conv, ip, ret)))
		return LEN_UNKNOWN;
	lack = len_recovery_regs(r) & (uint16_t)~have;
	if (lack) {
		if (missing)
			*missing = lack;
		return LEN_UNKNOWN;
	}
	q = len_recovery_apply(r, gprs, len);
	if (q != LEN_UNKNOWN)
		*rule = r->id;
	return q;
}
