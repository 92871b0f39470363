// SPDX-License-Identifier: GPL-2.0
/* policy_key.c: a policy's typed key and its display name, both ways */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "policy_key.h"

static const char *const kind_names[] = {
	[POLICY_TODAY] = "today",
	[POLICY_ALWAYS] = "always",
	[POLICY_ORACLE] = "oracle",
};

bool policy_key_same(const struct policy_key *a, const struct policy_key *b)
{
	return a->kind == b->kind && (a->kind != POLICY_THRESHOLD || a->threshold == b->threshold);
}

const char *policy_key_name(const struct policy_key *k, char *buf, size_t len)
{
	if (k->kind != POLICY_THRESHOLD)
		snprintf(buf, len, "%s", kind_names[k->kind]);
	else if (k->threshold == POLICY_NEVER)
		snprintf(buf, len, "never");
	else
		snprintf(buf, len, "T=%llu", (unsigned long long)k->threshold);
	return buf;
}

int policy_key_parse(const char *name, struct policy_key *k)
{
	unsigned long long t;
	char *end;
	size_t i;

	*k = (struct policy_key){ 0 };
	for (i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
		if (kind_names[i] && !strcmp(name, kind_names[i])) {
			k->kind = (enum policy_kind)i;
			return 0;
		}
	k->kind = POLICY_THRESHOLD;
	if (!strcmp(name, "never")) {
		k->threshold = POLICY_NEVER;
		return 0;
	}
	/* Decimal digits only, as policy_key_name() writes them. */
	if (strncmp(name, "T=", 2) || name[2] < '0' || name[2] > '9')
		return -EINVAL;
	errno = 0;
	t = strtoull(name + 2, &end, 10);
	if (errno || *end || t == POLICY_NEVER)
		return -EINVAL;
	k->threshold = t;
	return 0;
}
