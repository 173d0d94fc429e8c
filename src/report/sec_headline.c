/*
 * The headline table: the figures the reviews lead with (METHODOLOGY §5),
 * one row each, one column per device.  Every value is a figure the
 * findings stored with the run (docs/suite.md lists the keys); nothing is
 * computed here but its wording: units for reading, never an exponent or
 * "nan", and an absent figure says why.
 *
 * A scaled run (a simulated drive at scale < 1, the full-scaled preset)
 * keeps rates and latencies, but sizes and times of what the capacity
 * bounds shrink with it: those cells also give the full-size value (the
 * measured one divided by the drive's scale), and the note on top of the
 * page (sec_scale_notes) says what was scaled, from what the run stored.
 */
#include "report/report_int.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define CELL 256

/* A stored figure of run r by its key, or NaN. */
static double fig_v(const struct rpt_run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static double fig_v(const struct rpt_run *r, const char *fmt, ...)
{
	char key[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(key, sizeof key, fmt, ap);
	va_end(ap);
	const struct rpt_metric *m = rpt_metric(r, key);
	return m && isfinite(m->value) ? m->value : NAN;
}

/* The drive's scale from its facts (device.scale); 1 for a real drive. */
static double drive_scale(const struct rpt_run *r)
{
	json_t *root = r->facts_json ? json_loads(r->facts_json, 0, NULL) : NULL;
	json_t *s = json_object_get(json_object_get(root, "device"), "scale");
	double v = json_is_number(s) ? json_number_value(s) : 1;
	json_decref(root);
	return v > 0 && v <= 1 ? v : 1;
}

/* Why a step's figures are missing: the step did not run, or was skipped;
   NULL when it ran. */
static const char *step_absent(const struct rpt_run *r, const char *step)
{
	if (!rpt_step(r, step))
		return "not measured in this preset";
	if (isfinite(fig_v(r, "%s.skipped", step)))
		return "skipped on this target";
	return NULL;
}

/* Numbers for reading (page_num: never an exponent). */
static const char *num(double v, char *b, size_t len)
{
	return page_num(v, -1, b, len);
}

static size_t put_rate(const struct rctx *x, double mbps, char *b, size_t len)
{
	char n[32];
	double v = mbps * 1e6 / x->bw_div;
	if (v >= 10000 && x->bw_div == 1e6)
		return bufprintf(b, len, "%s GB/s", num(v / 1000, n, sizeof n));
	if (v >= 10240)
		return bufprintf(b, len, "%s GiB/s", num(v / 1024, n, sizeof n));
	return bufprintf(b, len, "%s %s", num(v, n, sizeof n), x->bw_unit);
}

static size_t put_size(const struct rctx *x, double gb, char *b, size_t len)
{
	char n[32];
	double v = gb * 1e9 / x->size_div;
	double k = x->size_div == 1e9 ? 1000 : 1024;	/* GB or GiB */
	if (v >= k)
		return bufprintf(b, len, "%s T%s", num(v / k, n, sizeof n),
				 x->size_unit + 1);
	if (v < 1)
		return bufprintf(b, len, "%s M%s", num(v * k, n, sizeof n),
				 x->size_unit + 1);
	return bufprintf(b, len, "%s %s", num(v, n, sizeof n), x->size_unit);
}

static size_t put_iops(double v, char *b, size_t len)
{
	char n[32];
	if (v >= 1e6)
		return bufprintf(b, len, "%s M IOPS", num(v / 1e6, n, sizeof n));
	if (v >= 1e4)
		return bufprintf(b, len, "%s k IOPS", num(v / 1e3, n, sizeof n));
	return bufprintf(b, len, "%s IOPS", num(v, n, sizeof n));
}

/* 0.0051 s -> "5.1 ms", 754 s -> "12 min 34 s", 23100 s -> "6 h 25 min". */
static size_t put_time(double s, char *b, size_t len)
{
	char n[32];
	if (s < 1)
		return bufprintf(b, len, "%s ms", num(s * 1e3, n, sizeof n));
	if (s < 120)
		return bufprintf(b, len, "%s s", num(s, n, sizeof n));
	long t = lround(s);
	if (t < 3600)
		return bufprintf(b, len, "%ld min %ld s", t / 60, t % 60);
	return bufprintf(b, len, "%ld h %ld min", t / 3600, t % 3600 / 60);
}

static size_t put_lat(double us, char *b, size_t len)
{
	char n[32];
	if (us >= 1000)
		return bufprintf(b, len, "%s ms", num(us / 1000, n, sizeof n));
	return bufprintf(b, len, "%s µs", num(us, n, sizeof n));
}

/*
 * One cell: `fn` writes run r's text into buf and returns NULL, or returns
 * why there is none (a constant, or buf with the reason in it).  `arg`
 * says which figure (a pass, a step, a test).
 */
typedef const char *(*cell_fn)(const struct rctx *x, size_t r,
			       const void *arg, char *buf, size_t len);

struct hl_row {
	const char *test;
	const char *step;	/* whose absence or skip the cell says first */
	char what[96];
	cell_fn fn;
	const void *arg;
};

static void row_out(struct rctx *x, const struct hl_row *row)
{
	FILE *f = x->pg.top;
	page_tr(f);
	page_td(f, "%s", row->test);
	page_td(f, "%s", row->what);
	for (size_t r = 0; r < x->nruns; r++) {
		char buf[CELL] = "";
		const char *why = step_absent(&x->runs[r], row->step);
		if (!why)
			why = row->fn(x, r, row->arg, buf, sizeof buf);
		/* the absent class lets a reader (and the test) tell a reason
		   from a value */
		if (why)
			page_td_class(f, "absent", "%s", why);
		else
			page_td(f, "%s", buf);
	}
}

/* "(677 GB at full size)" after a capacity-bound figure of a scaled run. */
static size_t full_size_note(double scale, char *b, size_t len, const char *text)
{
	if (scale >= 1)
		return 0;
	return bufprintf(b, len, " (%s at full size)", text);
}

/* --- Fill: the cache, its speed, the levels after it, per pass --- */

static const char *fill_absent(const struct rpt_run *r, int pass)
{
	return isfinite(fig_v(r, "fill.pass%d.total_s", pass)) ? NULL
	       : "no such pass in this run";
}

static const char *cell_cache_size(const struct rctx *x, size_t r,
				   const void *arg, char *b, size_t len)
{
	const struct rpt_run *run = &x->runs[r];
	int pass = *(const int *)arg;
	const char *why = fill_absent(run, pass);
	if (why)
		return why;
	double gb = fig_v(run, "fill.pass%d.slc_cache_gb", pass);
	if (!(fig_v(run, "fill.pass%d.has_slc_cache", pass) > 0) || !isfinite(gb))
		return "no cache found (no sustained drop)";
	size_t u = put_size(x, gb, b, len);
	char n[32], full[64];
	if (run->capacity)
		u += bufprintf(b + u, len - u, ", %s %% of the capacity",
			       num(100 * gb * 1e9 / (double)run->capacity, n, sizeof n));
	double sc = drive_scale(run);
	put_size(x, gb / sc, full, sizeof full);
	full_size_note(sc, b + u, len - u, full);
	return NULL;
}

static const char *cell_cache_speed(const struct rctx *x, size_t r,
				    const void *arg, char *b, size_t len)
{
	const struct rpt_run *run = &x->runs[r];
	int pass = *(const int *)arg;
	const char *why = fill_absent(run, pass);
	if (why)
		return why;
	double v = fig_v(run, "fill.pass%d.slc_speed_mbps", pass);
	if (!(fig_v(run, "fill.pass%d.has_slc_cache", pass) > 0) || !isfinite(v))
		return "no cache found (no sustained drop)";
	put_rate(x, v, b, len);
	return NULL;
}

static const char *cell_levels(const struct rctx *x, size_t r,
			       const void *arg, char *b, size_t len)
{
	const struct rpt_run *run = &x->runs[r];
	int pass = *(const int *)arg;
	const char *why = fill_absent(run, pass);
	if (why)
		return why;
	double nl = fig_v(run, "fill.pass%d.level_count", pass);
	double mean = fig_v(run, "fill.pass%d.post_cache.mean_mbps", pass);
	size_t u = 0;
	char n[32], t[48];
	for (int i = 1; i <= nl && i <= 8; i++) {	/* levels count from 1 */
		double v = fig_v(run, "fill.pass%d.level%d.mbps", pass, i);
		double share = fig_v(run, "fill.pass%d.level%d.share", pass, i);
		if (!isfinite(v))
			continue;
		put_rate(x, v, t, sizeof t);
		u += bufprintf(b + u, len - u, "%s%s", u ? ", " : "", t);
		if (isfinite(share))
			u += bufprintf(b + u, len - u, " (%s %% of the time)",
				       num(100 * share, n, sizeof n));
	}
	if (!u && !isfinite(mean))
		return "no samples after the cache";
	if (isfinite(mean)) {
		put_rate(x, mean, t, sizeof t);
		bufprintf(b + u, len - u, "%smean %s", u ? "; " : "one level, ", t);
	}
	return NULL;
}

/* --- Preconditioning: steady state and bursts --- */

static const char *cell_steady(const struct rctx *x, size_t r,
			       const void *arg, char *b, size_t len)
{
	const struct rpt_run *run = &x->runs[r];
	const char *step = arg;
	double reached = fig_v(run, "%s.steady_reached", step);
	if (!isfinite(reached))
		return "no samples";
	if (!(reached > 0)) {
		char n[32];
		double dw = fig_v(run, "%s.drive_writes", step);
		if (!isfinite(dw))
			return "not reached";
		bufprintf(b, len, "not reached in %s drive-writes", num(dw, n, sizeof n));
		return b;
	}
	bool iops = fig_v(run, "%s.steady_metric_iops", step) > 0;
	double v = fig_v(run, iops ? "%s.steady_iops" : "%s.steady_mbps", step);
	double s = fig_v(run, "%s.steady_s", step);
	double dw = fig_v(run, "%s.steady_drive_writes", step);
	size_t u = iops ? put_iops(v, b, len) : put_rate(x, v, b, len);
	char t[48], n[32];
	put_time(s, t, sizeof t);
	u += bufprintf(b + u, len - u, " after %s and %s drive-writes", t,
		       num(dw, n, sizeof n));
	double sc = drive_scale(run);
	put_time(s / sc, t, sizeof t);
	full_size_note(sc, b + u, len - u, t);
	return NULL;
}

static const char *cell_bursts(const struct rctx *x, size_t r,
			       const void *arg, char *b, size_t len)
{
	const struct rpt_run *run = &x->runs[r];
	const char *step = arg;
	double count = fig_v(run, "%s.bursts.count", step);
	if (!isfinite(count))
		return "no samples";
	if (count < 1)
		return "no recurring bursts";
	bool iops = fig_v(run, "%s.steady_metric_iops", step) > 0;
	double period = fig_v(run, "%s.bursts.period_s", step);
	double dur = fig_v(run, "%s.bursts.duration_s", step);
	double gb = fig_v(run, "%s.bursts.gb", step);
	double h = fig_v(run, iops ? "%s.bursts.height_iops" : "%s.bursts.height_mbps", step);
	double sc = drive_scale(run);
	char t[3][48], full[160];
	size_t u = 0;
	if (isfinite(period)) {
		put_time(period, t[0], 48);
		u += bufprintf(b + u, len - u, "every %s, ", t[0]);
	} else {
		u += bufprintf(b + u, len - u, "one burst, ");
	}
	put_time(dur, t[1], 48);
	u += bufprintf(b + u, len - u, "%s long, at ", t[1]);
	u += iops ? put_iops(h, b + u, len - u) : put_rate(x, h, b + u, len - u);
	put_size(x, gb, t[2], 48);
	u += bufprintf(b + u, len - u, ", %s each", t[2]);
	if (sc < 1) {
		size_t fu = 0;
		if (isfinite(period)) {
			put_time(period / sc, t[0], 48);
			fu += bufprintf(full + fu, sizeof full - fu, "every %s, ", t[0]);
		}
		put_time(dur / sc, t[1], 48);
		put_size(x, gb / sc, t[2], 48);
		bufprintf(full + fu, sizeof full - fu, "%s long, %s each", t[1], t[2]);
		full_size_note(sc, b + u, len - u, full);
	}
	return NULL;
}

/* --- Peak numbers: a CrystalDiskMark grid, read / write per test --- */

static const char *cell_peak(const struct rctx *x, size_t r, const void *arg,
			     char *b, size_t len)
{
	const struct rpt_run *run = &x->runs[r];
	const char *key = arg;	/* "default.seq1m_q8t1" */
	double rd = fig_v(run, "peak.%s.read.mbps", key);
	double wr = fig_v(run, "peak.%s.write.mbps", key);
	if (!isfinite(rd) && !isfinite(wr))
		return "not measured in this run";
	char n[2][32];
	bufprintf(b, len, "%s / %s %s",
		  isfinite(rd) ? num(rd * 1e6 / x->bw_div, n[0], 32) : "none",
		  isfinite(wr) ? num(wr * 1e6 / x->bw_div, n[1], 32) : "none",
		  x->bw_unit);
	return NULL;
}

/* --- Consistency: the lowest of a sweep's QDs (RND QD1 left out) --- */

struct cons_arg {
	const char *step;
	int mix;
};

static const char *cell_consistency(const struct rctx *x, size_t r,
				    const void *arg, char *b, size_t len)
{
	const struct rpt_run *run = &x->runs[r];
	const struct cons_arg *a = arg;
	bool rnd = strncmp(a->step, "seq", 3) != 0;
	double low = NAN;
	int low_qd = 0, nqd = 0;
	for (int qd = 1; qd <= 1024; qd *= 2) {
		double v = fig_v(run, "%s.mix%d.qd%d.consistency_pct", a->step, a->mix, qd);
		if (!isfinite(v) || (rnd && qd == 1))
			continue;
		nqd++;
		if (!isfinite(low) || v < low) {
			low = v;
			low_qd = qd;
		}
	}
	if (!nqd)
		return "not measured in this run";
	char n[32];
	bufprintf(b, len, "%s %% at QD%d, the lowest of %d queue depths%s",
		  num(low, n, sizeof n), low_qd, nqd, rnd ? " (QD1 left out)" : "");
	return NULL;
}

/* --- One-figure rows --- */

static const char *cell_sync(const struct rctx *x, size_t r, const void *arg,
			     char *b, size_t len)
{
	(void)arg;
	const struct rpt_run *run = &x->runs[r];
	double v = fig_v(run, "sync_write.mbps");
	double io = fig_v(run, "sync_write.iops");
	if (!isfinite(v))
		return "nothing completed";
	size_t u = put_rate(x, v, b, len);
	if (isfinite(io)) {
		u += bufprintf(b + u, len - u, " (");
		u += put_iops(io, b + u, len - u);
		bufprintf(b + u, len - u, ")");
	}
	return NULL;
}

static const char *cell_lowqd(const struct rctx *x, size_t r, const void *arg,
			      char *b, size_t len)
{
	(void)arg;
	const struct rpt_run *run = &x->runs[r];
	double v = fig_v(run, "rw_ratio.score_mbps");
	if (!isfinite(v))
		return "no mixed read share at the weighted queue depths";
	put_rate(x, v, b, len);
	return NULL;
}

static const char *cell_reclaim_rate(const struct rctx *x, size_t r,
				     const void *arg, char *b, size_t len)
{
	(void)arg;
	const struct rpt_run *run = &x->runs[r];
	double v = fig_v(run, "reclaim.rate_gbps");
	if (!(fig_v(run, "reclaim.recovered_gb") > 0))
		return "no cache regained (no SLC cache found)";
	if (!isfinite(v))
		return "too few idle times before the cache was back";
	size_t u = put_size(x, v, b, len);
	bufprintf(b + u, len - u, " of cache per second of idle");
	return NULL;
}

static const char *cell_reclaim_full(const struct rctx *x, size_t r,
				     const void *arg, char *b, size_t len)
{
	(void)arg;
	const struct rpt_run *run = &x->runs[r];
	double s = fig_v(run, "reclaim.full_recovery_s");
	double gb = fig_v(run, "reclaim.recovered_gb");
	if (!(gb > 0))
		return "no cache regained (no SLC cache found)";
	if (!(fig_v(run, "reclaim.saturated") > 0) || !isfinite(s))
		return "not back in full within the longest idle";
	char t[48], g[48], full[128];
	put_time(s, t, sizeof t);
	size_t u = bufprintf(b, len, "after %s of idle", t);
	double sc = drive_scale(run);
	if (isfinite(gb)) {
		put_size(x, gb, g, sizeof g);
		u += bufprintf(b + u, len - u, ", %s recovered", g);
	}
	put_time(s / sc, t, sizeof t);
	if (isfinite(gb)) {
		put_size(x, gb / sc, g, sizeof g);
		bufprintf(full, sizeof full, "%s, %s", t, g);
	} else {
		bufprintf(full, sizeof full, "%s", t);
	}
	full_size_note(sc, b + u, len - u, full);
	return NULL;
}

static const char *cell_boot(const struct rctx *x, size_t r, const void *arg,
			     char *b, size_t len)
{
	(void)arg;
	const struct rpt_run *run = &x->runs[r];
	double v = fig_v(run, "boot.score_iops");
	double n = fig_v(run, "boot.score_readers");
	double pass = fig_v(run, "boot.pass");
	char mark[32] = "", t[48];
	double pm = NAN;
	if (rpt_step_param(run, "boot", "pass_iops", mark, sizeof mark))
		pm = strtod(mark, NULL);
	if (n == 0)
		return "fail: not even one reader meets the latency limits";
	if (!isfinite(v))
		return "no score was stored";
	size_t u = put_iops(v, b, len);
	if (isfinite(n))
		u += bufprintf(b + u, len - u, " at %.0f readers", n);
	u += bufprintf(b + u, len - u, ": %s", pass > 0 ? "pass" : "fail");
	if (isfinite(pm) && pm > 0) {
		put_iops(pm, t, sizeof t);
		bufprintf(b + u, len - u, " (pass mark %s)", t);
	}
	return NULL;
}

/* QD1 tail: p99 / p99.99 / p99.999 of reads and writes together. */
static const char *cell_tail(const struct rctx *x, size_t r, const void *arg,
			     char *b, size_t len)
{
	const struct rpt_run *run = &x->runs[r];
	int mix = *(const int *)arg;
	char name[32];
	bufprintf(name, sizeof name, "mix=%d qd=1", mix);
	const struct rpt_workload *w = rpt_find(run, "tail_latency", name);
	if (!w)
		return "not measured in this run";
	double ios = (double)(w->lat[0].count + w->lat[1].count);
	static const double ps[] = { 99, 99.99, 99.999 };
	static const char *const keys[] = { "99", "99_99", "99_999" };
	size_t u = 0;
	for (int i = 0; i < 3; i++) {
		double v = fig_v(run, "tail_latency.mix%d.qd1.lat_p%s_us", mix, keys[i]);
		u += bufprintf(b + u, len - u, "%sp%g ", i ? ", " : "", ps[i]);
		/* at least one I/O beyond the percentile, else it is the max */
		if (!isfinite(v) || ios * (1 - ps[i] / 100) < 1)
			u += bufprintf(b + u, len - u, "too few I/Os");
		else
			u += put_lat(v, b + u, len - u);
	}
	return NULL;
}

/* --- The table --- */

#define HL_MAX 64

static struct hl_row *row_add(struct hl_row *rows, size_t *n, const char *test,
			      const char *step, cell_fn fn, const void *arg,
			      const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
static struct hl_row *row_add(struct hl_row *rows, size_t *n, const char *test,
			      const char *step, cell_fn fn, const void *arg,
			      const char *fmt, ...)
{
	if (*n >= HL_MAX)
		return NULL;
	struct hl_row *row = &rows[(*n)++];
	memset(row, 0, sizeof *row);
	row->test = test;
	row->step = step;
	row->fn = fn;
	row->arg = arg;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(row->what, sizeof row->what, fmt, ap);
	va_end(ap);
	return row;
}

/* The fill passes any run has. */
static int fill_passes(const struct rctx *x)
{
	int n = 0;
	for (size_t r = 0; r < x->nruns; r++)
		for (int k = n + 1; k <= 16 && isfinite(fig_v(&x->runs[r], "fill.pass%d.total_s", k)); k++)
			n = k;
	return n;
}

/* The peak tests of the DUT's figures, in their stored order, once each. */
static size_t peak_tests(const struct rpt_run *r, char (*keys)[64], size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nmetrics && n < max; i++) {
		char prof[32], test[32], dir[8];
		const char *k = r->metrics[i].key;
		if (sscanf(k, "peak.%31[^.].%31[^.].%7[^.].mbps", prof, test, dir) != 3)
			continue;
		char key[64];
		bufprintf(key, sizeof key, "%s.%s", prof, test);
		bool seen = false;
		for (size_t j = 0; j < n && !seen; j++)
			seen = !strcmp(keys[j], key);
		if (!seen)
			bufprintf(keys[n++], 64, "%s", key);
	}
	return n;
}

void figures_table(struct rctx *x)
{
	static const int passes[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const int mixes[] = { 100, 0, 70, 50 };
	static const struct cons_arg cons[] = {
		{ "seq_sweeps", 100 }, { "seq_sweeps", 0 },
		{ "rnd_sweeps", 100 }, { "rnd_sweeps", 0 },
	};
	static const char *const mix_label[] = { "read", "write", "70:30", "50:50" };
	struct hl_row rows[HL_MAX];
	char peak[16][64];
	size_t n = 0;
	int np = fill_passes(x);
	if (np < 1)
		np = 1;		/* the rows say why there is none */
	for (int k = 0; k < np && k < 8; k++) {
		row_add(rows, &n, "Fill drive", "fill", cell_cache_size, &passes[k],
			"Pass %d: SLC cache size", k + 1);
		row_add(rows, &n, "Fill drive", "fill", cell_cache_speed, &passes[k],
			"Pass %d: SLC cache write speed", k + 1);
		row_add(rows, &n, "Fill drive", "fill", cell_levels, &passes[k],
			"Pass %d: levels after the cache", k + 1);
	}
	row_add(rows, &n, "SEQ preconditioning", "seq_precond", cell_steady, "seq_precond",
		"Steady state: value, time and drive-writes to it");
	row_add(rows, &n, "RND preconditioning", "rnd_precond", cell_steady, "rnd_precond",
		"Steady state: value, time and drive-writes to it");
	row_add(rows, &n, "RND preconditioning", "rnd_precond", cell_bursts, "rnd_precond",
		"Bursts: period, length, height, size");
	size_t npk = peak_tests(&x->runs[0], peak, 16);
	if (!npk)
		row_add(rows, &n, "Peak numbers", "peak", cell_peak, "default.seq1m_q8t1",
			"SEQ1M Q8T1 read / write");
	for (size_t i = 0; i < npk; i++) {
		char lab[64];
		const char *test = strchr(peak[i], '.') + 1;
		size_t j = 0;
		for (; test[j] && j + 1 < sizeof lab; j++)
			lab[j] = test[j] == '_' ? ' ' : (test[j] >= 'a' && test[j] <= 'z')
				 ? (char)(test[j] - 'a' + 'A') : test[j];
		lab[j] = '\0';
		row_add(rows, &n, "Peak numbers", "peak", cell_peak, peak[i], "%s read / write (%s profile)",
			lab, !strncmp(peak[i], "nvme.", 5) ? "NVMe" : "default");
	}
	for (size_t i = 0; i < sizeof cons / sizeof cons[0]; i++)
		row_add(rows, &n, "Consistency", cons[i].step, cell_consistency, &cons[i],
			"%s %s (99.9 %% value / mean)",
			!strcmp(cons[i].step, "seq_sweeps") ? "SEQ 128 KiB" : "RND 4 KiB",
			cons[i].mix ? "read" : "write");
	row_add(rows, &n, "Sync write", "sync_write", cell_sync, NULL, "RND 4 KiB QD1 with O_SYNC");
	row_add(rows, &n, "Performance by R/W ratio", "rw_ratio", cell_lowqd, NULL,
		"Weighted low-QD score (mixed read shares)");
	row_add(rows, &n, "SLC cache reclaim", "reclaim", cell_reclaim_rate, NULL, "Recovery rate");
	row_add(rows, &n, "SLC cache reclaim", "reclaim", cell_reclaim_full, NULL, "Time to full recovery");
	row_add(rows, &n, "Boot workload", "boot", cell_boot, NULL, "BootBench score, pass or fail");
	for (int i = 0; i < 4; i++)
		row_add(rows, &n, "Tail latency", "tail_latency", cell_tail, &mixes[i],
			"QD1 RND 4 KiB %s: p99, p99.99, p99.999", mix_label[i]);

	FILE *f = x->pg.top;
	fputs("<h2 id=\"figures\">Headline figures</h2>\n", f);
	x->pg.ntables++;
	fputs("<table class=\"headline\">\n<tr><th>Test</th><th>Figure</th>", f);
	for (size_t r = 0; r < x->nruns; r++) {
		fputs("<th>", f);
		page_esc(f, x->runs[r].label);
		fputs("</th>", f);
	}
	for (size_t i = 0; i < n; i++)
		row_out(x, &rows[i]);
	page_table_end(f);
}

/* --- What was scaled, from what each run stored --- */

/* "suite.scale=0.1" of the stored plan; 1 when absent. */
static double plan_scale(const char *plan)
{
	const char *p = plan ? strstr(plan, "suite.scale=") : NULL;
	double v = p ? strtod(p + 12, NULL) : 1;
	return v > 0 && v <= 1 ? v : 1;
}

/* "10ms", "100ms", "1s" in milliseconds (what the plan stores). */
static double parse_interval_ms(const char *s)
{
	char *end;
	double v = strtod(s, &end);
	if (!strncmp(end, "ms", 2))
		return v;
	if (!strncmp(end, "us", 2))
		return v / 1000;
	return v * 1000;	/* s, or a bare number of seconds */
}

/* "suite.interval=10ms" of the stored plan, as written; "" when absent. */
static void plan_interval(const char *plan, char *buf, size_t len)
{
	const char *p = plan ? strstr(plan, "suite.interval=") : NULL;
	buf[0] = '\0';
	if (p)
		bufprintf(buf, len, "%.*s", (int)strcspn(p + 15, "\n"), p + 15);
}

void sec_scale_notes(struct rctx *x)
{
	FILE *f = x->pg.top;
	bool any = false;
	char *said = NULL;	/* the previous run's note and scaling, once */
	for (size_t r = 0; r < x->nruns; r++) {
		const struct rpt_run *run = &x->runs[r];
		json_t *params = run->params_json ? json_loads(run->params_json, 0, NULL) : NULL;
		json_t *facts = run->facts_json ? json_loads(run->facts_json, 0, NULL) : NULL;
		const char *note = json_string_value(json_object_get(params, "preset_note"));
		const char *plan = json_string_value(json_object_get(params, "plan"));
		const char *scaled = json_string_value(json_object_get(
			json_object_get(facts, "device"), "scaled"));
		double ps = plan_scale(plan), ds = drive_scale(run);
		char preset[32] = "";
		if (plan)
			sscanf(plan, "preset=%31[^\n]", preset);
		if ((note && note[0]) || scaled || ps < 1) {
			if (!any)
				fputs("<div class=\"note scale\"><h3>How these runs were "
				      "made</h3>\n<ul>\n", f);
			any = true;
			fputs("<li><b>", f);
			page_esc(f, run->label);
			fputs("</b>: ", f);
			if (preset[0]) {
				char ivl[32];
				plan_interval(plan, ivl, sizeof ivl);
				fputs("preset ", f);
				page_esc(f, preset);
				if (ivl[0]) {
					fputs(", sampled every ", f);
					page_esc(f, ivl);
				}
				fputs(". ", f);
			}
			char *both = NULL;
			if (asprintf(&both, "%s|%s", note ? note : "", scaled ? scaled : "") < 0)
				both = NULL;
			if (both && said && !strcmp(both, said)) {
				fputs("Otherwise as above. ", f);
			} else {
				if (note && note[0]) {
					page_esc(f, note);
					fputs(" ", f);
				}
				if (scaled) {
					fputs("The drive is simulated with ", f);
					page_esc(f, scaled);
					fputs(". ", f);
				}
			}
			free(said);
			said = both;
			/* a sample interval coarser than the miniature's (100 ms
			   of the full-size review) resolves less */
			uint64_t ivl_ns = 0;
			const char *iv = plan ? strstr(plan, "suite.interval=") : NULL;
			if (iv)
				ivl_ns = (uint64_t)(parse_interval_ms(iv + 15) * 1e6);
			if (ps < 1 && ivl_ns > 100e6 * ps * 1.01)
				fputs("Its samples are coarser than a miniature of the "
				      "review's 100 ms: what lasts only a few of the review's "
				      "samples (bursts, short stalls) is not resolved. ", f);
			if (ps != ds) {
				char b1[32], b2[32];
				fprintf(f, "The plan is scaled by %s, the drive by %s: "
					"capacity-bound times do not match a full-size "
					"review.", page_num(ps, -1, b1, sizeof b1),
					page_num(ds, -1, b2, sizeof b2));
			}
			fputs("</li>\n", f);
		}
		json_decref(params);
		json_decref(facts);
	}
	free(said);
	if (any)
		fputs("</ul></div>\n", f);
}
