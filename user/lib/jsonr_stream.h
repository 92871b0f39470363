/* SPDX-License-Identifier: GPL-2.0 */
/* jsonr_stream.h: a JSON file's top-level object read member by member, arrays element by element */
#ifndef CP_JSONR_STREAM_H
#define CP_JSONR_STREAM_H

#include <stddef.h>
#include <json-c/json.h>

/*
 * A big file (a profile of 250,000 sites) without its whole tree in memory: the structure of
 * the top-level object and of a member that is an array is read here, and each member value
 * or array element is parsed on its own by json-c's tokener, which the caller frees before it
 * asks for the next. As strict as jsonr_read_file(): RFC 8259, no NaN or Infinity, valid UTF-8,
 * nothing after the object, at most JSONR_MAX_FILE bytes; its messages too.
 */
struct jsonr_stream;

/* Opens @path ("-": stdin). 0, or -errno with @why (@whylen bytes) saying what failed. */
int jsonr_stream_open(const char *path, struct jsonr_stream **out, char *why, size_t whylen);
void jsonr_stream_close(struct jsonr_stream *s);

/*
 * The next member of the top-level object: 1 and its key in *@key (valid until the next call),
 * then read its value with jsonr_stream_value() or jsonr_stream_array(); 0 after the last
 * member (the file is checked to its end); -EINVAL when the file is not valid JSON, -EDOM when
 * it is valid JSON but no object, other -errno for I/O; jsonr_stream_why() says which.
 */
int jsonr_stream_key(struct jsonr_stream *s, const char **key);
/* The member's value, whole: 0 and *@out (the caller puts it), or -errno. */
int jsonr_stream_value(struct jsonr_stream *s, json_object **out);
/*
 * The member's value if it is an array: 1, then each element with jsonr_stream_element(); 0
 * if it is something else (read it with jsonr_stream_value()); -errno.
 */
int jsonr_stream_array(struct jsonr_stream *s);
/* The array's next element: 1 and *@out (the caller puts it), 0 after the last, -errno. */
int jsonr_stream_element(struct jsonr_stream *s, json_object **out);
/* What the last failure was: "not valid JSON: ...", or an I/O error. */
const char *jsonr_stream_why(const struct jsonr_stream *s);

#endif
