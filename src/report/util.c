/*
 * Helpers the sections share: step kinds and titles, number formatting,
 * simple statistics over interval samples, figures and headlines.
 */
#include "report/report_int.h"

#include "common/rank.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

size_t bufprintf(char *buf, size_t len, const char *fmt, ...)
{
	if (!len)
		return 0;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0) {
		buf[0] = '\0';
		return 0;
	}
	return (size_t)n < len ? (size_t)n : len - 1;
}

struct step_info {
	const char *name;	/* step instance or kind */
	const char *kind;
	const char *title;
};

/* The suite's step instances and kinds (src/suite presets and kinds). */
static const struct step_info steps[] = {
	{ "purge", "purge", "Purge" },
	{ "essd_purge", "purge", "Purge (eSSD half)" },
	{ "peak", "peak", "Peak numbers" },
	{ "fill", "fill", "Fill drive" },
	{ "active_range", "active_range", "Active range" },
	{ "cssd_precond", "cssd_precond", "cSSD preconditioning" },
	{ "sync_write", "sync_write", "Sync write" },
	{ "rw_ratio", "rw_ratio", "Performance by R/W ratio" },
	{ "reclaim", "reclaim", "SLC cache reclaim" },
	{ "seq_precond", "ss_precond", "SEQ preconditioning" },
	{ "rnd_precond", "ss_precond", "RND preconditioning" },
	{ "ss_precond", "ss_precond", "Preconditioning" },
	{ "seq_sweeps", "sweep", "SEQ 128 KiB QD sweeps (4-corners)" },
	{ "rnd_sweeps", "sweep", "RND 4 KiB QD sweeps (4-corners and workloads)" },
	{ "ai_sweep", "sweep", "AI workload: RND 512 B read" },
	{ "iu_sweeps", "sweep", "QD sweeps at the indirection unit" },
	{ "sweep", "sweep", "QD sweeps" },
	{ "tail_latency", "tail", "Tail latency" },
	{ "tail", "tail", "Tail latency" },
	{ "boot", "boot", "Boot workload (OCP BootBench)" },
	{ "load_sweep", "load_sweep", "Latency at a given load (open loop)" },
	{ "", "run", "Workloads" },
	{ "datasheet", "datasheet", "Datasheet" },
};

static const struct step_info *step_lookup(const char *step)
{
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (!strcmp(steps[i].name, step))
			return &steps[i];
	return NULL;
}

const char *step_kind(const struct rpt_run *r, const char *step)
{
	const struct rpt_step *st = rpt_step(r, step);
	if (st && st->kind[0])
		return st->kind;
	const struct step_info *s = step_lookup(step);
	if (s)
		return s->kind;
	/* Renamed instances of a kind keep the kind's word in the name. */
	if (strstr(step, "sweep"))
		return "sweep";
	if (strstr(step, "precond"))
		return "ss_precond";
	if (strstr(step, "tail"))
		return "tail";
	if (strstr(step, "purge"))
		return "purge";
	return step;
}

const char *step_title(const char *step)
{
	const struct step_info *s = step_lookup(step);
	return s ? s->title : step;
}

const char *fmt_rate(const struct rctx *x, double bps, char *buf, size_t len)
{
	double v = bps / x->bw_div;
	if (!isfinite(v))
		bufprintf(buf, len, "-");
	else if (v >= 10000)
		bufprintf(buf, len, "%.3g %s", v / (x->bw_div == 1e6 ? 1000 : 1024),
			 x->bw_div == 1e6 ? "GB/s" : "GiB/s");
	else if (v >= 100)
		bufprintf(buf, len, "%.0f %s", v, x->bw_unit);
	else
		bufprintf(buf, len, "%.3g %s", v, x->bw_unit);
	return buf;
}

const char *fmt_iops(double iops, char *buf, size_t len)
{
	if (!isfinite(iops))
		bufprintf(buf, len, "-");
	else if (iops >= 1e6)
		bufprintf(buf, len, "%.3g M IOPS", iops / 1e6);
	else if (iops >= 1e4)
		bufprintf(buf, len, "%.1f k IOPS", iops / 1e3);
	else
		bufprintf(buf, len, "%.0f IOPS", iops);
	return buf;
}

