// SPDX-License-Identifier: GPL-2.0
/* estimate_today.c: today's code of a family, from facts only: --today, the probe, the kernel */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "asmref.h"
#include "asmref_glibc.h"
#include "profile/profile_glibc.h"
#include "estimate_options.h"
#include "estimate_today.h"
#include "lib/log.h"
#include "lib/machine.h"

const char *est_today_from_name(enum est_today_from f)
{
	static const char *const names[] = { "given", "probed", "kernel", "ifunc_rule" };

	return f < sizeof(names) / sizeof(names[0]) ? names[f] : "?";
}

/* --today glibc: the replica of what the IFUNC of the input's glibc picks on its CPU. */
static int today_by_ifunc(const struct est_input *in, enum copy_family f,
			  const struct machine *model_cpu, struct copy_path *today,
			  struct est_today_src *src)
{
	const struct est_family_impls *fi = est_family(f);
	const struct machine *m = &in->meta.machine;
	const struct profile_glibc *g = in->glibc;
	struct asmref_glibc_choice ch;
	const struct glibc_rules *r;
	struct asmref_cpu vec;
	char version[64];
	bool exact;

	if (f != CF_MEMCPY && f != CF_MEMMOVE && f != CF_MEMSET) {
		p_err("%s: --today " EST_TODAY_GLIBC " names glibc's memcpy, memmove and memset, "
		      "not %s",
		      in->name, fi->name);
		return -ENOENT;
	}
	if (!m->known && model_cpu && model_cpu->known)
		m = model_cpu;
	r = glibc_rules_find(g && g->major ? g->major : 2, g && g->major ? g->minor : 0, &exact);
	if (g && g->major && exact)
		snprintf(version, sizeof(version), "glibc %u.%u", r->major, r->minor);
	else if (g && g->major)
		snprintf(version, sizeof(version), "glibc %u.%u (not known: %u.%u's rule)",
			 g->major, g->minor, r->major, r->minor);
	else
		snprintf(version, sizeof(version), "glibc version not recorded: %u.%u's rule",
			 r->major, r->minor);
	/* The machine block records no vector features: only this CPU's are read (CPUID). */
	if (!m->known || !machine_same_cpu(m, machine_this())) {
		p_err("%s: --today " EST_TODAY_GLIBC
		      " (%s): glibc's IFUNC decides by AVX2, AVX-512 "
		      "and RTM, %s; only this machine's are read: give the replica with --today "
		      "(e.g. glibc_memmove_avx512)",
		      in->name, version,
		      !m->known ? "and neither the input nor the cost model records its machine"
				: "which the machine block of another CPU does not record");
		return -ENOENT;
	}
	asmref_cpu_detect(&vec);
	asmref_glibc_choose_in(&vec, f == CF_MEMSET ? ASMREF_GLIBC_MEMSET : ASMREF_GLIBC_MEMMOVE,
			       r->minor, &ch);
	if (!ch.replica) {
		p_err("%s: %s's IFUNC picks %s on this CPU (%s), whose code copyprof does not "
		      "replicate: give today's code with --today IMPL",
		      in->name, version, ch.glibc_symbol ?: "an implementation not modelled",
		      ch.why);
		return -ENOENT;
	}
	today->impl = ch.replica->name;
	snprintf(today->why, sizeof(today->why), "%.40s, glibc %u.%u's IFUNC rule for %s",
		 ch.glibc_symbol, r->major, r->minor,
		 m == model_cpu ? "the cost model's CPU" : "this CPU");
	if (src) {
		src->from = EST_TODAY_FROM_IFUNC_RULE;
		src->glibc_symbol = ch.glibc_symbol;
		snprintf(src->rule, sizeof(src->rule),
			 "%.60s: %.150s; assumed: no glibc.cpu.hwcaps tunable", version, ch.why);
	}
	return 0;
}

int est_today_of(const struct est_input *in, enum copy_family f, const char *given,
		 const struct machine *model_cpu, struct copy_path *today,
		 struct est_today_src *src)
{
	const struct est_family_impls *fi = est_family(f);
	struct est_today_src none;
	const char *fn = NULL;
	size_t i;

