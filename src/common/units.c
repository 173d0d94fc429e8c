#include "common/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Parse a non-negative decimal number; `end` gets the first unused char. */
static int parse_number(const char *s, double *out, const char **end)
{
	/* Decimal only: strtod also takes "0x1p12", "inf" and "nan", which
	   no one means as a size or a time. */
	if (!s || !(isdigit((unsigned char)*s) || *s == '.'))
		return -1;
	char *p;
	errno = 0;
	double v = strtod(s, &p);
	if (p == s || errno || !isfinite(v) || v < 0 || memchr(s, 'x', (size_t)(p - s)) ||
	    memchr(s, 'X', (size_t)(p - s)))
		return -1;
	*out = v;
	*end = p;
	return 0;
}

static int size_multiplier(const char *suffix, uint64_t *mult)
{
	static const struct { const char *names[4]; uint64_t mult; } table[] = {
		{ { "", "b", NULL, NULL }, 1ull },
		{ { "k", "kb", "kib", NULL }, 1ull << 10 },
		{ { "m", "mb", "mib", NULL }, 1ull << 20 },
		{ { "g", "gb", "gib", NULL }, 1ull << 30 },
		{ { "t", "tb", "tib", NULL }, 1ull << 40 },
		{ { "p", "pb", "pib", NULL }, 1ull << 50 },
	};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		for (int j = 0; j < 4 && table[i].names[j]; j++)
			if (!strcasecmp(suffix, table[i].names[j])) {
				*mult = table[i].mult;
				return 0;
			}
	return -1;
}

int parse_size(const char *s, uint64_t *out, struct sb_err *e)
{
	double v;
	const char *rest;
	uint64_t mult;
	if (parse_number(s, &v, &rest) || size_multiplier(rest, &mult))
		return sb_errf(e, "'%s' is not a size (examples: 4096, 4k, 128KiB, 1g)", s ? s : "");
	double bytes = v * (double)mult;
	if (bytes >= 18446744073709551615.0)
		return sb_errf(e, "size '%s' is too large", s);
	if (bytes != floor(bytes))
		return sb_errf(e, "size '%s' is not a whole number of bytes", s);
	*out = (uint64_t)bytes;
	return 0;
}

int parse_size_or_percent(const char *s, uint64_t whole, uint64_t align,
			  uint64_t *out, bool *was_percent, struct sb_err *e)
{
	size_t n = s ? strlen(s) : 0;
	if (n > 1 && s[n - 1] == '%') {
		char num[64];
		double v;
		const char *rest;
		if (n - 1 >= sizeof num)
			return sb_errf(e, "'%s' is not a percentage", s);
		memcpy(num, s, n - 1);
		num[n - 1] = '\0';
		if (parse_number(num, &v, &rest) || *rest || v > 100.0)
			return sb_errf(e, "'%s' is not a percentage between 0%% and 100%%", s);
		uint64_t bytes = (uint64_t)((double)whole * v / 100.0);
		if (align > 1)
			bytes -= bytes % align;
		*out = bytes;
		if (was_percent)
			*was_percent = true;
		return 0;
	}
	if (was_percent)
		*was_percent = false;
	return parse_size(s, out, e);
}

int parse_duration_ns(const char *s, uint64_t *out_ns, struct sb_err *e)
{
	static const struct { const char *name; double ns; } units[] = {
		{ "", 1e9 }, { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 },
		{ "s", 1e9 }, { "m", 60e9 }, { "min", 60e9 }, { "h", 3600e9 },
	};
	double v;
	const char *rest;
	if (!parse_number(s, &v, &rest))
		for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
			if (!strcasecmp(rest, units[i].name)) {
				double ns = v * units[i].ns;
				if (ns >= 1.8e19)
					break;
				*out_ns = (uint64_t)llround(ns);
				return 0;
			}
	return sb_errf(e, "'%s' is not a duration (examples: 30, 5s, 100ms, 2m, 1h)", s ? s : "");
}

