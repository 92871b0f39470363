/* SPDX-License-Identifier: GPL-2.0 */
/* profile_share.h: meta.copy_share, the copies' sampled share of the traced programs' time */
#ifndef CP_PROFILE_SHARE_H
#define CP_PROFILE_SHARE_H

#include <json-c/json.h>
#include "lib/host.h"

json_object *copy_share_to_json(const struct copy_share *c);
/*
 * @o's "copy_share" into @c: absent leaves it unknown (0); -EINVAL, said with @name, when it is
 * not an object of a sampling rate from 1 Hz and three sample counts.
 */
int copy_share_from_json(json_object *o, struct copy_share *c, const char *name);

#endif
