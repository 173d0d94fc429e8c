#include "common/ini.h"

#include "common/file_read.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INI_MAX_FILE FILE_LIMIT_INI

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* A comment starts the line or follows a blank, so "model = A#2" keeps
   its '#'. */
static void cut_comment(char *s)
{
	for (char *c = s; *c; c++)
		if ((*c == '#' || *c == ';') && (c == s || isspace((unsigned char)c[-1]))) {
			*c = '\0';
			return;
		}
}

static int emit(ini_entry_fn fn, void *ctx, struct ini_entry *en,
		const char *key, const char *value, struct sb_err *e)
{
	en->key = key;
	en->value = value;
	return fn(ctx, en, e) ? -1 : 0;
}

/*
 * The items of one line: a single '=' makes one "key = value" whose value
 * may hold blanks; several make blank-separated key=value words; none
 * makes bare keys.
 */
static int parse_items(char *s, struct ini_entry *en, ini_entry_fn fn,
		       void *ctx, struct sb_err *e)
{
	char *eq = strchr(s, '=');
	if (eq && !strchr(eq + 1, '=')) {
		*eq = '\0';
		char *key = trim(s);
		if (!*key || strpbrk(key, " \t"))
			return sb_errf(e, "%s: expected 'key = value', got '%s'", en->where, key);
		return emit(fn, ctx, en, key, trim(eq + 1), e);
	}
	char *save = NULL;
	for (char *w = strtok_r(s, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		char *weq = strchr(w, '=');
		if (weq == w || (eq && !weq))
			return sb_errf(e, "%s: '%s' is not key=value", en->where, w);
		if (weq)
			*weq = '\0';
		if (emit(fn, ctx, en, w, weq ? weq + 1 : NULL, e))
			return -1;
	}
	return 0;
}

int ini_parse(const char *text, const char *origin, ini_entry_fn fn,
	      void *ctx, struct sb_err *e)
{
	char *copy = strdup(text);
	if (!copy)
		return sb_errno(e, ENOMEM, "%s", origin);
	char section[128] = "", where[600];
	struct ini_entry en = { .section = section, .where = where };
	int rc = 0;
	int lineno = 0;
	/* strsep keeps empty lines, so line numbers stay right. */
	for (char *rest = copy, *line; !rc && (line = strsep(&rest, "\n"));) {
		en.line = ++lineno;
		snprintf(where, sizeof where, "%.500s:%d", origin, lineno);
		cut_comment(line);
		char *s = trim(line);
		if (*s == '[') {
			char *close = strchr(s, ']');
			if (!close) {
				rc = sb_errf(e, "%s: '[' without ']'", where);
				break;
			}
			*close = '\0';
			char *name = trim(s + 1);
			if (!*name) {
				rc = sb_errf(e, "%s: empty section name", where);
				break;
			}
			snprintf(section, sizeof section, "%s", name);
			if ((rc = emit(fn, ctx, &en, NULL, NULL, e)))
				break;
			s = trim(close + 1);
		}
		if (*s)
			rc = parse_items(s, &en, fn, ctx, e);
	}
	free(copy);
	return rc ? -1 : 0;
}

int ini_read_file(const char *path, const char *what, char **text,
		  struct sb_err *e)
{
	return file_read_text(path, what, INI_MAX_FILE, text, NULL, e);
}
