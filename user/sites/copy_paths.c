// SPDX-License-Identifier: GPL-2.0
/* copy_paths.c: today's code for a copy family (dispatch_table.c) as the asm-ref replica to cost */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "copy_paths.h"
#include "dispatch.h"

/* When the version is unknown: rules of current kernels. */
#define NEWEST_MAJOR 99

/* The routine of family @name that estimate costs (memcpy, memmove, clear_user, memset), or -1. */
static int routine_of(const char *name)
{
	enum copy_family f = copy_family_parse(name);

	return f == CF_MEMCPY || f == CF_MEMMOVE || f == CF_CLEAR_USER || f == CF_MEMSET ? (int)f
											 : -1;
}

static bool code_is(const struct dispatch_row *r, const char *s)
{
	return r->code && strstr(r->code, s);
}

/*
 * The replica of what the table's rows say runs. Rows name kernel code ("memcpy_orig",
 * "__memcpy (inline)" with "rep movsb" ...); a string op with no replica of its own
 * (rep movsq + rep movsb, rep stosq) is costed as the nearest one and marked approximate.
 */
static const char *replica_of(enum copy_family r, const struct dispatch_entry *e, bool *approx)
{
	const struct dispatch_row *first = &e->rows[0], *last = &e->rows[e->nr_rows - 1];

	*approx = last->string_op && strstr(last->string_op, "movsq");
	switch (r) {
	case CF_MEMCPY:
		if (code_is(first, "memcpy_orig"))
			return "memcpy_orig";
		return "movsb"; /* inline rep movsb, memcpy_erms, or (approx) rep movsq */
	case CF_MEMMOVE:
		if (e->nr_rows == 1 && first->string_op)
			return "movsb"; /* FSRM: rep movsb for every forward length */
		return last->string_op ? "memmove_erms" : "memmove_orig";
	case CF_CLEAR_USER:
		*approx = false;
		if (code_is(first, "(inline)"))
			return "rep_stosb";
		if (code_is(first, "rep_stos_alternative"))
			return "rep_stos_alternative";
		if (code_is(last, "clear_user_erms"))
			return "clear_user_erms";
		if (code_is(last, "clear_user_rep_good"))
			return "clear_user_rep_good";
		/* __clear_user (<= 6.0) is the same movq + movb loop as clear_user_original. */
		return "clear_user_original";
	default:
		*approx = last->string_op && strstr(last->string_op, "stosq");
		if (code_is(first, "memset_orig"))
			return "memset_orig";
		return "stosb";
	}
}

int copy_path_today(const char *family, const struct host_meta *meta, struct copy_path *p)
{
	struct host_meta none = { 0 };
	struct dispatch_cpu cpu;
	struct dispatch_entry e = { 0 };
	int major = NEWEST_MAJOR, minor = 0;
	int f = routine_of(family);
	size_t i;

	if (f < 0)
		return -EINVAL;
	if (!meta)
		meta = &none;
	memset(p, 0, sizeof(*p));
	p->guessed = !dispatch_parse_release(meta->kernel, &major, &minor);
	if (p->guessed) {
		major = NEWEST_MAJOR;
		minor = 0;
	}
	if (meta->cpu_flags_unknown) {
		snprintf(p->why, sizeof(p->why), "the CPU flags are unknown%s%.90s",
			 meta->cpu_flags_from ? ": " : "", meta->cpu_flags_from ?: "");
		return -ENODATA;
	}
	dispatch_cpu_from_meta(meta, major, minor, &cpu);
	dispatch_table_entry(major, minor, &cpu, (enum copy_family)f, &e);
	p->impl = replica_of((enum copy_family)f, &e, &p->approximate);
	snprintf(p->why, sizeof(p->why), "%s%s%s%s%s: %s%s%s",
		 p->guessed ? "kernel unknown" : "kernel ", p->guessed ? "" : meta->kernel,
		 cpu.erms ? ", ERMS" : "", cpu.fsrm ? ", FSRM" : "", cpu.fsrs ? ", FSRS" : "",
		 e.rows[e.nr_rows - 1].code, e.rows[e.nr_rows - 1].string_op ? " " : "",
		 e.rows[e.nr_rows - 1].string_op ?: "");
	for (i = 0; i < e.nr_rows; i++)
		free(e.rows[i].code);
	free(e.note);
	return 0;
}

int copy_path_of(const char *family, const struct dispatch_entry *e, struct copy_path *p)
{
	const struct dispatch_row *last;
	int f = routine_of(family);

	if (f < 0 || !e->nr_rows)
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	p->impl = replica_of((enum copy_family)f, e, &p->approximate);
	last = &e->rows[e->nr_rows - 1];
	snprintf(p->why, sizeof(p->why), "%s dispatch: %s%s%s", e->source ?: "recorded",
		 last->code ?: "?", last->string_op ? " " : "", last->string_op ?: "");
	return 0;
}
