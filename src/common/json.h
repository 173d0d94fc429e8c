/*
 * A small streaming JSON writer: commas and nesting are tracked here so
 * callers only say what goes in.  Non-finite doubles become null, because
 * JSON has no NaN and a consumer must not choke on a missing measurement.
 */
#ifndef SSDBENCH_COMMON_JSON_H
#define SSDBENCH_COMMON_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/json_check.h"

#define JSON_MAX_DEPTH 32

struct json_writer {
	FILE *out;
	int depth;
	bool pretty;
	bool has_items[JSON_MAX_DEPTH];
};

void json_init(struct json_writer *w, FILE *out, bool pretty);

/* `key` is the member name inside an object, NULL inside an array/top level. */
void json_object_begin(struct json_writer *w, const char *key);
void json_object_end(struct json_writer *w);
void json_array_begin(struct json_writer *w, const char *key);
void json_array_end(struct json_writer *w);

void json_string(struct json_writer *w, const char *key, const char *value);
void json_u64(struct json_writer *w, const char *key, uint64_t value);
void json_i64(struct json_writer *w, const char *key, int64_t value);
void json_double(struct json_writer *w, const char *key, double value);
void json_bool(struct json_writer *w, const char *key, bool value);
void json_null(struct json_writer *w, const char *key);

/* Embed `text`, which must be one valid JSON value (check with json_valid),
   as it is: for JSON the database keeps as text (params, facts, specs). */
void json_raw(struct json_writer *w, const char *key, const char *text);



/* Finish the document with a newline. */
void json_finish(struct json_writer *w);

/*
 * A JSON document written by `fill` into a heap string, without the final
 * newline: for JSON stored in the database.  NULL when out of memory.
 */
char *json_to_string(void (*fill)(struct json_writer *w, const void *arg),
		     const void *arg);

/* Write `s` as a quoted JSON string (exposed for CSV/other emitters). */
void json_write_escaped(FILE *out, const char *s);

/* {"error": "msg"} and a newline: what a --json command prints on stdout
   when it fails, so stdout is always one JSON document. */
void json_print_error(FILE *out, const char *msg);

#endif
