// SPDX-License-Identifier: GPL-2.0
/* estimate_program.c: what a threshold does to the traced program's CPU time, not only its copies */
#include <stdio.h>
#include <string.h>
#include "estimate_program.h"

int est_program_row(const struct est_family_result *fr)
{
	return fr->best > 0 ? fr->best : fr->at;
}

/* The figure of row @out->row over the own CPU time @out->own_cpu_s, once that is set. */
static void program_fill(const struct est_family_result *fr, struct est_program *out)
{
	const struct est_row *w = &fr->rows[out->row];

	if (out->from == EST_SHARE_MODELLED)
		out->copy_s = fr->rows[0].total_ns / 1e9;
	if (!(out->own_cpu_s > 0)) {
		snprintf(out->why, sizeof(out->why),
			 "the program's own CPU time is 0 (%.3f s recorded, %.3f s of it the "
			 "probes'): measure it untraced, as copyprof verify does",
			 out->cpu_s, out->probe_cpu_s);
		out->known = false;
		return;
	}
	out->share_pct = 100 * out->copy_s / out->own_cpu_s;
	out->measured = w->measured;
	out->copy_pct = w->delta_pct;
	out->pct = out->share_pct * w->delta_pct / 100;
	out->ci_known = w->ci_known;
	out->lo = out->share_pct * w->ci_low / 100;
	out->hi = out->share_pct * w->ci_high / 100;
	out->known = true;
}

void est_program_figure(const struct est_input *in, const struct est_family_result *fr, int row,
			struct est_program *out)
{
	const struct host_meta *m = &in->meta;

	memset(out, 0, sizeof(*out));
	out->row = row;
	if (!fr->nr_rows || row < 0 || (size_t)row >= fr->nr_rows) {
		snprintf(out->why, sizeof(out->why), "no threshold to apply");
		return;
	}
	if (!m->cpu_known) {
		snprintf(out->why, sizeof(out->why),
			 "the profile holds no CPU time of the recorded program (recorded before "
			 "copyprof stored it, a merge, an import or the fleet): record it again");
		return;
	}
	out->cpu_s = m->cpu_s;
	out->probe_cpu_s = m->probe_cpu_s;
	out->own_cpu_s = m->cpu_s - m->probe_cpu_s;
	if (m->copy_share.known) {
		/* Sampled: the traps' samples are apart, so no estimate of their cost is needed. */
		out->from = EST_SHARE_TRACED;
		out->samples = m->copy_share.copy + m->copy_share.own;
		out->copy_s = (double)m->copy_share.copy / m->copy_share.hz;
		out->own_cpu_s = (double)out->samples / m->copy_share.hz;
	}
	program_fill(fr, out);
}

void est_program_untraced_share(const struct est_family_result *fr, uint64_t copy, uint64_t own,
				struct est_program *pg)
{
	if (!pg->untraced || !(copy + own))
		return;
	pg->from = EST_SHARE_UNTRACED;
	pg->samples = copy + own;
	pg->copy_s = pg->own_cpu_s * (double)copy / (double)(copy + own);
	program_fill(fr, pg);
}

void est_program_untraced(const struct est_family_result *fr, double own_cpu_s,
			  struct est_program *pg)
{
	if (!fr->nr_rows || pg->row < 0 || (size_t)pg->row >= fr->nr_rows)
		return;
	pg->untraced = true;
	/* A sampled share stays the share: the copies' seconds follow the untraced time. */
	if (pg->from != EST_SHARE_MODELLED && pg->own_cpu_s > 0)
		pg->copy_s = own_cpu_s * pg->copy_s / pg->own_cpu_s;
	pg->own_cpu_s = own_cpu_s;
	program_fill(fr, pg);
}

void est_program_text(const struct est_program *pg, const struct est_family_result *fr, char *buf,
		      size_t len)
{
	char ci[96] = "no interval", own[200];

	if (!pg->known) {
		snprintf(buf, len, "not known: %s", pg->why);
		return;
	}
	if (pg->ci_known)
		snprintf(ci, sizeof(ci), "95%% CI %+.2f .. %+.2f", pg->lo, pg->hi);
	if (pg->from == EST_SHARE_UNTRACED)
		snprintf(own, sizeof(own),
			 "measured untraced: the median run without the threshold; the copies' "
			 "share sampled in those runs, %llu samples",
			 (unsigned long long)pg->samples);
	else if (pg->untraced)
		snprintf(own, sizeof(own),
			 "measured untraced: the median run without the threshold");
	else if (pg->from == EST_SHARE_TRACED)
		snprintf(own, sizeof(own),
			 "sampled while recorded, %llu samples, the uprobes' traps left out; "
			 "the traps slow the copies after them more than the rest: read the share "
			 "as high; copyprof verify samples it untraced",
			 (unsigned long long)pg->samples);
	else
		snprintf(own, sizeof(own), "%.3f s recorded less %.3f s of uprobe traps%s",
			 pg->cpu_s, pg->probe_cpu_s,
			 pg->probe_cpu_s > EST_PROGRAM_TRAP_SHARE * pg->cpu_s
				 ? ", most of it: a difference of two near numbers, uncertain; "
				   "copyprof verify measures it untraced"
				 : "");
	snprintf(
		buf, len,
		"copy time is %.2f%% of the program's CPU (%.4f s of copies today, %s, over "
		"%.4f s of its own CPU: %s); %s would change the program's CPU by %+.2f%% (%s) (%s "
		"change of copy time %+.2f%% x %.2f%%)",
		pg->share_pct, pg->copy_s, pg->from == EST_SHARE_MODELLED ? "modelled" : "sampled",
		pg->own_cpu_s, own, fr->rows[pg->row].pol.name, pg->pct, ci,
		pg->measured ? "measured" : "modelled", pg->copy_pct, pg->share_pct);
}
