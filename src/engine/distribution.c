#include "engine/distribution.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- the definition as text ----------------------------------------------- */

static int parse_number(const char *what, const char *s, char **end, double *out,
			struct sb_err *e)
{
	*out = strtod(s, end);
	if (*end == s || !isfinite(*out))
		return sb_errf(e, "random_distribution: %s '%s' is not a number", what, s);
	return 0;
}

static int parse_zones(const char *s, struct access_dist *d, struct sb_err *e)
{
	double access = 0, span = 0;
	char *end;
	while (*s) {
		if (d->nzones == DIST_ZONES_MAX)
			return sb_errf(e, "random_distribution: at most %d zones",
				       DIST_ZONES_MAX);
		double a, p;
		if (parse_number("access share", s, &end, &a, e))
			return -1;
		if (*end != '/')
			return sb_errf(e, "random_distribution: zone '%s' is not "
				       "ACCESS%%/SPAN%%", s);
		if (parse_number("span share", end + 1, &end, &p, e))
			return -1;
		if (a < 0 || p <= 0 || a > 100 || p > 100)
			return sb_errf(e, "random_distribution: zone %u: shares are "
				       "percentages (access 0 to 100, span above 0 to 100)",
				       d->nzones + 1);
		d->zones[d->nzones].access_pct = a;
		d->zones[d->nzones].span_pct = p;
		d->nzones++;
		access += a;
		span += p;
		if (*end == ':')
			end++;
		else if (*end)
			return sb_errf(e, "random_distribution: unexpected '%s' in the "
				       "zones", end);
		s = end;
	}
	if (!d->nzones)
		return sb_errf(e, "random_distribution: zoned needs zones, "
			       "e.g. zoned:50/5:30/15:20/80");
	/* fio's rule: both columns add up to 100 (within rounding of the text). */
	if (fabs(access - 100) > 1e-9 || fabs(span - 100) > 1e-9)
		return sb_errf(e, "random_distribution: the zones' access shares add "
			       "up to %g %% and their span shares to %g %%; both must "
			       "be 100 %%", access, span);
	return 0;
}

int access_dist_parse(const char *text, struct access_dist *d, struct sb_err *e)
{
	memset(d, 0, sizeof *d);
	if (!strcmp(text, "uniform") || !strcmp(text, "random"))
		return 0;
	const char *colon = strchr(text, ':');
	size_t n = colon ? (size_t)(colon - text) : strlen(text);
	if (n == 5 && !strncmp(text, "zoned", 5)) {
		d->kind = DIST_ZONED;
		return parse_zones(colon ? colon + 1 : "", d, e);
	}
	if (n == 4 && !strncmp(text, "zipf", 4))
		d->kind = DIST_ZIPF;
	else if (n == 6 && !strncmp(text, "pareto", 6))
		d->kind = DIST_PARETO;
	else if ((n == 6 && !strncmp(text, "normal", 6)) ||
		 (n == 5 && !strncmp(text, "gauss", 5)))
		d->kind = DIST_NORMAL;
	else
		return sb_errf(e, "random_distribution: '%s' is not one of uniform, "
			       "zipf:THETA, pareto:H, normal:DEV, zoned:A/S:...", text);
	if (!colon)
		return sb_errf(e, "random_distribution: %.*s needs its parameter "
			       "(%.*s:VALUE)", (int)n, text, (int)n, text);
	char *end;
	if (parse_number("parameter", colon + 1, &end, &d->param, e))
		return -1;
	if (*end == ':')
		return sb_errf(e, "random_distribution: '%s': fio's second value "
			       "(the centre) is not supported", text);
	if (*end)
		return sb_errf(e, "random_distribution: unexpected '%s'", end);
	if (d->kind == DIST_ZIPF && !(d->param > 0))
		return sb_errf(e, "random_distribution: zipf theta must be above 0");
	if (d->kind == DIST_PARETO && !(d->param > 0 && d->param < 1))
		return sb_errf(e, "random_distribution: pareto h must be between 0 and 1");
	if (d->kind == DIST_NORMAL && !(d->param >= 0 && d->param <= 100))
		return sb_errf(e, "random_distribution: normal's deviation is a "
			       "percentage of the span (0 to 100)");
	return 0;
}

const char *access_dist_format(const struct access_dist *d, char *buf, size_t len)
{
	static const char *const names[] = { "uniform", "zipf", "pareto", "normal", "zoned" };
	int k = snprintf(buf, len, "%s", names[d->kind]);
	if (d->kind == DIST_ZONED) {
		for (uint32_t i = 0; i < d->nzones && k > 0 && (size_t)k < len; i++)
			k += snprintf(buf + k, len - k, ":%g/%g", d->zones[i].access_pct,
				      d->zones[i].span_pct);
	} else if (d->kind != DIST_UNIFORM && k > 0 && (size_t)k < len) {
		snprintf(buf + k, len - k, ":%g", d->param);
	}
	return buf;
}

/* --- drawing -------------------------------------------------------------- */

/* log1p(x)/x and expm1(x)/x, with their series near 0 */
static double helper1(double x)
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

static double helper2(double x)
{
	return fabs(x) > 1e-8 ? expm1(x) / x
			      : 1 + x * 0.5 * (1 + x * (1.0 / 3) * (1 + 0.25 * x));
}

/* H(x) = integral of x^-theta, h(x) = x^-theta, and H's inverse */
static double zipf_H(double theta, double x)
{
	double lx = log(x);
	return helper2((1 - theta) * lx) * lx;
}

