// SPDX-License-Identifier: GPL-2.0
/* jsonr.c: typed reads of one key of a json-c object (see jsonr.h) */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "jsonr.h"

char *jsonr_str(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return strdup(json_object_get_string(v));
}

int jsonr_u64(json_object *o, const char *key, uint64_t *out)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return -ENOENT;
	/* json-c keeps values above INT64_MAX as unsigned; get_int64 then saturates. */
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
		return -EINVAL;
	*out = json_object_get_uint64(v);
	return 0;
}

uint64_t jsonr_u64_or(json_object *o, const char *key, uint64_t dflt)
{
	uint64_t v;

	return jsonr_u64(o, key, &v) ? dflt : v;
}

static bool is_number(json_object *v)
{
	return json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double);
}

int jsonr_num(json_object *o, const char *key, double *out)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || json_object_is_type(v, json_type_null))
		return -ENOENT;
	if (!is_number(v) || !isfinite(json_object_get_double(v)))
		return -EINVAL;
	*out = json_object_get_double(v);
	return 0;
}

bool jsonr_bool(json_object *o, const char *key, bool dflt)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_boolean))
		return dflt;
	return json_object_get_boolean(v);
}

char **jsonr_strv(json_object *o, const char *key, size_t *n_out)
{
	json_object *v;
	size_t i, n;
	char **out;

	*n_out = 0;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_array))
		return NULL;
	n = json_object_array_length(v);
	out = calloc(n ? n : 1, sizeof(char *));
	for (i = 0; out && i < n; i++) {
		json_object *f = json_object_array_get_idx(v, i);

		if (json_object_is_type(f, json_type_string))
			out[(*n_out)++] = strdup(json_object_get_string(f));
	}
	return out;
}
