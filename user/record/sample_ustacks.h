/* SPDX-License-Identifier: GPL-2.0 */
/* sample_ustacks.h: record --user-stacks: a sample's user stack, named once per process and id */
#ifndef CP_SAMPLE_USTACKS_H
#define CP_SAMPLE_USTACKS_H

#include <stddef.h>
#include <stdint.h>
#include "profile/sample_agg.h"
#include "sample_session.h"

struct sample_ustacks;

struct sample_ustacks *sample_ustacks_new(void);
void sample_ustacks_free(struct sample_ustacks *u);
/*
 * Process @tgid was seen for the first time (its first record wakes the recorder): its maps are
 * read now, while it runs, so that its user frames can be named after it exits.
 */
void sample_ustacks_watch(struct sample_ustacks *u, uint32_t tgid);
/*
 * The user frames of stack @id (ustackmap) of process @tgid, innermost first, each .user:
 * "FUNC" (+offset of the address in it), "[DSO]" where no symbol covers it, "[unknown]"
 * outside any file the process maps. Named on first use and kept. *@nr frames; NULL if none.
 */
const struct sample_frame *sample_ustacks_get(struct sample_ustacks *u, struct sample_session *ss,
					      uint32_t tgid, int32_t id, size_t *nr);

#endif
