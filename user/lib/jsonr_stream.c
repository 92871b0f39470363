// SPDX-License-Identifier: GPL-2.0
/* jsonr_stream.c: read a JSON object's members one at a time, each value through json-c's tokener */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "jsonr.h"
#include "jsonr_stream.h"

#define CHUNK 65536

/* Where the reader is in the structure it walks itself. */
enum place {
	AT_START,	/* before the top-level '{' */
	IN_OBJECT,	/* after '{' or a member's value: a ',' or '}' comes next */
	AT_VALUE,	/* after a key's ':': its value comes next */
	IN_ARRAY_START, /* after a member's '[': an element or ']' */
	IN_ARRAY,	/* after an element: ',' or ']' */
	AT_END,		/* after the top-level '}' (checked to the end of the file) */
};

struct jsonr_stream {
	int fd;
	char buf[CHUNK];
	size_t len, pos; /* bytes in buf; the next one to read */
	size_t base;	 /* the file offset of buf[0] */
	bool eof;
	enum place at;
	bool first_member;
	json_tokener *tok;
	char *val; /* the value being parsed, NUL-terminated */
	size_t val_len, val_cap;
	json_object *key; /* the last key, a string */
	char why[192];
};

static int fail(struct jsonr_stream *s, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct jsonr_stream *s, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->why, sizeof(s->why), fmt, ap);
	va_end(ap);
	return err;
}

int jsonr_stream_open(const char *path, struct jsonr_stream **out, char *why, size_t whylen)
{
	struct jsonr_stream *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s || !(s->tok = json_tokener_new())) {
		free(s);
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	json_tokener_set_flags(s->tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	s->fd = !strcmp(path, "-") ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0) {
		int err = -errno;

		snprintf(why, whylen, "%s", strerror(errno));
		json_tokener_free(s->tok);
		free(s);
		return err;
	}
	*out = s;
	return 0;
}

void jsonr_stream_close(struct jsonr_stream *s)
{
	if (!s)
		return;
	json_object_put(s->key);
	json_tokener_free(s->tok);
	free(s->val);
	close(s->fd);
	free(s);
}

const char *jsonr_stream_why(const struct jsonr_stream *s)
{
	return s->why;
}

/* Reads the next chunk once buf is used up: 1, 0 at the end of the file, or -errno. */
static int refill(struct jsonr_stream *s)
{
	ssize_t n;

	if (s->pos < s->len)
		return 1;
	if (s->eof)
		return 0;
	s->base += s->len;
	s->len = s->pos = 0;
	if (s->base >= JSONR_MAX_FILE)
		return fail(s, -EFBIG, "larger than 1 GiB, the most copyprof reads");
	do
		n = read(s->fd, s->buf, sizeof(s->buf));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return fail(s, -errno, "%s", strerror(errno));
	s->len = (size_t)n;
	s->eof = !n;
	return n > 0;
}

/* The next byte that is not JSON whitespace (not consumed): 1 and *@c, 0 at the end, -errno. */
static int peek(struct jsonr_stream *s, char *c)
{
	int r;

	for (;;) {
		r = refill(s);
		if (r <= 0)
			return r;
		while (s->pos < s->len) {
			char x = s->buf[s->pos];

			if (x != ' ' && x != '\t' && x != '\n' && x != '\r') {
				*c = x;
				return 1;
			}
			s->pos++;
		}
	}
}

static size_t offset(const struct jsonr_stream *s)
{
	return s->base + s->pos;
}

static int unexpected(struct jsonr_stream *s)
{
	return fail(s, -EINVAL, "not valid JSON: unexpected character at byte %zu", offset(s));
}

static int ends_early(struct jsonr_stream *s)
{
	return fail(s, -EINVAL, "not valid JSON: it ends in the middle of a value");
}

