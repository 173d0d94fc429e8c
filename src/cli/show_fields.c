/*
 * A stored JSON document (a run's parameters, host, target facts) as the
 * fields a reader reads: one "name  value" line per member, nested objects
 * indented under their name, arrays as comma-separated values, and the
 * plan's text ("STEP.KEY=VALUE" lines) as one line of settings per step.
 * Machines read the same documents through `show --json`.
 */
#include "cli/show_fields.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/term_text.h"

#define NAME_WIDTH 14
#define LINE_WIDTH 100

static void pad(FILE *out, int indent)
{
	fprintf(out, "%*s", indent, "");
}

/* "a.b=c" lines grouped by "a": "a  b=c d=e ...", wrapped under itself. */
static void settings_text(FILE *out, const char *text, int indent)
{
	char group[64] = "";
	int col = 0;
	bool first_line = true;
	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		const char *dot = memchr(p, '.', len);
		const char *eq = memchr(p, '=', len);
		if (len && dot && eq && dot < eq && (size_t)(dot - p) < sizeof group) {
			size_t glen = (size_t)(dot - p);
			const char *kv = dot + 1;
			int kvlen = (int)(len - glen - 1);
			if (strlen(group) != glen || strncmp(group, p, glen)) {
				memcpy(group, p, glen);
				group[glen] = '\0';
				if (!first_line)
					fputc('\n', out);
				if (!first_line)
					pad(out, indent);
				char g[256];
				col = fprintf(out, "%-*s", NAME_WIDTH,
					      term_text(group, g, sizeof g));
				first_line = false;
			} else if (col + 1 + kvlen > LINE_WIDTH - indent) {
				fputc('\n', out);
				pad(out, indent);
				col = fprintf(out, "%-*s", NAME_WIDTH, "");
			}
			char one[1024], kvs[4096];
			snprintf(one, sizeof one, "%.*s", kvlen, kv);
			col += fprintf(out, " %s", term_text(one, kvs, sizeof kvs));
		} else if (len) {
			if (!first_line) {
				fputc('\n', out);
				pad(out, indent);
			}
			char one[1024], line[4096];
			snprintf(one, sizeof one, "%.*s", (int)len, p);
			fputs(term_text(one, line, sizeof line), out);
			group[0] = '\0';
			first_line = false;
		}
		p += len + (eol ? 1 : 0);
	}
	fputc('\n', out);
}

static void scalar(FILE *out, const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_STRING: {
		char buf[4096];
		fputs(term_text(json_string_value(v), buf, sizeof buf), out);
		break;
	}
	case JSON_INTEGER: fprintf(out, "%lld", (long long)json_integer_value(v)); break;
	case JSON_REAL: fprintf(out, "%.10g", json_real_value(v)); break;
	case JSON_TRUE: fputs("yes", out); break;
	case JSON_FALSE: fputs("no", out); break;
	case JSON_NULL: fputs("(none)", out); break;
	default: {
		char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		fputs(s ? s : "?", out);
		free(s);
	}
	}
}

/* Lines "a.b=c" (a plan's canonical text), each shown as a setting; any
   other text with a newline is one value, its newline escaped. */
static bool settings_like(const char *s)
{
	if (!strchr(s, '\n'))
		return false;
	for (const char *p = s; *p;) {
		size_t len = strcspn(p, "\n");
		const char *eq = memchr(p, '=', len);
		if (len && (!eq || !memchr(p, '.', (size_t)(eq - p))) &&
		    strncmp(p, "preset=", 7))
			return false;
		p += len + (p[len] ? 1 : 0);
	}
	return true;
}

static bool all_scalars(const json_t *a)
{
	size_t i;
	json_t *x;
	json_array_foreach(a, i, x)
		if (json_is_object(x) || json_is_array(x))
			return false;
	return true;
}

static void member(FILE *out, const char *name, const json_t *v, int indent);

static void object(FILE *out, const json_t *o, int indent)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)o, k, v)
		member(out, k, v, indent);
}

static void member(FILE *out, const char *name, const json_t *v, int indent)
{
	char nm[256];
	name = term_text(name, nm, sizeof nm);
	pad(out, indent);
	if (json_is_object(v)) {
		fprintf(out, "%s\n", name);
		object(out, v, indent + 2);
		return;
	}
	fprintf(out, "%-*s ", NAME_WIDTH, name);
	if (json_is_string(v) && settings_like(json_string_value(v))) {
		settings_text(out, json_string_value(v), indent + NAME_WIDTH + 1);
		return;
	}
	if (json_is_array(v) && all_scalars(v)) {
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x) {
			if (i)
				fputs(", ", out);
			scalar(out, x);
		}
		fputc('\n', out);
		return;
	}
	if (json_is_array(v)) {
		fputc('\n', out);
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x) {
			char idx[24];
			snprintf(idx, sizeof idx, "[%zu]", i);
			member(out, idx, x, indent + 2);
		}
		return;
	}
	scalar(out, v);
	fputc('\n', out);
}

void show_json_fields(FILE *out, const char *name, const char *json, int indent)
{
	if (!json || !*json)
		return;
	json_error_t err;
	json_t *root = json_loads(json, JSON_DECODE_ANY, &err);
	if (!root) {
		/* Not JSON after all: the text as stored, on one line. */
		pad(out, indent);
		fprintf(out, "%-*s %s\n", NAME_WIDTH, name, json);
		return;
	}
	member(out, name, root, indent);
	json_decref(root);
}
