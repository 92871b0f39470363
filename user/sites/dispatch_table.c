// SPDX-License-Identifier: GPL-2.0
/* dispatch_table.c: the documented kernel version x CPU flags table of copy-routine dispatch */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dispatch.h"
#include "lib/host.h"

/*
 * Sources: docs/kernel-targets.md, which cites the commits in kernel-facts.md sections 1-3.
 * The last alternative that applies wins, as in the kernel's ALTERNATIVE_2/_3.
 */

#define V(major, minor) ((major)*1000 + (minor))
#define N DISPATCH_NO_MAX

bool dispatch_parse_release(const char *release, int *major, int *minor)
{
	return release && sscanf(release, "%d.%d", major, minor) == 2;
}

void dispatch_cpu_from_meta(const struct host_meta *m, int major, int minor,
			    struct dispatch_cpu *cpu)
{
	cpu->erms = host_has_flag(m, "erms");
	cpu->fsrm = host_has_flag(m, "fsrm");
	cpu->rep_good = host_has_flag(m, "rep_good");
	cpu->fsrs = host_has_flag(m, "fsrs") ||
		    (host_is_amd(m) && cpu->fsrm && V(major, minor) >= V(6, 4));
}

static void add_row(struct dispatch_entry *e, uint64_t min, uint64_t max, const char *code,
		    const char *op)
{
	if (e->nr_rows == DISPATCH_MAX_ROWS)
		return;
	e->rows[e->nr_rows++] = (struct dispatch_row){ min, max, strdup(code), op };
}

static void set_note(struct dispatch_entry *e, const char *note)
{
	free(e->note);
	e->note = note ? strdup(note) : NULL;
}

static void memcpy_like_rows(struct dispatch_entry *e, const char *entry, const char *helper,
			     const char *inline_op, const char *erms_op)
{
	char code[64];

	if (!strcmp(helper, "inline")) {
		snprintf(code, sizeof(code), "%s (inline)", entry);
		add_row(e, 0, N, code, inline_op);
	} else {
		/* memcpy_erms/memset_erms are one rep string op for every length, even 1. */
		add_row(e, 0, N, helper, strstr(helper, "_erms") ? erms_op : NULL);
	}
}

static void memmove_rows(struct dispatch_entry *e, const char *helper)
{
	if (!strcmp(helper, "rep movsb")) {
		add_row(e, 0, N, "__memmove (inline)", "rep movsb");
	} else if (!strcmp(helper, "rep movsb>=32")) {
		add_row(e, 0, 31, "__memmove tail code", NULL);
		add_row(e, 32, N, "__memmove (inline)", "rep movsb");
	} else {
		add_row(e, 0, 31, "__memmove tail code", NULL);
		add_row(e, 32, N, "__memmove 32-byte loop", NULL);
	}
	set_note(e, "forward copies; a backward (overlapping, dst > src) memmove always runs the "
		    "loop code, never rep movsb");
}

static void clear_user_rows(struct dispatch_entry *e, const char *helper, const char *inline_op)
{
	if (!strcmp(helper, "inline")) {
		add_row(e, 0, N, "clear_user (inline)", inline_op ?: "rep stosb");
	} else if (!strcmp(helper, "rep_stos_alternative")) {
		add_row(e, 0, 7, "rep_stos_alternative byte loop", NULL);
		add_row(e, 8, 63, "rep_stos_alternative 8-byte loop", NULL);
		add_row(e, 64, N, "rep_stos_alternative 64-byte movq loop", NULL);
	} else if (!strcmp(helper, "clear_user_erms")) {
		add_row(e, 0, 63, "clear_user_original (from clear_user_erms)", NULL);
		add_row(e, 64, N, "clear_user_erms", "rep stosb");
	} else if (!strcmp(helper, "clear_user_rep_good")) {
		add_row(e, 0, 63, "clear_user_original (from clear_user_rep_good)", NULL);
		add_row(e, 64, N, "clear_user_rep_good", "rep stosq + rep stosb");
	} else if (!strcmp(helper, "clear_user_original")) {
		add_row(e, 0, N, "clear_user_original movq loop", NULL);
	} else {
		add_row(e, 0, N, "__clear_user C movq loop", NULL);
	}
}