/* Appends @n bytes at @p to the value being gathered. 0 or -ENOMEM. */
static int gather(struct jsonr_stream *s, const char *p, size_t n)
{
	if (s->val_len + n + 1 > s->val_cap) {
		size_t cap = s->val_cap ? s->val_cap : 4096;
		char *v;

		while (cap < s->val_len + n + 1)
			cap *= 2;
		v = realloc(s->val, cap);
		if (!v)
			return fail(s, -ENOMEM, "%s", strerror(ENOMEM));
		s->val = v;
		s->val_cap = cap;
	}
	memcpy(s->val + s->val_len, p, n);
	s->val_len += n;
	s->val[s->val_len] = '\0';
	return 0;
}

static bool ends_scalar(char c)
{
	return c == ',' || c == '}' || c == ']' || c == ':' || c == ' ' || c == '\t' || c == '\n' ||
	       c == '\r' || c == '"' || c == '{' || c == '[';
}

/*
 * Gathers the value that starts here into s->val: a string to its closing quote, an object
 * or array to its closing bracket (strings inside skipped), anything else to the next
 * delimiter. Only finds where it ends; json-c's tokener judges it. 0, or -errno.
 */
static int gather_value(struct jsonr_stream *s)
{
	bool scalar = false, in_string = false, escaped = false, started = false, done = false;
	unsigned long depth = 0;
	int r;

	s->val_len = 0;
	for (;;) {
		size_t from, i;

		r = refill(s);
		if (r < 0)
			return r;
		if (!r)
			return scalar && started ? 0 : ends_early(s);
		from = s->pos;
		for (i = s->pos; i < s->len; i++) {
			char c = s->buf[i];

			if (!started) {
				started = true;
				in_string = c == '"';
				depth = c == '{' || c == '[';
				scalar = !in_string && !depth;
				if (scalar && ends_scalar(c)) {
					done = true; /* no value here: the tokener says so */
					break;
				}
				continue;
			}
			if (scalar) {
				if ((done = ends_scalar(c)))
					break;
			} else if (in_string) {
				if (escaped)
					escaped = false;
				else if (c == '\\')
					escaped = true;
				else if (c == '"' && (in_string = false, !depth))
					done = true;
			} else if (c == '"') {
				in_string = true;
			} else if (c == '{' || c == '[') {
				depth++;
			} else if (c == '}' || c == ']') {
				done = !--depth;
			}
			if (done) {
				i++; /* the closing quote or bracket is the value's */
				break;
			}
		}
		if (gather(s, s->buf + from, i - from))
			return -ENOMEM;
		s->pos = i;
		if (done)
			return 0;
	}
}

/* One whole value from here, as json-c parses it (NaN and Infinity refused). */
static int parse_value(struct jsonr_stream *s, json_object **out)
{
	size_t start = offset(s), end;
	enum json_tokener_error e;
	json_object *o;
	int r;

	*out = NULL;
	r = gather_value(s);
	if (r)
		return r;
	/* The NUL ends a number as the end of a file would. */
	json_tokener_reset(s->tok);
	o = json_tokener_parse_ex(s->tok, s->val, (int)s->val_len + 1);
	e = json_tokener_get_error(s->tok);
	if (!o && e == json_tokener_success)
		o = NULL; /* null */
	if (e != json_tokener_success) {
		end = json_tokener_get_parse_end(s->tok);
		if (end >= s->val_len &&
		    (e == json_tokener_continue || e == json_tokener_error_parse_eof))
			return ends_early(s);
		return fail(s, -EINVAL, "not valid JSON: %s at byte %zu",
			    json_tokener_error_desc(e), start + end);
	}
	if (jsonr_has_non_finite(o)) {
		json_object_put(o);
		return fail(s, -EINVAL, "not valid JSON: NaN and Infinity are not JSON numbers");
	}
	if ((end = jsonr_nul_escape_at(s->val, s->val_len)) != SIZE_MAX) {
		json_object_put(o);
		return fail(
			s, -EINVAL,
			"not valid JSON for copyprof: \\u0000 (a NUL character) at byte %zu: no "
			"name, path or label can hold one",
			start + end);
	}
	*out = o;
	return 0;
}

