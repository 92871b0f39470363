/* SPDX-License-Identifier: GPL-2.0 */
/* debuginfod.h: ask the DEBUGINFOD_URLS servers for a file by build id, with bounded waiting */
#ifndef CP_DEBUGINFOD_H
#define CP_DEBUGINFOD_H

/*
 * What debuginfod-find is given when the user has not set them: seconds without an answer
 * (DEBUGINFOD_TIMEOUT) and retries (DEBUGINFOD_RETRY_LIMIT). A server that never answers
 * then costs (1 + retries) x timeout = 10 s.
 */
#define DEBUGINFOD_DEFAULT_TIMEOUT_S 5
#define DEBUGINFOD_DEFAULT_RETRIES 1
/* The whole lookup is killed after this many seconds (DEBUGINFOD_MAXTIME + 5 when set). */
#define DEBUGINFOD_DEFAULT_DEADLINE_S 300

/*
 * Runs `debuginfod-find debuginfo BUILD_ID` and returns the path of the downloaded (cached)
 * file, malloc'd, or NULL with what went wrong appended to *@why (reason_add; @why may be
 * NULL). Nothing is asked when DEBUGINFOD_URLS is unset or empty. A server that accepts and
 * never answers, or stalls, costs DEBUGINFOD_TIMEOUT seconds per try (see above); an
 * unreachable one fails at once; the child is killed at the deadline whatever
 * it is doing, so a lookup never hangs.
 */
char *debuginfod_query(const char *build_id, char **why);

#endif
