// SPDX-License-Identifier: GPL-2.0
/* log.c: message printing for every subcommand, and the libbpf print callback */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>
#include "ctrl_escape.h"
#include "log.h"
#include "utf8.h"

bool log_verbose;
bool log_json;
static char last_error[512];

/* {"error": MESSAGE} on one line of stdout, escaped by json-c. */
static void print_json_error(const char *msg)
{
	json_object *o = json_object_new_object();
	char *clean = utf8_sanitize(msg); /* a path or symbol may hold any bytes */

	json_object_object_add(o, "error", json_object_new_string(clean ?: "out of memory"));
	free(clean);
	fflush(stdout);
	printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
								 JSON_C_TO_STRING_NOSLASHESCAPE));
	fflush(stdout);
	json_object_put(o);
}

static void vprint(const char *prefix, bool keep, const char *fmt, va_list ap)
{
	char *msg, *clean;
	va_list copy;

	/* An error is also kept, for outputs that must say what went wrong (an error SVG). */
	if (keep) {
		va_copy(copy, ap);
		vsnprintf(last_error, sizeof(last_error), fmt, copy);
		va_end(copy);
		if (log_json) {
			print_json_error(last_error);
			return;
		}
	}
	/* A path, symbol or server's text may hold escape sequences: shown, never sent. */
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	clean = msg ? ctrl_escape_dup(msg, strlen(msg)) : NULL;
	fprintf(stderr, "copyprof: %s%s\n", prefix, clean ?: "(out of memory)");
	free(clean);
	free(msg);
}

const char *log_last_error(void)
{
	return last_error;
}

#define DEFINE_PRINTER(name, prefix, keep, cond)                                                   \
	void name(const char *fmt, ...)                                                            \
	{                                                                                          \
		va_list ap;                                                                        \
		if (!(cond))                                                                       \
			return;                                                                    \
		va_start(ap, fmt);                                                                 \
		vprint(prefix, keep, fmt, ap);                                                     \
		va_end(ap);                                                                        \
	}

DEFINE_PRINTER(p_err, "error: ", true, 1)
DEFINE_PRINTER(p_warn, "warning: ", false, 1)
DEFINE_PRINTER(p_info, "", false, 1)
DEFINE_PRINTER(p_debug, "debug: ", false, log_verbose)

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	/* Our own messages explain failures; libbpf's detail is for -v. */
	if (!log_verbose)
		return 0;
	fputs("libbpf: ", stderr);
	return vfprintf(stderr, fmt, ap);
}

void log_setup_libbpf(void)
{
	libbpf_set_print(libbpf_print);
}
