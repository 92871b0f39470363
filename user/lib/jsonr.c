// SPDX-License-Identifier: GPL-2.0
/* jsonr.c: typed reads of one key of a json-c object (see jsonr.h) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
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
	/* json-c reads anything larger as 2^64 - 1: that value cannot be trusted. */
	if (json_object_get_uint64(v) == UINT64_MAX)
		return -ERANGE;
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

bool jsonr_has_non_finite(json_object *o)
{
	size_t i;

	if (json_object_is_type(o, json_type_double))
		return !isfinite(json_object_get_double(o));
	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, key, val)
		{
			(void)key;
			if (jsonr_has_non_finite(val))
				return true;
		}
	} else if (json_object_is_type(o, json_type_array)) {
		for (i = 0; i < json_object_array_length(o); i++)
			if (jsonr_has_non_finite(json_object_array_get_idx(o, i)))
				return true;
	}
	return false;
}

size_t jsonr_nul_escape_at(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		if (s[i] != '\\') {
			i++;
			continue;
		}
		if (i + 6 <= len && !memcmp(s + i + 1, "u0000", 5))
			return i;
		i += 2; /* an escape is a backslash and the character after it, "\\" too */
	}
	return SIZE_MAX;
}

int jsonr_read_file(const char *path, json_object **out, char *why, size_t whylen)
{
	struct json_tokener *tok = NULL;
	char *buf = NULL;
	size_t len = 0, cap = 0, end;
	int fd, err = 0;
	ssize_t n;

	*out = NULL;
	fd = !strcmp(path, "-") ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		snprintf(why, whylen, "%s", strerror(errno));
		return err;
	}
	for (;;) {
		if (len == cap) {
			char *v =
				cap >= JSONR_MAX_FILE ? NULL : realloc(buf, cap ? 2 * cap : 65536);

			if (!v) {
				err = cap >= JSONR_MAX_FILE ? -EFBIG : -ENOMEM;
				snprintf(why, whylen, "%s",
					 err == -EFBIG
						 ? "larger than 1 GiB, the most copyprof reads"
						 : strerror(ENOMEM));
				goto out;
			}
			buf = v;
			cap = cap ? 2 * cap : 65536;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			snprintf(why, whylen, "%s", strerror(errno));
			goto out;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	err = -EINVAL;
	tok = json_tokener_new();
	if (!tok) {
		err = -ENOMEM;
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		goto out;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	*out = json_tokener_parse_ex(tok, buf, (int)len);
	end = json_tokener_get_parse_end(tok);
	if (!*out && json_tokener_get_error(tok) == json_tokener_continue)
		snprintf(why, whylen, "not valid JSON: it ends in the middle of a value");
	else if (!*out && end < len)
		snprintf(why, whylen, "not valid JSON: %s at byte %zu%s",
			 json_tokener_error_desc(json_tokener_get_error(tok)), end,
			 len > 1 && end > 0 && buf[0] == '{'
				 ? " (data after the JSON value? one file holds one value)"
				 : "");
	else if (!*out)
		snprintf(why, whylen, "not valid JSON: %s",
			 json_tokener_error_desc(json_tokener_get_error(tok)));
	else if (jsonr_has_non_finite(*out))
		snprintf(why, whylen, "not valid JSON: NaN and Infinity are not JSON numbers");
	else if ((end = jsonr_nul_escape_at(buf, len)) != SIZE_MAX)
		snprintf(why, whylen,
			 "not valid JSON for copyprof: \\u0000 (a NUL character) at byte %zu: no "
			 "name, path or label can hold one",
			 end);
	else
		err = 0;
out:
	if (err && *out) {
		json_object_put(*out);
		*out = NULL;
	}
	if (tok)
		json_tokener_free(tok);
	free(buf);
	close(fd);
	return err;
}