/*
 * A run's sample length: the length of the middle sample of its longest
 * workload (the first and last of a workload may be cut short); 0 when
 * no workload has three samples.
 */
static uint64_t run_sample_ns(const struct rpt_run *r)
{
	const struct rpt_workload *best = NULL;
	for (size_t i = 0; i < r->nwl; i++)
		if (r->wl[i].npts >= 3 && (!best || r->wl[i].npts > best->npts))
			best = &r->wl[i];
	return best ? best->pts[best->npts / 2].dur_ns : 0;
}

static void ns_words(uint64_t ns, char *buf, size_t len)
{
	if (ns >= 1000000000ull && ns % 1000000000ull == 0)
		bufprintf(buf, len, "%llu s", (unsigned long long)(ns / 1000000000ull));
	else if (ns >= 1000000ull)
		bufprintf(buf, len, "%g ms", (double)ns / 1e6);
	else
		bufprintf(buf, len, "%g µs", (double)ns / 1e3);
}

const char *run_sample_words(const struct rpt_run *r, char *buf, size_t len)
{
	uint64_t ns = run_sample_ns(r);
	ns_words(ns ? ns : 100000000ull, buf, len);
	return buf;
}

const char *sample_words(const struct rctx *x, char *buf, size_t len)
{
	uint64_t dut = x->nruns ? run_sample_ns(&x->runs[0]) : 0;
	uint64_t other = 0;
	for (size_t r = 1; r < x->nruns; r++) {
		uint64_t v = run_sample_ns(&x->runs[r]);
		if (v && v != dut)
			other = v;
	}
	char a[32], b[32];
	ns_words(dut ? dut : 100000000ull, a, sizeof a);
	if (!other || !dut) {
		bufprintf(buf, len, "%s", a);
	} else {
		ns_words(other, b, sizeof b);
		bufprintf(buf, len, "%s (DUT), %s", a, b);
	}
	return buf;
}

/* Numbers through page_num: %g would write 999.7 as "1e+03". */
const char *fmt_lat(double us, char *buf, size_t len)
{
	char n[32];
	if (!isfinite(us))
		bufprintf(buf, len, "-");
	else if (us >= 1e6)
		bufprintf(buf, len, "%s s", page_num(us / 1e6, -1, n, sizeof n));
	else if (us >= 1000)
		bufprintf(buf, len, "%s ms", page_num(us / 1000, -1, n, sizeof n));
	else
		bufprintf(buf, len, "%s µs", page_num(us, -1, n, sizeof n));
	return buf;
}

const char *fmt_size(const struct rctx *x, double bytes, char *buf, size_t len)
{
	char n[32];
	bufprintf(buf, len, "%s %s", page_num(bytes / x->size_div, -1, n, sizeof n),
		  x->size_unit);
	return buf;
}

const char *spec_label(const struct rpt_spec *s, char *buf, size_t len)
{
	char bs[32] = "";
	if (s->bs >= 1048576 && s->bs % 1048576 == 0)
		bufprintf(bs, sizeof(bs), " %lld MiB", (long long)(s->bs / 1048576));
	else if (s->bs >= 1024 && s->bs % 1024 == 0)
		bufprintf(bs, sizeof(bs), " %lld KiB", (long long)(s->bs / 1024));
	else if (s->bs > 0)
		bufprintf(bs, sizeof(bs), " %lld B", (long long)s->bs);
	const char *pat = !strcmp(s->pattern, "seq") ? "SEQ"
			: !strcmp(s->pattern, "rand") ? "RND"
			: !strcmp(s->pattern, "replay") ? "replay" : "";
	char mix[32];
	if (s->read_pct == 100)
		bufprintf(mix, sizeof(mix), "read");
	else if (s->read_pct == 0)
		bufprintf(mix, sizeof(mix), "write");
	else if (s->read_pct > 0)
		bufprintf(mix, sizeof(mix), "%d:%d", s->read_pct,
			 100 - s->read_pct);
	else
		mix[0] = '\0';
	bufprintf(buf, len, "%s%s%s%s", pat, bs, mix[0] ? " " : "", mix);
	return buf;
}

