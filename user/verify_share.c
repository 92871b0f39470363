// SPDX-License-Identifier: GPL-2.0
/* verify_share.c: the copies' share of the program's CPU time, sampled in verify's runs A */
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "lib/elfsyms.h"
#include "lib/log.h"
#include "record/record_share.h"
#include "verify_share.h"

/* Site @s's function as a share range: its file's inode and the function's file offsets. */
static bool site_range(const struct profile_site *s, struct share_range *r)
{
	struct elf_func f = { 0 };
	struct stat st;
	bool ok;

	if (!s->mechanism || strcmp(s->mechanism, "uprobe") || !s->target || !s->symbol ||
	    elfsyms_resolve(s->target, s->symbol, 0, &f))
		return false;
	ok = f.size && f.path && !stat(f.path, &st);
	if (ok)
		*r = (struct share_range){ .ino = st.st_ino,
					   .lo = f.file_offset,
					   .hi = f.file_offset + f.size };
	elf_func_free(&f);
	return ok;
}

bool verify_share_open(struct verify_share *vs, const struct profile *p)
{
	struct hist_filter f = { .tgid = (uint32_t)getpid(), .inherit = true, .copy_share = true };
	struct share_range r;
	uint32_t n = 0;
	size_t i;

	memset(vs, 0, sizeof(*vs));
	for (i = 0; p && i < p->nr_sites && n < CP_SHARE_RANGES; i++) {
		if (!site_range(&p->sites[i], &r))
			continue;
		if (!vs->hs && !(vs->hs = hist_session_open(&f, 1, 0)))
			return false;
		if (!hist_session_share_loaded(vs->hs))
			goto fail;
		if (hist_session_share_range(vs->hs, n++, r.ino, r.lo, r.hi))
			goto fail;
	}
	if (!n) {
		p_debug("verify: no uprobe site of the profile resolves to a sized function: the "
			"copies' share is not sampled in the runs");
		return false;
	}
	if (!hist_session_share_start(vs->hs, RECORD_SHARE_HZ))
		return true;
fail:
	verify_share_close(vs);
	return false;
}

void verify_share_around_a(void *ctx, bool before)
{
	struct verify_share *vs = ctx;
	uint64_t now[CP_NR_SHARE];
	int k;

	if (hist_session_share_read(vs->hs, now))
		return;
	for (k = 0; k < CP_NR_SHARE; k++) {
		if (before)
			vs->at_start[k] = now[k];
		else
			vs->sum[k] += now[k] - vs->at_start[k];
	}
}

void verify_share_close(struct verify_share *vs)
{
	hist_session_destroy(vs->hs);
	vs->hs = NULL;
}
