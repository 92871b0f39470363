// SPDX-License-Identifier: GPL-2.0
/* fleet_selector.c: PromQL label matchers read once, each given to the series that have its label */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fleet_selector.h"

/* Whether @name (@n bytes) is in the comma-separated @list. */
static bool in(const char *name, size_t n, const char *list)
{
	while (*list) {
		size_t k = strcspn(list, ",");

		if (k == n && !strncmp(list, name, n))
			return true;
		list += k + !!list[k];
	}
	return false;
}

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	return p;
}

/* The end of a quoted string at @p ("", '' with backslash escapes, `` raw), or NULL. */
static const char *string_end(const char *p)
{
	char q = *p++;

	if (q != '"' && q != '\'' && q != '`')
		return NULL;
	for (; *p && *p != q; p++)
		if (*p == '\\' && q != '`' && !*++p)
			return NULL;
	return *p ? p + 1 : NULL;
}

/* Appends @m (@n bytes) to @buf as "{m" or ",m". */
static int append(char **buf, size_t *len, const char *m, size_t n)
{
	char *b = realloc(*buf, *len + n + 3);

	if (!b)
		return -ENOMEM;
	b[*len] = *len ? ',' : '{';
	memcpy(b + *len + 1, m, n);
	*len += n + 1;
	b[*len] = 0;
	*buf = b;
	return 0;
}

static int finish(char **buf, size_t len)
{
	char *b = len ? realloc(*buf, len + 2) : strdup("");

	if (!b)
		return -ENOMEM;
	if (len) {
		b[len] = '}';
		b[len + 1] = 0;
	}
	*buf = b;
	return 0;
}

static int bad(char *why, size_t len, const char *what, const char *at)
{
	snprintf(why, len, "%s at '%.20s'", what, at);
	return -EINVAL;
}

int fleet_selector_split(const char *text, struct fleet_selector *out, char *why, size_t len)
{
	const char *p = skip_space(text ?: "");
	size_t hl = 0, il = 0;
	int err = 0;

	memset(out, 0, sizeof(*out));
	if (*p != '{')
		return bad(why, len, "a selector starts with {", p);
	p = skip_space(p + 1);
	while (!err && *p != '}') {
		const char *name = p, *m = p, *end;
		size_t n;

		if (!isalpha((unsigned char)*p) && *p != '_') {
			err = bad(why, len, "a label name is expected", p);
			break;
		}
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		n = (size_t)(p - name);
		if (n == 8 && !strncmp(name, "__name__", 8)) {
			err = bad(why, len, "give label matchers only (the metric is copyprof's)",
				  name);
			break;
		}
		p = skip_space(p);
		if (!strncmp(p, "=~", 2) || !strncmp(p, "!~", 2) || !strncmp(p, "!=", 2))
			p += 2;
		else if (*p == '=')
			p++;
		else {
			err = bad(why, len, "=, !=, =~ or !~ is expected", p);
			break;
		}
		p = skip_space(p);
		end = string_end(p);
		if (!end) {
			err = bad(why, len, "a quoted value is expected", p);
			break;
		}
		if (!in(name, n, FLEET_SITE_ONLY))
			err = append(&out->info, &il, m, (size_t)(end - m));
		if (!err && !in(name, n, FLEET_INFO_ONLY))
			err = append(&out->hist, &hl, m, (size_t)(end - m));
		p = skip_space(end);
		if (*p == ',')
			p = skip_space(p + 1);
		else if (*p != '}')
			err = bad(why, len, ", or } is expected", p);
	}
	if (!err && *skip_space(p + 1))
		err = bad(why, len, "nothing may follow the }", skip_space(p + 1));
	if (!err)
		err = finish(&out->hist, hl);
	if (!err)
		err = finish(&out->info, il);
	if (err)
		fleet_selector_free(out);
	return err;
}

void fleet_selector_free(struct fleet_selector *s)
{
	free(s->hist);
	free(s->info);
	memset(s, 0, sizeof(*s));
}