	memset(today, 0, sizeof(*today));
	src = src ?: &none;
	memset(src, 0, sizeof(*src));
	if (given && !strcmp(given, EST_TODAY_GLIBC))
		return today_by_ifunc(in, f, model_cpu, today, src);
	if (given) {
		today->impl = asmref_find(given) ? asmref_find(given)->name : fi->loop;
		snprintf(today->why, sizeof(today->why), "given with --today");
		src->from = EST_TODAY_FROM_GIVEN;
		return 0;
	}
	for (i = 0; i < in->nr_sites; i++) {
		if (in->sites[i].family != f)
			continue;
		if (!in->sites[i].user) {
			fn = NULL;
			break;
		}
		fn = fn ?: in->sites[i].symbol ?: "?";
	}
	if (!fn) {
		src->from = EST_TODAY_FROM_KERNEL;
		if (copy_path_today(fi->name, &in->meta, today) == -ENODATA) {
			p_err("%s: today's code of %s is unknown: %s; say what this kernel runs "
			      "with "
			      "--today IMPL (e.g. --today movsb on a CPU with FSRM, --today "
			      "memcpy_orig without; copyprof calibrate --help lists them)",
			      in->name, fi->name, today->why);
			return -ENOENT;
		}
		return 0;
	}
	src->from = EST_TODAY_FROM_PROBED;
	if (asmref_glibc_replica_of(fn)) {
		today->impl = asmref_glibc_replica_of(fn)->name;
		src->glibc_symbol = fn;
		snprintf(today->why, sizeof(today->why),
			 "the probed function %.60s is glibc's code", fn);
		return 0;
	}
	if (!asmref_find(fn)) {
		p_err("%s: the %s sites are uprobes on %s, whose code copyprof does not replicate: "
		      "say what it runs with --today IMPL (an asm-ref replica, e.g. libc_memcpy "
		      "for "
		      "a function that calls glibc's memcpy; copyprof calibrate --help lists them)",
		      in->name, fi->name, fn);
		return -ENOENT;
	}
	today->impl = asmref_find(fn)->name;
	snprintf(today->why, sizeof(today->why), "the probed function %.40s is this replica", fn);
	return 0;
}

/* What the default of glibc @t means on AMD from 2.40 on: no REP MOVSB in memcpy at all. */
static void amd_note(const struct est_glibc_today *t, const struct glibc_defaults *d,
		     const struct machine *m, bool movsb, char *buf, size_t len)
{
	const struct glibc_rules *r;
	bool exact;

	buf[0] = '\0';
	if (!movsb || m->vendor != ASMREF_VENDOR_AMD)
		return;
	r = glibc_rules_find(t->rules_major, t->rules_minor, &exact);
	if (!r->amd_movsb_is_nt || !d->non_temporal.known)
		return;
	snprintf(buf, len,
		 "glibc %u.%u on AMD already avoids REP MOVSB in memcpy by default: its threshold "
		 "is the non-temporal threshold (%llu), above which it streams instead; a lower "
		 "x86_rep_movsb_threshold T brings REP MOVSB back for T < n < %llu",
		 t->rules_major, t->rules_minor, (unsigned long long)d->non_temporal.value,
		 (unsigned long long)d->stop.value);
}

int est_today_glibc(const struct est_input *in, const struct est_family_impls *fi,
		    const struct machine *model_cpu, struct est_glibc_today *out)
{
	const struct profile_glibc *g = in->glibc;
	bool movsb = fi->string_op && !strcmp(fi->string_op, "REP MOVSB");
	const struct machine *m = &in->meta.machine;
	const struct glibc_rules *r;
	struct glibc_defaults d;
	struct asmref_cpu vec, *vp = NULL;

	memset(out, 0, sizeof(*out));
	if (!m->known && model_cpu && model_cpu->known) {
		m = model_cpu;
		out->model_cpu = true;
	}
	if (g) {
		out->major = g->major;
		out->minor = g->minor;
	}
	r = glibc_rules_find(out->major ?: 2, out->major ? out->minor : 0, &out->rules_exact);
	out->rules_major = r->major;
	out->rules_minor = r->minor;
	/* The vector width matters only without FSRM, and is read only on the CPU itself. */
	if (m->known && machine_same_cpu(m, machine_this())) {
		asmref_cpu_detect(&vec);
		vp = &vec;
	}
	glibc_rules_defaults(r, m, vp, &d);
	out->defaults = d;
	out->rule = movsb ? d.rep_movsb : d.rep_stosb;
	amd_note(out, &d, m, movsb, out->note, sizeof(out->note));
	if (g && g->rep_movsb_threshold.present) {
		out->knob = movsb ? g->rep_movsb_threshold.value : g->rep_stosb_threshold.value;
		out->dflt = movsb ? g->movsb_default : g->stosb_default;
		out->from =
			out->knob == out->dflt ? EST_GLIBC_FROM_DEFAULT : EST_GLIBC_FROM_TUNABLES;
		return 0;
	}
	if (!out->rule.known) {
		p_err("%s: today's %s is not recorded and glibc %u.%u's rule cannot give it: %s%s "
		      "(a recording of the process with copyprof record reads it from its own "
		      "loader)",
		      in->name, fi->tunable, r->major, r->minor, out->rule.why,
		      m->known ? "" : ", nor does the cost model");
		return -ENOENT;
	}
	out->knob = out->dflt = out->rule.value;
	out->from = EST_GLIBC_FROM_RULE;
	return 0;
}