int parse_rate(const char *s, uint64_t *out, struct sb_err *e)
{
	char buf[64];
	size_t n = s ? strlen(s) : 0;
	if (n >= sizeof buf)
		return sb_errf(e, "'%s' is not a rate", s);
	memcpy(buf, s ? s : "", n + 1);
	if (n > 2 && !strcasecmp(buf + n - 2, "/s"))
		buf[n - 2] = '\0';
	if (parse_size(buf, out, e))
		return sb_errf(e, "'%s' is not a rate (examples: 15m, 15MiB/s, 5242880)", s ? s : "");
	return 0;
}

int parse_count(const char *what, const char *s, uint64_t lo, uint64_t hi,
		uint64_t *out, struct sb_err *e)
{
	char buf[32];
	size_t n = s ? strlen(s) : 0;
	uint64_t mult = 1;
	if (n && n < sizeof buf) {
		char last = (char)tolower((unsigned char)s[n - 1]);
		mult = last == 'k' ? 1000ull : last == 'm' ? 1000000ull :
		       last == 'g' ? 1000000000ull : 1;
	}
	if (!n || n >= sizeof buf)
		return sb_errf(e, "%s: '%s' is not a whole number", what, s ? s : "");
	memcpy(buf, s, n + 1);
	if (mult > 1)
		buf[n - 1] = '\0';
	uint64_t v;
	if (parse_uint_range(what, buf, 0, UINT64_MAX / mult, &v, e))
		return sb_errf(e, "%s: '%s' is not a count (examples: 5000, 250k, 1m)", what, s);
	v *= mult;
	if (v < lo || v > hi)
		return sb_errf(e, "%s: %llu is out of range (%llu to %llu)", what,
			       (unsigned long long)v, (unsigned long long)lo,
			       (unsigned long long)hi);
	*out = v;
	return 0;
}

int parse_uint_range(const char *what, const char *s, uint64_t lo, uint64_t hi,
		     uint64_t *out, struct sb_err *e)
{
	char *end;
	if (!s || !*s || !isdigit((unsigned char)*s))
		return sb_errf(e, "%s: '%s' is not a whole number", what, s ? s : "");
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return sb_errf(e, "%s: '%s' is not a whole number", what, s);
	if (v < lo || v > hi)
		return sb_errf(e, "%s: %llu is out of range (%llu to %llu)", what, v,
			       (unsigned long long)lo, (unsigned long long)hi);
	*out = v;
	return 0;
}

/* Divide *v by `base` while it reaches `limit`: the unit's index, 0-5. */
static int scale_down(double *v, double base, double limit)
{
	int i = 0;
	while (*v >= limit && i < 5) {
		*v /= base;
		i++;
	}
	return i;
}

const char *fmt_bytes_si(uint64_t bytes, char *buf, unsigned len)
{
	static const char *names[] = { "B", "kB", "MB", "GB", "TB", "PB" };
	double v = (double)bytes;
	/* 999.5 and up rounds to the next unit's 1.00. */
	int i = scale_down(&v, 1000.0, 999.5);
	if (i == 0)
		snprintf(buf, len, "%.0f B", v);
	else
		snprintf(buf, len, v >= 99.95 ? "%.0f %s" : v >= 9.995 ? "%.1f %s"
					       : "%.2f %s", v, names[i]);
	return buf;
}

const char *fmt_bytes(uint64_t bytes, char *buf, unsigned len)
{
	static const char *names[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	int i = scale_down(&v, 1024.0, 1024.0);
	if (i == 0 || v == floor(v))
		snprintf(buf, len, "%.0f %s", v, names[i]);
	else
		snprintf(buf, len, "%.2f %s", v, names[i]);
	return buf;
}

const char *fmt_ns(uint64_t ns, char *buf, unsigned len)
{
	if (ns < 1000)
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
	return buf;
}
