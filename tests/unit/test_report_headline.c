/*
 * The headline table (sec_headline.c) of a run built by hand: a drive
 * simulated at 1 % of its capacity whose stored figures are the SN8100
 * review's, scaled where the capacity bounds them.  Each cell is checked
 * against text worked out by hand: units for reading, the full-size value
 * of a capacity-bound figure, a reason where a figure is absent, no
 * exponent.  And the note on top says what was scaled, from the run's
 * stored facts and record.
 */
#include "check.h"

#include <stdarg.h>
#include <stdlib.h>

#include "report/model.h"
#include "report/report.h"

static const struct { const char *key; double v; } figs[] = {
	{ "fill.pass1.total_s", 6 },
	{ "fill.pass1.has_slc_cache", 1 },
	{ "fill.pass1.slc_cache_gb", 6.78 },
	{ "fill.pass1.slc_speed_mbps", 14100 },
	{ "fill.pass1.level_count", 4 },
	{ "fill.pass1.level1.mbps", 3980 }, { "fill.pass1.level1.share", 0.13 },
	{ "fill.pass1.level2.mbps", 2120 }, { "fill.pass1.level2.share", 0.39 },
	{ "fill.pass1.level3.mbps", 1330 }, { "fill.pass1.level3.share", 0.34 },
	{ "fill.pass1.level4.mbps", 684 }, { "fill.pass1.level4.share", 0.12 },
	{ "fill.pass1.post_cache.mean_mbps", 1945 },
	{ "fill.pass2.total_s", 5 },
	{ "fill.pass2.has_slc_cache", 0 },
	{ "seq_precond.steady_reached", 0 },
	{ "seq_precond.drive_writes", 23 },
	{ "rnd_precond.steady_reached", 1 },
	{ "rnd_precond.steady_metric_iops", 1 },
	{ "rnd_precond.steady_iops", 38300 },
	{ "rnd_precond.steady_s", 231 },
	{ "rnd_precond.steady_drive_writes", 2.31 },
	{ "rnd_precond.bursts.count", 12 },
	{ "rnd_precond.bursts.period_s", 0.205 },
	{ "rnd_precond.bursts.duration_s", 0.0048 },
	{ "rnd_precond.bursts.height_iops", 125700 },
	{ "rnd_precond.bursts.gb", 0.015 },
	{ "peak.default.seq1m_q8t1.read.mbps", 14900 },
	{ "peak.default.seq1m_q8t1.write.mbps", 14000 },
	{ "rnd_sweeps.mix0.qd1.consistency_pct", 50 },
	{ "rnd_sweeps.mix0.qd4.consistency_pct", 80 },
	{ "rnd_sweeps.mix0.qd32.consistency_pct", 70.5 },
	{ "sync_write.mbps", 43.2 },
	{ "sync_write.iops", 10547 },
	{ "rw_ratio.score_mbps", 310 },
	{ "reclaim.rate_gbps", 1.46 },
	{ "reclaim.saturated", 1 },
	{ "reclaim.full_recovery_s", 2.4 },
	{ "reclaim.recovered_gb", 6.9 },
	{ "boot.score_iops", 457700 },
	{ "boot.score_readers", 256 },
	{ "boot.pass", 1 },
	{ "tail_latency.mix100.qd1.lat_p99_us", 41.1 },
	{ "tail_latency.mix100.qd1.lat_p99_99_us", 76.9 },
	{ "tail_latency.mix100.qd1.lat_p99_999_us", 130 },
	{ "tail_latency.mix0.qd1.lat_p99_us", 7.5 },
	{ "tail_latency.mix0.qd1.lat_p99_99_us", 1250 },
	{ "tail_latency.mix0.qd1.lat_p99_999_us", 1300 },
};

static const char *const steps[] = {
	"fill", "seq_precond", "rnd_precond", "peak", "rnd_sweeps",
	"sync_write", "rw_ratio", "reclaim", "boot", "tail_latency",
};

static char *text_dup(const char *s)
{
	char *d = malloc(strlen(s) + 1);
	strcpy(d, s);
	return d;
}

