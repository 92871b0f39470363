/* SPDX-License-Identifier: GPL-2.0 */
/* kprobe_rules.h: where the kernel allows a kprobe: ftrace-traceable functions, the blacklist */
#ifndef CP_KPROBE_RULES_H
#define CP_KPROBE_RULES_H

#include <stdint.h>

enum tristate { TS_UNKNOWN = -1, TS_NO = 0, TS_YES = 1 };

static inline const char *tristate_name(enum tristate t)
{
	return t == TS_YES ? "yes" : t == TS_NO ? "no" : "unknown";
}

struct kprobe_rules;

/*
 * Reads the names in @filter_functions (NULL: tracefs's available_filter_functions, then
 * debugfs's tracing/ copy) and the ranges in @blacklist (NULL:
 * /sys/kernel/debug/kprobes/blacklist) once, for many questions. A file that cannot be read
 * makes its answers TS_UNKNOWN. Returns NULL only when out of memory.
 */
struct kprobe_rules *kprobe_rules_load(const char *filter_functions, const char *blacklist);
void kprobe_rules_free(struct kprobe_rules *r);

/*
 * Is @func traceable by ftrace (a line of available_filter_functions)? kprobe events refuse
 * functions it cannot trace, at their entry and at any offset inside them.
 */
enum tristate kprobe_rules_traceable(const struct kprobe_rules *r, const char *func);
/* Is @func (by name) or @addr (0: not asked) on the kprobe blacklist? */
enum tristate kprobe_rules_blacklisted(const struct kprobe_rules *r, const char *func,
				       uint64_t addr);

#endif
