/*
 * A strict JSON checker, so that JSON kept as text (in the database, in
 * files) is embedded into our output only when it cannot break it.
 * Recursive descent with a depth limit; no allocation.
 */
#include "common/json.h"

#include <string.h>

#define JSON_VALID_MAX_DEPTH 256

static const char *value(const char *p, int depth);

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

static const char *string(const char *p)
{
	p++;	/* the opening quote */
	for (;;) {
		unsigned char c = (unsigned char)*p;
		if (c == '"')
			return p + 1;
		if (c < 0x20)	/* control characters and the end of text */
			return NULL;
		if (c != '\\') {
			p++;
			continue;
		}
		p++;
		if (*p == 'u') {
			for (int i = 1; i <= 4; i++)
				if (!is_hex(p[i]))
					return NULL;
			p += 5;
		} else if (*p && strchr("\"\\/bfnrt", *p)) {
			p++;
		} else {
			return NULL;
		}
	}
}

static const char *digits(const char *p)
{
	if (*p < '0' || *p > '9')
		return NULL;
	while (*p >= '0' && *p <= '9')
		p++;
	return p;
}

static const char *number(const char *p)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (!(p = digits(p)))
		return NULL;
	if (*p == '.' && !(p = digits(p + 1)))
		return NULL;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!(p = digits(p)))
			return NULL;
	}
	return p;
}

/* The members of an object or elements of an array, after the bracket. */
static const char *container(const char *p, char close, int depth)
{
	p = skip_space(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (close == '}') {
			if (*p != '"' || !(p = string(p)))
				return NULL;
			p = skip_space(p);
			if (*p++ != ':')
				return NULL;
		}
		if (!(p = value(p, depth + 1)))
			return NULL;
		p = skip_space(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
		p = skip_space(p);
	}
}

static const char *value(const char *p, int depth)
{
	if (depth > JSON_VALID_MAX_DEPTH)
		return NULL;
	p = skip_space(p);
	switch (*p) {
	case '{': return container(p, '}', depth);
	case '[': return container(p, ']', depth);
	case '"': return string(p);
	case 't': return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f': return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n': return strncmp(p, "null", 4) ? NULL : p + 4;
	default: return number(p);
	}
}

bool json_valid(const char *text)
{
	if (!text)
		return false;
	const char *end = value(text, 0);
	return end && *skip_space(end) == '\0';
}
