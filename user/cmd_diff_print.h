/* SPDX-License-Identifier: GPL-2.0 */
/* cmd_diff_print.h: what `copyprof diff` found, as text or as JSON (docs/diff.md) */
#ifndef CP_CMD_DIFF_PRINT_H
#define CP_CMD_DIFF_PRINT_H

#include <stdbool.h>
#include <stdio.h>
#include <json-c/json.h>
#include "profile/profile_diff.h"

struct diff_print_opts {
	const char *names[2]; /* the files */
	const char *model;    /* the cost model's file, or NULL */
	const char *cache;    /* its cache state's label */
	bool all;	      /* every site and bucket, not only those that changed */
	bool no_change;	      /* nothing differs */
};

void diff_print_text(FILE *f, const struct profile_diff *d, const struct diff_print_opts *o);
json_object *diff_print_json(const struct profile_diff *d, const struct diff_print_opts *o);

#endif
