// SPDX-License-Identifier: GPL-2.0
/* jsonw.c: building and saving the JSON files copyprof writes (see jsonw.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "jsonw.h"
#include "outfile.h"
#include "utf8.h"

void jsonw_put_str(json_object *o, const char *key, const char *val)
{
	if (val)
		json_object_object_add(o, key, json_object_new_string(val));
}

json_object *jsonw_new_hex(uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
	return json_object_new_string(buf);
}

/* Is @v a value strict JSON cannot hold as it is (NaN, ±Infinity, invalid UTF-8)? Fixes it. */
static json_object *fix_value(json_object *v, bool *replace)
{
	*replace = false;
	if (json_object_is_type(v, json_type_double) && !isfinite(json_object_get_double(v))) {
		*replace = true; /* null: JSON has no NaN or Infinity */
		return NULL;
	}
	if (json_object_is_type(v, json_type_string)) {
		const char *s = json_object_get_string(v);
		size_t i, k, n = (size_t)json_object_get_string_len(v);

		uint32_t cp;

		for (i = 0; i < n; i += k)
			if (!(k = utf8_decode(s + i, n - i, &cp)))
				break;
		if (i < n) {
			char *fixed = utf8_sanitize(s);

			if (fixed)
				json_object_set_string(v, fixed);
			free(fixed);
		}
	}
	return v;
}

void jsonw_sanitize(json_object *o)
{
	bool replace;
	size_t i;

	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, key, val)
		{
			fix_value(val, &replace);
			if (replace)
				json_object_object_add(o, key, NULL);
			else
				jsonw_sanitize(val);
		}
	} else if (json_object_is_type(o, json_type_array)) {
		for (i = 0; i < json_object_array_length(o); i++) {
			json_object *val = json_object_array_get_idx(o, i);

			fix_value(val, &replace);
			if (replace)
				json_object_array_put_idx(o, i, NULL);
			else
				jsonw_sanitize(val);
		}
	}
}

int jsonw_put_nested(FILE *f, json_object *o, int level)
{
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
								     JSON_C_TO_STRING_SPACED);
	const char *nl;

	if (!text)
		return -ENOMEM;
	/* json-c escapes a newline inside a string: each one here ends a line. */
	while ((nl = strchr(text, '\n'))) {
		fwrite(text, 1, (size_t)(nl - text) + 1, f);
		fprintf(f, "%*s", 2 * level, "");
		text = nl + 1;
	}
	fputs(text, f);
	return 0;
}

int jsonw_print(json_object *root, int flags)
{
	const char *text;

	jsonw_sanitize(root);
	text = json_object_to_json_string_ext(root, flags);
	if (!text || puts(text) < 0)
		return -EIO;
	return 0;
}

int jsonw_write_file(json_object *root, const char *path)
{
	const char *text;
	char *buf;
	int err;

	jsonw_sanitize(root);
	text = json_object_to_json_string_ext(root,
					      JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED);
	if (asprintf(&buf, "%s\n", text) < 0) {
		json_object_put(root);
		return -ENOMEM;
	}
	err = outfile_write(path, buf, strlen(buf));
	free(buf);
	json_object_put(root);
	return err;
}
