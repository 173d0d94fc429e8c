/*
 * The top-level members of a JSON object, read with jansson.  The whole
 * document is parsed first, so a malformed one anywhere is refused rather
 * than half-read; members come in the order they were written (jansson
 * keeps insertion order).
 */
#include "report/json_scan.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy(char *buf, size_t len, const char *s, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
}

/* A value as the report shows it: a string unescaped, anything else as
   JSON text (numbers as %.15g gives them back for what our writer wrote). */
static void member_value(json_t *v, struct json_member *m)
{
	switch (json_typeof(v)) {
	case JSON_STRING:
		m->kind = JK_STRING;
		copy(m->value, sizeof m->value, json_string_value(v),
		     strlen(json_string_value(v)));
		return;
	case JSON_INTEGER:
		m->kind = JK_NUMBER;
		snprintf(m->value, sizeof m->value, "%" JSON_INTEGER_FORMAT,
			 json_integer_value(v));
		return;
	case JSON_REAL:
		m->kind = JK_NUMBER;
		snprintf(m->value, sizeof m->value, "%.15g", json_real_value(v));
		return;
	case JSON_TRUE:
	case JSON_FALSE:
		m->kind = JK_BOOL;
		snprintf(m->value, sizeof m->value, "%s",
			 json_is_true(v) ? "true" : "false");
		return;
	case JSON_NULL:
		m->kind = JK_NULL;
		snprintf(m->value, sizeof m->value, "null");
		return;
	case JSON_OBJECT:
	case JSON_ARRAY:
		m->kind = json_is_object(v) ? JK_OBJECT : JK_ARRAY;
		char *text = json_dumps(v, JSON_COMPACT | JSON_REAL_PRECISION(15));
		if (text)
			copy(m->value, sizeof m->value, text, strlen(text));
		else
			m->value[0] = '\0';
		free(text);
		return;
	}
}

int json_scan_object(const char *json,
		     int (*fn)(void *ctx, const struct json_member *m),
		     void *ctx)
{
	if (!json)
		return -1;
	json_error_t err;
	json_t *root = json_loads(json, JSON_DECODE_ANY, &err);
	if (!root || !json_is_object(root)) {
		json_decref(root);
		return -1;
	}
	const char *key;
	json_t *v;
	struct json_member m;
	json_object_foreach(root, key, v) {
		copy(m.key, sizeof m.key, key, strlen(key));
		member_value(v, &m);
		if (fn(ctx, &m))
			break;
	}
	json_decref(root);
	return 0;
}

struct find_ctx {
	const char *key;
	struct json_member *out;
	bool found;
};

static int find_member(void *ctx, const struct json_member *m)
{
	struct find_ctx *f = ctx;
	if (strcmp(m->key, f->key))
		return 0;
	*f->out = *m;
	f->found = true;
	return 1;
}

bool json_get_member(const char *json, const char *key,
		     struct json_member *out)
{
	struct find_ctx f = { key, out, false };
	if (json_scan_object(json, find_member, &f))
		return false;
	return f.found;
}

bool json_get_number(const char *json, const char *key, double *out)
{
	struct json_member m;
	if (!json_get_member(json, key, &m) || m.kind != JK_NUMBER)
		return false;
	*out = strtod(m.value, NULL);
	return true;
}

bool json_get_text(const char *json, const char *key, char *buf, size_t len)
{
	struct json_member m;
	if (!json_get_member(json, key, &m) || m.kind == JK_OBJECT ||
	    m.kind == JK_ARRAY || m.kind == JK_NULL || !len)
		return false;
	copy(buf, len, m.value, strlen(m.value));
	return true;
}
