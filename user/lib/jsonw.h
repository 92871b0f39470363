/* SPDX-License-Identifier: GPL-2.0 */
/* jsonw.h: building and saving the JSON files copyprof writes (profiles, cost models) */
#ifndef CP_JSONW_H
#define CP_JSONW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>

/* Adds @key: @val to @o; nothing if @val is NULL (readers treat a missing key as unknown). */
void jsonw_put_str(json_object *o, const char *key, const char *val);
/* A "0x..." string: kernel addresses do not fit JSON's doubles. */
json_object *jsonw_new_hex(uint64_t v);

/*
 * Makes @o strict JSON in place, down its whole tree: a NaN or infinite number becomes null,
 * a string with invalid UTF-8 gets U+FFFD for each bad byte. Object keys are left as they are
 * (copyprof's keys are its own ASCII names).
 */
void jsonw_sanitize(json_object *o);

/*
 * Writes @o to @f as json_object_to_json_string_ext(PRETTY | SPACED) prints it at nesting
 * @level of its parent (two spaces a level): each line after the first indented by 2 x
 * @level. What a streaming writer puts between its parent's brackets. 0 or -ENOMEM.
 */
int jsonw_put_nested(FILE *f, json_object *o, int level);

/* jsonw_sanitize(), then @root on stdout with @flags (JSON_C_TO_STRING_*) and a newline. */
int jsonw_print(json_object *root, int flags);

/*
 * Sanitized (jsonw_sanitize()), then written pretty-printed with a final newline, atomically (outfile.h); "-" is stdout.
 * Takes @root over: it is released whatever happens. Returns 0 or -errno (printed).
 */
int jsonw_write_file(json_object *root, const char *path);

#endif
