// SPDX-License-Identifier: GPL-2.0
/* jsonw.c: building and saving the JSON files copyprof writes (see jsonw.h) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jsonw.h"
#include "outfile.h"

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

int jsonw_write_file(json_object *root, const char *path)
{
	const char *text;
	char *buf;
	int err;

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
