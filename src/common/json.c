#include "common/json.h"

#include <math.h>
#include <stdlib.h>

void json_init(struct json_writer *w, FILE *out, bool pretty)
{
	w->out = out;
	w->depth = 0;
	w->pretty = pretty;
	w->has_items[0] = false;
}

void json_write_escaped(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if (*p < 0x20)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

static void indent(struct json_writer *w)
{
	if (!w->pretty)
		return;
	fputc('\n', w->out);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->out);
}

/* Separator, indentation and "key": before any value. */
static void begin_value(struct json_writer *w, const char *key)
{
	if (w->has_items[w->depth])
		fputc(',', w->out);
	if (w->depth > 0)
		indent(w);
	w->has_items[w->depth] = true;
	if (key) {
		json_write_escaped(w->out, key);
		fputs(w->pretty ? ": " : ":", w->out);
	}
}

static void open_container(struct json_writer *w, const char *key, char c)
{
	begin_value(w, key);
	fputc(c, w->out);
	if (w->depth + 1 < JSON_MAX_DEPTH)
		w->depth++;
	w->has_items[w->depth] = false;
}

static void close_container(struct json_writer *w, char c)
{
	bool had = w->has_items[w->depth];
	if (w->depth > 0)
		w->depth--;
	if (had)
		indent(w);
	fputc(c, w->out);
}

void json_object_begin(struct json_writer *w, const char *key) { open_container(w, key, '{'); }
void json_object_end(struct json_writer *w) { close_container(w, '}'); }
void json_array_begin(struct json_writer *w, const char *key) { open_container(w, key, '['); }
void json_array_end(struct json_writer *w) { close_container(w, ']'); }

void json_string(struct json_writer *w, const char *key, const char *value)
{
	begin_value(w, key);
	if (value)
		json_write_escaped(w->out, value);
	else
		fputs("null", w->out);
}

void json_u64(struct json_writer *w, const char *key, uint64_t value)
{
	begin_value(w, key);
	fprintf(w->out, "%llu", (unsigned long long)value);
}

void json_i64(struct json_writer *w, const char *key, int64_t value)
{
	begin_value(w, key);
	fprintf(w->out, "%lld", (long long)value);
}

void json_double(struct json_writer *w, const char *key, double value)
{
	begin_value(w, key);
	/* a whole number below 2^53 prints as %.17g would, only faster */
	if (isfinite(value) && fabs(value) < 9007199254740992.0 &&
	    value == (double)(long long)value && !(value == 0 && signbit(value)))
		fprintf(w->out, "%lld", (long long)value);
	else if (isfinite(value))
		fprintf(w->out, "%.17g", value);
	else
		fputs("null", w->out);
}

void json_bool(struct json_writer *w, const char *key, bool value)
{
	begin_value(w, key);
	fputs(value ? "true" : "false", w->out);
}

void json_null(struct json_writer *w, const char *key)
{
	begin_value(w, key);
	fputs("null", w->out);
}

void json_raw(struct json_writer *w, const char *key, const char *text)
{
	begin_value(w, key);
	fputs(text, w->out);
}

void json_finish(struct json_writer *w)
{
	fputc('\n', w->out);
	fflush(w->out);
}

char *json_to_string(void (*fill)(struct json_writer *w, const void *arg),
		     const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	struct json_writer w;
	json_init(&w, f, false);
	fill(&w, arg);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	if (buf && len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return buf;
}

void json_print_error(FILE *out, const char *msg)
{
	struct json_writer w;
	json_init(&w, out, false);
	json_object_begin(&w, NULL);
	json_string(&w, "error", msg);
	json_object_end(&w);
	json_finish(&w);
}

