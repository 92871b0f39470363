// SPDX-License-Identifier: GPL-2.0
/* machine_json.c: the machine block of a profile's or a cost model's meta, in JSON */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jsonr.h"
#include "jsonw.h"
#include "machine_json.h"

static json_object *flags_json(const struct host_meta *m)
{
	json_object *a;
	size_t i;

	if (m->cpu_flags_unknown)
		return NULL; /* JSON null: unknown, never "no flags" */
	a = json_object_new_array();
	for (i = 0; a && i < m->nr_cpu_flags; i++)
		json_object_array_add(a, json_object_new_string(m->cpu_flags[i]));
	return a;
}

static void put_int(json_object *o, const char *key, int v)
{
	json_object_object_add(o, key, v < 0 ? NULL : json_object_new_int(v));
}

static void put_size(json_object *o, const char *key, uint64_t v)
{
	json_object_object_add(o, key, v ? json_object_new_int64((int64_t)v) : NULL);
}

static json_object *caches_json(const struct machine_caches *c)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	put_int(o, "cpu", c->cpu);
	put_size(o, "l1d", c->l1d);
	put_size(o, "l2", c->l2);
	put_size(o, "l3", c->l3);
	put_size(o, "line", c->line);
	put_size(o, "l2_cpus", c->l2_cpus);
	put_size(o, "l3_cpus", c->l3_cpus);
	if (c->l3_inclusive >= 0)
		json_object_object_add(o, "l3_inclusive", json_object_new_boolean(c->l3_inclusive));
	jsonw_put_str(o, "source", c->source);
	return o;
}

void machine_json_put(json_object *meta, const struct host_meta *m)
{
	const struct machine *mc = &m->machine;
	json_object *o;

	json_object_object_add(meta, "cpu_flags", flags_json(m));
	if (!mc->known && !m->cpu_flags_unknown && !m->cpu_flags_from)
		return;
	o = json_object_new_object();
	if (!o)
		return;
	jsonw_put_str(o, "vendor", machine_vendor_name(mc->vendor));
	jsonw_put_str(o, "vendor_id", mc->vendor_id[0] ? mc->vendor_id : NULL);
	put_int(o, "family", mc->known ? mc->family : -1);
	put_int(o, "model", mc->known ? mc->model : -1);
	put_int(o, "stepping", mc->known ? mc->stepping : -1);
	json_object_object_add(o, "flags", flags_json(m));
	jsonw_put_str(o, "flags_from", m->cpu_flags_from);
	if (mc->caches.source)
		json_object_object_add(o, "caches", caches_json(&mc->caches));
	if (mc->tsc_hz > 0) {
		json_object_object_add(o, "tsc_hz", json_object_new_double(mc->tsc_hz));
		jsonw_put_str(o, "tsc_hz_from", mc->tsc_hz_from);
	}
	if (mc->tsc_read)
		json_object_object_add(o, "tsc_invariant",
				       json_object_new_boolean(mc->tsc_invariant));
	json_object_object_add(meta, "machine", o);
}

/* An integer in [0, @max] at @key, else -1. */
static int get_int(json_object *o, const char *key, int max)
{
	uint64_t v;

	return !jsonr_u64(o, key, &v) && v <= (uint64_t)max ? (int)v : -1;
}

/* A constant of ours for a recorded string, so that the struct keeps no allocation. */
static const char *known_word(json_object *o, const char *key, const char *const *words)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	for (; *words; words++)
		if (!strcmp(json_object_get_string(v), *words))
			return *words;
	return NULL;
}

static void caches_get(json_object *o, struct machine_caches *c)
{
	static const char *const sources[] = { "sysfs", "cpuid", NULL };
	json_object *v;

	c->cpu = get_int(o, "cpu", 1 << 20);
	c->l1d = jsonr_u64_or(o, "l1d", 0);
	c->l2 = jsonr_u64_or(o, "l2", 0);
	c->l3 = jsonr_u64_or(o, "l3", 0);
	c->line = (unsigned int)get_int(o, "line", 1 << 16);
	if (c->line == (unsigned int)-1)
		c->line = 0;
	c->l2_cpus = (unsigned int)jsonr_u64_or(o, "l2_cpus", 0);
	c->l3_cpus = (unsigned int)jsonr_u64_or(o, "l3_cpus", 0);
	c->l3_inclusive = -1;
	if (json_object_object_get_ex(o, "l3_inclusive", &v) &&
	    json_object_is_type(v, json_type_boolean))
		c->l3_inclusive = json_object_get_boolean(v);
	c->source = known_word(o, "source", sources);
}

void machine_json_get(json_object *meta, struct host_meta *m)
{
	static const char *const tsc_from[] = { "cpuid 0x15", "hypervisor cpuid 0x40000010", NULL };
	struct machine *mc = &m->machine;
	json_object *o, *v;
	char *s;
	double hz;
	int i;

	m->cpu_flags = jsonr_strv(meta, "cpu_flags", &m->nr_cpu_flags);
	m->cpu_flags_unknown = json_object_object_get_ex(meta, "cpu_flags", &v) && !v;
	memset(mc, 0, sizeof(*mc));
	mc->family = mc->model = mc->stepping = mc->caches.cpu = -1;
	mc->caches.l3_inclusive = -1;
	for (i = 0; i < MACHINE_NR_FLAGS; i++)
		if (host_has_flag(m, machine_flag_name((enum machine_flag)i)))
			mc->flags |= 1u << i;
	if (m->cpu_model)
		snprintf(mc->model_name, sizeof(mc->model_name), "%s", m->cpu_model);
	if (!json_object_object_get_ex(meta, "machine", &o) ||
	    !json_object_is_type(o, json_type_object))
		return;
	if (json_object_object_get_ex(o, "flags", &v) && !v)
		m->cpu_flags_unknown = true;
	m->cpu_flags_from = jsonr_str(o, "flags_from");
	s = jsonr_str(o, "vendor_id");
	if (s)
		snprintf(mc->vendor_id, sizeof(mc->vendor_id), "%s", s);
	free(s);
	s = jsonr_str(o, "vendor");
	mc->vendor = machine_vendor_from_name(s);
	free(s);
	/* The rule is the vendor string's where the file has it (asmref_cpu_vendor_of). */
	if (mc->vendor_id[0])
		mc->vendor = asmref_cpu_vendor_of(mc->vendor_id);
	mc->family = get_int(o, "family", 0x10f);
	mc->model = get_int(o, "model", 0xff);
	mc->stepping = get_int(o, "stepping", 0xf);
	mc->known = mc->vendor != ASMREF_VENDOR_UNKNOWN || mc->family >= 0;
	if (json_object_object_get_ex(o, "caches", &v) && json_object_is_type(v, json_type_object))
		caches_get(v, &mc->caches);
	if (!jsonr_num(o, "tsc_hz", &hz) && hz > 0) {
		mc->tsc_hz = hz;
		mc->tsc_hz_from = known_word(o, "tsc_hz_from", tsc_from);
	}
	if (json_object_object_get_ex(o, "tsc_invariant", &v) &&
	    json_object_is_type(v, json_type_boolean)) {
		mc->tsc_read = true;
		mc->tsc_invariant = json_object_get_boolean(v);
	}
}
