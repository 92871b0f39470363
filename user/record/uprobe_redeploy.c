// SPDX-License-Identifier: GPL-2.0
/* uprobe_redeploy.c: attach a site to the new file a deploy renamed over its path, keep the old */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "lib/log.h"
#include "lib/proc_maps.h"
#include "uprobe_redeploy.h"

static bool refused(const struct uprobe_redeploy *r, uint32_t id, const struct stat *st)
{
	size_t i;

	for (i = 0; i < r->nr_refused; i++)
		if (r->refused[i].id == id && r->refused[i].dev == st->st_dev &&
		    r->refused[i].ino == st->st_ino &&
		    r->refused[i].ctime_s == st->st_ctim.tv_sec &&
		    r->refused[i].ctime_ns == st->st_ctim.tv_nsec)
			return true;
	return false;
}

static void refuse(struct uprobe_redeploy *r, uint32_t id, const struct stat *st)
{
	struct uprobe_redeploy_refused *v = realloc(r->refused, (r->nr_refused + 1) * sizeof(*v));

	if (!v)
		return; /* said again at the next check: no worse */
	r->refused = v;
	v[r->nr_refused++] =
		(struct uprobe_redeploy_refused){ id, st->st_dev, st->st_ino, st->st_ctim.tv_sec,
						  st->st_ctim.tv_nsec };
}

static int keep_old(struct uprobe_redeploy *r, uint32_t id, const struct probe_site *ps,
		    const char *path, struct hist_uprobe u)
{
	struct uprobe_redeploy_old *v = realloc(r->old, (r->nr_old + 1) * sizeof(*v));
	char *p = strdup(path);

	if (!v || !p) {
		free(p);
		if (v)
			r->old = v;
		return -ENOMEM;
	}
	r->old = v;
	v[r->nr_old++] = (struct uprobe_redeploy_old){ id, ps->file_dev, ps->file_ino, p, u };
	return 0;
}

/* What resolving anew changes, to restore it when the new file cannot be attached. */
struct resolved {
	char *path, *symbol;
	uint64_t offset, file_offset, vaddr, dev, ino;
	bool at_file_offset;
};

static void save(const struct probe_site *ps, struct resolved *o)
{
	*o = (struct resolved){ ps->resolved_path, ps->spec.symbol,
				ps->spec.offset,   ps->file_offset,
				ps->vaddr,	   ps->file_dev,
				ps->file_ino,	   ps->spec.at_file_offset };
}

static void restore(struct probe_site *ps, const struct resolved *o)
{
	if (ps->resolved_path != o->path)
		free(ps->resolved_path);
	if (ps->spec.symbol != o->symbol)
		free(ps->spec.symbol);
	ps->resolved_path = o->path;
	ps->spec.symbol = o->symbol;
	ps->spec.offset = o->offset;
	ps->file_offset = o->file_offset;
	ps->vaddr = o->vaddr;
	ps->file_dev = o->dev;
	ps->file_ino = o->ino;
	ps->spec.at_file_offset = o->at_file_offset;
}

/* The old values that resolving replaced, freed once the new ones are in use. */
static void forget(const struct probe_site *ps, struct resolved *o)
{
	if (ps->resolved_path != o->path)
		free(o->path);
	if (ps->spec.symbol != o->symbol)
		free(o->symbol);
}

int uprobe_redeploy_check(struct uprobe_redeploy *r, struct hist_session *hs, struct probe_site *ps,
			  uint32_t id)
{
	struct hist_uprobe old;
	struct resolved was;
	struct stat st, at;
	int err;

	if (ps->mech != MECH_UPROBE || !ps->resolved_path || !ps->file_ino)
		return 0;
	/* Gone (between a deploy's unlink and its rename): the probe stays on what runs. */
	if (stat(ps->resolved_path, &st) ||
	    (st.st_dev == ps->file_dev && st.st_ino == ps->file_ino) || refused(r, id, &st))
		return 0;
	save(ps, &was);
	ps->resolved_path = NULL;
	ps->spec.symbol = was.symbol ? strdup(was.symbol) : NULL;
	if ((was.symbol && !ps->spec.symbol) || probe_site_resolve(ps)) {
		restore(ps, &was);
		p_warn("%s was replaced (inode %llu -> %llu) but %s+0x%llx cannot be found in the "
		       "new file (said above): the site keeps counting the processes that run "
		       "the old one",
		       was.path, (unsigned long long)was.ino, (unsigned long long)st.st_ino,
		       was.symbol ?: "?", (unsigned long long)was.offset);
		refuse(r, id, &st);
		return -ENOENT;
	}
	old = hist_session_take_uprobe(hs, id);
	err = hist_session_attach_uprobe(hs, id, ps->resolved_path, ps->file_offset, &at);
	if (!err && (at.st_dev != st.st_dev || at.st_ino != st.st_ino))
		err = -EAGAIN; /* replaced again since it was read: the next check takes it */
	if (err) {
		hist_session_give_uprobe(hs, id, old);
		restore(ps, &was);
		if (err != -EAGAIN) {
			p_warn("%s was replaced (inode %llu -> %llu) but the new file cannot be "
			       "probed (said above): the site keeps counting the processes that "
			       "run the old one",
			       was.path, (unsigned long long)was.ino,
			       (unsigned long long)st.st_ino);
			refuse(r, id, &st);
		}
		return err;
	}
	if (keep_old(r, id, ps, was.path, old)) {
		p_warn("out of memory: the probe on the replaced %s is detached", was.path);
		hist_uprobe_detach(&old);
	}
	ps->file_dev = at.st_dev;
	ps->file_ino = at.st_ino;
	r->reattached++;
	p_info("re-attached %s: the file was replaced (inode %llu -> %llu); site %u, %s+0x%llx at "
	       "file offset 0x%llx (was 0x%llx); the old file's probe stays while a process "
	       "maps it",
	       ps->resolved_path, (unsigned long long)was.ino, (unsigned long long)at.st_ino, id,
	       ps->spec.symbol ?: "?", (unsigned long long)ps->spec.offset,
	       (unsigned long long)ps->file_offset, (unsigned long long)was.file_offset);
	forget(ps, &was);
	return 1;
}

static void drop(struct uprobe_redeploy *r, size_t i)
{
	hist_uprobe_detach(&r->old[i].probe);
	free(r->old[i].path);
	r->old[i] = r->old[--r->nr_old];
}

void uprobe_redeploy_sweep(struct uprobe_redeploy *r)
{
	size_t i = 0;

	while (i < r->nr_old) {
		const struct uprobe_redeploy_old *o = &r->old[i];

		if (proc_maps_file_mapped(o->dev, o->ino, o->path)) {
			i++;
			continue;
		}
		p_info("detached the probe on the old %s (inode %llu, site %u): no process maps it "
		       "any more",
		       o->path, (unsigned long long)o->ino, o->id);
		drop(r, i);
	}
}

void uprobe_redeploy_drop_site(struct uprobe_redeploy *r, uint32_t id)
{
	size_t i = 0;

	while (i < r->nr_old)
		if (r->old[i].id == id)
			drop(r, i);
		else
			i++;
}

void uprobe_redeploy_free(struct uprobe_redeploy *r)
{
	while (r->nr_old)
		drop(r, r->nr_old - 1);
	free(r->old);
	free(r->refused);
	*r = (struct uprobe_redeploy){ 0 };
}