/* After the top-level value: only whitespace to the end. */
static int check_end(struct jsonr_stream *s)
{
	char c;
	int r = peek(s, &c);

	if (r <= 0)
		return r;
	return fail(s, -EINVAL,
		    "not valid JSON: unexpected character at byte %zu (data after the JSON "
		    "value? one file holds one value)",
		    offset(s));
}

/* The file holds some other JSON value than an object: read it whole to say which it is. */
static int not_an_object(struct jsonr_stream *s)
{
	json_object *o;
	int r = parse_value(s, &o);

	if (r)
		return r;
	json_object_put(o);
	r = check_end(s);
	return r ? r : fail(s, -EDOM, "valid JSON, but no object");
}

/*
 * The ',' between two members or elements, then the next byte in *@c: 1, or -errno when there
 * is none, or it is the closing @closer (a trailing comma) or anything but a ','.
 */
static int past_comma(struct jsonr_stream *s, char *c, char closer)
{
	int r;

	if (*c != ',')
		return unexpected(s);
	s->pos++;
	r = peek(s, c);
	if (r <= 0)
		return r < 0 ? r : ends_early(s);
	return *c == closer ? unexpected(s) : 1;
}

int jsonr_stream_key(struct jsonr_stream *s, const char **key)
{
	json_object *k;
	char c;
	int r;

	r = peek(s, &c);
	if (r < 0)
		return r;
	if (s->at == AT_START) {
		if (!r)
			return ends_early(s);
		if (c != '{')
			return not_an_object(s);
		s->pos++;
		s->at = IN_OBJECT;
		s->first_member = true;
		r = peek(s, &c);
		if (r < 0)
			return r;
	}
	if (s->at == AT_END)
		return 0;
	if (s->at != IN_OBJECT)
		return fail(s, -EINVAL, "a member's value was not read"); /* the caller's bug */
	if (!r)
		return ends_early(s);
	if (c == '}' && s->first_member) {
		s->pos++;
		s->at = AT_END;
		return check_end(s);
	}
	if (!s->first_member) {
		if (c == '}') {
			s->pos++;
			s->at = AT_END;
			return check_end(s);
		}
		r = past_comma(s, &c, '}');
		if (r <= 0)
			return r;
	}
	if (c != '"')
		return unexpected(s);
	r = parse_value(s, &k);
	if (r)
		return r;
	json_object_put(s->key);
	s->key = k;
	r = peek(s, &c);
	if (r <= 0)
		return r < 0 ? r : ends_early(s);
	if (c != ':')
		return unexpected(s);
	s->pos++;
	s->first_member = false;
	s->at = AT_VALUE;
	*key = json_object_get_string(k);
	return 1;
}

int jsonr_stream_value(struct jsonr_stream *s, json_object **out)
{
	char c;
	int r;

	if (s->at != AT_VALUE)
		return fail(s, -EINVAL, "no member's value to read"); /* the caller's bug */
	r = peek(s, &c);
	if (r <= 0)
		return r < 0 ? r : ends_early(s);
	r = parse_value(s, out);
	if (!r)
		s->at = IN_OBJECT;
	return r;
}

int jsonr_stream_array(struct jsonr_stream *s)
{
	char c;
	int r;

	if (s->at != AT_VALUE)
		return fail(s, -EINVAL, "no member's value to read");
	r = peek(s, &c);
	if (r <= 0)
		return r < 0 ? r : ends_early(s);
	if (c != '[')
		return 0;
	s->pos++;
	s->at = IN_ARRAY_START;
	return 1;
}

int jsonr_stream_element(struct jsonr_stream *s, json_object **out)
{
	char c;
	int r;

	*out = NULL;
	if (s->at != IN_ARRAY_START && s->at != IN_ARRAY)
		return 0;
	r = peek(s, &c);
	if (r <= 0)
		return r < 0 ? r : ends_early(s);
	if (c == ']') {
		s->pos++;
		s->at = IN_OBJECT;
		return 0;
	}
	if (s->at == IN_ARRAY) {
		r = past_comma(s, &c, ']');
		if (r <= 0)
			return r;
	}
	r = parse_value(s, out);
	if (r)
		return r;
	s->at = IN_ARRAY;
	return 1;
}