static void build(struct rpt_run *r)
{
	memset(r, 0, sizeof *r);
	snprintf(r->label, sizeof r->label, "WD_BLACK SN8100 2TB (simulated, scale 0.01)");
	snprintf(r->target, sizeof r->target, "sim:sn8100-2tb,scale=0.01");
	snprintf(r->kind, sizeof r->kind, "suite");
	snprintf(r->status, sizeof r->status, "done");
	r->capacity = 20000000000ull;
	r->facts_json = text_dup("{\"size\":20000000000,\"device\":{\"model\":\"WD_BLACK SN8100 2TB "
			    "(simulated, scale 0.01)\",\"scale\":0.01,\"scaled\":\"capacity-bound "
			    "quantities at 1 % of the real drive's\"}}");
	r->params_json = text_dup("{\"suite\":1,\"plan\":\"preset=full-scaled\\nsuite.scale=0.01\\n\","
			     "\"preset_note\":\"A miniature of the review.\"}");
	r->nsteps = sizeof steps / sizeof steps[0];
	r->steps = calloc(r->nsteps, sizeof *r->steps);
	for (size_t i = 0; i < r->nsteps; i++) {
		snprintf(r->steps[i].name, sizeof r->steps[i].name, "%s", steps[i]);
		if (!strcmp(steps[i], "boot"))
			r->steps[i].params_json = text_dup("{\"pass_iops\":\"60000\"}");
	}
	r->nmetrics = sizeof figs / sizeof figs[0];
	r->metrics = calloc(r->nmetrics, sizeof *r->metrics);
	for (size_t i = 0; i < r->nmetrics; i++) {
		snprintf(r->metrics[i].key, sizeof r->metrics[i].key, "%s", figs[i].key);
		r->metrics[i].value = figs[i].v;
	}
	/* Two of the four tail workloads: enough reads for p99.999, too few
	   writes (50000: fewer than one beyond 99.999 %). */
	r->nwl = 2;
	r->wl = calloc(2, sizeof *r->wl);
	snprintf(r->wl[0].step, sizeof r->wl[0].step, "tail_latency");
	snprintf(r->wl[0].name, sizeof r->wl[0].name, "mix=100 qd=1");
	r->wl[0].lat[0].count = r->wl[0].ios[0] = 400000;
	r->wl[0].measured_s = 10;
	snprintf(r->wl[1].step, sizeof r->wl[1].step, "tail_latency");
	snprintf(r->wl[1].name, sizeof r->wl[1].name, "mix=0 qd=1");
	r->wl[1].lat[1].count = r->wl[1].ios[1] = 50000;
	r->wl[1].measured_s = 10;
}

/* The headline row whose figure cell is `what`: its DUT cell, or "". */
static const char *cell(const char *html, const char *what, char *buf, size_t len)
{
	buf[0] = '\0';
	char needle[256];
	snprintf(needle, sizeof needle, "<td>%s</td>", what);
	const char *p = strstr(html, needle);
	if (!p)
		return buf;
	p = strstr(p + strlen(needle), "<td");
	const char *s = p ? strchr(p, '>') : NULL, *end = s ? strstr(s, "</td>") : NULL;
	if (s && end && (size_t)(end - s - 1) < len) {
		memcpy(buf, s + 1, (size_t)(end - s - 1));
		buf[end - s - 1] = '\0';
	}
	return buf;
}

#define CELL_IS(html, what, want) do {					\
	char b_[512];							\
	cell(html, what, b_, sizeof b_);				\
	if (strcmp(b_, want))						\
		CHECK_FAIL("%s: '%s', want '%s'", what, b_, want);	\
} while (0)

