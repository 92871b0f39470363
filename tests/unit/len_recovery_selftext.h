/* SPDX-License-Identifier: GPL-2.0 */
/* len_recovery_selftext.h: test helper: this process's functions (ELF .symtab) as len_recovery text */
#ifndef LEN_RECOVERY_SELFTEXT_H
#define LEN_RECOVERY_SELFTEXT_H

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kernel/insn_flow.h"
#include "sites/len_recovery.h"

struct selfn {
	uint64_t start, end;
	struct flow_fn flow;
	uint64_t flow_start; /* 0: not decoded yet */
};

struct selftext {
	struct selfn *fns;
	size_t nr;
	uint64_t view_fn, view_start; /* decode view_fn from view_start instead */
	struct flow_source provider;
};

static int selfn_cmp(const void *a, const void *b)
{
	const struct selfn *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static const struct flow_fn *selftext_fn_at(void *ctx, uint64_t addr)
{
	struct selftext *st = ctx;
	uint64_t from;
	size_t i;

	for (i = 0; i < st->nr; i++) {
		struct selfn *f = &st->fns[i];

		if (addr < f->start || addr >= f->end)
			continue;
		from = f->start == st->view_fn ? st->view_start : f->start;
		if (addr < from)
			return NULL;
		if (f->flow_start != from) {
			flow_free(&f->flow);
			if (flow_decode((const uint8_t *)(uintptr_t)from, f->end - from, from,
					&f->flow))
				return NULL;
			f->flow_start = from;
		}
		return &f->flow;
	}
	return NULL;
}

/* Function symbols of /proc/self/exe, relocated by the load bias of a known symbol. */
static struct selftext *selftext_open(void)
{
	struct selftext *st = calloc(1, sizeof(*st));
	uint64_t bias = 0, cap = 0;
	Elf_Scn *scn = NULL;
	Elf *e;
	int fd;

	elf_version(EV_CURRENT);
	fd = open("/proc/self/exe", O_RDONLY);
	if (!st || fd < 0 || !(e = elf_begin(fd, ELF_C_READ, NULL)))
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *name;

			if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
			    !s.st_size)
				continue;
			name = elf_strptr(e, sh.sh_link, s.st_name);
			if (name && !strcmp(name, "selftext_open"))
				bias = (uint64_t)(uintptr_t)selftext_open - s.st_value;
			if (st->nr == cap)
				st->fns = realloc(st->fns,
						  (cap = cap ? 2 * cap : 256) * sizeof(*st->fns));
			st->fns[st->nr++] = (struct selfn){ s.st_value, s.st_value + s.st_size };
		}
	}
	elf_end(e);
	close(fd);
	for (size_t i = 0; i < st->nr; i++) {
		st->fns[i].start += bias;
		st->fns[i].end += bias;
	}
	qsort(st->fns, st->nr, sizeof(*st->fns), selfn_cmp);
	st->provider = (struct flow_source){ selftext_fn_at, st };
	return st;
}

static const struct flow_source *selftext_provider(struct selftext *st)
{
	return &st->provider;
}

/* Pretends function @fn starts at @start (skipping SysV glue); 0, 0 resets. */
static void selftext_set_view(struct selftext *st, uint64_t fn, uint64_t start)
{
	st->view_fn = fn;
	st->view_start = start;
}

static int selftext_bounds(struct selftext *st, uint64_t addr, uint64_t *lo, uint64_t *hi)
{
	for (size_t i = 0; i < st->nr; i++) {
		if (addr >= st->fns[i].start && addr < st->fns[i].end) {
			*lo = st->fns[i].start;
			*hi = st->fns[i].end;
			return 0;
		}
	}
	return -1;
}

static void selftext_close(struct selftext *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nr; i++)
		flow_free(&st->fns[i].flow);
	free(st->fns);
	free(st);
}

#endif