static double zipf_h(double theta, double x)
{
	return exp(-theta * log(x));
}

static double zipf_Hinv(double theta, double x)
{
	double t = x * (1 - theta);
	if (t < -1)
		t = -1;
	return exp(helper1(t) * x);
}

int dist_sampler_init(struct dist_sampler *s, const struct access_dist *d,
		      uint64_t nblocks, uint64_t seed, struct sb_err *e)
{
	memset(s, 0, sizeof *s);
	s->def = *d;
	s->n = nblocks;
	if (!nblocks)
		return sb_errf(e, "random_distribution: no block to draw from");
	double theta = d->param;
	switch (d->kind) {
	case DIST_UNIFORM:
		break;
	case DIST_ZIPF:
		s->h_x1 = zipf_H(theta, 1.5) - 1;
		s->h_n = zipf_H(theta, (double)nblocks + 0.5);
		s->s = 2 - zipf_Hinv(theta, zipf_H(theta, 2.5) - zipf_h(theta, 2));
		break;
	case DIST_PARETO:
		s->pow = log(d->param) / log(1 - d->param);
		break;
	case DIST_NORMAL:
		/* fio's gauss_init: DEV % of the span, at most half of it */
		if (d->param != 0) {
			s->stddev = (uint64_t)ceil((double)nblocks * d->param / 100.0);
			if (s->stddev > nblocks / 2)
				s->stddev = nblocks / 2;
		}
		break;
	case DIST_ZONED: {
		double cum_access = 0, cum_span = 0;
		for (uint32_t i = 0; i < d->nzones; i++) {
			s->start[i] = (uint64_t)((double)nblocks * cum_span / 100.0);
			cum_access += d->zones[i].access_pct;
			cum_span += d->zones[i].span_pct;
			s->cum[i] = cum_access / 100.0;
		}
		s->start[d->nzones] = nblocks;
		s->cum[d->nzones - 1] = 1.0;
		for (uint32_t i = 0; i < d->nzones; i++)
			if (s->start[i + 1] <= s->start[i] && d->zones[i].access_pct > 0)
				return sb_errf(e, "random_distribution: zone %u (%g %% of "
					       "the span) holds no whole block of %llu",
					       i + 1, d->zones[i].span_pct,
					       (unsigned long long)nblocks);
		break;
	}
	}
	/* Golden-ratio stride, made coprime with n: neighbours in rank land
	   far apart, and every block is some rank's. */
	s->mul = ((uint64_t)((double)nblocks * 0.6180339887498949) | 1) % nblocks;
	s->mul = coprime_stride(s->mul ? s->mul : 1, nblocks);
	s->add = splitmix64(&seed) % nblocks;
	return 0;
}

static uint64_t zipf_rank(const struct dist_sampler *s, struct rng *r)
{
	double theta = s->def.param;
	for (;;) {
		double u = s->h_n + rng_unit(r) * (s->h_x1 - s->h_n);
		double x = zipf_Hinv(theta, u);
		double kf = floor(x + 0.5);
		if (kf < 1)
			kf = 1;
		else if (kf > (double)s->n)
			kf = (double)s->n;
		if (kf - x <= s->s || u >= zipf_H(theta, kf + 0.5) - zipf_h(theta, kf))
			return (uint64_t)kf - 1;
	}
}

/* fio's gauss_next before its hash: the rounded-up mean of 12 draws from
   [0, n], moved by a uniform deviation that is halved until it stays in. */
static uint64_t normal_rank(const struct dist_sampler *s, struct rng *r)
{
	uint64_t sum = 0;
	for (int i = 0; i < 12; i++)
		sum += rng_below(r, s->n + 1);
	sum = (sum + 11) / 12;
	if (s->stddev) {
		int64_t dev = (int64_t)((double)s->stddev * rng_unit(r)) -
			      (int64_t)(s->stddev / 2);
		while (dev && ((int64_t)sum + dev < 0 || (int64_t)sum + dev >= (int64_t)s->n))
			dev /= 2;
		sum = (uint64_t)((int64_t)sum + dev);
	}
	return sum % s->n;
}

uint64_t dist_next_rank(const struct dist_sampler *s, struct rng *r)
{
	switch (s->def.kind) {
	case DIST_ZIPF:
		return zipf_rank(s, r);
	case DIST_PARETO: {
		double v = (double)s->n * pow(rng_unit(r), s->pow);
		uint64_t k = (uint64_t)v;
		return k < s->n ? k : s->n - 1;
	}
	case DIST_NORMAL:
		return normal_rank(s, r);
	case DIST_ZONED: {
		double u = rng_unit(r);
		uint32_t z = 0;
		while (z + 1 < s->def.nzones && u >= s->cum[z])
			z++;
		return s->start[z] + rng_below(r, s->start[z + 1] - s->start[z]);
	}
	case DIST_UNIFORM:
		break;
	}
	return rng_below(r, s->n);
}

uint64_t dist_scatter(const struct dist_sampler *s, uint64_t rank)
{
	return (uint64_t)(((unsigned __int128)rank * s->mul + s->add) % s->n);
}

uint64_t dist_next_block(const struct dist_sampler *s, struct rng *r)
{
	uint64_t rank = dist_next_rank(s, r);
	/* zones are regions of the span: not scattered */
	return s->def.kind == DIST_ZONED ? rank : dist_scatter(s, rank);
}
