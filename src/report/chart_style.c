/*
 * How the report styles a chart before it is written: every series that
 * belongs to a device (its legend starts with the device's label) takes
 * that device's colour, the same on every chart of the page, and the
 * DUT's series are emphasised (drawn last, thicker) when there are
 * comparison devices.  A device with no point on a chart is named under
 * it instead of silently missing.  A latency axis spanning decades is
 * logarithmic.
 */
#include "report/report_int.h"

#include <string.h>

/* The run a series title belongs to: the longest label it starts with. */
static int series_run(const struct rctx *x, const char *title)
{
	int best = -1;
	size_t best_len = 0;
	for (size_t r = 0; r < x->nruns; r++) {
		size_t n = strlen(x->runs[r].label);
		if (n > best_len && !strncmp(title, x->runs[r].label, n) &&
		    (title[n] == '\0' || title[n] == ' ' || title[n] == ',' ||
		     title[n] == ':' || title[n] == '(')) {
			best = (int)r;
			best_len = n;
		}
	}
	return best;
}

/*
 * Latency over more than two decades on a linear axis flattens the fast
 * device to zero: such an axis becomes logarithmic (the points are all
 * positive: a latency is never 0).
 */
#define LOG_AXIS_SPAN 100.0

static void latency_axis(struct chart *c)
{
	if (c->y.log || c->kind == CHART_BARS || c->kind == CHART_NINES ||
	    !strstr(c->y.label, "atency"))
		return;
	double lo = 0, hi = 0;
	for (size_t i = 0; i < c->nseries; i++)
		for (size_t k = 0; k < c->series[i].n; k++) {
			double v = c->series[i].y[k];
			if (v <= 0)
				return;
			if (lo == 0 || v < lo)
				lo = v;
			if (v > hi)
				hi = v;
		}
	if (lo > 0 && hi / lo > LOG_AXIS_SPAN) {
		c->y.log = true;
		if (c->y.has_min && c->y.min <= 0)
			c->y.has_min = false;
	}
}

int rpt_chart(struct rctx *x, struct chart *c)
{
	return rpt_chart_of(x, c, true);
}

int rpt_chart_of(struct rctx *x, struct chart *c, bool every_device)
{
	latency_axis(c);
	bool has_point[RPT_MAX_RUNS] = { false };
	size_t device_series = 0;
	for (size_t i = 0; i < c->nseries; i++) {
		struct chart_series *s = &c->series[i];
		int r = series_run(x, s->title);
		if (r < 0)
			continue;
		device_series++;
		s->colour = r;
		s->emphasis = r == 0 && x->nruns > 1;
		if (s->n)
			has_point[r] = true;
	}
	bool drawn = chart_points(c) > 0;
	if (page_chart(&x->pg, c, x->e))
		return -1;
	if (!drawn || !device_series || x->nruns < 2 || !every_device)
		return 0;
	char missing[512] = "";
	size_t used = 0, n = 0;
	for (size_t r = 0; r < x->nruns; r++)
		if (!has_point[r]) {
			used += bufprintf(missing + used, sizeof(missing) - used,
					  "%s%s", n++ ? ", " : "", x->runs[r].label);
		}
	if (n)
		page_para(x->pg.body, "%s: no point on this chart (%s has "
			  "no matching measurement).", missing,
			  n > 1 ? "none of them" : "the run");
	return 0;
}
