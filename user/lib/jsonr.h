/* SPDX-License-Identifier: GPL-2.0 */
/* jsonr.h: typed reads of one key of a json-c object, for the profile and cost model readers */
#ifndef CP_JSONR_H
#define CP_JSONR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

/*
 * Readers are lenient about what they do not know: a missing or wrongly typed optional key
 * reads as absent, and the caller decides whether absence is an error.
 */

/* A copy of the string at @key (caller frees), or NULL if absent or not a string. */
char *jsonr_str(json_object *o, const char *key);

/*
 * 0 and *@out set; -ENOENT if @key is absent; -EINVAL if it is not a non-negative integer;
 * -ERANGE if it is 2^64 - 1 or more (json-c saturates larger numbers to 2^64 - 1).
 * *@out is left alone unless 0 is returned.
 */
int jsonr_u64(json_object *o, const char *key, uint64_t *out);

/* The unsigned integer at @key, or @dflt if absent or not a non-negative integer. */
uint64_t jsonr_u64_or(json_object *o, const char *key, uint64_t dflt);

/*
 * 0 and *@out set; -ENOENT if @key is absent or null; -EINVAL if it is not a finite number
 * (integers count as numbers). *@out is left alone unless 0 is returned.
 */
int jsonr_num(json_object *o, const char *key, double *out);

/* The boolean at @key, or @dflt if absent or not a boolean. */
bool jsonr_bool(json_object *o, const char *key, bool dflt);

/*
 * The string array at @key as copies (caller frees each and the array), *@n_out of them;
 * non-strings are skipped. NULL and 0 if absent or not an array.
 */
char **jsonr_strv(json_object *o, const char *key, size_t *n_out);

/* True if a NaN or infinite number is under @o (json-c reads them; strict JSON has none). */
bool jsonr_has_non_finite(json_object *o);

/*
 * Where valid JSON text @s holds the escape \u0000, or SIZE_MAX. json-c keeps the NUL in a
 * string, but every reader copies names as C strings, which would end there: "a\u0000b" would
 * read as "a" (and a key would merge with another).
 */
size_t jsonr_nul_escape_at(const char *s, size_t len);

/* The largest file jsonr_read_file() reads. */
#define JSONR_MAX_FILE (1UL << 30)

/*
 * Parses @path ("-": stdin) as one strict JSON value (RFC 8259): no data after it, no NaN or
 * Infinity, valid UTF-8, no \u0000 (the readers copy strings as C strings, which would end
 * there); at most JSONR_MAX_FILE bytes. 0 and *@out (caller puts it), or
 * -errno with @why (@whylen bytes) saying what is wrong, starting "not valid JSON" for -EINVAL.
 */
int jsonr_read_file(const char *path, json_object **out, char *why, size_t whylen);

#endif
