// SPDX-License-Identifier: GPL-2.0
/* profile_args.c: how a profile numbers arguments (len_arg), and lengths that look like pointers */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/hist.h"
#include "lib/jsonr.h"
#include "lib/log.h"
#include "lib/regs.h"
#include "lib/sparse_hist.h"
#include "profile_args.h"

void profile_args_to_json(json_object *meta)
{
	json_object_object_add(meta, "arg_base", json_object_new_int(PROFILE_ARG_BASE));
}

/* "argN" counted from @base, renumbered from PROFILE_ARG_BASE; other names are left alone. */
static int renumber(char **len_arg, int base)
{
	char *end, *name;
	long n;

	if (!*len_arg || strncmp(*len_arg, "arg", 3) || !(*len_arg)[3])
		return 0;
	n = strtol(*len_arg + 3, &end, 10);
	if (*end || n < base || n > base + 5)
		return 0; /* not an argument copyprof wrote: kept as it is */
	name = strdup(reg_name(CP_REG_ARG0 + (int)(n - base)));
	if (!name)
		return -ENOMEM;
	free(*len_arg);
	*len_arg = name;
	return 0;
}

int profile_args_base(json_object *meta, const char *name, int *out)
{
	uint64_t base = 1; /* profiles before arg_base counted arg1 as the first argument */
	int err = meta ? jsonr_u64(meta, "arg_base", &base) : -ENOENT;

	if (err && err != -ENOENT) {
		p_err("%s: meta \"arg_base\" must be 0 or 1 (the number of the first argument)",
		      name);
		return -EINVAL;
	}
	if (err == -ENOENT)
		base = 1;
	if (base > 1) {
		p_err("%s: meta \"arg_base\" %llu: copyprof knows 0 (arg0 is the first argument) "
		      "and "
		      "1 (older profiles: arg1)",
		      name, (unsigned long long)base);
		return -EINVAL;
	}
	*out = (int)base;
	return 0;
}

int profile_args_renumber(struct profile *p, int base)
{
	size_t i;

	for (i = 0; base != PROFILE_ARG_BASE && i < p->nr_sites; i++)
		if (renumber(&p->sites[i].len_arg, base))
			return -ENOMEM;
	return 0;
}

bool profile_site_len_suspect(const struct profile_site *s)
{
	struct hist_slot over = sparse_hist_get(&s->buckets, CP_OVERFLOW_BUCKET);

	return !s->sample && s->calls && over.count * 2 > s->calls;
}

size_t profile_warn_len_suspects(const struct profile *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->nr_sites; i++) {
		const struct profile_site *s = &p->sites[i];

		if (!profile_site_len_suspect(s))
			continue;
		n++;
		p_warn("site %u %s+0x%llx: %llu of its %llu lengths (len=%s) are 2^40 bytes or "
		       "more: "
		       "that register holds a pointer, not a length. Arguments count from arg0, as "
		       "in bpftrace: memcpy(dst, src, len) has its length in arg2, clear_user(dst, "
		       "len) in arg1",
		       s->id, s->symbol ?: "?", (unsigned long long)s->offset,
		       (unsigned long long)sparse_hist_get(&s->buckets, CP_OVERFLOW_BUCKET).count,
		       (unsigned long long)s->calls, s->len_arg ?: "?");
	}
	return n;
}
