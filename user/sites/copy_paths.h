/* SPDX-License-Identifier: GPL-2.0 */
/* copy_paths.h: the asm-ref replica of what the kernel runs today for a copy family */
#ifndef CP_COPY_PATHS_H
#define CP_COPY_PATHS_H

#include <stdbool.h>
#include "lib/host.h"
#include "dispatch.h"

struct copy_path {
	const char *impl; /* asm-ref name, e.g. "memcpy_orig" */
	char why[128];	  /* "kernel 6.12 (>= 6.4) without FSRM" */
	bool approximate; /* the kernel's code is not replicated; impl is the nearest replica */
	bool guessed;	  /* the kernel version was unknown: the newest rules were assumed */
};

/*
 * The replica of what @family ("memcpy", "memmove", "clear_user", "memset") runs today on the
 * kernel and CPU flags of @meta, from probe's dispatch table (dispatch_table.c). Returns 0,
 * -EINVAL for an unknown family, or -ENODATA when @meta's CPU flags are unknown (@out->why
 * says so and @out->impl is NULL).
 */
int copy_path_today(const char *family, const struct host_meta *meta, struct copy_path *out);

/*
 * The replica of what @e (a dispatch entry of @family's routine, e.g. a recorded live
 * dispatch) runs, as copy_path_today() maps the table's. 0, or -EINVAL for an unknown family
 * or an entry without rows.
 */
int copy_path_of(const char *family, const struct dispatch_entry *e, struct copy_path *out);

#endif
