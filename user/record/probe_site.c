// SPDX-License-Identifier: GPL-2.0
/* probe_site.c: resolve and attach a site by its mechanism (uprobe, kprobe, hardware breakpoint) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/elfsyms.h"
#include "lib/buildid.h"
#include "kernel/kfunc_addr.h"
#include "lib/log.h"
#include "probe_site.h"
#include "lib/regs.h"
#include "kernel/srcline.h"

const char *probe_mech_name(enum probe_mech m)
{
	static const char *const names[] = {
		[MECH_UPROBE] = "uprobe",
		[MECH_KPROBE] = "kprobe",
		[MECH_HWBP] = "hwbp",
	};

	return names[m];
}

int probe_site_parse(struct probe_site *s, enum probe_mech mech, const char *text, char *err,
		     size_t errlen)
{
	int ret;

	s->mech = mech;
	if (mech == MECH_UPROBE)
		ret = target_spec_parse(text, &s->spec, err, errlen);
	else
		ret = target_spec_parse_kernel(text, &s->spec, err, errlen);
	if (!ret)
		s->family = copy_family_of_probe(s->spec.symbol, s->spec.len_reg);
	return ret;
}

int probe_site_resolve(struct probe_site *s)
{
	struct elf_func f;
	int err;

	switch (s->mech) {
	case MECH_UPROBE:
		if (s->spec.at_file_offset)
			err = elfsyms_resolve_file_offset(s->spec.path, s->spec.file_offset, &f);
		else
			err = elfsyms_resolve(s->spec.path, s->spec.symbol, s->spec.offset, &f);
		if (err)
			return err;
		/* FILE:0xOFFSET inside a named function becomes FUNC+OFF, as perf names it. */
		if (s->spec.at_file_offset && f.symbol) {
			free(s->spec.symbol);
			s->spec.symbol = f.symbol;
			s->spec.offset = f.offset;
			s->spec.at_file_offset = false;
			f.symbol = NULL;
		}
		s->resolved_path = f.path;
		s->file_offset = f.file_offset;
		if (f.size && f.file_offset >= f.offset) {
			s->func_lo = f.file_offset - f.offset;
			s->func_hi = s->func_lo + f.size;
		}
		s->vaddr = f.vaddr + f.offset;
		f.path = NULL;
		elf_func_free(&f);
		return 0;
	case MECH_KPROBE:
		/* The kernel resolves the name itself and explains a refusal at attach time. */
		return 0;
	case MECH_HWBP:
		/* The planner found the address already (a call site's own). */
		if (s->kaddr)
			return 0;
		err = kfunc_addr_resolve(s->spec.path, s->spec.symbol, &s->kaddr);
		if (err)
			return err;
		s->kaddr += s->spec.offset;
		return 0;
	}
	return -EINVAL;
}

int probe_site_attach(struct probe_site *s, struct hist_session *hs, uint32_t id)
{
	char func[256];
	struct stat st;
	int err;

	err = hist_session_config_site(hs, id, s->spec.len_reg, s->spec.dst_reg, s->spec.src_reg,
				       probe_site_caller_stack(s));
	if (err)
		return err;
	switch (s->mech) {
	case MECH_UPROBE:
		err = hist_session_attach_uprobe(hs, id, s->resolved_path, s->file_offset, &st);
		if (!err) {
			s->file_dev = st.st_dev;
			s->file_ino = st.st_ino;
		}
		return err;
	case MECH_KPROBE:
		/* kprobes name module functions "module:function". */
		snprintf(func, sizeof(func), "%s%s%s", s->spec.path ?: "", s->spec.path ? ":" : "",
			 s->spec.symbol);
		return hist_session_attach_kprobe(hs, id, func, s->spec.offset);
	case MECH_HWBP:
		return hist_session_attach_hwbp(hs, id, s->kaddr);
	}
	return -EINVAL;
}

bool probe_site_counts_callers(const struct probe_site *s)
{
	return !s->spec.offset && !s->callers_off;
}

int probe_site_caller_stack(const struct probe_site *s)
{
	if (!probe_site_counts_callers(s))
		return CP_CALLER_NONE;
	return s->mech == MECH_UPROBE ? CP_CALLER_USER : CP_CALLER_KERNEL;
}

void probe_site_describe(const struct probe_site *s, struct profile_site *out)
{
	const char *target = s->resolved_path ?: s->spec.path ?: "vmlinux";

	out->target = strdup(target);
	out->symbol = strdup(s->spec.symbol);
	out->offset = s->spec.offset;
	out->mechanism = strdup(probe_mech_name(s->mech));
	out->len_arg = strdup(reg_name(s->spec.len_reg));
	out->family = s->family;
	if (s->mech == MECH_UPROBE && s->resolved_path)
		out->source = srcline_lookup(s->resolved_path, s->vaddr);
	if (s->mech != MECH_UPROBE) {
		char id[BUILDID_HEX_MAX];

		out->address = s->kaddr;
		/* So that lines can be found later, on another machine (ksource.h). */
		if (!buildid_kernel(target, id, sizeof(id)))
			out->build_id = strdup(id);
	}
}

void probe_site_free(struct probe_site *s)
{
	target_spec_free(&s->spec);
	free(s->resolved_path);
	free(s->note);
	s->resolved_path = s->note = NULL;
}
