/*
 * What a suite run keeps about itself in runs.params_json, so `resume`
 * needs nothing but the run id: the target, its file size, whether data
 * may be destroyed, and the plan's canonical text.
 *
 *   {"suite":1,"target":"/dev/loop0","file_size":0,"destroy_data":true,
 *    "plan":"preset=quick\nsuite.interval=100ms\n...",
 *    "preset_note":"A smoke test: ..."}
 *
 * The preset's note (presets.h) is written for readers of the results
 * (the report shows it); nothing reads it back.
 *
 * The reader below understands exactly this flat shape (strings with the
 * escapes json_write_escaped produces, unsigned numbers, booleans).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "suite/presets.h"
#include "suite/record.h"

/* The note of the preset the canonical text starts from ("preset=NAME"). */
static const char *preset_note(const char *plan_text)
{
	char name[32];
	if (!plan_text || sscanf(plan_text, "preset=%31[^\n]", name) != 1)
		return "";
	const struct preset *p = preset_find(name);
	return p ? p->note : "";
}

static void fill_record(struct json_writer *w, const void *arg)
{
	const struct suite_record *r = arg;
	json_object_begin(w, NULL);
	json_u64(w, "suite", 1);
	json_string(w, "target", r->target);
	json_u64(w, "file_size", r->file_size);
	json_bool(w, "destroy_data", r->destroy_data);
	json_string(w, "plan", r->plan_text);
	json_string(w, "preset_note", preset_note(r->plan_text));
	json_object_end(w);
}

char *suite_record_json(const struct suite_record *r)
{
	return json_to_string(fill_record, r);
}

/* Position just after `"key":`, at the top level of a flat object. */
static const char *find_key(const char *json, const char *key)
{
	size_t kl = strlen(key);
	bool in_str = false;
	for (const char *p = json; *p; p++) {
		if (in_str) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				in_str = false;
			continue;
		}
		if (*p != '"')
			continue;
		if (!strncmp(p + 1, key, kl) && p[1 + kl] == '"') {
			const char *q = p + 2 + kl;
			while (isspace((unsigned char)*q))
				q++;
			if (*q == ':') {
				q++;
				while (isspace((unsigned char)*q))
					q++;
				return q;
			}
		}
		in_str = true;
	}
	return NULL;
}

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : isxdigit(c) ? (tolower(c) - 'a' + 10) : -1;
}

/* A JSON string at p, unescaped into a new heap string. */
static char *read_string(const char *p)
{
	if (!p || *p != '"')
		return NULL;
	size_t cap = strlen(p) + 1;
	char *out = malloc(cap), *o = out;
	if (!out)
		return NULL;
	for (p++; *p && *p != '"'; p++) {
		if (*p != '\\') {
			*o++ = *p;
			continue;
		}
		p++;
		switch (*p) {
		case 'n': *o++ = '\n'; break;
		case 't': *o++ = '\t'; break;
		case 'r': *o++ = '\r'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'u': {
			int v = 0;
			for (int i = 1; i <= 4; i++) {
				int h = hexval((unsigned char)p[i]);
				if (h < 0) {
					free(out);
					return NULL;
				}
				v = v * 16 + h;
			}
			p += 4;
			/* Only control characters are escaped this way here. */
			*o++ = v < 0x80 ? (char)v : '?';
			break;
		}
		case '\0':
			free(out);
			return NULL;
		default: *o++ = *p; break;
		}
	}
	if (*p != '"') {
		free(out);
		return NULL;
	}
	*o = '\0';
	return out;
}

int suite_record_parse(const char *json, struct suite_record *r,
		       struct sb_err *e)
{
	memset(r, 0, sizeof *r);
	if (!json || !find_key(json, "suite"))
		return sb_errf(e, "it was not started by 'ssdbench suite'");
	char *target = read_string(find_key(json, "target"));
	r->plan_text = read_string(find_key(json, "plan"));
	const char *fs = find_key(json, "file_size");
	const char *dd = find_key(json, "destroy_data");
	if (!target || !r->plan_text || !fs || !dd) {
		free(target);
		free(r->plan_text);
		r->plan_text = NULL;
		return sb_errf(e, "its stored plan is incomplete");
	}
	snprintf(r->target, sizeof r->target, "%s", target);
	free(target);
	r->file_size = strtoull(fs, NULL, 10);
	r->destroy_data = !strncmp(dd, "true", 4);
	return 0;
}

int suite_record_load(struct store *s, int64_t run_id, struct suite_record *r,
		      struct sb_err *e)
{
	struct run_row row;
	if (store_get_run(s, run_id, &row, e))
		return -1;
	int rc = suite_record_parse(row.params_json, r, e);
	store_run_row_free(&row);
	if (rc)
		return sb_err_wrap(e, "run %lld", (long long)run_id);
	return 0;
}
