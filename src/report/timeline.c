/*
 * Charts over a workload's life: bandwidth, IOPS or latency per interval
 * sample, against time, bytes written or drive writes, with the same
 * workload of every comparison device overlaid.
 */
#include "report/timeline.h"

#include <string.h>

static double column(const struct rctx *x, const struct rpt_point *p,
		     enum tl_col col)
{
	switch (col) {
	case TL_BW: return pt_bw(p) / x->bw_div;
	case TL_IOPS: return pt_iops(p);
	case TL_LAT_MEAN: return p->lat_mean_us / 1000.0;
	case TL_LAT_P99: return p->lat_p99_us / 1000.0;
	}
	return 0;
}

static const char *column_label(const struct rctx *x, enum tl_col col,
				char *buf, size_t len)
{
	switch (col) {
	case TL_BW: bufprintf(buf, len, "Bandwidth (%s)", x->bw_unit); break;
	case TL_IOPS: bufprintf(buf, len, "IOPS"); break;
	case TL_LAT_MEAN: bufprintf(buf, len, "Mean latency (ms)"); break;
	case TL_LAT_P99: bufprintf(buf, len, "p99 latency (ms)"); break;
	}
	return buf;
}

static const char *axis_label(const struct rctx *x, enum tl_axis ax,
			      char *buf, size_t len)
{
	switch (ax) {
	case TL_TIME: bufprintf(buf, len, "Time (s)"); break;
	case TL_WRITTEN: bufprintf(buf, len, "Written (%s)", x->size_unit); break;
	case TL_DRIVE_WRITES: bufprintf(buf, len, "Drive writes (x capacity)"); break;
	}
	return buf;
}

int timeline_chart(struct rctx *x, const struct tl_spec *t,
		   const struct rpt_workload *const *per_run,
		   struct sb_err *e)
{
	struct chart c;
	char name[96], lab[128];
	chart_name(x, name, sizeof(name), t->step, t->what);
	chart_init(&c, name, t->title, t->kind);
	chart_axis_set(&c.x, axis_label(x, t->axis, lab, sizeof(lab)), false);
	chart_axis_set(&c.y, column_label(x, t->col, lab, sizeof(lab)), t->ylog);
	if ((t->col == TL_BW || t->col == TL_IOPS) && !t->ylog) {
		/* A rate from 0: a drop reads as large as it is. */
		c.y.has_min = true;
		c.y.min = 0;
	}
	if (t->kind == CHART_SCATTER) {
		double clip_t = t->clip_time_s ? t->clip_time_s : x->o->clip_time_s;
		double clip_l = t->clip_latency_ms ? t->clip_latency_ms
						   : x->o->clip_latency_ms;
		c.opacity = t->opacity > 0 ? t->opacity : x->o->opacity;
		if (clip_t > 0 && t->axis == TL_TIME) {
			c.x.has_min = c.x.has_max = true;
			c.x.min = 0;
			c.x.max = clip_t;
		}
		if (clip_l > 0 && (t->col == TL_LAT_MEAN || t->col == TL_LAT_P99)) {
			c.y.has_min = c.y.has_max = true;
			c.y.min = 0;
			c.y.max = clip_l;
		}
	}
	int rc = 0;
	for (size_t i = 0; i < t->nmarks && !rc; i++)
		rc = chart_add_mark(&c, t->marks[i].vertical, t->marks[i].at,
				    t->marks[i].label, e);
	for (size_t r = 0; r < (t->dut_only ? 1 : x->nruns) && !rc; r++) {
		const struct rpt_workload *w = per_run[r];
		if (!w || !w->npts)
			continue;
		if (t->axis == TL_DRIVE_WRITES && !x->runs[r].capacity)
			continue;
		char title[160];
		if (t->series_title)
			bufprintf(title, sizeof(title), "%s %s", x->runs[r].label,
				 t->series_title);
		else
			bufprintf(title, sizeof(title), "%s", x->runs[r].label);
		struct chart_series *s = chart_add_series(&c, title, e);
		if (!s) {
			rc = -1;
			break;
		}
		double written = 0;
		size_t first, end;
		whole_points(w, &first, &end);
		for (size_t i = 0; i < w->npts && !rc; i++) {
			const struct rpt_point *p = &w->pts[i];
			written += (double)p->bytes[1];
			/* A cut-short first or last interval turns a few I/Os
			   into a spike of rate; it is counted in every figure,
			   just not drawn as a point. */
			if (i < first || i >= end)
				continue;
			double xv = p->t_s;
			if (t->axis == TL_WRITTEN)
				xv = written / x->size_div;
			else if (t->axis == TL_DRIVE_WRITES)
				xv = written / (double)x->runs[r].capacity;
			if ((t->col == TL_LAT_MEAN || t->col == TL_LAT_P99) &&
			    p->ios[0] + p->ios[1] == 0)
				continue;	/* no I/O finished: no latency */
			rc = series_add(s, xv, column(x, p, t->col), NULL, e);
		}
		/* On the time axis, the moments device queries ran (within
		   a clipped axis only: gnuplot would draw the others outside
		   the frame). */
		for (size_t i = 0; t->axis == TL_TIME && i < w->nqueries && !rc; i++)
			if (!c.x.has_max || w->query_t_s[i] <= c.x.max)
				rc = chart_add_vmark(&c, w->query_t_s[i], e);
	}
	if (!rc)
		rc = rpt_chart_of(x, &c, !t->dut_only);
	chart_free(&c);
	return rc;
}

void device_query_note(struct rctx *x, const struct rpt_workload *const *per_run)
{
	for (size_t r = 0; r < x->nruns; r++) {
		const struct rpt_workload *w = per_run[r];
		if (!w || !w->nqueries)
			continue;
		char at[1024];
		size_t u = 0, shown = w->nqueries < 20 ? w->nqueries : 20;
		at[0] = '\0';
		for (size_t i = 0; i < shown; i++)
			u += bufprintf(at + u, sizeof(at) - u, "%s%.1f s",
				       i ? ", " : "", w->query_t_s[i]);
		if (shown < w->nqueries)
			bufprintf(at + u, sizeof(at) - u, ", ... (%zu more)",
				  w->nqueries - shown);
		page_para(x->pg.body, "%s: %zu device quer%s (health, "
			  "temperature) ran during this measurement, at t = %s "
			  "(%.3f s in all; dotted lines on the charts against "
			  "time).", x->runs[r].label, w->nqueries,
			  w->nqueries == 1 ? "y" : "ies", at, w->query_s);
	}
}
