// SPDX-License-Identifier: GPL-2.0
/* glibc_rules.c: each known glibc version's rules for its x86 string thresholds on a CPU */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "glibc_rules.h"

#define MIB (1024ull * 1024)

/*
 * Oldest first. 2.36: Debian 12's (2.36-9+deb12u14, whose stable branch carries the "shared/4,
 * at least 3/4 of a thread's share" non-temporal rule). 2.40: 0c0d39fe4a (BZ 30994: AMD's
 * REP MOVSB threshold and every vendor's stop threshold = the non-temporal threshold),
 * 272708884c (AMD's REP STOSB off unless tuned), the non-temporal divisor by Intel
 * microarchitecture and x86_memset_non_temporal_threshold (Intel). 2.41: the memset
 * non-temporal threshold on AMD too, Avoid_STOSB (f446d90fe6). Checked against ld.so
 * --list-tunables of Debian's 2.36 and 2.41 on this project's Intel and AMD machines.
 */
static const struct glibc_rules rules[] = {
	{ .major = 2, .minor = 36, .read_in = "glibc 2.36 (Debian 12)" },
	{ .major = 2,
	  .minor = 40,
	  .amd_movsb_is_nt = true,
	  .stop_is_nt = true,
	  .amd_stosb_never = true,
	  .nt_divisor_by_model = true,
	  .memset_nt_intel = true,
	  .read_in = "glibc 2.40 (0c0d39fe4a, 272708884c)" },
	{ .major = 2,
	  .minor = 41,
	  .amd_movsb_is_nt = true,
	  .stop_is_nt = true,
	  .amd_stosb_never = true,
	  .nt_divisor_by_model = true,
	  .memset_nt_intel = true,
	  .memset_nt_amd = true,
	  .avoid_stosb = true,
	  .read_in = "glibc 2.41 (Debian 13)" },
};
#define NR_RULES (sizeof(rules) / sizeof(rules[0]))

const struct glibc_rules *glibc_rules_find(unsigned int major, unsigned int minor, bool *exact)
{
	const struct glibc_rules *best = &rules[0];
	size_t i;

	*exact = false;
	for (i = 0; i < NR_RULES; i++) {
		if (rules[i].major > major || (rules[i].major == major && rules[i].minor > minor))
			break;
		best = &rules[i];
	}
	*exact = best->major == major && best->minor == minor;
	return best;
}

const char *glibc_rules_known(void)
{
	static char buf[64];
	size_t i, n = 0;

	if (buf[0])
		return buf;
	for (i = 0; i < NR_RULES && n < sizeof(buf); i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%u.%u", i ? ", " : "",
				      rules[i].major, rules[i].minor);
	return buf;
}

static void set(struct glibc_value *v, uint64_t value, const char *fmt, ...)
{
	va_list ap;

	v->known = true;
	v->value = value;
	va_start(ap, fmt);
	vsnprintf(v->why, sizeof(v->why), fmt, ap);
	va_end(ap);
}

static void unknown(struct glibc_value *v, const char *why)
{
	v->known = false;
	v->value = 0;
	snprintf(v->why, sizeof(v->why), "%s", why);
}

/* init_cpu_features: Intel family 6 models whose divisor is not the default 4. */
static unsigned int intel_nt_divisor(const struct machine *m)
{
	static const int by8[] = { 0x1a, 0x1e, 0x1f, 0x2e, 0x25, 0x2c, 0x2f, 0x2a, 0x2d, 0x3a,
				   0x3e, 0x3c, 0x3f, 0x45, 0x46, 0x3d, 0x47, 0x4f, 0x56 };
	static const int by2[] = { 0x4e, 0x5e, 0x8e, 0x9e, 0xa5, 0xa6, 0x55, 0x66, 0x6a, 0x6c, 0x7d,
				   0x7e, 0x9d, 0x8c, 0x8d, 0xa7, 0x8f, 0xb7, 0xba, 0xbf, 0xcf, 0xaa,
				   0xac, 0xbd, 0xc6, 0xad, 0xae, 0x8a, 0x97, 0x9a, 0xbe };
	size_t i;

	if (m->family != 6)
		return 4;
	for (i = 0; i < sizeof(by8) / sizeof(by8[0]); i++)
		if (m->model == by8[i])
			return 8;
	for (i = 0; i < sizeof(by2) / sizeof(by2[0]); i++)
		if (m->model == by2[i])
			return 2;
	return 4;
}

/* dl_init_cacheinfo's non-temporal threshold: shared / divisor, at least 3/4 of a thread's. */
static void non_temporal(const struct glibc_rules *r, const struct machine *m,
			 struct glibc_value *v)
{
	const struct machine_caches *c = &m->caches;
	uint64_t shared, per_thread, nt, low;
	unsigned int div = 4;
	char how[120];

