/*
 * Typed plan parameters: parsing a value as the user wrote it into what a
 * step uses, with the parameter's name and its rule in every message.
 */
#include "suite/plan.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/units.h"

const char *param_type_name(enum param_type t)
{
	switch (t) {
	case PT_UINT: return "whole number";
	case PT_SIZE: return "size";
	case PT_AMOUNT: return "size or share";
	case PT_DURATION: return "duration";
	case PT_PERCENT: return "percentage";
	case PT_DOUBLE: return "number";
	case PT_RATE: return "rate";
	case PT_BOOL: return "yes/no";
	case PT_ENUM: return "choice";
	case PT_ENUM_LIST: return "list of choices";
	case PT_UINT_LIST: return "list of whole numbers";
	case PT_DURATION_LIST: return "list of durations";
	case PT_DOUBLE_LIST: return "list of numbers";
	}
	return "?";
}

int param_index(const struct param_desc *d, const char *key)
{
	for (int i = 0; d[i].key; i++)
		if (!strcmp(d[i].key, key))
			return i;
	return -1;
}

static int parse_double(const char *s, double *out)
{
	char *end;
	if (!*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* "10%" or "10" as a percentage in [0, 100]. */
static int parse_percent(const char *s, double *out)
{
	char buf[64];
	size_t n = strlen(s);
	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n + 1);
	if (buf[n - 1] == '%')
		buf[n - 1] = '\0';
	if (parse_double(buf, out) || *out < 0 || *out > 100)
		return -1;
	return 0;
}

static bool choice_ok(const char *choices, const char *word)
{
	size_t n = strlen(word);
	for (const char *c = choices; *c;) {
		const char *bar = strchr(c, '|');
		size_t len = bar ? (size_t)(bar - c) : strlen(c);
		if (len == n && !strncmp(c, word, n))
			return true;
		if (!bar)
			break;
		c = bar + 1;
	}
	return false;
}

/* Split a comma list into items, each parsed by `one`. */
static int parse_list(const struct param_desc *d, const char *text,
		      struct param_value *v, struct sb_err *e)
{
	char buf[PARAM_TEXT_MAX];
	snprintf(buf, sizeof buf, "%s", text);
	v->n = 0;
	char *save = NULL;
	for (char *item = strtok_r(buf, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		if (v->n == PARAM_LIST_MAX)
			return sb_errf(e, "%s: more than %d items", d->key,
				       PARAM_LIST_MAX);
		double x;
		uint64_t u;
		switch (d->type) {
		case PT_UINT_LIST:
			if (parse_uint_range(d->key, item, (uint64_t)d->lo,
					     (uint64_t)d->hi, &u, e))
				return -1;
			v->ulist[v->n] = u;
			break;
		case PT_DURATION_LIST:
			if (parse_duration_ns(item, &u, e))
				return sb_err_wrap(e, "%s", d->key);
			v->ulist[v->n] = u;
			break;
		case PT_DOUBLE_LIST:
			if (parse_double(item, &x) || x < d->lo || x > d->hi)
				return sb_errf(e, "%s: '%s' is not a number from %g to %g",
					       d->key, item, d->lo, d->hi);
			v->dlist[v->n] = x;
			break;
		case PT_ENUM_LIST:
			if (!choice_ok(d->choices, item))
				return sb_errf(e, "%s: '%s' is not one of %s",
					       d->key, item, d->choices);
			break;
		default:
			return sb_errf(e, "%s: not a list", d->key);
		}
		v->n++;
	}
	if (v->n == 0)
		return sb_errf(e, "%s: the list is empty", d->key);
	if (d->type == PT_ENUM_LIST)
		snprintf(v->s, sizeof v->s, "%s", text);
	return 0;
}

int param_parse(const struct param_desc *d, const char *text,
		struct param_value *out, struct sb_err *e)
{
	struct param_value v;
	memset(&v, 0, sizeof v);
	if (strlen(text) >= sizeof v.text)
		return sb_errf(e, "%s: value is longer than %d characters",
			       d->key, PARAM_TEXT_MAX - 1);
	if (!*text)
		return sb_errf(e, "%s: no value (a %s)", d->key,
			       param_type_name(d->type));
	snprintf(v.text, sizeof v.text, "%s", text);
	switch (d->type) {
	case PT_UINT:
		if (parse_uint_range(d->key, text, (uint64_t)d->lo,
				     (uint64_t)d->hi, &v.u, e))
			return -1;
		break;
	case PT_SIZE:
		if (parse_size(text, &v.u, e))
			return sb_err_wrap(e, "%s", d->key);
		if ((double)v.u < d->lo || (d->hi > 0 && (double)v.u > d->hi))
			return sb_errf(e, "%s: %s is out of range (%g to %g bytes)",
				       d->key, text, d->lo, d->hi);
		break;
	case PT_AMOUNT:
		if (strchr(text, '%')) {
			if (parse_percent(text, &v.d) || v.d <= 0)
				return sb_errf(e, "%s: '%s' is not a share above 0%% and up to 100%%",
					       d->key, text);
		} else {
			v.d = -1;
			if (parse_size(text, &v.u, e))
				return sb_errf(e, "%s: '%s' is neither a size (8GiB) nor a share (25%%)",
					       d->key, text);
			if (v.u == 0)
				return sb_errf(e, "%s: must be more than 0 bytes", d->key);
		}
		break;
	case PT_DURATION:
		if (parse_duration_ns(text, &v.u, e))
			return sb_err_wrap(e, "%s", d->key);
		if (d->hi > 0 && (double)v.u > d->hi * 1e9)
			return sb_errf(e, "%s: %s is longer than %g s", d->key,
				       text, d->hi);
		break;
	case PT_PERCENT:
		if (parse_percent(text, &v.d) || v.d < d->lo ||
		    (d->hi > 0 && v.d > d->hi))
			return sb_errf(e, "%s: '%s' is not a percentage from %g%% to %g%%",
				       d->key, text, d->lo, d->hi > 0 ? d->hi : 100.0);
		break;
	case PT_DOUBLE:
		if (parse_double(text, &v.d) || v.d < d->lo || v.d > d->hi)
			return sb_errf(e, "%s: '%s' is not a number from %g to %g",
				       d->key, text, d->lo, d->hi);
		break;
	case PT_RATE:
		if (parse_rate(text, &v.u, e))
			return sb_err_wrap(e, "%s", d->key);
		break;
	case PT_BOOL:
		if (!strcasecmp(text, "yes") || !strcasecmp(text, "true") ||
		    !strcmp(text, "1") || !strcasecmp(text, "on"))
			v.u = 1;
		else if (!strcasecmp(text, "no") || !strcasecmp(text, "false") ||
			 !strcmp(text, "0") || !strcasecmp(text, "off"))
			v.u = 0;
		else
			return sb_errf(e, "%s: '%s' is not yes or no", d->key, text);
		break;
	case PT_ENUM:
		if (!choice_ok(d->choices, text))
			return sb_errf(e, "%s: '%s' is not one of %s", d->key,
				       text, d->choices);
		snprintf(v.s, sizeof v.s, "%s", text);
		break;
	case PT_ENUM_LIST:
	case PT_UINT_LIST:
	case PT_DURATION_LIST:
	case PT_DOUBLE_LIST:
		if (parse_list(d, text, &v, e))
			return -1;
		break;
	}
	*out = v;
	return 0;
}
