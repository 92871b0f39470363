// SPDX-License-Identifier: GPL-2.0
/* callers_print.c: a kernel function's callers as a bounded text list or as JSON */
#include <stdio.h>
#include <string.h>
#include "callers.h"
#include "lib/jsonw.h"

#define OFFSETS_SHOWN 4

static void print_caller(const struct caller *k, FILE *f, const char *indent)
{
	char name[128];
	size_t i;

	snprintf(name, sizeof(name), "%s%s%s", k->module ?: "", k->module ? ":" : "", k->function);
	fprintf(f, "%s  %-44s %4zu site%s  kprobe %-7s", indent, name, k->nr_sites,
		k->nr_sites == 1 ? " " : "s", tristate_name(k->kprobe));
	for (i = 0; i < k->nr_sites && i < OFFSETS_SHOWN; i++) {
		bool call = !strcmp(k->sites[i].mnemonic, "call");

		fprintf(f, " +0x%llx%s%s%s", (unsigned long long)k->sites[i].offset,
			call ? "" : "(", call ? "" : k->sites[i].mnemonic, call ? "" : ")");
	}
	fprintf(f, "%s\n", k->nr_sites > OFFSETS_SHOWN ? " ..." : "");
}

/* The command that probes @k's first site: --site for the copy family, else --kprobe. */
static void print_hint(const struct callers *c, const struct caller *k, FILE *f, const char *indent,
		       const char *len)
{
	fprintf(f, "%sprobe one: copyprof record --%s %s%s%s+0x%llx", indent,
		c->copy_family ? "site" : "kprobe", k->module ?: "", k->module ? ":" : "",
		k->function, (unsigned long long)k->sites[0].offset);
	if (!c->copy_family)
		fprintf(f, ",len=%s", len ?: "arg2");
	fputc('\n', f);
}

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* What was searched, and what a search of that text cannot see. */
static void print_searched(const struct callers *c, FILE *f, const char *indent)
{
	fprintf(f, "%s  (searched %s in %s%s; %zu candidate%s, %zu not instructions", indent,
		c->modules_searched ? "the kernel and its loaded modules" : "the core kernel",
		c->text_source,
		c->live ? ""
			: ", whose text is unpatched: calls that alternatives "
			  "patch in at boot are missing, and modules need /proc/kcore",
		c->candidates, plural(c->candidates, "", "s"), c->not_insns);
	if (c->unread)
		fprintf(f, "; %zu bytes could not be read", c->unread);
	fprintf(f, ")\n");
}

void callers_print(const struct callers *c, FILE *f, const char *indent, size_t max,
		   const char *len)
{
	size_t i;

	if (!c->nr) {
		fprintf(f, "%scallers of %s: no direct call or jump to it\n", indent, c->symbol);
		print_searched(c, f, indent);
		return;
	}
	fprintf(f, "%scallers of %s: %zu call site%s in %zu function%s, %zu kprobe-able\n", indent,
		c->symbol, c->nr_sites, plural(c->nr_sites, "", "s"), c->nr, plural(c->nr, "", "s"),
		c->nr_kprobe);
	print_searched(c, f, indent);
	for (i = 0; i < c->nr && i < max; i++)
		print_caller(&c->v[i], f, indent);
	if (c->nr > max)
		fprintf(f,
			"%s  ... %zu more (kprobe-able first, most sites first; --json lists "
			"all)\n",
			indent, c->nr - max);
	if (c->v[0].kprobe == TS_NO)
		fprintf(f, "%snone of them can take a kprobe: record --sample sees these copies\n",
			indent);
	else if (max)
		print_hint(c, &c->v[0], f, indent, len);
}

json_object *callers_to_json(const struct callers *c)
{
	json_object *a = json_object_new_array(), *o, *sites, *s;
	const struct caller *k;
	size_t i, j;

	for (i = 0; i < c->nr; i++) {
		k = &c->v[i];
		o = json_object_new_object();
		sites = json_object_new_array();
		json_object_object_add(o, "function", json_object_new_string(k->function));
		json_object_object_add(o, "module",
				       k->module ? json_object_new_string(k->module) : NULL);
		json_object_object_add(o, "address", jsonw_new_hex(k->addr));
		json_object_object_add(o, "kprobe",
				       json_object_new_string(tristate_name(k->kprobe)));
		for (j = 0; j < k->nr_sites; j++) {
			s = json_object_new_object();
			json_object_object_add(s, "offset",
					       json_object_new_uint64(k->sites[j].offset));
			json_object_object_add(s, "offset_hex", jsonw_new_hex(k->sites[j].offset));
			json_object_object_add(s, "address", jsonw_new_hex(k->sites[j].addr));
			json_object_object_add(s, "instruction",
					       json_object_new_string(k->sites[j].mnemonic));
			json_object_array_add(sites, s);
		}
		json_object_object_add(o, "sites", sites);
		json_object_array_add(a, o);
	}
	return a;
}

json_object *callers_summary_to_json(const struct callers *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "text_source", json_object_new_string(c->text_source));
	json_object_object_add(o, "live", json_object_new_boolean(c->live));
	json_object_object_add(o, "modules_searched", json_object_new_boolean(c->modules_searched));
	json_object_object_add(o, "candidates", json_object_new_uint64(c->candidates));
	json_object_object_add(o, "not_instructions", json_object_new_uint64(c->not_insns));
	json_object_object_add(o, "unread_bytes", json_object_new_uint64(c->unread));
	json_object_object_add(o, "sites", json_object_new_uint64(c->nr_sites));
	json_object_object_add(o, "functions", json_object_new_uint64(c->nr));
	json_object_object_add(o, "kprobe_functions", json_object_new_uint64(c->nr_kprobe));
	json_object_object_add(o, "probe_with",
			       json_object_new_string(c->copy_family ? "--site" : "--kprobe"));
	return o;
}
