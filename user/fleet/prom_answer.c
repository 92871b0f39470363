// SPDX-License-Identifier: GPL-2.0
/* prom_answer.c: the query API's JSON: status, a vector, and every element's shape */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include "lib/log.h"
#include "prom_answer.h"

static json_object *get(json_object *o, const char *key)
{
	json_object *v;

	return json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, key, &v)
		       ? v
		       : NULL;
}

static const char *string_of(json_object *o, const char *key)
{
	json_object *v = get(o, key);

	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

/* [number, string] or [number, object]: a sample's time and its value or histogram. */
static bool pair(json_object *a, json_type second)
{
	return json_object_is_type(a, json_type_array) && json_object_array_length(a) == 2 &&
	       (json_object_is_type(json_object_array_get_idx(a, 0), json_type_double) ||
		json_object_is_type(json_object_array_get_idx(a, 0), json_type_int)) &&
	       json_object_is_type(json_object_array_get_idx(a, 1), second);
}

/* Why element @e of a vector is not one, or NULL. */
static const char *element_problem(json_object *e)
{
	json_object *metric = get(e, "metric"), *value = get(e, "value"), *h = get(e, "histogram");

	if (!json_object_is_type(e, json_type_object))
		return "an element is not an object";
	if (!json_object_is_type(metric, json_type_object))
		return "an element has no \"metric\" object of labels";
	json_object_object_foreach(metric, k, v)
	{
		(void)k;
		if (!json_object_is_type(v, json_type_string))
			return "a label's value is not a string";
		/* C strings end at a NUL: the site's name would be cut short, and merge with another. */
		if (strlen(json_object_get_string(v)) != (size_t)json_object_get_string_len(v))
			return "a label's value holds a NUL byte (\\u0000), which would cut it "
			       "short";
	}
	if (!!value == !!h)
		return "an element has neither or both of \"value\" and \"histogram\"";
	if (value && !pair(value, json_type_string))
		return "a \"value\" is not [time, \"number\"]";
	if (h && !pair(h, json_type_object))
		return "a \"histogram\" is not [time, {...}]";
	return NULL;
}

/* After the document: nothing but white space (two joined documents are not one answer). */
static bool only_space(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t')) {
		s++;
		n--;
	}
	return !n;
}

int prom_answer_parse(const char *base, const char *query, long code, const char *text, size_t len,
		      json_object **result)
{
	json_tokener *tok = json_tokener_new();
	json_object *root = NULL, *data, *res;
	const char *type, *status, *why = NULL;
	size_t i, n;
	int err = -EIO;

	*result = NULL;
	if (tok && text && len) {
		root = json_tokener_parse_ex(tok, text, (int)len);
		if (json_tokener_get_error(tok) != json_tokener_success ||
		    !only_space(text + json_tokener_get_parse_end(tok),
				len - json_tokener_get_parse_end(tok))) {
			json_object_put(root);
			root = NULL;
		}
	}
	json_tokener_free(tok);
	if (code != 200) {
		p_err("Prometheus at %s answered HTTP %ld%s%s to %s", base, code,
		      string_of(root, "error") ? ": " : "", string_of(root, "error") ?: "", query);
		goto out;
	}
	data = get(root, "data");
	res = get(data, "result");
	type = string_of(data, "resultType");
	status = string_of(root, "status");
	if (!root || !json_object_is_type(res, json_type_array) || !type ||
	    (status && strcmp(status, "success"))) {
		p_err("%s does not answer as the Prometheus query API does (no data.result "
		      "array with status success): is it Prometheus, Thanos or Mimir's /prometheus "
		      "path?",
		      base);
		goto out;
	}
	if (strcmp(type, "vector")) {
		p_err("Prometheus answered a %s, not a vector, to %s", type, query);
		goto out;
	}
	n = json_object_array_length(res);
	for (i = 0; i < n && !why; i++)
		why = element_problem(json_object_array_get_idx(res, i));
	if (why) {
		p_err("Prometheus at %s: element %zu of the answer to %s: %s", base, i - 1, query,
		      why);
		goto out;
	}
	*result = json_object_get(res);
	err = 0;
out:
	json_object_put(root);
	return err;
}
