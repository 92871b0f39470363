// SPDX-License-Identifier: GPL-2.0
/* cmd_probe_print.c: what `copyprof probe` found, as text on stdout or as JSON */
#include <stdio.h>
#include <json-c/json.h>
#include "cmd_probe_print.h"
#include "kernel/kimage.h"
#include "kernel/ksyms.h"
#include "lib/jsonw.h"
#include "lib/log.h"
#include "record/planner.h"
#include "sites/callers.h"
#include "sites/callsites.h"
#include "sites/dispatch.h"

static void format_range(char *buf, size_t len, const struct dispatch_row *r)
{
	if (r->max == DISPATCH_NO_MAX)
		snprintf(buf, len, "n >= %llu", (unsigned long long)r->min);
	else if (r->min == r->max)
		snprintf(buf, len, "n = %llu", (unsigned long long)r->min);
	else
		snprintf(buf, len, "%llu <= n <= %llu", (unsigned long long)r->min,
			 (unsigned long long)r->max);
}

static void print_dispatch(const struct dispatch *d)
{
	const struct dispatch_entry *e;
	char range[64];
	size_t r, i;

	printf("dispatch (kernel %d.%d; erms %s, fsrm %s, fsrs %s, rep_good %s):\n", d->major,
	       d->minor, d->cpu.erms ? "yes" : "no", d->cpu.fsrm ? "yes" : "no",
	       d->cpu.fsrs ? "yes" : "no", d->cpu.rep_good ? "yes" : "no");
	for (r = 0; r < CF_NR_ROUTINES; r++) {
		e = &d->e[r];
		if (!r)
			printf("  (\"from kcore\": decoded from the kernel's patched code; \"from "
			       "table\": looked up by kernel version and CPU flags, not read)\n");
		printf("  %-10s from %s", e->routine, e->source);
		if (e->read_at)
			printf(" (%s: %s)", e->read_at, e->decoded ?: "");
		putchar('\n');
		for (i = 0; i < e->nr_rows; i++) {
			format_range(range, sizeof(range), &e->rows[i]);
			printf("    %-16s %s%s%s%s\n", range, e->rows[i].code,
			       e->rows[i].string_op ? " [" : "", e->rows[i].string_op ?: "",
			       e->rows[i].string_op ? "]" : "");
		}
		if (e->note)
			printf("    note: %s\n", e->note);
	}
}

static json_object *cpu_to_json(const struct dispatch_cpu *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "erms", json_object_new_boolean(c->erms));
	json_object_object_add(o, "fsrm", json_object_new_boolean(c->fsrm));
	json_object_object_add(o, "fsrs", json_object_new_boolean(c->fsrs));
	json_object_object_add(o, "rep_good", json_object_new_boolean(c->rep_good));
	return o;
}

static json_object *dispatch_to_json(const struct dispatch *d)
{
	json_object *a = json_object_new_array(), *o, *rows, *row;
	const struct dispatch_entry *e;
	size_t r, i;

	for (r = 0; r < CF_NR_ROUTINES; r++) {
		e = &d->e[r];
		o = json_object_new_object();
		rows = json_object_new_array();
		json_object_object_add(o, "routine", json_object_new_string(e->routine));
		json_object_object_add(o, "source", json_object_new_string(e->source));
		if (e->read_at)
			json_object_object_add(o, "read_at", json_object_new_string(e->read_at));
		if (e->decoded)
			json_object_object_add(o, "decoded", json_object_new_string(e->decoded));
		if (e->note)
			json_object_object_add(o, "note", json_object_new_string(e->note));
		for (i = 0; i < e->nr_rows; i++) {
			row = json_object_new_object();
			json_object_object_add(row, "min", json_object_new_uint64(e->rows[i].min));
			json_object_object_add(row, "max",
					       e->rows[i].max == DISPATCH_NO_MAX
						       ? NULL
						       : json_object_new_uint64(e->rows[i].max));
			json_object_object_add(row, "code",
					       json_object_new_string(e->rows[i].code));
			json_object_object_add(
				row, "string_op",
				e->rows[i].string_op ? json_object_new_string(e->rows[i].string_op)
						     : NULL);
			json_object_array_add(rows, row);
		}
		json_object_object_add(o, "rows", rows);
		json_object_array_add(a, o);
	}
	return a;
}

