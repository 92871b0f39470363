// SPDX-License-Identifier: GPL-2.0
/* log.c: message printing for every subcommand, and the libbpf print callback */
#include <stdarg.h>
#include <stdio.h>
#include <bpf/libbpf.h>
#include "log.h"

bool log_verbose;

static void vprint(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(stderr, "copyprof: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

#define DEFINE_PRINTER(name, prefix, cond)                                                         \
	void name(const char *fmt, ...)                                                            \
	{                                                                                          \
		va_list ap;                                                                        \
		if (!(cond))                                                                       \
			return;                                                                    \
		va_start(ap, fmt);                                                                 \
		vprint(prefix, fmt, ap);                                                           \
		va_end(ap);                                                                        \
	}

DEFINE_PRINTER(p_err, "error: ", 1)
DEFINE_PRINTER(p_warn, "warning: ", 1)
DEFINE_PRINTER(p_info, "", 1)
DEFINE_PRINTER(p_debug, "debug: ", log_verbose)

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
