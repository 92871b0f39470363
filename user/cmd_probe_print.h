/* SPDX-License-Identifier: GPL-2.0 */
/* cmd_probe_print.h: what `copyprof probe` found, as text on stdout or as JSON */
#ifndef CP_CMD_PROBE_PRINT_H
#define CP_CMD_PROBE_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

struct callers;
struct callsite_list;
struct dispatch;
struct entry_info;
struct kimage;
struct ksyms;
struct plan;

/* The kernel, where symbols and text come from (@ki may be NULL), then the dispatch. */
void probe_head_print(const char *release, const struct ksyms *ks, struct kimage *ki,
		      const struct dispatch *d);
/* The same as the JSON document's first keys, with the CPU; probe_json_print() ends it. */
json_object *probe_head_to_json(const char *release, const struct ksyms *ks, struct kimage *ki,
				const struct dispatch *d);

/* A function's copy-family call sites (with their context under -v). */
void probe_callsites_print(const struct callsite_list *l);
json_object *probe_callsites_to_json(const struct callsite_list *l);
/* A --site that was not listed: skipped (a preset's function this kernel lacks) or an error. */
json_object *probe_callsites_error_to_json(const char *func, bool skipped, const char *why);

/* Whether a kprobe at an entry can work, and why not. */
void probe_entry_print(const struct entry_info *e);
json_object *probe_entry_to_json(const struct entry_info *e);
/*
 * An entry's callers: @c when they were searched, or @why the search failed; neither when
 * it was not searched. Text lists at most @shown; JSON adds all to @jentry.
 */
void probe_callers_print(const struct callers *c, const char *why, size_t shown);
void probe_callers_add_json(json_object *jentry, const struct callers *c, const char *why);

/* What record would attach, and why. */
void probe_plan_print(const struct plan *pl);
void probe_plan_add_json(json_object *jplan, const struct plan *pl);

/* Puts the three lists into @root, prints it on stdout and releases it. */
void probe_json_print(json_object *root, json_object *jsites, json_object *jentries,
		      json_object *jplan);

#endif
