/* SPDX-License-Identifier: GPL-2.0 */
/* glibc_tunables.h: glibc's x86 string tunables in force, read from `ld.so --list-tunables` */
#ifndef CP_GLIBC_TUNABLES_H
#define CP_GLIBC_TUNABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The dynamic loader of x86-64 glibc, where a program names none. */
#define GLIBC_TUNABLES_DEFAULT_LDSO "/lib64/ld-linux-x86-64.so.2"

/* One numeric tunable's line: "glibc.cpu.NAME: VALUE (min: MIN, max: MAX)". */
struct glibc_tunable {
	bool present; /* this glibc lists it */
	uint64_t value, min, max;
};

struct glibc_tunables {
	struct glibc_tunable rep_movsb_threshold;      /* glibc.cpu.x86_rep_movsb_threshold */
	struct glibc_tunable rep_stosb_threshold;      /* glibc.cpu.x86_rep_stosb_threshold */
	struct glibc_tunable rep_movsb_stop_threshold; /* glibc.cpu.x86_rep_movsb_stop_threshold
							  (not a tunable in 2.36: absent) */
	struct glibc_tunable non_temporal_threshold;   /* glibc.cpu.x86_non_temporal_threshold */
	struct glibc_tunable shared_cache_size;	       /* glibc.cpu.x86_shared_cache_size */
	struct glibc_tunable data_cache_size;	       /* glibc.cpu.x86_data_cache_size */
	size_t nr_lines;			       /* tunables listed, all kinds */
};

/*
 * Parses the output of `ld.so --list-tunables`, strictly: every line is "NAME: NUMBER (min:
 * NUMBER, max: NUMBER)" or a string tunable "NAME:" / "NAME: TEXT" (no parentheses); NAME is
 * glibc.NAMESPACE.TUNABLE of [A-Za-z0-9_]; NUMBER is decimal or 0x hex and fits 64 bits; min
 * <= max; no name twice; nothing else (no NUL, no empty line but a last one). The x86
 * tunables above are kept; a listed one must be numeric. Returns 0, or -EINVAL with the line
 * number and the reason in *@why (malloc'd).
 */
int glibc_tunables_parse(const char *text, size_t len, struct glibc_tunables *out, char **why);

/*
 * Runs `@ldso --list-tunables` (NULL: GLIBC_TUNABLES_DEFAULT_LDSO) with GLIBC_TUNABLES set to
 * @tunables (NULL: unset, the defaults glibc computes for this CPU), as a program started
 * with that environment would see them, and parses its output. Returns 0, or -errno with the
 * reason in *@why: the loader missing, failing, not answering within 10 s, or its output
 * not what glibc prints.
 */
int glibc_tunables_read(const char *ldso, const char *tunables, struct glibc_tunables *out,
			char **why);

/*
 * The dynamic loader ELF file @path asks for (its PT_INTERP), malloc'd; NULL with the reason
 * in *@why for a static or non-ELF file.
 */
char *glibc_tunables_ldso_of(const char *path, char **why);

#endif
