/* SPDX-License-Identifier: GPL-2.0 */
/* outfile.h: write -o's file whole or not at all; never replace a device, FIFO or symlink */
#ifndef CP_OUTFILE_H
#define CP_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

/*
 * Writes @data to @path (docs/cli.md, "Output files"): "-" is stdout; a FIFO, terminal or
 * character device is written in place; a regular file (or a symlink to one, which stays) is
 * replaced by a temp file in the same folder, fsync'd and renamed, keeping the old mode and
 * owner (a warning if it had other hard links, which keep the old contents). A folder, block
 * device, socket or dangling symlink is refused. Returns 0, or -errno after printing what failed;
 * a regular @path is never left half-written.
 */
int outfile_write(const char *path, const void *data, size_t len);

struct outfile;

/*
 * outfile_write() in pieces, for output too big to hold (a profile is written site by site):
 * 0 with *@f, the stream to write @path to, and *@of to close it with; or -errno after
 * printing why. A regular file is written to the temp file beside it (SIGINT, SIGTERM and
 * SIGHUP are held until outfile_close(), so that none lands between its creation and its
 * rename); "-", a FIFO or a device is written as it goes.
 */
int outfile_open(const char *path, struct outfile **of, FILE **f);
/*
 * Ends the writing: a regular file is fsync'd and renamed over @path, or, when @failed (the
 * writer's -errno) is not 0, the temp file is removed and @path left as it was. Returns
 * @failed, or 0, or the -errno of the write, flush or rename (printed).
 */
int outfile_close(struct outfile *of, int failed);

/*
 * outfile_write() of a text report, its control characters escaped first (ctrl_escape.h): a
 * symbol from a profile cannot send escape sequences to the terminal or into the file.
 */
int outfile_write_text(const char *path, const char *text, size_t len);

/*
 * Before long work: can @path be written as outfile_write() would? Makes and removes a temp
 * file in the folder. Returns 0, or -errno after printing why not.
 */
int outfile_check(const char *path);

#endif