void probe_head_print(const char *release, const struct ksyms *ks, struct kimage *ki,
		      const struct dispatch *d)
{
	printf("kernel %s; symbols from %s; ", release ?: "?", ks->path);
	if (ki)
		printf("text from %s\n", kimage_path(ki));
	else
		printf("no kernel text (no /proc/kcore, no vmlinux found; --vmlinux gives one):\n"
		       "  call sites cannot be read, and the dispatch below comes from copyprof's "
		       "table\n");
	print_dispatch(d);
}

json_object *probe_head_to_json(const char *release, const struct ksyms *ks, struct kimage *ki,
				const struct dispatch *d)
{
	json_object *root = json_object_new_object();

	json_object_object_add(root, "kernel", json_object_new_string(release ?: ""));
	json_object_object_add(root, "kallsyms", json_object_new_string(ks->path));
	json_object_object_add(root, "text_source",
			       ki ? json_object_new_string(kimage_source(ki)) : NULL);
	json_object_object_add(root, "kaslr_slide",
			       ki && !kimage_live(ki) ? json_object_new_int64(kimage_slide(ki))
						      : NULL);
	json_object_object_add(root, "cpu", cpu_to_json(&d->cpu));
	json_object_object_add(root, "dispatch", dispatch_to_json(d));
	return root;
}

json_object *probe_callsites_to_json(const struct callsite_list *l)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array(), *s;
	const struct callsite *c;
	size_t i;

	json_object_object_add(o, "function", json_object_new_string(l->function));
	json_object_object_add(o, "module", l->module ? json_object_new_string(l->module) : NULL);
	json_object_object_add(o, "address", l->func_addr ? jsonw_new_hex(l->func_addr) : NULL);
	json_object_object_add(o, "size", json_object_new_uint64(l->func_size));
	json_object_object_add(o, "text_source", json_object_new_string(l->text_source));
	json_object_object_add(o, "text_path", json_object_new_string(l->text_path ?: ""));
	for (i = 0; i < l->nr; i++) {
		c = &l->v[i];
		s = json_object_new_object();
		json_object_object_add(s, "offset", json_object_new_uint64(c->offset));
		json_object_object_add(s, "offset_hex", jsonw_new_hex(c->offset));
		json_object_object_add(s, "address", c->addr ? jsonw_new_hex(c->addr) : NULL);
		json_object_object_add(s, "instruction", json_object_new_string(c->mnemonic));
		json_object_object_add(s, "target",
				       c->target ? json_object_new_string(c->target) : NULL);
		jsonw_put_str(s, "family", copy_family_name(c->family));
		json_object_object_add(s, "len_reg", json_object_new_string(c->len_reg));
		json_object_object_add(s, "len_scale", json_object_new_int(c->len_scale));
		if (c->context)
			json_object_object_add(s, "before", json_object_new_string(c->context));
		json_object_array_add(a, s);
	}
	json_object_object_add(o, "callsites", a);
	return o;
}

void probe_callsites_print(const struct callsite_list *l)
{
	const struct callsite *c;
	char addr[32];
	size_t i;

	printf("site %s%s%s%s", l->function, l->module ? " [" : "", l->module ?: "",
	       l->module ? "]" : "");
	if (l->func_addr)
		printf(" at 0x%llx", (unsigned long long)l->func_addr);
	else
		printf(" (module not loaded: offsets only)");
	printf(", %llu bytes, text from %s (%s):\n", (unsigned long long)l->func_size,
	       l->text_source, l->text_path ?: "");
	for (i = 0; i < l->nr; i++) {
		c = &l->v[i];
		if (c->addr)
			snprintf(addr, sizeof(addr), "0x%016llx", (unsigned long long)c->addr);
		else
			snprintf(addr, sizeof(addr), "%-18s", "-");
		printf("  +0x%-5llx %s  %-6s %-28s %-10s len=%s", (unsigned long long)c->offset,
		       addr, c->target ? c->mnemonic : "inline", c->target ?: c->mnemonic,
		       copy_family_name(c->family) ?: "?", c->len_reg);
		if (c->len_scale > 1)
			printf("*%u", c->len_scale);
		putchar('\n');
		if (log_verbose && c->context)
			printf("           after: %s\n", c->context);
	}
	if (!l->nr)
		printf("  no copy-family call sites\n");
	if (l->undecodable)
		printf("  (%zu byte(s) could not be decoded and were skipped)\n", l->undecodable);
}