	if (m->vendor == ASMREF_VENDOR_AMD) {
		shared = c->l3 ? c->l3 : c->l2;
		if (c->l3 && m->family >= 0 && m->family < 0x17)
			shared += c->l2; /* exclusive L2 and L3 before Zen */
		per_thread = shared;
		snprintf(how, sizeof(how), "AMD: L3 %llu MiB", (unsigned long long)(shared / MIB));
	} else if (m->vendor == ASMREF_VENDOR_INTEL) {
		if (!c->l3 || !c->l3_cpus) {
			unknown(v, "the L3's size or the CPUs sharing it are not recorded");
			return;
		}
		shared = c->l3;
		per_thread = c->l3 / c->l3_cpus;
		if (c->l3_inclusive == 0) { /* glibc counts a non-inclusive L2 as well */
			shared += c->l2;
			per_thread += c->l2_cpus ? c->l2 / c->l2_cpus : c->l2;
		}
		div = r->nt_divisor_by_model ? intel_nt_divisor(m) : 4;
		snprintf(how, sizeof(how), "Intel: (L3 %llu MiB%s) / %u, L3 shared by %u CPUs",
			 (unsigned long long)(c->l3 / MIB), c->l3_inclusive == 0 ? " + L2" : "",
			 div, c->l3_cpus);
	} else {
		unknown(v, "glibc's cache rule of this vendor is not modelled");
		return;
	}
	if (!shared) {
		unknown(v, "the machine block records no L2 or L3 size");
		return;
	}
	nt = shared / div;
	low = per_thread * 3 / 4;
	if (nt < low || !(m->flags & (1u << MACHINE_ERMS)))
		nt = low;
	if (nt < 0x4040)
		nt = 64 * MIB;
	set(v, nt, "%u.%u's rule, %s: max(shared / %u, 3/4 of a thread's share)", r->major,
	    r->minor, how, div);
}

void glibc_rules_defaults(const struct glibc_rules *r, const struct machine *m,
			  const struct asmref_cpu *vec, struct glibc_defaults *out)
{
	bool amd = m->vendor == ASMREF_VENDOR_AMD, intel = m->vendor == ASMREF_VENDOR_INTEL;
	bool fsrm = m->flags & (1u << MACHINE_FSRM);
	const struct glibc_value *nt = &out->non_temporal;

	memset(out, 0, sizeof(*out));
	if (!m->known) {
		unknown(&out->rep_movsb, "the profile records no machine");
		out->stop = out->non_temporal = out->rep_stosb = out->memset_non_temporal =
			out->rep_movsb;
		return;
	}
	non_temporal(r, m, &out->non_temporal);

	if (amd && r->amd_movsb_is_nt) {
		out->rep_movsb = *nt;
		if (nt->known)
			set(&out->rep_movsb, nt->value,
			    "%u.%u's rule on AMD: the non-temporal threshold (%.120s)", r->major,
			    r->minor, nt->why);
	} else if (fsrm) {
		set(&out->rep_movsb, 2112, "%u.%u's rule with FSRM: 2112", r->major, r->minor);
	} else if (vec) {
		bool no512 = intel && !vec->avx512er && !vec->avx_vnni;
		uint64_t t = vec->avx512f && !no512 ? 16384 : vec->avx2 ? 8192 : 2048;

		set(&out->rep_movsb, t, "%u.%u's rule without FSRM: 4096 x VEC / 16 (%llu)",
		    r->major, r->minor, (unsigned long long)t);
	} else {
		unknown(&out->rep_movsb, "without FSRM it follows the vector width glibc picks, "
					 "which the profile does not record");
	}

	if (r->stop_is_nt || !amd) {
		out->stop = *nt;
	} else if (m->caches.l2) {
		set(&out->stop, m->caches.l2, "%u.%u's rule on AMD: the L2 size", r->major,
		    r->minor);
	} else {
		unknown(&out->stop, "the L2's size is not recorded");
	}

	if (amd && r->amd_stosb_never)
		set(&out->rep_stosb, UINT64_MAX, "%u.%u's rule on AMD: never (SIZE_MAX)", r->major,
		    r->minor);
	else
		set(&out->rep_stosb, 2048, "%u.%u's rule: 2048", r->major, r->minor);

	if ((intel && r->memset_nt_intel) || (amd && r->memset_nt_amd))
		out->memset_non_temporal = *nt;
	else
		set(&out->memset_non_temporal, UINT64_MAX,
		    "%u.%u: memset uses no non-temporal "
		    "stores on this vendor",
		    r->major, r->minor);
}
