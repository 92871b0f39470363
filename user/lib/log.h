/* SPDX-License-Identifier: GPL-2.0 */
/* log.h: the one place messages are printed: errors, warnings, notices, verbose output */
#ifndef CP_LOG_H
#define CP_LOG_H

#include <stdbool.h>

/* Exit codes, documented in docs/cli.md. */
enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_USAGE = 2 };

extern bool log_verbose;
/*
 * With --json, errors are data too, as bpftool's p_err: each one is a line {"error": "..."} on
 * stdout, where the JSON a script reads would have been. Warnings and notices stay on stderr.
 */
extern bool log_json;

void p_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void p_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void p_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void p_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The last message p_err() printed ("" if none), without the "copyprof: error: " prefix. */
const char *log_last_error(void);

/* Route libbpf's own messages through p_debug (quiet unless -v). */
void log_setup_libbpf(void);

#endif
