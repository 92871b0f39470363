/* SPDX-License-Identifier: GPL-2.0 */
/* text_stdout.h: standard output for text: controls escaped, a failed write is exit status 1 */
#ifndef CP_TEXT_STDOUT_H
#define CP_TEXT_STDOUT_H

/*
 * What every command prints with printf()/puts() goes through this (docs/cli.md#text-output):
 * stdout is replaced by a stream that escapes control characters (ctrl_escape.h) and writes
 * to file descriptor 1, and a write that fails (/dev/full: ENOSPC, a closed pipe) makes the
 * exit status 1 with one message, also when argp exits after --help. Binary and JSON outputs
 * written with outfile_write("-") go to descriptor 1 directly and are not touched.
 */

/* Once, before any output: installs the stream and the check at exit(). */
void text_stdout_install(void);

/*
 * After the command: flushes standard output. Returns @status, or EXIT_RUNTIME after saying
 * why if what was printed could not all be written.
 */
int text_stdout_finish(int status);

#endif