json_object *probe_entry_to_json(const struct entry_info *e)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "symbol", json_object_new_string(e->symbol));
	json_object_object_add(o, "found", json_object_new_boolean(e->found));
	json_object_object_add(o, "module", e->module ? json_object_new_string(e->module) : NULL);
	json_object_object_add(o, "address", e->addr ? jsonw_new_hex(e->addr) : NULL);
	json_object_object_add(o, "traceable", json_object_new_string(tristate_name(e->traceable)));
	json_object_object_add(o, "kprobe_blacklisted",
			       json_object_new_string(tristate_name(e->blacklisted)));
	json_object_object_add(o, "noinstr", json_object_new_string(tristate_name(e->noinstr)));
	json_object_object_add(o, "probeable", json_object_new_string(tristate_name(e->probeable)));
	json_object_object_add(o, "reason", e->reason ? json_object_new_string(e->reason) : NULL);
	return o;
}

void probe_entry_print(const struct entry_info *e)
{
	printf("entry %s", e->symbol);
	if (e->found)
		printf(" [%s] at 0x%llx", e->module ?: "vmlinux", (unsigned long long)e->addr);
	printf(": traceable %s, kprobe blacklist %s, noinstr %s: ", tristate_name(e->traceable),
	       tristate_name(e->blacklisted), tristate_name(e->noinstr));
	if (e->probeable == TS_YES)
		printf("probe-able (kprobe at entry)\n");
	else if (e->probeable == TS_NO)
		printf("not probe-able: %s\n", e->reason);
	else
		printf("probe-able: unknown: %s\n", e->reason);
}

json_object *probe_callsites_error_to_json(const char *func, bool skipped, const char *why)
{
	json_object *err = json_object_new_object();

	json_object_object_add(err, "function", json_object_new_string(func));
	json_object_object_add(err, skipped ? "skipped" : "error",
			       json_object_new_string(why ?: ""));
	return err;
}

void probe_callers_print(const struct callers *c, const char *why, size_t shown)
{
	if (why)
		printf("  callers: not searched: %s\n", why);
	else if (c)
		callers_print(c, stdout, "  ", shown, NULL);
}

void probe_callers_add_json(json_object *jentry, const struct callers *c, const char *why)
{
	if (why)
		jsonw_put_str(jentry, "callers_error", why);
	json_object_object_add(jentry, "callers", c ? callers_to_json(c) : NULL);
	json_object_object_add(jentry, "callers_summary", c ? callers_summary_to_json(c) : NULL);
}

void probe_plan_print(const struct plan *pl)
{
	printf("\nplan for record (%zu sites, %zu attachable):\n", pl->nr, plan_nr_covered(pl));
	plan_print(pl, stdout);
}

void probe_plan_add_json(json_object *jplan, const struct plan *pl)
{
	static const char *const mech[] = { "kprobe", "hwbp", "none" };
	size_t i;

	for (i = 0; i < pl->nr; i++) {
		const struct plan_site *ps = &pl->v[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "function", json_object_new_string(ps->site.spec.symbol));
		json_object_object_add(
			o, "module",
			ps->site.spec.path ? json_object_new_string(ps->site.spec.path) : NULL);
		json_object_object_add(o, "offset", json_object_new_uint64(ps->site.spec.offset));
		json_object_object_add(o, "mechanism", json_object_new_string(mech[ps->choice]));
		json_object_object_add(o, "why", json_object_new_string(ps->why));
		json_object_array_add(jplan, o);
	}
}

void probe_json_print(json_object *root, json_object *jsites, json_object *jentries,
		      json_object *jplan)
{
	json_object_object_add(root, "sites", jsites);
	json_object_object_add(root, "entries", jentries);
	json_object_object_add(root, "plan", jplan);
	jsonw_print(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
				  JSON_C_TO_STRING_NOSLASHESCAPE);
	json_object_put(root);
}
