/*
 * Acceptance of the simulator against the reviews: SIMULATOR.md §10's
 * measured column, reproduced by running the real engine (engine_run on a
 * "sim:" target, the bulk path where the engine takes it) against each
 * built-in profile, and checked to +-10 %.  Prints one line per cell and
 * exits non-zero if a cell is off.
 *
 *   sim_accept [scale]       scale 1 = full size (the real check);
 *                            smaller scales are quicker and shrink the
 *                            capacity-bound figures with them
 *   sim_accept tails SCALE   only the QD1 tail-latency cells (at a small
 *                            scale: rates and latencies do not scale)
 *   sim_accept map SCALE     only the map-cache cells (active-range knee)
 *   sim_accept speed         CPU of the speed goals: a two-pass fill of
 *                            sn8100-2tb, then 2 drive-writes of random
 *                            4 KiB, both at full scale
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/bursts.h"
#include "analysis/fill.h"
#include "analysis/reclaim.h"
#include "analysis/steady.h"
#include "engine/engine.h"

#define S_NS 1000000000ull

static double scale = 1.0;
static int failures, cells;

/* ---- samples ---- */

struct series {
	double *v, *gb;		/* MB/s (or IOPS), GB written so far */
	struct trace_pt *tr;	/* the same, for the analyses */
	size_t n, cap;
	double bytes;
	enum io_dir dir;
	bool iops;
};

static int on_interval(void *ctx, const struct interval_sample *s, struct sb_err *e)
{
	(void)e;
	struct series *x = ctx;
	if (s->ramp)
		return 0;
	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 4096;
		x->v = realloc(x->v, x->cap * sizeof *x->v);
		x->gb = realloc(x->gb, x->cap * sizeof *x->gb);
		x->tr = realloc(x->tr, x->cap * sizeof *x->tr);
	}
	double dt = (double)(s->t_end_ns - s->t_start_ns) * 1e-9;
	const struct interval_dir *d = &s->dir[x->dir];
	x->bytes += (double)d->bytes;
	x->v[x->n] = x->iops ? (double)d->ios / dt : (double)d->bytes / dt / 1e6;
	x->gb[x->n] = x->bytes / 1e9;
	x->tr[x->n] = (struct trace_pt){ s->t_end_ns - s->t_start_ns, d->bytes, d->ios };
	x->n++;
	return 0;
}

