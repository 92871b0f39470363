// SPDX-License-Identifier: GPL-2.0
/* cmd_verify_predict.c: verify's prediction: the estimate's program-level figure for T */
#include <stdio.h>
#include <string.h>
#include "cmd_verify_predict.h"
#include "estimate/estimate_verdict.h"
#include "lib/jsonw.h"
#include "lib/log.h"

#define AGREE_RULE "the predicted and the measured 95% intervals overlap"

/* The glibc family whose knob is x86_rep_movsb_threshold, or NULL. */
static const struct est_family_result *glibc_copy_family(const struct est_report *rep)
{
	size_t i;

	for (i = 0; i < rep->nr_fam; i++) {
		const struct est_family_result *fr = &rep->fam[i];

		if (fr->impls && fr->impls->glibc && fr->impls->tunable &&
		    !strcmp(fr->impls->tunable, "glibc.cpu.x86_rep_movsb_threshold"))
			return fr;
	}
	return NULL;
}

/* The row of threshold @t in @fr: today's (0) when @t is the one the process ran with; or -1. */
static int threshold_row(const struct est_family_result *fr, uint64_t t)
{
	size_t i;

	for (i = 0; i < fr->nr_rows; i++)
		if (fr->rows[i].pol.kind == POLICY_THRESHOLD && fr->rows[i].pol.threshold == t)
			return (int)i;
	return fr->today_knob == t ? 0 : -1;
}

int verify_prediction_load(const char *profile, const char *model, bool threshold_set,
			   uint64_t *threshold, struct verify_prediction *pr)
{
	struct est_run_opts opts = { 0 };
	int row;

	pr->has_profile = true;
	pr->profile = profile;
	est_options_default(&opts.o);
	opts.o.at = *threshold;
	opts.o.at_set = threshold_set;
	if (est_run_load(&pr->run, &opts, &profile, 1, NULL, &model, 1) ||
	    est_run_input(&pr->run, 0, &pr->rep))
		return -1;
	pr->fr = glibc_copy_family(&pr->rep);
	if (!pr->fr || pr->fr->best < 0) {
		p_err("%s: no glibc memcpy/memmove site (a uprobe on glibc's implementation, "
		      "docs/user-targets.md) to predict glibc.cpu.x86_rep_movsb_threshold from",
		      profile);
		return -1;
	}
	row = threshold_set ? threshold_row(pr->fr, *threshold) : est_program_row(pr->fr);
	if (threshold_set && row < 0) {
		p_err("%s: T=%llu is none of the estimate's policies (glibc ignores it)", profile,
		      (unsigned long long)*threshold);
		return -1;
	}
	if (threshold_set && row == 0)
		p_info("T=%llu is the threshold the recorded process ran with: predicted, no "
		       "change",
		       (unsigned long long)*threshold);
	else if (row < 0 || pr->fr->rows[row].pol.kind != POLICY_THRESHOLD ||
		 pr->fr->rows[row].pol.threshold == POLICY_NEVER) {
		p_err("%s: the estimate's best is %s, not a threshold glibc can be given: name one "
		      "with --threshold",
		      profile, row < 0 ? "missing" : pr->fr->rows[row].pol.name);
		return -1;
	}
	if (row)
		*threshold = pr->fr->rows[row].pol.threshold;
	pr->measured_mix = est_verdict(pr->fr) != EST_VERDICT_NOT_MEASURED;
	est_verdict_text(pr->fr, pr->verdict, sizeof(pr->verdict));
	est_program_figure(pr->rep.in, pr->fr, row, &pr->pg);
	pr->recorded = pr->pg;
	return 0;
}

void verify_prediction_untraced(struct verify_prediction *pr, char *const *argv,
				const struct verify_result *r)
{
	const char *rec = pr->has_profile ? pr->rep.in->meta.command : NULL;
	size_t i, at = 0, n;

	if (!rec || !r->pairs)
		return;
	for (i = 0; argv[i]; i++, at += n + 1) {
		n = strlen(argv[i]);
		if ((i && rec[at - 1] != ' ') || strncmp(rec + at, argv[i], n))
			return;
	}
	if (!at || rec[at - 1] != '\0')
		return;
	est_program_untraced(pr->fr, r->cpu_a_median, &pr->pg);
}

