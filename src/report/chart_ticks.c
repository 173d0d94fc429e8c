/*
 * Tick labels a reader can read.  gnuplot's own labels switch to an
 * exponent at a million ("1.1e+06" at the edge of an IOPS axis) and its
 * bar values were printed with %g; here every number on a chart is
 * written by ssdbench: plain digits below 10^4, then k, M or G ("500k",
 * "1.1M"), with the decimals the tick step needs and no trailing zeros.
 */
#include "report/chart.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The suffix of |v| and what it divides by: k from 10^3 (only used when
   the axis or the value reaches 10^4), M from 10^6, G from 10^9. */
static double suffix_of(double a, const char **sfx)
{
	if (a >= 1e9 * (1 - 1e-12)) {
		*sfx = "G";
		return 1e9;
	}
	if (a >= 1e6 * (1 - 1e-12)) {
		*sfx = "M";
		return 1e6;
	}
	if (a >= 1e3 * (1 - 1e-12)) {
		*sfx = "k";
		return 1e3;
	}
	*sfx = "";
	return 1;
}

/* Drop the zeros a fixed format leaves after the point, and the point. */
static void trim_zeros(char *s)
{
	char *dot = strchr(s, '.');
	if (!dot)
		return;
	char *end = s + strlen(s);
	while (end > dot + 1 && end[-1] == '0')
		*--end = '\0';
	if (end == dot + 1)
		*dot = '\0';
}

/* Decimals that show a multiple of `step` exactly (at most 9). */
static int decimals_for(double step)
{
	step = fabs(step);
	for (int d = 0; d < 9; d++) {
		double s = step * pow(10, d);
		if (fabs(s - round(s)) <= 1e-6 * (s > 1 ? s : 1))
			return d;
	}
	return 9;
}

static void format_scaled(double v, double div, int decimals, const char *sfx,
			  char *buf, size_t len)
{
	char num[48];
	snprintf(num, sizeof(num), "%.*f", decimals, v / div);
	trim_zeros(num);
	if (!strcmp(num, "-0"))
		snprintf(num, sizeof(num), "0");
	snprintf(buf, len, "%s%s", num, sfx);
}

const char *chart_number(double v, char *buf, size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	double a = fabs(v);
	const char *sfx = "";
	double div = a >= 1e4 ? suffix_of(a, &sfx) : 1;
	double q = a / div;
	/* Three significant digits, but never fewer than the integer part
	   (2667, not 2670). */
	int digits = q > 0 ? (int)floor(log10(q)) + 1 : 1;
	int d = digits >= 3 ? 0 : 3 - digits;
	/* Rounding up may add a digit (999.6 -> "1000"): one fewer then. */
	format_scaled(v, div, d > 9 ? 9 : d, sfx, buf, len);
	return buf;
}

/* A tick label: the suffix by the tick's own size when the axis reaches
   10^4, the decimals by the step in that unit. */
static void tick_label(double v, double step, bool suffixed, char *buf,
		       size_t len)
{
	const char *sfx = "";
	double div = suffixed ? suffix_of(fabs(v), &sfx) : 1;
	format_scaled(v, div, decimals_for(step / div), sfx, buf, len);
}

/* 1, 2, 2.5, 5 x 10^k: the smallest at least `raw`. */
static double nice_step(double raw)
{
	double p = pow(10, floor(log10(raw)));
	static const double m[] = { 1, 2, 2.5, 5, 10 };
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (m[i] * p >= raw * (1 - 1e-9))
			return m[i] * p;
	return 10 * p;
}

static void add_tick(struct chart_ticks *t, double v, double step,
		     bool suffixed)
{
	if (t->n == CHART_MAX_TICKS)
		return;
	if (fabs(v) < fabs(step) * 1e-9)
		v = 0;
	t->v[t->n] = v;
	tick_label(v, step, suffixed, t->label[t->n], sizeof(t->label[0]));
	t->n++;
}

static void linear_ticks(const struct chart_axis *a, double lo, double hi,
			 struct chart_ticks *t)
{
	if (hi == lo) {
		double d = lo != 0 ? fabs(lo) * 0.1 : 1;
		if (!a->has_min)
			lo -= d;
		if (!a->has_max)
			hi += d;
		if (hi == lo)
			hi = lo + d;
	}
	double step = nice_step((hi - lo) / 6);
	if (!a->has_min)
		lo = floor(lo / step + 1e-9) * step;
	if (!a->has_max)
		hi = ceil(hi / step - 1e-9) * step;
	t->lo = lo;
	t->hi = hi;
	double first = ceil(lo / step - 1e-9) * step;
	bool suffixed = fmax(fabs(lo), fabs(hi)) >= 1e4;
	for (size_t k = 0; k < CHART_MAX_TICKS; k++) {
		double v = first + (double)k * step;
		if (v > hi + step * 1e-9)
			break;
		add_tick(t, v, step, suffixed);
	}
}

static void log_ticks(const struct chart_axis *a, double lo, double hi,
		      struct chart_ticks *t)
{
	if (!(hi > 0))
		hi = 10;
	if (a->pow2_ticks && lo > 0 && lo >= hi)
		hi = lo * 2;	/* one queue depth */
	if (!(lo > 0) || lo >= hi)
		lo = hi / 10;
	if (a->pow2_ticks) {
		/* Queue depths: 1, 2, 4 ..., the free ends out to the next
		   power of two. */
		int k0 = (int)floor(log2(lo) + 1e-9), k1 = (int)ceil(log2(hi) - 1e-9);
		if (k1 <= k0)
			k1 = k0 + 1;
		if (!a->has_min)
			lo = ldexp(1, k0);
		if (!a->has_max)
			hi = ldexp(1, k1);
		t->lo = lo;
		t->hi = hi;
		for (int k = k0; k <= k1; k++) {
			double v = ldexp(1, k);
			if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
				add_tick(t, v, v, hi >= 1e4);
		}
		return;
	}
	int d0 = (int)floor(log10(lo) + 1e-9), d1 = (int)ceil(log10(hi) - 1e-9);
	if (d1 <= d0)
		d1 = d0 + 1;
	if (!a->has_min)
		lo = pow(10, d0);
	if (!a->has_max)
		hi = pow(10, d1);
	t->lo = lo;
	t->hi = hi;
	bool suffixed = hi >= 1e4;
	static const double fine[] = { 1, 2, 5 };
	size_t nm = d1 - d0 <= 2 ? 3 : 1;
	/* Many decades: every second (or third ...) one, at most ~9. */
	int stride = (d1 - d0 + 8) / 9;
	for (int k = d0; k <= d1; k += stride)
		for (size_t m = 0; m < nm; m++) {
			double v = fine[m] * pow(10, k);
			if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
				add_tick(t, v, v, suffixed);
		}
}

void chart_ticks(const struct chart_axis *a, double lo, double hi,
		 struct chart_ticks *t)
{
	memset(t, 0, sizeof(*t));
	if (a->has_min)
		lo = a->min;
	if (a->has_max)
		hi = a->max;
	if (!isfinite(lo) || !isfinite(hi)) {
		lo = a->log ? 1 : 0;
		hi = a->log ? 10 : 1;
	}
	if (hi < lo) {
		double s = lo;
		lo = hi;
		hi = s;
	}
	if (a->log)
		log_ticks(a, lo, hi, t);
	else
		linear_ticks(a, lo, hi, t);
}
