/* SPDX-License-Identifier: GPL-2.0 */
/* user_callers.h: uprobe entry sites' callers: return addresses named FILE:FUNC+OFF */
#ifndef CP_USER_CALLERS_H
#define CP_USER_CALLERS_H

#include <stddef.h>
#include <stdint.h>
#include "hist_session.h"
#include "profile/profile.h"

/*
 * Adds the callers that uprobe entry sites counted (hist_session_user_callers: each return
 * address as the file and offset bpf_find_vma found) to @p's sites below @nr, named by the
 * function holding the call, as kernel callers are: target the file's path, symbol, offset of
 * the return address in it ("[unknown]" when the stack or mapping could not be read, or the
 * file is not found). Files are found among @known (uprobe targets, the COMMAND), then every
 * running process's maps. 0 or -ENOMEM (said).
 */
int user_callers_collect(struct hist_session *hs, struct profile *p, uint32_t nr,
			 const char *const *known, size_t nr_known);

#endif
