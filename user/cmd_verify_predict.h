/* SPDX-License-Identifier: GPL-2.0 */
/* cmd_verify_predict.h: verify's prediction: the estimate's program-level figure for T */
#ifndef CP_CMD_VERIFY_PREDICT_H
#define CP_CMD_VERIFY_PREDICT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>
#include "estimate/estimate_program.h"
#include "estimate/estimate_run.h"
#include "measure/verify_run.h"

struct verify_prediction {
	bool has_profile;
	const char *profile;
	struct est_run run;
	struct est_report rep;
	const struct est_family_result *fr; /* the glibc memcpy family's */
	bool measured_mix;		    /* the estimate answers from a paired measurement */
	char verdict[768];
	struct est_program pg;	     /* at the threshold run: the one compared */
	struct est_program recorded; /* ... over the recording's own CPU time */
};

/*
 * Estimates @profile with @model (estimate's own pipeline: it times nothing) and finds its
 * glibc memcpy/memmove family. With @threshold_set, the figure at *@threshold; else
 * *@threshold becomes the estimate's best (est_program_row()), which must be a threshold.
 * 0, or -1 (said).
 */
int verify_prediction_load(const char *profile, const char *model, bool threshold_set,
			   uint64_t *threshold, struct verify_prediction *pr);
/*
 * When @argv is the command the profile recorded (meta.command, the same words), the
 * prediction's CPU time becomes the one measured here without probes (the median run without
 * the threshold, @r->cpu_a_median); the recording's figure is kept beside it.
 */
void verify_prediction_untraced(struct verify_prediction *pr, char *const *argv,
				const struct verify_result *r);
/* The predicted figure, the measured one beside it, whether they agree, a commit line. */
void verify_prediction_print(FILE *f, const struct verify_prediction *pr, uint64_t threshold,
			     const struct verify_result *r);
/* predicted_pct (null when not known, with predicted_why), its interval, agree (with @r). */
void verify_prediction_json(json_object *o, const struct verify_prediction *pr,
			    const struct verify_result *r);
void verify_prediction_free(struct verify_prediction *pr);

#endif
