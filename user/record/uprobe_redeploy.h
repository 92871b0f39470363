/* SPDX-License-Identifier: GPL-2.0 */
/* uprobe_redeploy.h: a probed file replaced under its path (cp new x.tmp && mv x.tmp x): follow it */
#ifndef CP_UPROBE_REDEPLOY_H
#define CP_UPROBE_REDEPLOY_H

#include <stdint.h>
#include "hist_session.h"
#include "probe_site.h"

/* A replaced file's uprobe, kept while a process still runs the old code. */
struct uprobe_redeploy_old {
	uint32_t id;	   /* the site it counts for */
	uint64_t dev, ino; /* the old file (stat's) */
	char *path;	   /* its path, now naming the new file */
	struct hist_uprobe probe;
};

/*
 * A new file a site could not be attached to: tried once, said once. Its change time is part
 * of the name: a file system gives a freed inode's number to the next file it creates.
 */
struct uprobe_redeploy_refused {
	uint32_t id;
	uint64_t dev, ino;
	int64_t ctime_s, ctime_ns;
};

/* Everything one session's sites follow; zeroed is empty. */
struct uprobe_redeploy {
	struct uprobe_redeploy_old *old;
	size_t nr_old;
	struct uprobe_redeploy_refused *refused;
	size_t nr_refused;
	unsigned long long reattached; /* sites attached to a new file since the start */
};

/*
 * A uprobe attaches to a file (device, inode), not to a path: a deploy that renames a new file
 * over the probed one leaves the probe on the old file, which no new process runs. When the
 * path of site @ps (attached as @id in @hs) names another file than the one attached, the
 * symbol is resolved anew in that file (a new build may have moved it) and the site attached
 * to it as well, counting into the same @id; the old file's probe is kept for the processes
 * that still run it (uprobe_redeploy_sweep). Says so. Returns 1 re-attached, 0 not replaced
 * (or replaced by a file already refused), -errno refused (said once per file).
 */
int uprobe_redeploy_check(struct uprobe_redeploy *r, struct hist_session *hs, struct probe_site *ps,
			  uint32_t id);
/* Detaches the kept probes of old files that no process maps any more (/proc/PID/maps); says so. */
void uprobe_redeploy_sweep(struct uprobe_redeploy *r);
/* Detaches site @id's kept probes (the site itself detached). */
void uprobe_redeploy_drop_site(struct uprobe_redeploy *r, uint32_t id);
/* Detaches every kept probe and frees @r's memory (before the session is destroyed). */
void uprobe_redeploy_free(struct uprobe_redeploy *r);

#endif
