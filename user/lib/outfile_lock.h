/* SPDX-License-Identifier: GPL-2.0 */
/* outfile_lock.h: one writer at a time for an output file that a command reads, then replaces */
#ifndef CP_OUTFILE_LOCK_H
#define CP_OUTFILE_LOCK_H

struct outfile_lock;

/*
 * Before work whose result replaces @path (docs/cli.md, "Output files"): takes the lock file
 * ".NAME.lock" beside the file @path names (a symlink's target; ".copyprof.lock" when NAME is
 * too long for the prefix and suffix), with flock(), never waiting. A second copyprof that
 * would write the same file while this one works is refused, so that neither measurement is
 * silently lost when the other's rename replaces it. "-", a FIFO or a device gets no lock (NULL;
 * they are written in place, not replaced), nor does a path outfile.c refuses anyway, nor a
 * folder where no file can be made (the writer's outfile_check() says why). Returns 0 with
 * *@lk, -EBUSY after saying which process holds it (@what names the command), or -errno after
 * printing why.
 */
int outfile_lock(const char *path, const char *what, struct outfile_lock **lk);
/* Removes the lock file and releases the lock (NULL: nothing). */
void outfile_unlock(struct outfile_lock *lk);

#endif
