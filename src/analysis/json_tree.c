#include "analysis/json_tree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define JT_MAX_DEPTH 64

struct parser {
	const char *s;
	size_t len, pos;
	struct sb_err *e;
};

static void skip_ws(struct parser *p)
{
	while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]) && p->s[p->pos])
		p->pos++;
}

static int fail(struct parser *p, const char *what)
{
	return sb_errf(p->e, "JSON: %s at byte %zu", what, p->pos);
}

static int parse_string(struct parser *p, char **out)
{
	/* the caller has seen the opening quote */
	p->pos++;
	size_t cap = 16, n = 0;
	char *buf = malloc(cap);
	if (!buf)
		return sb_errno(p->e, ENOMEM, "JSON");
	while (p->pos < p->len && p->s[p->pos] != '"') {
		char c = p->s[p->pos++];
		if (c == '\\') {
			if (p->pos >= p->len)
				break;
			char x = p->s[p->pos++];
			switch (x) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'u':
				/* names and numbers here are ASCII: keep a
				   placeholder rather than decode UTF-16 */
				if (p->pos + 4 > p->len) {
					free(buf);
					return fail(p, "short \\u escape");
				}
				p->pos += 4;
				c = '?';
				break;
			default: c = x; break;
			}
		}
		if (n + 2 > cap) {
			char *more = realloc(buf, cap *= 2);
			if (!more) {
				free(buf);
				return sb_errno(p->e, ENOMEM, "JSON");
			}
			buf = more;
		}
		buf[n++] = c;
	}
	if (p->pos >= p->len) {
		free(buf);
		return fail(p, "unterminated string");
	}
	p->pos++;
	buf[n] = 0;
	*out = buf;
	return 0;
}

static int parse_value(struct parser *p, struct jt_node *n, int depth);

static int parse_container(struct parser *p, struct jt_node *n, int depth,
			   char close)
{
	p->pos++;
	struct jt_node **tail = &n->child;
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == close) {
		p->pos++;
		return 0;
	}
	for (;;) {
		struct jt_node *c = calloc(1, sizeof *c);
		if (!c)
			return sb_errno(p->e, ENOMEM, "JSON");
		*tail = c;
		tail = &c->next;
		skip_ws(p);
		if (close == '}') {
			if (p->pos >= p->len || p->s[p->pos] != '"')
				return fail(p, "expected a member name");
			if (parse_string(p, &c->key))
				return -1;
			skip_ws(p);
			if (p->pos >= p->len || p->s[p->pos] != ':')
				return fail(p, "expected ':'");
			p->pos++;
		}
		if (parse_value(p, c, depth + 1))
			return -1;
		skip_ws(p);
		if (p->pos < p->len && p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == close) {
			p->pos++;
			return 0;
		}
		return fail(p, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int parse_value(struct parser *p, struct jt_node *n, int depth)
{
	if (depth > JT_MAX_DEPTH)
		return fail(p, "nested too deeply");
	skip_ws(p);
	if (p->pos >= p->len)
		return fail(p, "unexpected end");
	char c = p->s[p->pos];
	const char *rest = p->s + p->pos;
	size_t left = p->len - p->pos;
	if (c == '{') {
		n->type = JT_OBJ;
		return parse_container(p, n, depth, '}');
	}
	if (c == '[') {
		n->type = JT_ARR;
		return parse_container(p, n, depth, ']');
	}
	if (c == '"') {
		n->type = JT_STR;
		return parse_string(p, &n->str);
	}
	if (left >= 4 && !strncmp(rest, "true", 4)) {
		n->type = JT_BOOL;
		n->num = 1;
		p->pos += 4;
		return 0;
	}
	if (left >= 5 && !strncmp(rest, "false", 5)) {
		n->type = JT_BOOL;
		p->pos += 5;
		return 0;
	}
	if (left >= 4 && !strncmp(rest, "null", 4)) {
		n->type = JT_NULL;
		p->pos += 4;
		return 0;
	}
	/* a number: strtod on a bounded copy, the text need not end in NUL */
	char buf[64];
	size_t k = 0;
	while (k < left && k + 1 < sizeof buf && strchr("+-0123456789.eE", rest[k]) && rest[k])
		buf[k] = rest[k], k++;
	buf[k] = 0;
	char *end;
	n->num = strtod(buf, &end);
	if (k == 0 || end != buf + k)
		return fail(p, "not a JSON value");
	n->type = JT_NUM;
	p->pos += k;
	return 0;
}

int jt_parse(const char *text, size_t len, struct jt_node **out,
	     struct sb_err *e)
{
	struct parser p = { text, len, 0, e };
	struct jt_node *root = calloc(1, sizeof *root);
	if (!root)
		return sb_errno(e, ENOMEM, "JSON");
	if (parse_value(&p, root, 0)) {
		jt_free(root);
		return -1;
	}
	skip_ws(&p);
	if (p.pos != len) {
		jt_free(root);
		return fail(&p, "trailing text after the document");
	}
	*out = root;
	return 0;
}

void jt_free(struct jt_node *n)
{
	while (n) {
		struct jt_node *next = n->next;
		jt_free(n->child);
		free(n->key);
		free(n->str);
		free(n);
		n = next;
	}
}

const struct jt_node *jt_get(const struct jt_node *obj, const char *key)
{
	if (!obj || obj->type != JT_OBJ)
		return NULL;
	for (const struct jt_node *c = obj->child; c; c = c->next)
		if (c->key && !strcmp(c->key, key))
			return c;
	return NULL;
}

double jt_num(const struct jt_node *obj, const char *key, double dflt)
{
	const struct jt_node *n = jt_get(obj, key);
	return n && n->type == JT_NUM ? n->num : dflt;
}