size_t step_workloads(const struct rpt_run *r, const char *step,
		      const struct rpt_workload **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nwl && n < max; i++)
		if (!strcmp(r->wl[i].step, step))
			out[n++] = &r->wl[i];
	return n;
}

double pt_bw(const struct rpt_point *p)
{
	return p->dur_s > 0 ? (double)(p->bytes[0] + p->bytes[1]) / p->dur_s : 0;
}

double pt_iops(const struct rpt_point *p)
{
	return p->dur_s > 0 ? (double)(p->ios[0] + p->ios[1]) / p->dur_s : 0;
}

void whole_points(const struct rpt_workload *w, size_t *first, size_t *end)
{
	*first = 0;
	*end = w->npts;
	struct trace_pt *t = malloc((w->npts ? w->npts : 1) * sizeof(*t));
	if (!t)
		return;		/* draw everything rather than nothing */
	for (size_t i = 0; i < w->npts; i++)
		t[i] = (struct trace_pt){ w->pts[i].dur_ns, 0, 0 };
	trace_whole(t, w->npts, first, end);
	free(t);
}

double *sample_values(const struct rpt_workload *w, bool iops, size_t *n)
{
	*n = 0;
	double *v = malloc((w->npts ? w->npts : 1) * sizeof(double));
	if (!v)
		return NULL;
	size_t first, end;
	whole_points(w, &first, &end);
	for (size_t i = first; i < end; i++)
		if (!w->pts[i].ramp && w->pts[i].dur_s > 0)
			v[(*n)++] = iops ? pt_iops(&w->pts[i])
					 : pt_bw(&w->pts[i]);
	return v;
}

void headline(struct rctx *x, const char *step, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fputs("<p class=\"headline\">", x->pg.body);
	page_esc(x->pg.body, buf);
	fputs("</p>\n", x->pg.body);
	fputs("<li><a href=\"#", x->heads);
	page_esc(x->heads, step[0] ? step : "workloads");
	fputs("\">", x->heads);
	page_esc(x->heads, step_title(step));
	fputs("</a>: ", x->heads);
	page_esc(x->heads, buf);
	fputs("</li>\n", x->heads);
}