TEST(headline_cells_worked_out_by_hand)
{
	struct rpt_run r;
	build(&r);
	char dir[] = "/tmp/ssdbench-headline.XXXXXX";
	CHECK(mkdtemp(dir));
	struct report_opts o;
	report_opts_defaults(&o);
	o.out_dir = dir;
	struct sb_err e;
	CHECK(report_build(&r, 1, &o, NULL, &e) == 0);
	char path[600];
	snprintf(path, sizeof path, "%s/index.html", dir);
	FILE *f = fopen(path, "r");
	CHECK(f);
	static char html[1 << 20];
	size_t n = f ? fread(html, 1, sizeof html - 1, f) : 0;
	html[n] = '\0';
	if (f)
		fclose(f);

	CELL_IS(html, "Pass 1: SLC cache size",
		"6.78 GB, 33.9 % of the capacity (678 GB at full size)");
	CELL_IS(html, "Pass 1: SLC cache write speed", "14.1 GB/s");
	CELL_IS(html, "Pass 1: levels after the cache",
		"3980 MB/s (13.0 % of the time), 2120 MB/s (39.0 % of the time), "
		"1330 MB/s (34.0 % of the time), 684 MB/s (12.0 % of the time); "
		"mean 1945 MB/s");
	CELL_IS(html, "Pass 2: SLC cache size", "no cache found (no sustained drop)");
	/* the first steady-state row is SEQ's */
	CELL_IS(html, "Steady state: value, time and drive-writes to it",
		"not reached in 23.0 drive-writes");
	CHECK(strstr(html, "<td>38.3 k IOPS after 3 min 51 s and 2.31 drive-writes "
		      "(6 h 25 min at full size)</td>"));
	CELL_IS(html, "Bursts: period, length, height, size",
		"every 205 ms, 4.80 ms long, at 126 k IOPS, 15.0 MB each "
		"(every 20.5 s, 480 ms long, 1.50 GB each at full size)");
	CELL_IS(html, "SEQ1M Q8T1 read / write (default profile)", "14900 / 14000 MB/s");
	CELL_IS(html, "RND 4 KiB write (99.9 % value / mean)",
		"70.5 % at QD32, the lowest of 2 queue depths (QD1 left out)");
	CELL_IS(html, "SEQ 128 KiB read (99.9 % value / mean)", "not measured in this preset");
	CELL_IS(html, "RND 4 KiB QD1 with O_SYNC", "43.2 MB/s (10.5 k IOPS)");
	CELL_IS(html, "Weighted low-QD score (mixed read shares)", "310 MB/s");
	CELL_IS(html, "Recovery rate", "1.46 GB of cache per second of idle");
	CELL_IS(html, "Time to full recovery",
		"after 2.40 s of idle, 6.90 GB recovered (4 min 0 s, 690 GB at full size)");
	CELL_IS(html, "BootBench score, pass or fail",
		"458 k IOPS at 256 readers: pass (pass mark 60.0 k IOPS)");
	CELL_IS(html, "QD1 RND 4 KiB read: p99, p99.99, p99.999",
		"p99 41.1 µs, p99.99 76.9 µs, p99.999 130 µs");
	CELL_IS(html, "QD1 RND 4 KiB write: p99, p99.99, p99.999",
		"p99 7.50 µs, p99.99 1.25 ms, p99.999 too few I/Os");
	CELL_IS(html, "QD1 RND 4 KiB 70:30: p99, p99.99, p99.999", "not measured in this run");
	/* an absent figure is marked as such */
	CHECK(strstr(html, "<td class=\"absent\">not measured in this preset</td>"));
	/* what was scaled, from the facts and the record */
	CHECK(strstr(html, "How these runs were made"));
	CHECK(strstr(html, "preset full-scaled. A miniature of the review."));
	CHECK(strstr(html, "The drive is simulated with capacity-bound quantities at 1 % "
		      "of the real drive&#39;s.") ||
	      strstr(html, "The drive is simulated with capacity-bound quantities at 1 % "
		      "of the real drive's."));
	/* no exponent, no not-a-number, as a word */
	for (const char *q = html; (q = strstr(q, "nan")); q++)
		if (!((q > html && q[-1] >= 'a' && q[-1] <= 'z') || (q[3] >= 'a' && q[3] <= 'z')))
			CHECK_FAIL("nan at: %.60s", q > html + 20 ? q - 20 : html);
	CHECK(!strstr(html, "e+0"));
	rpt_run_free(&r);
	char cmd[700];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

CHECK_MAIN("report_headline")