static void series_reset(struct series *x)
{
	x->n = 0;
	x->bytes = 0;
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double pct(const double *v, size_t n, double p)
{
	if (!n)
		return 0;
	double *c = malloc(n * sizeof *c);
	memcpy(c, v, n * sizeof *c);
	qsort(c, n, sizeof *c, cmpd);
	double r = c[(size_t)fmin((double)n - 1, floor(p / 100.0 * (double)n))];
	free(c);
	return r;
}

static double mean(const double *v, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : 0;
}

/* ---- the engine ---- */

static struct engine *open_target(const char *profile)
{
	char spec[128];
	snprintf(spec, sizeof spec, "sim:%s,scale=%g", profile, scale);
	struct engine_opts o = { .target = spec, .allow_write = true,
				 .interval_ns = 100000000ull };
	struct engine *eng;
	struct sb_err e;
	if (engine_open(&o, &eng, &e)) {
		fprintf(stderr, "%s\n", e.msg);
		exit(2);
	}
	return eng;
}

static bool sync_writes;	/* O_SYNC for the next run */

/* Run one workload; returns its result (caller frees). */
static struct engine_result run(struct engine *eng, bool write, bool random, uint32_t bs,
				uint32_t qd, uint64_t bytes, uint64_t ns, struct series *x)
{
	struct workload w;
	workload_defaults(&w);
	w.sync = sync_writes;
	w.pattern = random ? PATTERN_RAND : PATTERN_SEQ;
	w.read_pct = write ? 0 : 100;
	w.bs = bs;
	w.qd = qd;
	w.stop_bytes = bytes;
	w.stop_time_ns = ns;
	w.seed = 42;
	snprintf(w.name, sizeof w.name, "accept");
	struct series dummy = { 0 };
	if (!x)
		x = &dummy;
	x->dir = write ? DIR_WRITE : DIR_READ;
	struct engine_hooks h = { .ctx = x, .on_interval = on_interval };
	struct engine_result res;
	struct sb_err e;
	if (engine_run(eng, &w, 1, &h, &res, &e)) {
		fprintf(stderr, "run: %s\n", e.msg);
		exit(2);
	}
	free(dummy.v);
	free(dummy.gb);
	free(dummy.tr);
	return res;
}

static uint64_t size_of(struct engine *eng, uint32_t bs)
{
	return engine_facts(eng)->size / bs * bs;
}

/* ---- the table ---- */

static void cell(const char *drive, const char *metric, double target, double got,
		 const char *unit)
{
	double dev = target ? (got - target) / target * 100 : 0;
	bool ok = fabs(dev) <= 10.0;
	cells++;
	failures += !ok;
	printf("%-12s %-44s %10.4g %10.4g %-6s %+6.1f%% %s\n", drive, metric, target, got,
	       unit, dev, ok ? "ok" : "OFF");
}

/* A value within a range counts as on target (dev 0); else by the bound. */
static void cell_range(const char *drive, const char *metric, double lo, double hi,
		       double got, const char *unit)
{
	double t = got < lo ? lo : got > hi ? hi : got;
	char m[96];
	snprintf(m, sizeof m, "%s [%g-%g]", metric, lo, hi);
	cell(drive, m, t, got, unit);
}

/* A finding that is there or not. */
static void cell_bool(const char *drive, const char *metric, bool ok, const char *detail)
{
	cells++;
	failures += !ok;
	printf("%-12s %-44s %21s %-6s %7s %s\n", drive, metric, detail, "", "", ok ? "ok" : "OFF");
}

/* The fill analysis of the analysis room on one pass. */
static void fill_findings(const char *drive, const struct series *x, bool want_cache,
			  double cache_gb, double cache_mbs)
{
	struct fill_params fp;
	struct fill_result fr;
	struct sb_err e;
	fill_params_default(&fp);
	if (fill_analyze(x->tr, x->n, &fp, &fr, &e)) {
		cell_bool(drive, "fill analysis runs", false, e.msg);
		return;
	}
	char d[64];
	snprintf(d, sizeof d, "%s", fr.has_cache ? "cache" : "no cache");
	if (!want_cache || !fr.has_cache) {
		cell_bool(drive, want_cache ? "cache detector: a cache" : "cache detector: no cache",
			  fr.has_cache == want_cache, d);
		return;
	}
	cell(drive, "cache detector: size (scaled back)", cache_gb, fr.cache_bytes / 1e9 / scale, "GB");
	cell(drive, "cache detector: speed", cache_mbs, fr.cache_speed / 1e6, "MB/s");
}

/* Cache span: GB written before the first sample under 70 % of the start. */
static size_t cache_end(const struct series *x)
{
	double first = pct(x->v, x->n < 10 ? x->n : 10, 50);
	size_t i = 0;
	while (i < x->n && x->v[i] > 0.7 * first)
		i++;
	return i;
}

static void sn8100(void)
{
	const char *d = "SN8100";
	struct engine *eng = open_target("sn8100-2tb");
	uint64_t cap = size_of(eng, 131072);
	struct series f1 = { 0 }, f2 = { 0 };
	struct engine_result r = run(eng, true, false, 131072, 256, cap, 0, &f1);
	double secs = (double)r.wl[0].measured_ns * 1e-9;
	engine_result_free(&r);
	size_t ce = cache_end(&f1);
	cell(d, "fill 1: SLC span, GB (scaled back)", 677, f1.gb[ce - 1] / scale, "GB");
	cell(d, "fill 1: SLC rate", 14100, pct(f1.v, ce, 50), "MB/s");
	size_t j = ce + 2, k = j;
	while (k < f1.n && f1.v[k] > 0.8 * f1.v[j])
		k++;
	cell(d, "fill 1: direct stage", 3900, pct(f1.v + j, k - j, 50), "MB/s");
	double *later = f1.v + k;
	size_t nl = f1.n - k;
	cell(d, "fill 1 later phase: average", 1945, mean(later, nl), "MB/s");
	cell(d, "fill 1 later phase: median", 2004, pct(later, nl, 50), "MB/s");
	cell(d, "fill 1 later phase: p10", 683, pct(later, nl, 10), "MB/s");
	const double lv[] = { 3980, 2120, 1330, 684 };
	for (int l = 0; l < 4; l++) {
		/* a level is there when it is a local mode: samples within 5 % */
		size_t c = 0;
		double s = 0;
		for (size_t q = 0; q < nl; q++)
			if (fabs(later[q] / lv[l] - 1) < 0.05) {
				c++;
				s += later[q];
			}
		char m[64];
		snprintf(m, sizeof m, "later level %.0f (mean of its samples, %.0f%%)", lv[l],
			 100.0 * (double)c / (double)nl);
		cell(d, m, lv[l], c ? s / (double)c : 0, "MB/s");
	}
	fill_findings(d, &f1, true, 677, 14100);
	{
		struct fill_params fp;
		struct fill_result fr;
		struct sb_err e;
		fill_params_default(&fp);
		if (fill_analyze(f1.tr, f1.n, &fp, &fr, &e) == 0) {
			/* plateau detector: the stage after the cache, then the
			   four later levels among the detected ones */
			if (fr.nstages > 1)
				cell(d, "plateau detector: stage after the cache", 3900,
				     fr.stages[1].mean / 1e6, "MB/s");
			for (int l = 0; l < 4; l++) {
				double best = 0;
				for (size_t q = 0; q < fr.nlevels; q++)
					if (fabs(fr.levels[q].rate / 1e6 / lv[l] - 1) <
					    fabs(best / lv[l] - 1))
						best = fr.levels[q].rate / 1e6;
				char m[64];
				snprintf(m, sizeof m, "plateau detector: level near %.0f", lv[l]);
				cell(d, m, lv[l], best, "MB/s");
			}
		}
	}
	cell(d, "fill 1 whole: average", 3291, f1.bytes / secs / 1e6, "MB/s");
	cell(d, "fill 1 whole: minimum sample", 625, pct(f1.v, f1.n, 0), "MB/s");
	engine_idle(eng, 600 * S_NS);
	r = run(eng, true, false, 131072, 256, cap, 0, &f2);
	engine_result_free(&r);
	size_t ce2 = cache_end(&f2);
	cell(d, "fill 2: SLC span, GB (scaled back)", 11, f2.gb[ce2 - 1] / scale, "GB");
	double span1 = f1.gb[ce - 1];
	double a = 0, b = 0;
	size_t na = 0, nb = 0;
	for (size_t q = ce2 + 1; q < f2.n; q++) {
		if (f2.gb[q] < span1 * 0.95) { a += f2.v[q]; na++; }
		else if (f2.gb[q] > span1 * 1.05) { b += f2.v[q]; nb++; }
	}
	cell(d, "fill 2: rate over pass 1's cache span", 3750, a / (double)na, "MB/s");
	cell(d, "fill 2: rate after it", 3890, b / (double)nb, "MB/s");

	/* random 4k preconditioning on the sequentially filled drive */
	struct series rn = { .iops = true };
	double dw = 3.0;	/* 2 x capacity, then room to reach steady state */
	r = run(eng, true, true, 4096, 256, (uint64_t)(dw * (double)size_of(eng, 4096)) / 4096 * 4096,
		0, &rn);
	engine_result_free(&r);
	size_t s0 = rn.n / 10, nslow = 0, nb2 = 0;
	double *slow = malloc(rn.n * sizeof *slow), peak_sum = 0, peak = 0, dur = 0, gb = 0;
	double per_sum = 0, last = -1, sum = 0;
	size_t nper = 0;
	bool in = false;
	for (size_t q = s0; q < rn.n; q++) {
		sum += rn.v[q];
		if (rn.v[q] > 300000) {
			if (!in) {
				nb2++;
				if (last >= 0) {
					per_sum += ((double)q - last) * 0.1;
					nper++;
				}
				last = (double)q;
				peak = 0;
			}
			in = true;
			peak = fmax(peak, rn.v[q]);
			dur += 0.1;
			gb += rn.v[q] * 4096 * 0.1 / 1e9;
		} else {
			if (in)
				peak_sum += peak;
			in = false;
			slow[nslow++] = rn.v[q];
		}
	}
	cell_range(d, "rnd 4k precondition: p5 between bursts", 15000, 25000, pct(slow, nslow, 5), "IOPS");
	cell_range(d, "rnd 4k precondition: p95 between bursts", 15000, 25000, pct(slow, nslow, 95), "IOPS");
	cell_range(d, "rnd 4k precondition: average", 38000, 40000, sum / (double)(rn.n - s0), "IOPS");
	if (nb2) {
		cell_range(d, "bursts: height (mean of peaks)", 900000, 1000000, peak_sum / (double)nb2, "IOPS");
		/* at 100 ms samples a 0.4 s burst spans 4-5 samples; its length
		   is the bytes over the burst rate */
		cell_range(d, "bursts: duration (bytes / height)", 0.4, 0.6,
			   gb / (double)nb2 * 1e9 / 4096 / (peak_sum / (double)nb2), "s");
		cell_range(d, "bursts: period (scaled back)", 19, 22, per_sum / (double)nper / scale, "s");
		cell(d, "bursts: bytes each (scaled back)", 1.5, gb / (double)nb2 / scale, "GB");
	} else {
		cell(d, "bursts seen", 1, 0, "");
	}
	double period = NAN;	/* the burst detector's, trace seconds */
	{
		struct burst_params bp;
		struct burst_result br;
		struct sb_err e;
		burst_params_default(&bp);
		if (burst_analyze(rn.tr + s0, rn.n - s0, TRACE_IOPS, &bp, &br, NULL, &e) == 0 &&
		    br.count >= 2) {
			period = br.period_s.median;
			cell_range(d, "burst detector: period (scaled back)", 19, 22,
				   br.period_s.median / scale, "s");
			cell_range(d, "burst detector: duration", 0.4, 0.6, br.duration_s.median, "s");
			cell(d, "burst detector: bytes (scaled back)", 1.5, br.bytes.median / 1e9 / scale, "GB");
		} else {
			cell_bool(d, "burst detector finds bursts", false, "none");
		}
	}
	{
		struct ss_params sp;
		struct ss_result sr;
		struct sb_err e;
		ss_params_default(&sp);
		sp.metric = TRACE_IOPS;
		/* METHODOLOGY §4.1: no verdict before 2 x capacity */
		sp.capacity_bytes = size_of(eng, 4096);
		sp.min_bytes = 2 * sp.capacity_bytes;
		if (ss_analyze(rn.tr, rn.n, &sp, &sr, &e) == 0 && sr.reached) {
			cell_bool(d, "steady-state detector converges despite bursts", true, "reached");
			/* over whole burst periods (findings: steady_periods_iops):
			   the window's own mean is the phase of the one or two
			   bursts it caught */
			double v = level_over_periods(rn.tr, rn.n, TRACE_IOPS, sr.index, period,
						      sr.window_s);
			cell_range(d, isfinite(v) ? "steady-state value (whole burst periods)"
						  : "steady-state value", 38000, 40000,
				   isfinite(v) ? v : sr.value, "IOPS");
		} else {
			cell_bool(d, "steady-state detector converges despite bursts", false, "not reached");
		}
	}
	free(slow);
	free(rn.v);
	free(rn.gb);
	free(rn.tr);

	/* reads on the full drive */
	engine_idle(eng, 3600 * S_NS);
	struct series rd = { .iops = true };
	r = run(eng, false, true, 4096, 1, 0, 2 * S_NS, &rd);
	cell(d, "RND 4k read QD1", 31500, (double)r.wl[0].ios[DIR_READ] / ((double)r.wl[0].measured_ns * 1e-9), "IOPS");
	cell(d, "RND 4k read QD1 p50 latency", 32, (double)hist_percentile(r.wl[0].hist[DIR_READ], 50) / 1e3, "us");
	engine_result_free(&r);
	r = run(eng, false, true, 4096, 256, 0, 5 * S_NS, NULL);
	cell(d, "RND 4k read QD256 (saturation)", 1200000, (double)r.wl[0].ios[DIR_READ] / ((double)r.wl[0].measured_ns * 1e-9), "IOPS");
	engine_result_free(&r);
	/* Sync Write (METHODOLOGY §3.5): RND 4k QD1 O_SYNC in the first 8 GiB */
	sync_writes = true;
	r = run(eng, true, true, 4096, 1, 0, 5 * S_NS, NULL);
	sync_writes = false;
	cell(d, "Sync Write: RND 4k QD1 O_SYNC", 43, (double)r.wl[0].bytes[DIR_WRITE] / ((double)r.wl[0].measured_ns * 1e-9) / 1e6, "MB/s");
	engine_result_free(&r);
	r = run(eng, false, false, 131072, 32, 0, 5 * S_NS, NULL);
	cell(d, "SEQ 128k read QD32", 14980, (double)r.wl[0].bytes[DIR_READ] / ((double)r.wl[0].measured_ns * 1e-9) / 1e6, "MB/s");
	engine_result_free(&r);
	free(rd.v); free(rd.gb); free(rd.tr);
	free(f1.v); free(f1.gb); free(f1.tr); free(f2.v); free(f2.gb); free(f2.tr);
	engine_close(eng);

	/* SLC reclaim (METHODOLOGY §3.7): fill 50 %, idle T, write a minute;
	   the cache each minute found, through the reclaim estimator */
	const int idle_s[] = { 5, 10, 15, 30, 60, 120, 240, 600 };
	struct reclaim_point pts[8];
	double ref = 0;
	for (int i = 0; i < 8; i++) {
		eng = open_target("sn8100-2tb");
		struct series h = { 0 }, g = { 0 };
		r = run(eng, true, false, 131072, 256, size_of(eng, 131072) / 2 / 131072 * 131072, 0, &h);
		engine_result_free(&r);
		if (i == 0) {
			size_t c = cache_end(&h);
			ref = pct(h.v, c, 50) * 1e6;
		}
		engine_idle(eng, (uint64_t)idle_s[i] * S_NS);
		r = run(eng, true, false, 131072, 256, 0, 60 * S_NS, &g);
		engine_result_free(&r);
		struct fill_params fp;
		struct sb_err e;
		fill_params_default(&fp);
		fp.ref_speed = ref;
		size_t end = 0;
		double cb = 0;
		if (fill_find_cache(g.tr, g.n, &fp, &end, &cb, &e))
			cb = 0;
		pts[i] = (struct reclaim_point){ idle_s[i], cb };
		free(h.v); free(h.gb); free(h.tr);
		free(g.v); free(g.gb); free(g.tr);
		engine_close(eng);
	}
	struct reclaim_result rr;
	struct sb_err e;
	if (reclaim_analyze(pts, 8, 0.05, &rr, &e) == 0) {
		cell(d, "reclaim estimator: rate (scaled back)", 1.46, rr.rate / 1e9 / scale, "GB/s");
		cell_range(d, "reclaim: idle to full recovery", 0, 600, rr.full_s, "s");
		cell(d, "reclaim: recovered cache (scaled back)", 344, rr.recovered_bytes / 1e9 / scale, "GB");
	} else {
		cell_bool(d, "reclaim estimator runs", false, e.msg);
	}
}

static void micron(void)
{
	const char *d = "Micron1300";
	struct engine *eng = open_target("micron1300-1tb");
	uint64_t cap = size_of(eng, 131072);
	struct series f = { 0 };
	struct engine_result r = run(eng, true, false, 131072, 32, cap, 0, &f);
	double secs = (double)r.wl[0].measured_ns * 1e-9;
	engine_result_free(&r);
	cell(d, "fill: median sample (flat)", 540, pct(f.v, f.n, 50), "MB/s");
	size_t dips = 0;
	for (size_t q = 1; q < f.n; q++)
		dips += f.v[q] < 0.9 * 540 && f.v[q - 1] >= 0.9 * 540;
	cell_range(d, "fill: seconds between flush dips", 3.6, 4.4, secs / (double)(dips ? dips : 1), "s");
	fill_findings(d, &f, false, 0, 0);	/* interface-bound: no cache to see */
	series_reset(&f);
	r = run(eng, true, false, 131072, 32, cap, 0, &f);
	cell(d, "SEQ write steady (pass 2 average)", 527,
	     f.bytes / ((double)r.wl[0].measured_ns * 1e-9) / 1e6, "MB/s");
	engine_result_free(&r);
	struct series rn = { .iops = true };
	r = run(eng, true, true, 4096, 32, size_of(eng, 4096), 0, &rn);
	engine_result_free(&r);
	cell(d, "RND 4k write steady (second half median)", 17500, pct(rn.v + rn.n / 2, rn.n / 2, 50), "IOPS");
	free(f.v); free(f.gb); free(f.tr); free(rn.v); free(rn.gb); free(rn.tr);
	engine_close(eng);
}

static void p4800x(void)
{
	const char *d = "P4800X";
	struct engine *eng = open_target("p4800x-375gb");
	struct series f = { 0 };
	struct engine_result r = run(eng, true, false, 131072, 32, size_of(eng, 131072), 0, &f);
	engine_result_free(&r);
	fill_findings(d, &f, false, 0, 0);
	free(f.v); free(f.gb); free(f.tr);
	r = run(eng, false, true, 4096, 8, 0, 2 * S_NS, NULL);
	double iops = (double)r.wl[0].ios[DIR_READ] / ((double)r.wl[0].measured_ns * 1e-9);
	cell(d, "RND 4k read QD8", 590000, iops, "IOPS");
	cell(d, "RND 4k read QD8 mean latency", 13, hist_mean(r.wl[0].hist[DIR_READ]) / 1e3, "us");
	engine_result_free(&r);
	struct series wr = { .iops = true };
	r = run(eng, true, true, 4096, 16, 0, 60 * S_NS, &wr);
	cell(d, "RND 4k write QD16", 563000, (double)r.wl[0].ios[DIR_WRITE] / ((double)r.wl[0].measured_ns * 1e-9), "IOPS");
	engine_result_free(&r);
	{
		struct ss_params sp;
		struct ss_result sr;
		struct sb_err e;
		ss_params_default(&sp);
		sp.metric = TRACE_IOPS;
		bool ok = ss_analyze(wr.tr, wr.n, &sp, &sr, &e) == 0 && sr.reached;
		char det[64];
		snprintf(det, sizeof det, ok ? "after %.1f s" : "not reached", ok ? sr.seconds : 0.0);
		/* flat: steady in the first window (30 s) */
		cell_bool(d, "steady state within the first window", ok && sr.seconds <= sp.window_s + 0.1, det);
	}
	free(wr.v); free(wr.gb); free(wr.tr);
	r = run(eng, false, false, 131072, 2, 0, 2 * S_NS, NULL);
	cell(d, "SEQ 128k read QD2", 2720, (double)r.wl[0].bytes[DIR_READ] / ((double)r.wl[0].measured_ns * 1e-9) / 1e6, "MB/s");
	engine_result_free(&r);
	r = run(eng, false, true, 4096, 1, 0, 2 * S_NS, NULL);
	double p50 = (double)hist_percentile(r.wl[0].hist[DIR_READ], 50);
	double p9999 = (double)hist_percentile(r.wl[0].hist[DIR_READ], 99.99);
	cell(d, "RND 4k read QD1 p50", 11, p50 / 1e3, "us");
	cell_range(d, "QD1 p99.99 / p50 (under 3)", 0, 3, p9999 / p50, "x");
	engine_result_free(&r);
	engine_close(eng);
}

static void pm1725(void)
{
	const char *d = "PM1725";
	struct engine *eng = open_target("pm1725-3.2tb");
	struct series f = { 0 };
	struct engine_result r = run(eng, true, false, 131072, 256, size_of(eng, 131072), 0, &f);
	double secs = (double)r.wl[0].measured_ns * 1e-9;
	engine_result_free(&r);
	cell(d, "fill average", 1707, f.bytes / secs / 1048576.0, "MiB/s");
	double m = mean(f.v, f.n), sd = 0;
	for (size_t q = 0; q < f.n; q++)
		sd += (f.v[q] - m) * (f.v[q] - m);
	cell(d, "fill sample CV (large variance)", 0.20, sqrt(sd / (double)f.n) / m, "");
	fill_findings(d, &f, false, 0, 0);
	free(f.v); free(f.gb); free(f.tr);
	engine_close(eng);
}

static void p1(void)
{
	const char *d = "P1";
	struct engine *eng = open_target("p1-1tb");
	struct series f = { 0 };
	uint64_t bytes = (uint64_t)(0.9 * (double)size_of(eng, 131072)) / 131072 * 131072;
	struct engine_result r = run(eng, true, false, 131072, 256, bytes, 0, &f);
	double secs = (double)r.wl[0].measured_ns * 1e-9;
	engine_result_free(&r);
	size_t ce = cache_end(&f);
	cell(d, "SLC span (scaled back)", 140, f.gb[ce - 1] / scale, "GB");
	cell(d, "SLC rate", 1650, pct(f.v, ce, 50), "MB/s");
	cell(d, "90% fill: true average", 117.7, f.bytes / secs / 1e6, "MB/s");
	fill_findings(d, &f, true, 140, 1650);
	free(f.v); free(f.gb); free(f.tr);
	engine_close(eng);
}

/* ---- QD1 tail latency (METHODOLOGY's tail step: RND 4k QD1) ---- */

struct tails { double p50, p99, p999, p9999, p99999, p999999; uint64_t n; };

static struct tails qd1_tails(struct engine *eng, bool write, uint64_t ns)
{
	struct engine_result r = run(eng, write, true, 4096, 1, 0, ns, NULL);
	const struct lat_hist *h = r.wl[0].hist[write ? DIR_WRITE : DIR_READ];
	struct tails t = {
		(double)hist_percentile(h, 50) / 1e3, (double)hist_percentile(h, 99) / 1e3,
		(double)hist_percentile(h, 99.9) / 1e3, (double)hist_percentile(h, 99.99) / 1e3,
		(double)hist_percentile(h, 99.999) / 1e3, (double)hist_percentile(h, 99.9999) / 1e3,
		h->count,
	};
	engine_result_free(&r);
	return t;
}

static void print_tails(const char *d, const char *what, const struct tails *t)
{
	printf("%-12s %-44s p50 %.1f p99 %.1f p99.9 %.1f p99.99 %.1f p99.999 %.1f p99.9999 %.1f us (%llu I/Os)\n",
	       d, what, t->p50, t->p99, t->p999, t->p9999, t->p99999, t->p999999,
	       (unsigned long long)t->n);
}

/* A drive in steady state: filled, then random 4 KiB writes over it. */
static struct engine *preconditioned(const char *profile, double drive_writes)
{
	struct engine *eng = open_target(profile);
	struct engine_result r = run(eng, true, false, 131072, 32, size_of(eng, 131072), 0, NULL);
	engine_result_free(&r);
	r = run(eng, true, true, 4096, 32,
		(uint64_t)(drive_writes * (double)size_of(eng, 4096)) / 4096 * 4096, 0, NULL);
	engine_result_free(&r);
	return eng;
}

/*
 * The QD1 tail cells.  Where a review or a datasheet gives the figure, the
 * target is that figure; elsewhere it is a hand sum of the profile's
 * stages (t_ctrl + t_fw + tR of the page type + channel + link, with the
 * firmware factor's lognormal quantile and read retry's n_rr x tR), so the
 * cell checks that the engine delivers the distribution the parameters
 * describe.  Each drive runs 1.5 drive-writes of random 4 KiB first, the
 * tail step's starting point in the methodology.
 */
/* A preconditioned drive's QD1 write (5 min, as the tail step) and read
   (10 s) tails, printed in full; the drive is closed. */
static void drive_tails(const char *profile, const char *d, struct tails *w, struct tails *r)
{
	struct engine *eng = preconditioned(profile, 1.5);
	*w = qd1_tails(eng, true, 300 * S_NS);
	/* The hand sums are a quiet drive's reads: let the write buffer
	   drain first (up to 64 MiB at GC's pace, a second or more on the
	   Micron; I/O by I/O, reads right after the writes see it). */
	engine_idle(eng, 12 * S_NS);
	*r = qd1_tails(eng, false, 10 * S_NS);
	print_tails(d, "RND 4k write QD1, steady", w);
	print_tails(d, "RND 4k read QD1, steady", r);
	engine_close(eng);
}

static void tails_cells(void)
{
	struct tails w, r;

	drive_tails("sn8100-2tb", "SN8100", &w, &r);
	/* SIMULATOR.md §10 and KitGuru's QD1 30,178 IOPS */
	cell("SN8100", "QD1 read p50 (review)", 32, r.p50, "us");
	/* hand: 3.33 + 4 x 1.66 (lognormal cv 0.3, q0.97) + 23 x 1.3 (MSB) + 1.4 */
	cell("SN8100", "QD1 read p99 (hand: MSB page, firmware tail)", 41.3, r.p99, "us");
	/* hand: retry p_rr 2e-4 > 1e-4, so the median retried read: 3 x 23 + 8.7 */
	cell("SN8100", "QD1 read p99.99 (hand: read retry)", 77.7, r.p9999, "us");
	/* hand: core 1.67 + t_fw_wr 6 x 0.958 (lognormal median) + link 0.29 */
	cell("SN8100", "QD1 write p50 (hand)", 7.7, w.p50, "us");
	/* review: "write-containing tails badly broken" after preconditioning */
	cell_range("SN8100", "QD1 write p99.99 / p50, steady (review: broken)", 100, 1e9,
		   w.p9999 / w.p50, "x");

	drive_tails("micron1300-1tb", "Micron1300", &w, &r);
	/* review: steady-state typical (50 %) random write 44 us */
	cell("Micron1300", "QD1 write p50, steady (review)", 44, w.p50, "us");
	/* review: "mostly beyond 10 ms at 99.9 %" */
	cell_range("Micron1300", "QD1 write p99.9, steady (review)", 10000, 1e9, w.p999, "us");
	/* review: "one more nine, 99.9999 %, doubles it" */
	cell("Micron1300", "QD1 write p99.9999 / p99.999 (review)", 2, w.p999999 / w.p99999, "x");
	/* hand: 10.5 + 20 x 0.958 + 50 + 6.1 + 7.6; informative (SIMULATOR §10) */
	cell("Micron1300", "QD1 read p50 (hand)", 93.4, r.p50, "us");
	/* hand: MSB 65 + 20 x 1.66 + 24.2 */
	cell("Micron1300", "QD1 read p99 (hand)", 122.4, r.p99, "us");
	/* hand: retry p_rr 5e-4: 3 x 50 + overheads, top of the retried */
	cell_range("Micron1300", "QD1 read p99.99 (hand: read retry)", 175, 265, r.p9999, "us");

	drive_tails("p4800x-375gb", "P4800X", &w, &r);
	cell("P4800X", "QD1 read p50 (review)", 11, r.p50, "us");
	/* hand: 1.7 + 3 x 1.55 (cv 0.2, q0.99) + 3 + 2.05 + 1.5 */
	cell("P4800X", "QD1 read p99 (hand)", 12.9, r.p99, "us");
	/* datasheet: 99.999 % QD1 read 60 us, write 100 us; the review: met
	   to 99.9999 % */
	cell_range("P4800X", "QD1 read p99.99 (datasheet bound 60)", 0, 60, r.p9999, "us");
	cell_range("P4800X", "QD1 read p99.9999 (datasheet bound 60)", 0, 60, r.p999999, "us");
	cell_range("P4800X", "QD1 write p50 (datasheet typical < 10)", 0, 10, w.p50, "us");
	cell_range("P4800X", "QD1 write p99.9999 (datasheet bound 100)", 0, 100, w.p999999, "us");

	drive_tails("pm1725-3.2tb", "PM1725", &w, &r);
	/* hand: 8 + 8 x 0.98 + 60 + 10.2 + 0.7 */
	cell("PM1725", "QD1 read p50 (hand)", 86.7, r.p50, "us");
	/* hand: MSB 78 + 8 x 1.42 + 18.9 */
	cell("PM1725", "QD1 read p99 (hand)", 108.3, r.p99, "us");
	/* hand: p_rr 1e-4 sits at p99.99, so the cell falls on either side
	   of the retried reads' start by the retries a run happens to draw
	   (the drive's seeds 1-8 give both): the top of the firmware tail
	   (MSB 78 + 8 x 2.05, cv 0.2 at q0.9999, + 18.9 = 113) or the least
	   retried read, an LSB page's (8 + 8 x 0.98 + 3 x 42 + 10.2 + 0.7 =
	   153) */
	cell_range("PM1725", "QD1 read p99.99 (hand: retry's edge)", 105, 160, r.p9999, "us");

	drive_tails("p1-1tb", "P1", &w, &r);
	/* hand: the median falls between QLC page types 2 and 3 (106, 134) + 25 */
	cell_range("P1", "QD1 read p50 (hand: page types 2-3)", 131, 160, r.p50, "us");
	/* hand: page type 4, 162 + 11.8 + 6 x 1.6 + 7.1 */
	cell("P1", "QD1 read p99 (hand)", 190.5, r.p99, "us");
	/* hand: retry p_rr 1e-3: 3 x 162 + 27 */
	cell("P1", "QD1 read p99.99 (hand: read retry)", 513, r.p9999, "us");
}

/* ---- the L2P map cache: the active-range knee (SIMULATOR.md §8) ---- */

/* Random 4 KiB reads over [0, span): a QD256 warm-up (the bulk path, which
   runs real I/Os until the map cache is warm for the span), then QD1 for
   `n` reads and QD256 for `secs`; IOPS of each. */
static void span_iops(struct engine *eng, uint64_t span, double *qd1, double *qd256)
{
	struct workload w;
	workload_defaults(&w);
	w.pattern = PATTERN_RAND;
	w.read_pct = 100;
	w.bs = 4096;
	w.seed = 42;
	w.span_len = span / 4096 * 4096;
	snprintf(w.name, sizeof w.name, "accept");
	struct engine_result res;
	struct sb_err e;
	const struct { uint32_t qd; uint64_t bytes, ns; double *out; } part[] = {
		{ 256, 2 * (span / 4096 / 1024) * 8 * 4096 + (1u << 28), 0, NULL },
		{ 1, 20000 * 4096ull, 0, qd1 },
		{ 256, 0, 2 * S_NS, qd256 },
	};
	for (int i = 0; i < 3; i++) {
		w.qd = part[i].qd;
		w.seed = 42 + (uint64_t)i;
		w.stop_bytes = part[i].bytes;
		w.stop_time_ns = part[i].ns;
		if (engine_run(eng, &w, 1, NULL, &res, &e)) {
			fprintf(stderr, "run: %s\n", e.msg);
			exit(2);
		}
		if (part[i].out)
			*part[i].out = (double)res.wl[0].ios[DIR_READ] /
				       ((double)res.wl[0].measured_ns * 1e-9);
		engine_result_free(&res);
	}
}

/*
 * One drive's knee.  Every target is worked out by hand from the profile's
 * numbers (in the callers' comments), not by the model's code:
 *   held  the LBA span the cached map pages cover: memory / 4 KiB map
 *         pages x 4 MiB each (1024 entries of 4 B, one per 4 KiB);
 *   l0    QD1 latency of a read whose page is held: t_ctrl + t_fw + tR
 *         (+ retry p_rr x n_rr x tR) + 4 KiB over a channel and the link;
 *   dl    what a miss adds: tr_map + 4 KiB over a channel;
 *   q     the share of lookups that miss over the whole drive, 1 - held / U;
 *   at QD256 the NAND units are the limit on both drives (their other caps
 *   are higher), so the whole drive reads tR / (tR + q x tr_map) as fast
 *   as a span the cache holds: the units' time per read.  (How close QD256
 *   comes to units / tR itself depends on how the reservation engine packs
 *   the channels, so the cell is the ratio.)
 */
static void knee_cells(const char *profile, const char *d, double held, double l0,
		       double dl, double tr, double tr_map)
{
	struct engine *eng = open_target(profile);
	uint64_t cap = size_of(eng, 131072);
	struct engine_result r = run(eng, true, false, 131072, 256, cap, 0, NULL);
	engine_result_free(&r);
	engine_idle(eng, 3600 * S_NS);	/* fold SLC: reads see native data */
	double h = held * scale, q = 1 - h / (double)size_of(eng, 4096);
	double in1, in256, all1, all256;
	span_iops(eng, (uint64_t)(h / 2), &in1, &in256);
	/* the knee: the largest span that reads as fast as half the held
	   span, among spans 2^(1/8) apart around the held one */
	const double f[] = { 0.841, 0.917, 1.091, 1.189 };
	double knee_lo = 0, knee_hi = 0;
	for (int i = 0; i < 4; i++) {
		double a, b;
		span_iops(eng, (uint64_t)(h * f[i]), &a, &b);
		printf("%-12s span %.0f GB (scaled back): QD1 %.0f, QD256 %.0f IOPS\n", d,
		       h * f[i] / scale / 1e9, a, b);
		if (a >= 0.985 * in1)
			knee_lo = f[i];
		else if (!knee_hi)
			knee_hi = f[i];
	}
	span_iops(eng, size_of(eng, 4096), &all1, &all256);
	engine_close(eng);
	cell(d, "QD1 rnd read, half the held span (hand)", 1e6 / l0, in1, "IOPS");
	cell(d, "QD1 rnd read, whole drive (hand: misses)", 1e6 / (l0 + q * dl), all1, "IOPS");
	cell(d, "QD256 rnd read, whole drive / held span (hand)", tr / (tr + q * tr_map),
	     all256 / in256, "x");
	/* on target when the last span as fast is the one just under the
	   held span and the first slower one just over it */
	char det[64];
	snprintf(det, sizeof det, "knee in %.0f-%.0f GB", h * knee_lo / scale / 1e9,
		 h * knee_hi / scale / 1e9);
	cell_bool(d, "knee at the held span (hand), +-9 %", knee_lo == f[1] && knee_hi == f[2],
		  det);
}

static void map_cells(void)
{
	/* rc100-480gb: hmb_mib 24 -> 6144 pages x 4 MiB = 24 GiB held;
	   l0 = 5 + 6 + 100 + 5e-4 x 2 x 100 + 4096 / 0.4e3 + 4096 / 1.6e3
	      = 123.9 us; dl = 40 + 10.24; tR 100, tr_map 40 */
	knee_cells("rc100-480gb", "RC100", 24 * 1073741824.0, 123.9, 50.24, 100, 40);
	/* sn850x-4tb: dram_mib 2048 -> 524288 pages x 4 MiB = 2 TiB held;
	   l0 = 2.5 + 4 + 50 + 2e-4 x 2 x 50 + 4096 / 1.6e3 + 4096 / 7.3e3
	      = 59.64 us; dl = 20 + 2.56; tR 50, tr_map 20 */
	knee_cells("sn850x-4tb", "SN850X", 2199023255552.0, 59.64, 22.56, 50, 20);
}

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int speed(void)
{
	struct engine *eng = open_target("sn8100-2tb");
	uint64_t cap = size_of(eng, 131072);
	double c0 = cpu_s();
	struct engine_result r = run(eng, true, false, 131072, 256, cap, 0, NULL);
	engine_result_free(&r);
	engine_idle(eng, 600 * S_NS);
	r = run(eng, true, false, 131072, 256, cap, 0, NULL);
	uint64_t t_fill = r.wl[0].finished_ns;
	engine_result_free(&r);
	double c1 = cpu_s();
	r = run(eng, true, true, 4096, 256, 2 * size_of(eng, 4096), 0, NULL);
	double virt = (double)r.wl[0].measured_ns * 1e-9;
	engine_result_free(&r);
	double c2 = cpu_s();
	printf("two-pass fill of sn8100-2tb: %.2f s CPU for %.0f s of drive time (goal: a few seconds)\n",
	       c1 - c0, (double)t_fill * 1e-9);
	printf("2 drive-writes of random 4 KiB: %.2f s CPU for %.0f s of drive time (goal: under 60)\n",
	       c2 - c1, virt);
	engine_close(eng);
	return c1 - c0 < 5 && c2 - c1 < 60 ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "speed"))
		return speed();
	if (argc > 2 && !strcmp(argv[1], "tails")) {
		/* only the QD1 tail cells: they do not depend on capacity */
		scale = atof(argv[2]);
		tails_cells();
		printf("%d cells, %d off by more than 10 %%\n", cells, failures);
		return failures ? 1 : 0;
	}
	if (argc > 2 && !strcmp(argv[1], "map")) {
		scale = atof(argv[2]);
		map_cells();
		printf("%d cells, %d off by more than 10 %%\n", cells, failures);
		return failures ? 1 : 0;
	}
	if (argc > 1)
		scale = atof(argv[1]);
	if (!(scale > 0 && scale <= 1)) {
		fprintf(stderr, "usage: sim_accept [scale in (0,1]]\n");
		return 2;
	}
	printf("%-12s %-44s %10s %10s %-6s %7s\n", "drive", "metric", "target", "measured", "unit", "dev");
	clock_t c0 = clock();
	sn8100();
	micron();
	p4800x();
	pm1725();
	p1();
	map_cells();
	tails_cells();
	printf("%d cells, %d off by more than 10 %%; %.1f s of CPU\n", cells, failures,
	       (double)(clock() - c0) / CLOCKS_PER_SEC);
	return failures ? 1 : 0;
}
