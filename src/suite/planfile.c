/*
 * Plan files, fio-style INI:
 *
 *   # the reviewer's 90 % variant
 *   [fill]
 *   passes=2 share=90%
 *   [suite] interval=100ms
 *
 * A section names a step (or "suite"); a line holds one or more key=value
 * words; '#' or ';' starts a comment.  Every error says file:line: why.
 */
#include "suite/plan.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* Cut a comment that starts the line or follows a blank. */
static void cut_comment(char *s)
{
	for (char *c = s; *c; c++)
		if ((*c == '#' || *c == ';') && (c == s || isspace((unsigned char)c[-1]))) {
			*c = '\0';
			return;
		}
}

static int parse_line(struct plan *p, const char *name, int lineno, char *line,
		      char *section, size_t section_len, struct sb_err *e)
{
	char origin[64];
	snprintf(origin, sizeof origin, "%.50s:%d", name, lineno);
	cut_comment(line);
	char *s = trim(line);
	if (*s == '[') {
		char *close = strchr(s, ']');
		if (!close)
			return sb_errf(e, "%s: '[' without ']'", origin);
		*close = '\0';
		char *sec = trim(s + 1);
		if (!*sec)
			return sb_errf(e, "%s: empty section name", origin);
		snprintf(section, section_len, "%s", sec);
		/* Check the name now, so an unknown step is reported here. */
		if (strcmp(section, "suite") && !plan_find(p, section) &&
		    plan_set_kv(p, section, "enabled", "yes", origin, e))
			return sb_err_wrap(e, "%s", origin);
		s = trim(close + 1);
	}
	char *save = NULL;
	for (char *w = strtok_r(s, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (!section[0])
			return sb_errf(e, "%s: '%s' comes before any [section]", origin, w);
		char *eq = strchr(w, '=');
		if (!eq || eq == w)
			return sb_errf(e, "%s: [%s] '%s' is not key=value", origin,
				       section, w);
		*eq = '\0';
		if (plan_set_kv(p, section, w, eq + 1, origin, e))
			return sb_err_wrap(e, "%s: [%s] %s", origin, section, w);
	}
	return 0;
}

int plan_read_text(struct plan *p, const char *name, const char *text,
		   struct sb_err *e)
{
	char section[64] = "";
	int lineno = 0;
	const char *at = text;
	while (*at) {
		size_t len = strcspn(at, "\n");
		lineno++;
		char line[1024];
		if (len >= sizeof line)
			return sb_errf(e, "%s:%d: line longer than %zu characters",
				       name, lineno, sizeof line - 1);
		memcpy(line, at, len);
		line[len] = '\0';
		if (parse_line(p, name, lineno, line, section, sizeof section, e))
			return -1;
		at += len;
		if (*at == '\n')
			at++;
	}
	return 0;
}

int plan_read_file(struct plan *p, const char *path, struct sb_err *e)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return sb_errno(e, errno, "plan file %s", path);
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	if (!buf) {
		fclose(f);
		return sb_errno(e, ENOMEM, "plan file %s", path);
	}
	size_t got;
	while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += got;
		if (len + 1 == cap) {
			if (cap > (1u << 20)) {
				free(buf);
				fclose(f);
				return sb_errf(e, "plan file %s is larger than 1 MiB", path);
			}
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				fclose(f);
				return sb_errno(e, ENOMEM, "plan file %s", path);
			}
			buf = nb;
			cap *= 2;
		}
	}
	bool bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		return sb_errf(e, "plan file %s: read error", path);
	}
	buf[len] = '\0';
	if (memchr(buf, '\0', len)) {
		free(buf);
		return sb_errf(e, "plan file %s is not text", path);
	}
	int rc = plan_read_text(p, path, buf, e);
	free(buf);
	return rc;
}