void chart_name(struct rctx *x, char *buf, size_t len, const char *step,
		const char *what)
{
	/* A counter keeps names unique when a step draws the same kind of
	   chart for several workloads. */
	bufprintf(buf, len, "%02d-%s-%s", ++x->nchart,
		 step[0] ? step : "run", what);
	for (char *p = buf; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
			*p = '_';
}

int nines_series(struct chart *c, const char *title, const struct rpt_lat *l,
		 struct sb_err *e)
{
	if (!l->count)
		return 0;
	struct chart_series *s = chart_add_series(c, title, e);
	if (!s)
		return -1;
	/* The analysis' curve, which stops where the I/Os stop supporting a
	   percentile; its last point, the maximum at 100 %, has no place on a
	   nines axis (the QoS table gives it). */
	for (size_t i = 0; i < l->ncurve; i++) {
		if (l->curve[i].percentile >= 100)
			continue;
		if (series_add(s, (double)l->curve[i].latency_ns / 1000.0,
			       l->curve[i].percentile, NULL, e))
			return -1;
	}
	return 0;
}

void device_table_begin(struct rctx *x, FILE *f, const char *cls,
			const char *caption, const char *first)
{
	x->pg.ntables++;
	fputs("<table", f);
	if (cls) {
		fputs(" class=\"", f);
		page_esc(f, cls);
		fputc('"', f);
	}
	fputs(">\n<caption>", f);
	page_esc(f, caption);
	fputs("</caption>\n<tr><th>", f);
	page_esc(f, first);
	fputs("</th>", f);
	for (size_t r = 0; r < x->nruns; r++) {
		fputs("<th>", f);
		page_esc(f, x->runs[r].label);
		fputs("</th>", f);
	}
}

const struct rpt_workload *match_run(const struct rctx *x, size_t r,
				     const struct rpt_workload *w)
{
	return r ? rpt_find(&x->runs[r], w->step, w->name) : w;
}

void match_runs(const struct rctx *x, const struct rpt_workload *w,
		const struct rpt_workload *out[RPT_MAX_RUNS])
{
	for (size_t r = 0; r < x->nruns && r < RPT_MAX_RUNS; r++)
		out[r] = match_run(x, r, w);
}

int rank_bars(struct rctx *x, const char *step, const char *what,
	      const char *title, const char *ylabel, const double *v,
	      double hline, const char *hline_title)
{
	struct chart c;
	char name[96];
	chart_name(x, name, sizeof(name), step, what);
	chart_init(&c, name, title, CHART_BARS);
	chart_axis_set(&c.x, "Device", false);
	chart_axis_set(&c.y, ylabel, false);
	c.bar_values = true;
	if (hline > 0) {
		c.has_hline = true;
		c.hline = hline;
		bufprintf(c.hline_title, sizeof(c.hline_title), "%s",
			 hline_title ? hline_title : "");
	}
	int rc = 0;
	struct chart_series *s = chart_add_series(&c, ylabel, x->e);
	if (!s)
		rc = -1;
	for (size_t r = 0; r < x->nruns && !rc; r++)
		if (isfinite(v[r]))
			rc = series_add(s, (double)r, v[r], x->runs[r].label,
					x->e);
	if (!rc) {
		series_sort_desc(s);
		rc = rpt_chart(x, &c);
	}
	chart_free(&c);
	return rc;
}

bool qos_supported(const struct rpt_lat *l, double p)
{
	return percentile_supported(p, l->count);
}

bool pct_cell(FILE *f, const struct rpt_lat *l, double p)
{
	char b[32];
	bool ok = qos_supported(l, p);
	if (ok)
		page_td_class(f, "num", "%s", fmt_lat(rpt_lat_at(l, p), b, 32));
	else
		page_td_class(f, "num", "%s", PCT_UNSUPPORTED);
	return !ok;
}

void pct_note(FILE *f, bool marked)
{
	if (marked)
		page_para(f, "A percentile marked %s has fewer than one I/O beyond it: "
		  "its value would only be the max, so it is not shown as "
		  "measured.", PCT_UNSUPPORTED);
}

bool qos_cells(FILE *f, const struct rpt_lat *l)
{
	char b[32];
	bool marked = false;
	for (size_t i = 0; i < LAT_QOS_NPS; i++)	/* the analysis' QoS row */
		marked |= pct_cell(f, l, lat_qos_percentiles[i]);
	page_td_class(f, "num", "%s", fmt_lat(l->max_us, b, 32));
	return marked;
}

int nines_chart(struct rctx *x, const char *step,
		const struct rpt_workload *w, const char *title)
{
	const struct rpt_workload *per[RPT_MAX_RUNS];
	match_runs(x, w, per);
	struct chart c;
	char name[96], what[96];
	bufprintf(what, sizeof(what), "%s-nines", w->name);
	chart_name(x, name, sizeof(name), step, what);
	chart_init(&c, name, title, CHART_NINES);
	chart_axis_set(&c.x, "Latency (µs)", true);
	chart_axis_range(&c.x, 1, 10000);
	chart_axis_set(&c.y, "Percentile (%)", false);
	int rc = 0;
	for (size_t r = 0; r < x->nruns && !rc; r++) {
		if (!per[r])
			continue;
		for (int d = 0; d < 2 && !rc; d++) {
			char st[192], io[32];
			fmt_iops(per[r]->measured_s > 0
				 ? (double)per[r]->ios[d] / per[r]->measured_s
				 : NAN, io, sizeof(io));
			bufprintf(st, sizeof(st), "%s %s (%s)", x->runs[r].label,
				  d ? "write" : "read", io);
			rc = nines_series(&c, st, &per[r]->lat[d], x->e);
		}
	}
	if (!rc)
		rc = rpt_chart(x, &c);
	chart_free(&c);
	return rc;
}
