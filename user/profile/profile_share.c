// SPDX-License-Identifier: GPL-2.0
/* profile_share.c: meta.copy_share, the copies' sampled share of the traced programs' time */
#include <errno.h>
#include "lib/jsonr.h"
#include "lib/log.h"
#include "profile_share.h"

json_object *copy_share_to_json(const struct copy_share *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "hz", json_object_new_uint64(c->hz));
	json_object_object_add(o, "copy_samples", json_object_new_uint64(c->copy));
	json_object_object_add(o, "own_samples", json_object_new_uint64(c->own));
	json_object_object_add(o, "trap_samples", json_object_new_uint64(c->trap));
	return o;
}

int copy_share_from_json(json_object *o, struct copy_share *c, const char *name)
{
	json_object *s;
	uint64_t hz = 0;

	*c = (struct copy_share){ 0 };
	if (!json_object_object_get_ex(o, "copy_share", &s))
		return 0;
	if (!json_object_is_type(s, json_type_object) || jsonr_u64(s, "hz", &hz) || !hz ||
	    hz > 1000000 || jsonr_u64(s, "copy_samples", &c->copy) ||
	    jsonr_u64(s, "own_samples", &c->own) || jsonr_u64(s, "trap_samples", &c->trap)) {
		p_err("%s: meta \"copy_share\" is an object of \"hz\" (1 to 1000000) and "
		      "\"copy_samples\", \"own_samples\", \"trap_samples\" (counts)",
		      name);
		*c = (struct copy_share){ 0 };
		return -EINVAL;
	}
	c->hz = (uint32_t)hz;
	c->known = c->copy + c->own > 0;
	return 0;
}
