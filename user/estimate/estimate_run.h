/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_run.h: one estimate run: inputs and cost models read, each input estimated */
#ifndef CP_ESTIMATE_RUN_H
#define CP_ESTIMATE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include "costmodel/costmodel.h"
#include "estimate_family.h"
#include "estimate_input.h"
#include "estimate_options.h"
#include "estimate_result.h"

struct profile;

#define EST_MAX_PROFILES 256
#define EST_MAX_MODELS 16

/* What a run is asked for. */
struct est_run_opts {
	struct est_options o;
	bool model_only; /* the cost model's figures only, even where a measurement applies */
	bool match_cpu;	 /* an input whose CPU model has no cost model is refused (-ENOENT) */
};

struct est_run {
	struct est_run_opts opts;
	struct est_input *ins; /* each profile group, then the size table */
	size_t nr_ins;
	struct profile *profile;	  /* the profiles read (merged): @ins borrow its strings */
	const char *const *profile_paths; /* as given: the command that adds corrections */
	size_t nr_profile_paths;
	const char *hist_path;
	struct costmodel *models[EST_MAX_MODELS];
	const char *model_names[EST_MAX_MODELS];
	size_t nr_models;
};

/* One input's estimate, as the output prints it (docs/estimate.md). */
struct est_report {
	const struct est_input *in;
	const struct costmodel *m;
	const char *model_name;
	const struct est_options *o;
	struct est_family_result fam[EST_NR_FAMILIES];
	size_t nr_fam;
};

/*
 * Starts @run with @opts (--at added to the candidates): reads the @nr_profiles profiles
 * (merged if more than one) and the size table @hist (or NULL) into inputs, then the cost
 * models @models (none: the caller adds one with est_run_add_model()). Returns 0, or -errno
 * after printing why; est_run_free() either way.
 */
int est_run_load(struct est_run *run, const struct est_run_opts *opts, const char *const *profiles,
		 size_t nr_profiles, const char *hist, const char *const *models, size_t nr_models);
/* Adds @m (taken over) as the next cost model, named @name. Returns 0 or -E2BIG. */
int est_run_add_model(struct est_run *run, struct costmodel *m, const char *name);
/* Reads only the inputs (no cost model: the caller adds one). Returns 0 or -errno. */
int est_run_read(struct est_run *run, const struct est_run_opts *opts, const char *const *profiles,
		 size_t nr_profiles, const char *hist);
/*
 * est_run_load() for a profile built in memory (estimate --prometheus: fleet/), which @run
 * takes over; @name says what it is in the output.
 */
int est_run_load_profile(struct est_run *run, const struct est_run_opts *opts, struct profile *p,
			 const char *name, const char *const *models, size_t nr_models);
/*
 * Estimates input @i with the cost model measured on its CPU (else the first): every family
 * it has calls of (or the one asked for), modelled, and, where the model stores a paired
 * measurement of this very mix (calibrate --mix), answered by that measurement with the model
 * beside it; otherwise modelled only, with the command that measures it. A pure function of
 * the inputs: it times nothing. Returns 0, or -errno after printing why; est_report_free()
 * either way.
 */
int est_run_input(struct est_run *run, size_t i, struct est_report *r);
void est_report_free(struct est_report *r);
void est_run_free(struct est_run *run);

#endif
