/*
 * A recursive-descent walk over JSON that records only the top level.
 * Nested values are skipped with the same grammar, so a malformed document
 * anywhere is refused rather than half-read.
 */
#include "report/json_scan.h"

#include <stdlib.h>
#include <string.h>

struct cursor {
	const char *p;
	int depth;
};

#define MAX_DEPTH 64

static void skip_ws(struct cursor *c)
{
	while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')
		c->p++;
}

static void put(char *buf, size_t len, size_t *n, char ch)
{
	if (buf && *n + 1 < len)
		buf[(*n)++] = ch;
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* Encode a code point as UTF-8 into buf. */
static void put_utf8(char *buf, size_t len, size_t *n, unsigned cp)
{
	if (cp < 0x80) {
		put(buf, len, n, (char)cp);
	} else if (cp < 0x800) {
		put(buf, len, n, (char)(0xc0 | (cp >> 6)));
		put(buf, len, n, (char)(0x80 | (cp & 0x3f)));
	} else {
		put(buf, len, n, (char)(0xe0 | (cp >> 12)));
		put(buf, len, n, (char)(0x80 | ((cp >> 6) & 0x3f)));
		put(buf, len, n, (char)(0x80 | (cp & 0x3f)));
	}
}

/* A string at c->p (on the opening quote), unescaped into buf if given. */
static int scan_string(struct cursor *c, char *buf, size_t len)
{
	size_t n = 0;
	if (*c->p != '"')
		return -1;
	c->p++;
	for (;;) {
		unsigned char ch = (unsigned char)*c->p++;
		if (ch == '\0' || ch < 0x20)
			return -1;
		if (ch == '"')
			break;
		if (ch != '\\') {
			put(buf, len, &n, (char)ch);
			continue;
		}
		char esc = *c->p++;
		switch (esc) {
		case '"': case '\\': case '/': put(buf, len, &n, esc); break;
		case 'b': put(buf, len, &n, '\b'); break;
		case 'f': put(buf, len, &n, '\f'); break;
		case 'n': put(buf, len, &n, '\n'); break;
		case 'r': put(buf, len, &n, '\r'); break;
		case 't': put(buf, len, &n, '\t'); break;
		case 'u': {
			unsigned cp = 0;
			for (int i = 0; i < 4; i++) {
				int h = hexval(*c->p++);
				if (h < 0)
					return -1;
				cp = cp * 16 + (unsigned)h;
			}
			/* Surrogates are not worth pairing for a report. */
			put_utf8(buf, len, &n, cp >= 0xd800 && cp < 0xe000
						       ? '?' : cp);
			break;
		}
		default:
			return -1;
		}
	}
	if (buf && len)
		buf[n] = '\0';
	return 0;
}

static int scan_value(struct cursor *c, enum json_kind *kind);

static int scan_container(struct cursor *c, char close, bool object)
{
	if (++c->depth > MAX_DEPTH)
		return -1;
	c->p++;
	skip_ws(c);
	if (*c->p == close) {
		c->p++;
		c->depth--;
		return 0;
	}
	for (;;) {
		enum json_kind k;
		skip_ws(c);
		if (object) {
			if (scan_string(c, NULL, 0))
				return -1;
			skip_ws(c);
			if (*c->p++ != ':')
				return -1;
			skip_ws(c);
		}
		if (scan_value(c, &k))
			return -1;
		skip_ws(c);
		if (*c->p == ',') {
			c->p++;
			continue;
		}
		if (*c->p++ != close)
			return -1;
		c->depth--;
		return 0;
	}
}

static int scan_literal(struct cursor *c, const char *word)
{
	size_t n = strlen(word);
	if (strncmp(c->p, word, n))
		return -1;
	c->p += n;
	return 0;
}

static int scan_value(struct cursor *c, enum json_kind *kind)
{
	switch (*c->p) {
	case '"': *kind = JK_STRING; return scan_string(c, NULL, 0);
	case '{': *kind = JK_OBJECT; return scan_container(c, '}', true);
	case '[': *kind = JK_ARRAY; return scan_container(c, ']', false);
	case 't': *kind = JK_BOOL; return scan_literal(c, "true");
	case 'f': *kind = JK_BOOL; return scan_literal(c, "false");
	case 'n': *kind = JK_NULL; return scan_literal(c, "null");
	default: {
		char *end;
		*kind = JK_NUMBER;
		strtod(c->p, &end);
		if (end == c->p)
			return -1;
		c->p = end;
		return 0;
	}
	}
}

int json_scan_object(const char *json,
		     int (*fn)(void *ctx, const struct json_member *m),
		     void *ctx)
{
	if (!json)
		return -1;
	struct cursor c = { json, 0 };
	skip_ws(&c);
	if (*c.p != '{')
		return -1;
	c.p++;
	skip_ws(&c);
	if (*c.p == '}')
		return 0;
	struct json_member m;
	bool stopped = false;
	for (;;) {
		skip_ws(&c);
		if (scan_string(&c, m.key, sizeof(m.key)))
			return -1;
		skip_ws(&c);
		if (*c.p++ != ':')
			return -1;
		skip_ws(&c);
		const char *start = c.p;
		if (*c.p == '"') {
			m.kind = JK_STRING;
			if (scan_string(&c, m.value, sizeof(m.value)))
				return -1;
		} else {
			if (scan_value(&c, &m.kind))
				return -1;
			size_t n = (size_t)(c.p - start);
			if (n >= sizeof(m.value))
				n = sizeof(m.value) - 1;
			memcpy(m.value, start, n);
			m.value[n] = '\0';
		}
		if (!stopped && fn(ctx, &m))
			stopped = true;
		skip_ws(&c);
		if (*c.p == ',') {
			c.p++;
			continue;
		}
		if (*c.p != '}')
			return -1;
		return 0;
	}
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
	size_t n = strlen(m.value);
	if (n >= len)
		n = len - 1;
	memcpy(buf, m.value, n);
	buf[n] = '\0';
	return true;
}