static void copy_user_rows(int major, int minor, const struct dispatch_cpu *cpu,
			   struct dispatch_entry *e, const char *helper, const char *inline_op)
{
	if (!strcmp(helper, "inline")) {
		add_row(e, 0, N, "copy_user_generic (inline)", inline_op ?: "rep movsb");
	} else if (!strcmp(helper, "rep_movs_alternative")) {
		add_row(e, 0, 7, "rep_movs_alternative byte loop", NULL);
		add_row(e, 8, 63, "rep_movs_alternative 8-byte loop", NULL);
		if (cpu->erms)
			add_row(e, 64, N, "rep_movs_alternative", "rep movsb");
		else if (V(major, minor) >= V(6, 15))
			add_row(e, 64, N, "rep_movs_alternative, destination aligned first",
				"rep movsq + bytes");
		else if (V(major, minor) >= V(6, 6))
			/* The alignment (b5322b6ec06a) is in 6.15, and backported to 6.12.23. */
			add_row(e, 64, N,
				V(major, minor) == V(6, 12) ? "rep_movs_alternative (destination "
							      "aligned first from 6.12.23)"
							    : "rep_movs_alternative",
				"rep movsq + bytes");
		else
			add_row(e, 64, N, "rep_movs_alternative 64-byte unrolled loop", NULL);
	} else if (!strcmp(helper, "copy_user_enhanced_fast_string")) {
		/* From 5.17 (244122b4d2e5) FSRM patches out the short-length check. */
		if (cpu->fsrm && V(major, minor) >= V(5, 17)) {
			add_row(e, 0, N, helper, "rep movsb");
		} else {
			add_row(e, 0, 63, "copy_user_enhanced_fast_string 8-byte loop", NULL);
			add_row(e, 64, N, helper, "rep movsb");
		}
	} else if (!strcmp(helper, "copy_user_generic_string")) {
		add_row(e, 0, 7, "copy_user_generic_string byte loop", NULL);
		add_row(e, 8, N, helper, "rep movsq + rep movsb");
	} else {
		add_row(e, 0, N, "copy_user_generic_unrolled 64-byte loop", NULL);
	}
}

void dispatch_helper_rows(int major, int minor, const struct dispatch_cpu *cpu, enum copy_family r,
			  const char *helper, const char *inline_op, struct dispatch_entry *e)
{
	size_t i;

	for (i = 0; i < e->nr_rows; i++)
		free(e->rows[i].code);
	e->nr_rows = 0;
	e->routine = copy_family_name(r);
	switch (r) {
	case CF_MEMCPY:
		memcpy_like_rows(e, "__memcpy", helper, inline_op, "rep movsb");
		break;
	case CF_MEMSET:
		memcpy_like_rows(e, "__memset", helper, inline_op, "rep stosb");
		break;
	case CF_MEMMOVE:
		memmove_rows(e, helper);
		break;
	case CF_CLEAR_USER:
		clear_user_rows(e, helper, inline_op);
		break;
	default:
		copy_user_rows(major, minor, cpu, e, helper, inline_op);
	}
}

void dispatch_table_entry(int major, int minor, const struct dispatch_cpu *cpu, enum copy_family r,
			  struct dispatch_entry *e)
{
	bool v64 = V(major, minor) >= V(6, 4);
	const char *h, *op = NULL;

	switch (r) {
	case CF_MEMCPY: /* 68674f94ffc9 (6.4): only FSRM selects rep movsb */
		h = v64		    ? (cpu->fsrm ? "inline" : "memcpy_orig")
		    : cpu->erms	    ? "memcpy_erms"
		    : cpu->rep_good ? "inline"
				    : "memcpy_orig";
		op = v64 ? "rep movsb" : "rep movsq + rep movsb";
		break;
	case CF_MEMSET: /* 20f3337d350c (6.4): only FSRS selects rep stosb */
		h = v64		    ? (cpu->fsrs ? "inline" : "memset_orig")
		    : cpu->erms	    ? "memset_erms"
		    : cpu->rep_good ? "inline"
				    : "memset_orig";
		op = v64 ? "rep stosb" : "rep stosq + rep stosb";
		break;
	case CF_MEMMOVE: /* f444a5ff95dc (5.6), 14e4ec9c3e91 (6.5) */
		h = cpu->fsrm && V(major, minor) >= V(5, 6) ? "rep movsb"
		    : cpu->erms				    ? "rep movsb>=32"
							    : "loop";
		break;
	case CF_CLEAR_USER: /* 0db7058e8e23 (6.1); d2c95f9d6802, 8c9b6a88b7e2 (6.4) */
		if (v64)
			h = cpu->fsrs ? "inline" : "rep_stos_alternative";
		else if (V(major, minor) >= V(6, 1))
			h = !cpu->rep_good ? "clear_user_original"
			    : !cpu->erms   ? "clear_user_rep_good"
			    : !cpu->fsrm   ? "clear_user_erms"
					   : "inline";
		else
			h = "__clear_user";
		break;
	default: /* adfcf4231b8c, 577e6a7fd50d, 427fda2c8a49 (6.4) */
		if (v64)
			h = cpu->fsrm ? "inline" : "rep_movs_alternative";
		else
			h = cpu->erms	    ? "copy_user_enhanced_fast_string"
			    : cpu->rep_good ? "copy_user_generic_string"
					    : "copy_user_generic_unrolled";
	}
	dispatch_helper_rows(major, minor, cpu, r, h, op, e);
	e->source = "table";
}

void dispatch_from_table(int major, int minor, const struct dispatch_cpu *cpu, struct dispatch *d)
{
	int r;

	d->major = major;
	d->minor = minor;
	d->cpu = *cpu;
	for (r = 0; r < CF_NR_ROUTINES; r++)
		dispatch_table_entry(major, minor, cpu, r, &d->e[r]);
}

void dispatch_free(struct dispatch *d)
{
	size_t r, i;

	for (r = 0; r < CF_NR_ROUTINES; r++) {
		for (i = 0; i < d->e[r].nr_rows; i++)
			free(d->e[r].rows[i].code);
		free(d->e[r].read_at);
		free(d->e[r].decoded);
		free(d->e[r].note);
	}
	memset(d, 0, sizeof(*d));
}
