/*
 * Reading the JSON the store keeps beside a run (host facts, target facts,
 * workload specs, step parameters).  The report only needs the top-level
 * members of an object: a key, and its value as text (strings unescaped,
 * numbers in their shortest form up to 15 digits, nested objects/arrays as
 * compact JSON).  jansson parses the whole document; anything that is not
 * well-formed is refused.
 */
#ifndef SSDBENCH_REPORT_JSON_SCAN_H
#define SSDBENCH_REPORT_JSON_SCAN_H

#include <stdbool.h>
#include <stddef.h>

enum json_kind { JK_STRING, JK_NUMBER, JK_BOOL, JK_NULL, JK_OBJECT, JK_ARRAY };

struct json_member {
	char key[64];
	enum json_kind kind;
	char value[512];	/* unescaped string, or the value's JSON text
				   (truncated to fit) */
};

/*
 * Call `fn` for each top-level member of the object in `json`, in order;
 * stop early if it returns non-zero.  Returns 0, or -1 when `json` is not
 * an object or is malformed.
 */
int json_scan_object(const char *json,
		     int (*fn)(void *ctx, const struct json_member *m),
		     void *ctx);

/* One member by key; false if absent (or `json` is NULL / malformed). */
bool json_get_member(const char *json, const char *key,
		     struct json_member *out);
bool json_get_number(const char *json, const char *key, double *out);
/* Copies a string member (or a number/bool's text) into buf. */
bool json_get_text(const char *json, const char *key, char *buf, size_t len);

#endif