/* The predicted interval (lo = hi without one). */
static void predicted_interval(const struct est_program *pg, double *lo, double *hi)
{
	*lo = pg->ci_known ? pg->lo : pg->pct;
	*hi = pg->ci_known ? pg->hi : pg->pct;
}

void verify_prediction_print(FILE *f, const struct verify_prediction *pr, uint64_t threshold,
			     const struct verify_result *r)
{
	char text[EST_PROGRAM_TEXT_LEN];
	double lo, hi;
	bool agree;

	est_program_text(&pr->pg, pr->fr, text, sizeof(text));
	fprintf(f, "  predicted from %s: %s\n", pr->profile, text);
	if (pr->pg.untraced) {
		est_program_text(&pr->recorded, pr->fr, text, sizeof(text));
		fprintf(f, "  over the recording's CPU time instead: %s\n", text);
	}
	if (!pr->pg.known)
		return;
	predicted_interval(&pr->pg, &lo, &hi);
	agree = verify_agree(lo, hi, r->lo, r->hi);
	fprintf(f, "  agree: %s (%s; predicted %+.2f%%, measured %+.2f%%: %.2f points apart)\n",
		agree ? "yes" : "no", AGREE_RULE, pr->pg.pct, r->pct, r->pct - pr->pg.pct);
	fprintf(f,
		"\n  for a commit message:\n\n  T=%llu: predicted %+.2f%% of the program's CPU "
		"time "
		"(copy time %.2f%% of it x %s %+.2f%% of copy time; copyprof estimate), measured "
		"%+.2f%% (95%% CI %+.2f .. %+.2f) over %zu interleaved pairs of runs (copyprof "
		"verify)%s.\n",
		(unsigned long long)threshold, pr->pg.pct, pr->pg.share_pct,
		pr->pg.measured ? "a measured" : "a modelled", pr->pg.copy_pct, r->pct, r->lo,
		r->hi, r->pairs, agree ? "" : "; they disagree");
}

void verify_prediction_json(json_object *o, const struct verify_prediction *pr,
			    const struct verify_result *r)
{
	double lo, hi;

	jsonw_put_str(o, "profile", pr->profile);
	jsonw_put_str(o, "estimate_verdict", pr->verdict);
	jsonw_put_str(o, "predicted_cpu_from", pr->pg.untraced ? "untraced runs" : "recording");
	if (pr->recorded.known)
		json_object_object_add(o, "predicted_recording_pct",
				       json_object_new_double(pr->recorded.pct));
	else
		json_object_object_add(o, "predicted_recording_pct", NULL);
	json_object_object_add(o, "predicted_from_measured_mix",
			       json_object_new_boolean(pr->pg.known && pr->pg.measured));
	if (!pr->pg.known) {
		json_object_object_add(o, "predicted_pct", NULL);
		jsonw_put_str(o, "predicted_why", pr->pg.why);
		return;
	}
	predicted_interval(&pr->pg, &lo, &hi);
	json_object_object_add(o, "predicted_pct", json_object_new_double(pr->pg.pct));
	json_object_object_add(o, "predicted_ci_low", json_object_new_double(lo));
	json_object_object_add(o, "predicted_ci_high", json_object_new_double(hi));
	json_object_object_add(o, "copy_share_pct", json_object_new_double(pr->pg.share_pct));
	jsonw_put_str(o, "copy_share_from",
		      pr->pg.from == EST_SHARE_UNTRACED ? "sampled_untraced"
		      : pr->pg.from == EST_SHARE_TRACED ? "sampled_traced"
							: "modelled");
	if (pr->pg.from != EST_SHARE_MODELLED)
		json_object_object_add(o, "copy_share_samples",
				       json_object_new_uint64(pr->pg.samples));
	json_object_object_add(o, "copy_pct", json_object_new_double(pr->pg.copy_pct));
	json_object_object_add(o, "program_cpu_s", json_object_new_double(pr->pg.own_cpu_s));
	if (!r)
		return;
	json_object_object_add(o, "agree",
			       json_object_new_boolean(verify_agree(lo, hi, r->lo, r->hi)));
	jsonw_put_str(o, "agree_rule", AGREE_RULE);
}

void verify_prediction_free(struct verify_prediction *pr)
{
	if (!pr->has_profile)
		return;
	est_report_free(&pr->rep);
	est_run_free(&pr->run);
}
