/*
 * The report of a full synthetic review (report_fixture.h) with two
 * comparison devices, one from the same database and one from another:
 * every chart the methodology lists is drawn, rendered and labelled, and
 * what the charts and headlines say matches the numbers put in.
 *
 * With SSDBENCH_REPORT_FIXTURE=DIR set, the databases and reports are
 * written into DIR and kept (the headless-browser test uses them).
 */
#include "check.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/json_scan.h"
#include "report/model.h"
#include "report/report.h"
#include "report_fixture.h"

static char root[512];
static bool keep;
static struct rpt_run runs[3];
static struct report_stats stats;
static bool ready;

static char *slurp_path(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	char *buf = malloc((size_t)n + 1);
	size_t got = fread(buf, 1, (size_t)n, f);
	buf[got] = '\0';
	fclose(f);
	return buf;
}

static char *slurp(const char *sub, const char *name)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s/%s", root, sub, name);
	return slurp_path(path);
}

static const char datasheet[] =
	"# a made-up product brief\n"
	"[spec]\n"
	"model = Synthetic DUT\n"
	"tolerance_pct = 5\n"
	"rnd_read_iops = 350000   ; measured 367583 at QD64: pass\n"
	"rnd_write_iops = 100000  ; measured 40000: fail\n"
	"qos_read_qd1_p99_us = 500 ; the tail histogram's p99 is ~88 us\n"
	"; the hardware, for the device summary's calculations\n"
	"raw_nand_gb = 2200\n"
	"dram_mib = 2048\n"
	"plp_capacitors = 8\n"
	"plp_capacitor_uf = 270\n"
	"plp_capacitor_v = 35\n"
	"power_w = 25\n";

/* Build the databases once, load the runs, write both reports. */
static bool setup(void)
{
	if (ready)
		return true;
	const char *env = getenv("SSDBENCH_REPORT_FIXTURE");
	if (env && *env) {
		snprintf(root, sizeof(root), "%s", env);
		mkdir(root, 0755);
		keep = true;
	} else {
		snprintf(root, sizeof(root), "/tmp/ssdbench-report.XXXXXX");
		if (!mkdtemp(root))
			return false;
	}
	char main_db[600], other_db[600], ds[600];
	snprintf(main_db, sizeof(main_db), "%s/main.db", root);
	snprintf(other_db, sizeof(other_db), "%s/other.db", root);
	snprintf(ds, sizeof(ds), "%s/datasheet.ini", root);
	unlink(main_db);
	unlink(other_db);
	struct sb_err e;
	struct store *s;
	if (store_open(main_db, &s, &e)) {
		CHECK_FAIL("%s", e.msg);
		return false;
	}
	int64_t dut = fx_suite_run(s, "sim:dut", 1.0);
	int64_t slow = fx_suite_run(s, "sim:slow", 0.6);
	store_close(s);
	if (store_open(other_db, &s, &e)) {
		CHECK_FAIL("%s", e.msg);
		return false;
	}
	int64_t fast = fx_suite_run(s, "sim:fast", 1.4);
	store_close(s);
	FILE *f = fopen(ds, "w");
	fputs(datasheet, f);
	fclose(f);

	if (rpt_run_load(&runs[0], main_db, dut, &e) ||
	    rpt_run_load(&runs[1], main_db, slow, &e) ||
	    rpt_run_load(&runs[2], other_db, fast, &e)) {
		CHECK_FAIL("load: %s", e.msg);
		return false;
	}
	rpt_labels_unique(runs, 3);

	struct report_opts o;
	char out[600], out_mib[600];
	snprintf(out, sizeof(out), "%s/out", root);
	snprintf(out_mib, sizeof(out_mib), "%s/out-mib", root);
	report_opts_defaults(&o);
	o.out_dir = out;
	o.datasheet = ds;
	o.clip_time_s = 20;
	if (report_build(runs, 3, &o, &stats, &e)) {
		CHECK_FAIL("report: %s", e.msg);
		return false;
	}
	report_opts_defaults(&o);
	o.out_dir = out_mib;
	o.mib = true;
	struct report_stats st2;
	if (report_build(runs, 3, &o, &st2, &e)) {
		CHECK_FAIL("report (MiB): %s", e.msg);
		return false;
	}
	ready = true;
	return true;
}

/* The chart whose name contains `part`; its stem in buf. */
static bool find_chart(const char *sub, const char *part, char *buf,
		       size_t len)
{
	char path[700];
	snprintf(path, sizeof(path), "%s/%s", root, sub);
	DIR *d = opendir(path);
	if (!d)
		return false;
	bool found = false;
	for (struct dirent *de; !found && (de = readdir(d));) {
		size_t n = strlen(de->d_name);
		if (n > 3 && !strcmp(de->d_name + n - 3, ".gp") &&
		    strstr(de->d_name, part)) {
			snprintf(buf, len, "%.*s", (int)(n - 3), de->d_name);
			found = true;
		}
	}
	closedir(d);
	return found;
}

static char *chart_file(const char *sub, const char *part, const char *ext)
{
	char stem[256], name[300];
	if (!find_chart(sub, part, stem, sizeof(stem)))
		return NULL;
	snprintf(name, sizeof(name), "%s.%s", stem, ext);
	return slurp(sub, name);
}

static long fsize(const char *sub, const char *name)
{
	char path[1024];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s/%s", root, sub, name);
	return stat(path, &st) ? -1 : (long)st.st_size;
}

/* The quoted value of `set LABEL "..."` in a script, or "" if absent. */
static void gp_label(const char *gp, const char *which, char *buf, size_t len)
{
	char key[32];
	buf[0] = '\0';
	snprintf(key, sizeof(key), "set %s '", which);
	const char *p = strstr(gp, key);
	if (!p)
		return;
	p += strlen(key);
	size_t n = 0;
	while (p[n] && p[n] != '\'' && n + 1 < len)
		n++;
	memcpy(buf, p, n);
	buf[n] = '\0';
}

TEST(every_chart_rendered_with_labelled_axes)
{
	CHECK(setup());
	char path[700];
	snprintf(path, sizeof(path), "%s/out", root);
	DIR *d = opendir(path);
	CHECK(d != NULL);
	size_t charts = 0;
	for (struct dirent *de; d && (de = readdir(d));) {
		size_t n = strlen(de->d_name);
		if (n < 4 || strcmp(de->d_name + n - 3, ".gp"))
			continue;
		charts++;
		char stem[256], name[300], xl[200], yl[200];
		snprintf(stem, sizeof(stem), "%.*s", (int)(n - 3), de->d_name);
		char *gp = slurp("out", de->d_name);
		gp_label(gp, "xlabel", xl, sizeof(xl));
		gp_label(gp, "ylabel", yl, sizeof(yl));
		if (!xl[0] || !yl[0])
			CHECK_FAIL("%s: axis without a label", stem);
		snprintf(name, sizeof(name), "%s.png", stem);
		if (fsize("out", name) < 2000)
			CHECK_FAIL("%s: PNG missing or tiny", name);
		snprintf(name, sizeof(name), "%s.dat", stem);
		if (fsize("out", name) < 50)
			CHECK_FAIL("%s: no data", name);
		snprintf(name, sizeof(name), "%s.svg", stem);
		char *svg = slurp("out", name);
		if (!svg || !strstr(svg, "<svg"))
			CHECK_FAIL("%s: not an SVG", name);
		else if (!strstr(svg, yl) || !strstr(svg, xl))
			CHECK_FAIL("%s: axis labels not drawn", name);
		free(svg);
		free(gp);
	}
	if (d)
		closedir(d);
	CHECK_EQ_U64(charts, stats.charts);
	/* peak 2 (profiles), fill 2 x 7 + 1 (overlays 3, the DUT's levels,
	   mean, minimum, averages), active range 1, sync 1, R/W ratio 5,
	   reclaim 4, SEQ preconditioning 4 + maximum latency, RND
	   preconditioning 4 full + 2 time-clipped + 1 latency-clipped + 1
	   faint + maximum latency, sweeps 2 x 6 (2-in-1 x 2, consistency
	   100 ms and 1 s, QoS, QoS of every device), tail 2 + burst vs
	   steady, boot 1 */
	CHECK_EQ_U64(charts, 58);
	char *html = slurp("out", "index.html");
	size_t imgs = 0;
	for (const char *p = html; (p = strstr(p, "<img src=\"")); p++)
		imgs++;
	CHECK_EQ_U64(imgs, stats.charts);
	free(html);
}

TEST(every_methodology_chart_is_there)
{
	CHECK(setup());
	static const char *const parts[] = {
		"fill-pass1-bw-written", "fill-pass1-bw-time",
		"fill-pass1-lat-time", "fill-pass2-bw-written",
		"fill-pass1-mean", "fill-pass1-p1",
		"active_range-iops-span", "sync_write-sync",
		"rw_ratio-per-qd-0", "rw_ratio-per-qd-2", "rw_ratio-weighted",
		"rw_ratio-score", "reclaim-written-per-idle",
		"reclaim-written-time-per-idle", "reclaim-written-time-compare",
		"reclaim-bw-per-idle", "peak-default", "peak-nvme", "seq_precond-precond-time",
		"seq_precond-precond-dw", "seq_precond-precond-lat-time",
		"seq_precond-precond-lat-dw",
		"rnd_sweeps-RND_4_KiB_read-2in1.gp",
		"rnd_sweeps-RND_4_KiB_read-2in1-all",
		"rnd_sweeps-RND_4_KiB_write-2in1.gp",
		"rnd_sweeps-RND_4_KiB_read-consistency.gp",
		"rnd_sweeps-RND_4_KiB_read-consistency-1s.gp",
		"rnd_sweeps-RND_4_KiB_write-qos.gp",
		"rnd_sweeps-RND_4_KiB_write-qos-p9999.gp",
		"tail_latency-mix_100_qd_1-nines", "tail_latency-mix_0_qd_1-nines",
		"boot-score",
	};
	/* Each workload drawn once: no pass 3 of a two-pass fill. */
	char none[256];
	CHECK(!find_chart("out", "fill-pass3", none, sizeof(none)));
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		char stem[256];
		if (!find_chart("out", parts[i], stem, sizeof(stem)))
			CHECK_FAIL("no chart named like %s", parts[i]);
	}
}

/* Rows "label<TAB>value" of a one-series bar chart, in file order. */
static int bar_rows(const char *dat, char labels[][64], double *v, int max)
{
	int n = 0;
	for (const char *p = dat; *p && n < max;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		if (p[0] == '"') {
			const char *q = strchr(p + 1, '"');
			snprintf(labels[n], 64, "%.*s", (int)(q - p - 1), p + 1);
			v[n] = strtod(q + 1, NULL);
			n++;
		}
		p += len + (eol ? 1 : 0);
	}
	return n;
}

static void check_ranking(const char *part, double dut, double tol)
{
	char *dat = chart_file("out", part, "dat");
	char l[8][64];
	double v[8];
	CHECK(dat != NULL);
	if (!dat)
		return;
	int n = bar_rows(dat, l, v, 8);
	CHECK(n == 3);
	CHECK_EQ_STR(l[0], "sim:fast");
	CHECK_EQ_STR(l[1], "sim:dut");
	CHECK_EQ_STR(l[2], "sim:slow");
	CHECK_REL(v[0], dut * 1.4, tol);
	CHECK_REL(v[1], dut, tol);
	CHECK_REL(v[2], dut * 0.6, tol);
	free(dat);
}

TEST(rankings_sorted_with_known_values)
{
	CHECK(setup());
	/* Fill pass 1: 200 x 5000 and 400 x 1500 MB/s, mean 2666.67. */
	check_ranking("fill-pass1-mean", (200 * 5000.0 + 400 * 1500.0) / 600,
		      1e-6);
	/* 1st percentile: the low level's lower ripple, 1500 x 0.99. */
	check_ranking("fill-pass1-p1", 1485, 1e-6);
	check_ranking("sync_write-sync", 40, 1e-6);
	/* Weighted at 50 % read: .8(150+20) + .15(150+40) + .05(150+80). */
	check_ranking("rw_ratio-score", 176, 1e-6);
	check_ranking("boot-score", 80000, 1e-9);
	char *gp = chart_file("out", "boot-score", "gp");
	CHECK(gp && strstr(gp, "first 60000"));
	free(gp);
}

TEST(fill_overlay_points_exact)
{
	CHECK(setup());
	char *dat = chart_file("out", "fill-pass1-bw-written", "dat");
	CHECK(dat != NULL);
	if (!dat)
		return;
	/* Block 0 is the DUT: x = GB written so far, y = MB/s. */
	double x1, y1, x2, y2;
	const char *p = strstr(dat, "# index 0");
	p = p ? strchr(p, '\n') : NULL;
	CHECK(p && sscanf(p, "%lf %lf %lf %lf", &x1, &y1, &x2, &y2) == 4);
	CHECK_REL(x1, 0.495, 1e-9);	/* 4950 MB/s for 0.1 s */
	CHECK_REL(y1, 4950, 1e-9);
	CHECK_REL(x2, 0.495 + 0.505, 1e-9);
	CHECK_REL(y2, 5050, 1e-9);
	CHECK(strstr(dat, "# index 2: \"sim:fast\""));
	free(dat);
	char *gp = chart_file("out", "fill-pass1-bw-written", "gp");
	CHECK(gp && strstr(gp, "set xlabel 'Written (GB)'"));
	CHECK(gp && strstr(gp, "set ylabel 'Bandwidth (MB/s)'"));
	free(gp);
	/* The MiB/s report divides by 2^20 and labels so. */
	dat = chart_file("out-mib", "fill-pass1-mean", "dat");
	char l[8][64];
	double v[8];
	CHECK(dat && bar_rows(dat, l, v, 8) == 3);
	CHECK_REL(v[1], 2666.6666666 * 1e6 / 1048576, 1e-6);
	free(dat);
	gp = chart_file("out-mib", "fill-pass1-bw-time", "gp");
	CHECK(gp && strstr(gp, "Bandwidth (MiB/s)"));
	free(gp);
}

TEST(headline_from_the_fill_analysis)
{
	CHECK(setup());
	char *html = slurp("out", "index.html");
	const char *p = html ? strstr(html, "Pass 1: SLC cache ") : NULL;
	CHECK(p != NULL);
	if (p) {
		double gb = strtod(p + strlen("Pass 1: SLC cache "), NULL);
		CHECK_REL(gb, 100, 0.03);
	}
	CHECK(html && strstr(html, "Weighted low-QD score (mean over the mixed "
			     "ratios): 176 MB/s."));
	CHECK(html && strstr(html, "Score 80.0 k IOPS: passes the 60.0 k IOPS read pass mark."));
	/* The OCP pass mark is not called lowered. */
	CHECK(html && !strstr(html, "lowers the pass mark"));
	CHECK(html && strstr(html, "1st percentile 1485 MB/s, minimum 1485 MB/s"));
	/* Quoted from the suite's findings, not re-derived. */
	CHECK(html && strstr(html, "Steady state (fio slope rule: bandwidth, 30 s "
			     "window of 1 s samples, limit 10 %) after 25 s, "
			     "0.03 drive writes, at 2000 MB/s. No recurring "
			     "bursts."));
	free(html);
}

TEST(reclaim_written_per_idle)
{
	CHECK(setup());
	char *dat = chart_file("out", "reclaim-written-per-idle", "dat");
	CHECK(dat != NULL);
	if (!dat)
		return;
	static const int idles[] = { 5, 30, 120 };
	for (int i = 0; i < 3; i++) {
		double v[600];
		size_t hi = (size_t)(idles[i] < 50 ? idles[i] : 50) * 2;
		size_t n = fx_two_level(v, hi, 5000, 600 - hi, 1500);
		double gb = 0;
		for (size_t k = 0; k < n; k++)
			gb += (double)llround(v[k] * FX_MB / 10) / 1e9;
		char row[32];
		snprintf(row, sizeof(row), "\"%ds\"\t", idles[i]);
		const char *p = strstr(dat, row);
		CHECK(p != NULL);
		if (p)
			CHECK_REL(strtod(p + strlen(row), NULL), gb, 1e-9);
	}
	free(dat);
}

static double max_y(const char *dat)
{
	double m = 0;
	for (const char *p = dat; *p;) {
		const char *eol = strchr(p, '\n');
		double x, y;
		if (p[0] != '#' && sscanf(p, "%lf %lf", &x, &y) == 2 && y > m)
			m = y;
		if (!eol)
			break;
		p = eol + 1;
	}
	return m;
}

TEST(two_in_one_drops_points_over_1ms)
{
	CHECK(setup());
	char stem[256];
	CHECK(find_chart("out", "RND_4_KiB_write-2in1-all", stem, sizeof(stem)));
	char *all = chart_file("out", "RND_4_KiB_write-2in1-all", "dat");
	char *gp = chart_file("out", "RND_4_KiB_write-2in1-all", "gp");
	CHECK(all && max_y(all) > 1000);	/* write QD64: 1.6 ms */
	CHECK(gp && strstr(gp, "set logscale y 10"));
	free(all);
	free(gp);
	/* The clipped chart is the one whose name ends in -2in1. */
	char path[700];
	snprintf(path, sizeof(path), "%s/out", root);
	DIR *d = opendir(path);
	bool seen = false;
	for (struct dirent *de; d && (de = readdir(d));) {
		if (!strstr(de->d_name, "RND_4_KiB_write-2in1.dat"))
			continue;
		seen = true;
		char *dat = slurp("out", de->d_name);
		CHECK(dat && max_y(dat) > 0 && max_y(dat) <= 1000);
		free(dat);
	}
	if (d)
		closedir(d);
	CHECK(seen);
}

TEST(consistency_fixed_scale_and_value)
{
	CHECK(setup());
	char *gp = chart_file("out", "RND_4_KiB_read-consistency.gp", "gp");
	char *dat = chart_file("out", "RND_4_KiB_read-consistency.gp", "dat");
	CHECK(gp && strstr(gp, "set yrange [0:110]"));
	/* Samples alternate at 0.98 and 1.02 of the mean: 98 %. */
	double x, y;
	const char *p = dat ? strstr(dat, "# index 0") : NULL;
	p = p ? strchr(p, '\n') : NULL;
	CHECK(p && sscanf(p, "%lf %lf", &x, &y) == 2);
	/* RND QD1 is the tail-latency step's (METHODOLOGY 4.3): QD4 first */
	CHECK(x == 4);
	CHECK_REL(y, 98, 1e-3);
	free(gp);
	free(dat);
}

/* The points of block `index` of an x/y data file; returns how many. */
static int dat_block(const char *dat, int index, double *x, double *y,
		     int max)
{
	char head[32];
	snprintf(head, sizeof(head), "# index %d:", index);
	const char *p = dat ? strstr(dat, head) : NULL;
	p = p ? strchr(p, '\n') : NULL;
	int n = 0;
	while (p && *++p && *p != '\n' && *p != '#' && n < max) {
		if (sscanf(p, "%lf %lf", &x[n], &y[n]) != 2)
			break;
		n++;
		p = strchr(p, '\n');
	}
	return n;
}

TEST(consistency_from_1s_samples)
{
	CHECK(setup());
	char *gp = chart_file("out", "RND_4_KiB_read-consistency-1s.gp", "gp");
	char *dat = chart_file("out", "RND_4_KiB_read-consistency-1s.gp", "dat");
	CHECK(gp && strstr(gp, "set yrange [0:110]"));
	CHECK(gp && strstr(gp, "1 s interval"));
	CHECK(gp && strstr(gp, "set ylabel 'Consistency, 1 s samples (%)'"));
	/* 20 samples alternating 0.98 / 1.02 of the mean: each 1 s group of
	   ten averages exactly the mean, so 100 %, where 100 ms gives 98 %. */
	double x[8], y[8];
	int n = dat_block(dat, 0, x, y, 8);
	CHECK(n == 3);		/* QD 4, 16, 64: RND QD1 is left out */
	for (int i = 0; i < n; i++)
		CHECK_REL(y[i], 100, 1e-3);
	CHECK(n && x[0] == 4 && x[n - 1] == 64);
	free(gp);
	free(dat);
}

/* I/Os of a fixture sweep point, as fx_put stores them. */
static uint64_t sweep_ios(int read, int qd, double sc)
{
	double iops = fx_sweep_iops(read, qd, sc);
	uint64_t ios = 0;
	for (int k = 0; k < 20; k++)
		ios += (uint64_t)llround(iops * 4096 / FX_MB * (k % 2 ? 1.02 : 0.98)
					 * FX_MB / 10) / 4096;
	return ios;
}

/* The fixture's sweep latencies: fx_hist of up to 20000 I/Os around
   QD / IOPS; NaN where the count does not support percentile p. */
static double sweep_lat(int read, int qd, double sc, double p)
{
	uint64_t n = sweep_ios(read, qd, sc);
	if (n > 20000)
		n = 20000;
	if ((double)n * (1 - p / 100) < 1)
		return NAN;
	struct lat_hist *h = hist_new();
	fx_hist(h, n, qd / fx_sweep_iops(read, qd, sc) * 1e6);
	double v = (double)hist_percentile(h, p) / 1000;
	hist_free(h);
	return v;
}

TEST(qos_per_qd_from_histograms)
{
	CHECK(setup());
	char *gp = chart_file("out", "RND_4_KiB_read-qos.gp", "gp");
	char *dat = chart_file("out", "RND_4_KiB_read-qos.gp", "dat");
	CHECK(gp && strstr(gp, "set logscale y 10"));
	CHECK(gp && strstr(gp, "set logscale x 10"));
	CHECK(gp && strstr(gp, "set ylabel 'Latency (µs)'"));
	CHECK(gp && strstr(gp, "title '99.99 %'"));
	static const double pct[] = { 99, 99.9, 99.99, 99.999, 99.9999 };
	static const int qds[] = { 1, 4, 16, 64 };
	for (int s = 0; s < 5; s++) {
		double x[8], y[8];
		int n = dat_block(dat, s, x, y, 8);
		/* 20000 I/Os per point: up to 99.99 %, not 99.999 %. */
		CHECK(n == (s < 3 ? 4 : 0));
		for (int i = 0; i < n; i++) {
			CHECK(x[i] == qds[i]);
			CHECK_REL(y[i], sweep_lat(1, qds[i], 1.0, pct[s]), 1e-9);
		}
	}
	free(gp);
	free(dat);
	/* The sentence under the chart: 99.99 % at the lowest and highest QD
	   (both under 1 ms here, so printed as "%.3g µs"). */
	double l1 = sweep_lat(1, 1, 1.0, 99.99), l64 = sweep_lat(1, 64, 1.0, 99.99);
	CHECK(l1 < 1000 && l64 < 1000);
	char line[160];
	snprintf(line, sizeof(line), "RND 4 KiB read, 99.99 %% latency: %.3g µs "
		 "at QD1, %.3g µs at QD64.", l1, l64);
	char *html = slurp("out", "index.html");
	if (!html || !strstr(html, line))
		CHECK_FAIL("no sentence '%s'", line);
	free(html);
	/* Every device at 99.99 %, in run order (dut, slow, fast); a point
	   with fewer than 10^4 I/Os has no 99.99 % (slow's write at QD1:
	   3000 IOPS for 2 s). */
	dat = chart_file("out", "RND_4_KiB_write-qos-p9999.gp", "dat");
	static const double sc[] = { 1.0, 0.6, 1.4 };
	for (int r = 0; r < 3; r++) {
		double x[8], y[8], want[4];
		int n = dat_block(dat, r, x, y, 8), m = 0;
		for (int i = 0; i < 4; i++)
			if (isfinite(sweep_lat(0, qds[i], sc[r], 99.99)))
				want[m++] = qds[i];
		CHECK(n == m);
		CHECK(r != 1 || m == 3);
		for (int i = 0; i < n && n == m; i++) {
			CHECK(x[i] == want[i]);
			CHECK_REL(y[i], sweep_lat(0, (int)x[i], sc[r], 99.99),
				  1e-9);
		}
	}
	free(dat);
}

TEST(reclaim_written_vs_time)
{
	CHECK(setup());
	char *dat = chart_file("out", "reclaim-written-time-per-idle", "dat");
	char *gp = chart_file("out", "reclaim-written-time-per-idle", "gp");
	CHECK(gp && strstr(gp, "set xlabel 'Time into the timed write (s)'"));
	CHECK(gp && strstr(gp, "set ylabel 'Written (GB)'"));
	CHECK(gp && strstr(gp, "title 'idle 120s'"));
	static const int idles[] = { 5, 30, 120 };
	double gb[3];
	for (int i = 0; i < 3; i++) {
		double v[600];
		size_t hi = (size_t)(idles[i] < 50 ? idles[i] : 50) * 2;
		size_t n = fx_two_level(v, hi, 5000, 600 - hi, 1500);
		gb[i] = 0;
		for (size_t k = 0; k < n; k++)
			gb[i] += (double)llround(v[k] * FX_MB / 10) / 1e9;
		static double x[700], y[700];
		int m = dat_block(dat, i, x, y, 700);
		/* From (0, 0), one point per 100 ms, ending at the total. */
		CHECK(m == 601);
		CHECK(m && x[0] == 0 && y[0] == 0);
		CHECK(m == 601 && fabs(x[600] - 60) < 1e-9);
		CHECK(m == 601 && fabs(y[600] - gb[i]) < 1e-9 * gb[i]);
		/* At cache speed first: 5000 MB/s x 0.1 s = 0.5 GB per point. */
		CHECK(m > 1 && fabs(y[1] - 0.495) < 1e-9);
	}
	free(dat);
	free(gp);
	/* Every device after the longest idle all of them ran (120 s). */
	dat = chart_file("out", "reclaim-written-time-compare", "dat");
	CHECK(dat && strstr(dat, "after idle 120s, every device"));
	static const double sc[] = { 1.0, 0.6, 1.4 };
	for (int r = 0; r < 3; r++) {
		static double x[700], y[700];
		int m = dat_block(dat, r, x, y, 700);
		CHECK(m == 601);
		if (m == 601)
			CHECK_REL(y[600], gb[2] * sc[r], 1e-6);
	}
	free(dat);
}

TEST(peak_bars_read_and_write_per_test)
{
	CHECK(setup());
	char *dat = chart_file("out", "peak-default", "dat");
	char *gp = chart_file("out", "peak-default", "gp");
	CHECK(gp && strstr(gp, "set ylabel 'Bandwidth (MB/s)'"));
	CHECK(gp && strstr(gp, "set xlabel 'Test'"));
	/* CrystalDiskMark's order, read before write; devices in run order. */
	static const char *const rows[] = {
		"\"SEQ1M Q8T1 read\"\t7000\t4200\t9800\n",
		"\"SEQ1M Q8T1 write\"\t6000\t3600\t8400\n",
		"\"RND4K Q1T1 read\"\t80\t48\t112\n",
		"\"RND4K Q1T1 write\"\t200\t120\t280\n",
	};
	const char *prev = dat;
	for (size_t i = 0; i < 4; i++) {
		const char *p = dat ? strstr(dat, rows[i]) : NULL;
		if (!p)
			CHECK_FAIL("peak-default: no row %s", rows[i]);
		else if (p < prev)
			CHECK_FAIL("peak-default: row %s out of order", rows[i]);
		else
			prev = p;
	}
	CHECK(dat && !strstr(dat, "7100"));	/* nvme has its own chart */
	free(dat);
	free(gp);
	dat = chart_file("out", "peak-nvme", "dat");
	CHECK(dat && strstr(dat, "\"SEQ1M Q8T1 read\"\t7100\t4260\t9940\n"));
	free(dat);
	/* --mib: the same bars in MiB/s. */
	dat = chart_file("out-mib", "peak-default", "dat");
	char row[64];
	snprintf(row, sizeof(row), "\"SEQ1M Q8T1 read\"\t%.10g\t",
		 7000 * 1e6 / 1048576);
	CHECK(dat && strstr(dat, row));
	free(dat);
}

TEST(nines_chart_is_the_histogram)
{
	CHECK(setup());
	char *dat = chart_file("out", "tail_latency-mix_100_qd_1-nines", "dat");
	char *gp = chart_file("out", "tail_latency-mix_100_qd_1-nines", "gp");
	CHECK(dat && gp);
	if (!dat || !gp)
		return;
	CHECK(strstr(gp, "set xrange [0.999999999:10000.00001]"));
	CHECK(strstr(gp, "set logscale x 10"));
	CHECK(strstr(gp, "sim:dut read (12.0 k IOPS)"));
	/* 12000 IOPS for 30 s: 360000 latencies in the histogram. */
	const uint64_t n = 360000;
	struct lat_hist *h = hist_new();
	fx_hist(h, n, 80);
	const char *p = strstr(dat, "# index 0");
	p = p ? strchr(p, '\n') + 1 : dat;
	int i = 0, bad = 0;
	for (; *p && *p != '\n'; i++) {
		double x, y;
		if (sscanf(p, "%lf %lf", &x, &y) != 2)
			break;
		/* i / 50 nines; the first point is the minimum, 1 of n */
		double want_p = i ? 100 * (1 - pow(10, -i / 50.0)) : 100.0 / (double)n;
		double want_x = i ? (double)hist_percentile(h, want_p) / 1000
				  : (double)h->min / 1000;
		if (fabs(y - want_p) > 1e-9 * 100 ||
		    fabs(x - want_x) > 1e-9 * want_x)
			bad++;
		p = strchr(p, '\n') + 1;
	}
	CHECK(bad == 0);
	/* 360000 I/Os support 5.56 nines: no point past 99.9997 %. */
	CHECK(i == (int)floor(log10((double)n) * RPT_GRID_STEPS) + 1);
	CHECK(i < RPT_CURVE_MAX);
	hist_free(h);
	free(dat);
	free(gp);
}

/*
 * Percentiles in tables are the histogram's exact rank: 1000 latencies of
 * 1, 2 ... 1000 ns (exact buckets below 1024 ns) have p50 = 500 ns, the
 * 500th by a sort; a grid point at 49.88 % would give 499.
 */
TEST(table_percentiles_are_exact_ranks)
{
	struct lat_hist *h = hist_new();
	for (uint64_t v = 1; v <= 1000; v++)
		hist_add(h, v);
	struct rpt_lat l;
	rpt_lat_from_hist(&l, h);
	CHECK(rpt_lat_at(&l, 50) * 1000 == 500);
	CHECK(rpt_lat_at(&l, 90) * 1000 == 900);
	CHECK(rpt_lat_at(&l, 100) * 1000 == 1000);
	CHECK(rpt_lat_at(&l, 0) * 1000 == 1);
	hist_free(h);
}

TEST(datasheet_pass_and_fail)
{
	CHECK(setup());
	char *html = slurp("out", "index.html");
	const char *t = html ? strstr(html, "id=\"datasheet\"") : NULL;
	CHECK(t != NULL);
	if (!t) {
		free(html);
		return;
	}
	const char *r = strstr(t, "rnd_read_iops");
	const char *w = strstr(t, "rnd_write_iops");
	const char *q = strstr(t, "qos_read_qd1_p99_us");
	CHECK(r && w && q);
	if (r && w && q) {
		const char *rp = strstr(r, "class=\"pass\"");
		const char *wf = strstr(w, "class=\"fail\"");
		const char *qp = strstr(q, "class=\"pass\"");
		CHECK(rp && rp < w);
		CHECK(wf && wf < q);
		CHECK(qp != NULL);
	}
	CHECK(strstr(html, "2 of 3 measured datasheet figures pass"));
	free(html);
}

TEST(datasheet_errors_say_where)
{
	char path[600];
	CHECK(setup());
	snprintf(path, sizeof(path), "%s/bad.ini", root);
	FILE *f = fopen(path, "w");
	fputs("[spec]\nseq_read_mbps = 7000\nwarp_speed = 9\n", f);
	fclose(f);
	struct report_opts o;
	struct sb_err e;
	char out[600];
	snprintf(out, sizeof(out), "%s/out-bad", root);
	report_opts_defaults(&o);
	o.out_dir = out;
	o.datasheet = path;
	CHECK(report_build(runs, 1, &o, NULL, &e) == -1);
	CHECK(strstr(e.msg, "bad.ini:3"));
	CHECK(strstr(e.msg, "warp_speed"));
	f = fopen(path, "w");
	fputs("seq_read_mbps = fast\n", f);
	fclose(f);
	CHECK(report_build(runs, 1, &o, NULL, &e) == -1);
	CHECK(strstr(e.msg, "bad.ini:1") && strstr(e.msg, "'fast'"));
}

TEST(tables_of_platform_and_devices)
{
	CHECK(setup());
	char *html = slurp("out", "index.html");
	CHECK(html && strstr(html, "<td>Test CPU</td>"));
	CHECK(html && strstr(html, "<td>0.1.0</td>"));
	CHECK(html && strstr(html, "<td>n/a (simulated)</td>"));
	CHECK(html && strstr(html, "<td>2.00 TB (2000000000000 bytes)</td>"));
	/* The stored figures: a linked JSON file, not a thousand rows. */
	CHECK(html && strstr(html, "<a href=\"findings-1.json\">"));
	CHECK(html && !strstr(html, "purge.purge_method"));
	char *fj = slurp("out", "findings-1.json");
	CHECK(fj && strstr(fj, "\"purge.purge_method\""));
	free(fj);
	/* Standard deviations and QoS per QD of the sweeps. */
	CHECK(html && strstr(html, "Std dev (100 ms)"));
	CHECK(html && strstr(html, "p99.9999"));
	/* Percentiles with fewer than one I/O beyond them (the sweeps' short
	   points at 99.9999 %) are marked as the max, and the mark explained. */
	CHECK(html && strstr(html, ">= max<"));
	CHECK(html && strstr(html, "fewer than one I/O beyond it"));
	free(html);
}

/* Is there a number in exponent form ("1.1e+06", "2E5") in `s`? */
static bool has_exponent(const char *s, size_t n)
{
	for (size_t i = 1; i + 1 < n; i++) {
		if ((s[i] != 'e' && s[i] != 'E') ||
		    !((s[i - 1] >= '0' && s[i - 1] <= '9') || s[i - 1] == '.'))
			continue;
		size_t j = i + 1;
		if (s[j] == '+' || s[j] == '-')
			j++;
		if (j < n && s[j] >= '0' && s[j] <= '9')
			return true;
	}
	return false;
}

/* Every text node of every SVG in `sub` (ticks, bar values, legends). */
static size_t svg_exponents(const char *sub, size_t *texts)
{
	char path[700];
	snprintf(path, sizeof(path), "%s/%s", root, sub);
	DIR *d = opendir(path);
	size_t bad = 0;
	for (struct dirent *de; d && (de = readdir(d));) {
		size_t n = strlen(de->d_name);
		if (n < 5 || strcmp(de->d_name + n - 4, ".svg"))
			continue;
		char *svg = slurp(sub, de->d_name);
		for (const char *p = svg; p && (p = strchr(p, '>'));) {
			const char *q = strchr(++p, '<');
			if (!q)
				break;
			size_t len = (size_t)(q - p);
			if (len && strspn(p, " \t\n") < len) {
				(*texts)++;
				if (has_exponent(p, len)) {
					CHECK_FAIL("%s/%s: '%.*s'", sub, de->d_name,
						   (int)len, p);
					bad++;
				}
			}
			p = q;
		}
		free(svg);
	}
	if (d)
		closedir(d);
	return bad;
}

TEST(no_number_on_any_chart_in_scientific_notation)
{
	CHECK(setup());
	size_t texts = 0;
	CHECK(svg_exponents("out", &texts) == 0);
	CHECK(svg_exponents("out-mib", &texts) == 0);
	CHECK(texts > 1000);	/* the scan read the charts' texts */
	/* 500000 IOPS and more (the active range) read as k on the axis */
	char *svg = chart_file("out", "active_range-iops-span", "svg");
	CHECK(svg && strstr(svg, "600k"));
	free(svg);
}

/* The x of every `set arrow` in a script: horizontal (`from graph 0,
   first V`) or vertical (`from first V, graph 0`). */
static int arrows(const char *gp, bool vertical, double *v, int max)
{
	const char *key = vertical ? "set arrow from first " :
				     "set arrow from graph 0, first ";
	int n = 0;
	for (const char *p = gp; p && n < max && (p = strstr(p, key)); p++)
		if (sscanf(p + strlen(key), "%lf", &v[n]) == 1)
			n++;
	return n;
}

TEST(fill_levels_marked_on_the_dut_alone)
{
	CHECK(setup());
	char *gp = chart_file("out", "fill-pass1-levels", "gp");
	char *dat = chart_file("out", "fill-pass1-levels", "dat");
	CHECK(gp && dat);
	if (!gp || !dat)
		return;
	/* the DUT alone: one block */
	CHECK(strstr(dat, "# index 0: \"sim:dut\""));
	CHECK(!strstr(dat, "# index 1:"));
	/* Fixture truth: 200 samples at 5000 MB/s (100 GB), then 1500. */
	double h[16], vx[16];
	int nh = arrows(gp, false, h, 16), nv = arrows(gp, true, vx, 16);
	bool cache = false, level = false;
	for (int i = 0; i < nh; i++) {
		cache |= fabs(h[i] / 5000 - 1) < 0.01;
		level |= fabs(h[i] / 1500 - 1) < 0.02;
	}
	CHECK(cache);
	CHECK(level);
	CHECK(nv >= 1 && fabs(vx[0] / 100 - 1) < 0.01);	/* cache end, GB */
	CHECK(strstr(gp, "SLC cache 5000 MB/s"));
	CHECK(strstr(gp, "set label 'cache ends at ") && strstr(gp, " GB: folding'"));
	free(gp);
	free(dat);
}

TEST(fill_minimum_sample_and_averages_per_device)
{
	CHECK(setup());
	/* minimum: the low level's lower ripple, 1500 x 0.99 */
	check_ranking("fill-pass1-min", 1485, 1e-6);
	/* averages: rows "device<TAB>true<TAB>mean<TAB>over position" */
	char *dat = chart_file("out", "fill-pass1-averages", "dat");
	CHECK(dat != NULL);
	const char *p = dat ? strstr(dat, "\n\"sim:dut\"") : NULL;
	double t = 0, m = 0, pos = 0;
	CHECK(p && sscanf(strchr(p + 2, '"') + 1, "%lf %lf %lf", &t, &m, &pos) == 3);
	/* by hand: 100 GB + 60 GB in 60 s = 2666.67 MB/s; equal slices, so
	   the mean of samples is the same; over the position written
	   (200 x 5000^2 + 400 x 1500^2) / (200 x 5000 + 400 x 1500) = 3687.5
	   (the +-1 % ripple adds 0.01 %) */
	CHECK_REL(t, 8000.0 / 3, 1e-6);
	CHECK_REL(m, 8000.0 / 3, 1e-6);
	CHECK_REL(pos, 3687.5, 2e-4);
	free(dat);
	char *html = slurp("out", "index.html");
	CHECK(html && strstr(html, "Average over the amount written (dirty-test tool)"));
	CHECK(html && strstr(html, "Time below half the average (%)"));
	free(html);
}

TEST(rnd_precond_in_the_reviewers_four_views)
{
	CHECK(setup());
	/* full: the whole 30 s although the report clips time at 20 s */
	char *full = chart_file("out", "rnd_precond-precond-time.gp", "gp");
	CHECK(full && strstr(full, "set xrange [0:30]"));
	free(full);
	char *xc = chart_file("out", "rnd_precond-precond-time-clip.gp", "gp");
	CHECK(xc && strstr(xc, "set xrange [0:20]"));
	free(xc);
	xc = chart_file("out", "rnd_precond-precond-lat-time-clip.gp", "gp");
	CHECK(xc && strstr(xc, "set xrange [0:20]"));
	free(xc);
	/* latency cut at the reviewer's 50 ms (no --clip-latency given) */
	char *yc = chart_file("out", "rnd_precond-precond-lat-time-clip-lat", "gp");
	CHECK(yc && strstr(yc, "set yrange [0:50]"));
	free(yc);
	/* fainter: a quarter of the 0.35 opacity, 0.0875: alpha 0xe9 */
	char *faint = chart_file("out", "rnd_precond-precond-time-faint", "gp");
	CHECK(faint && strstr(faint, "#e91f77b4"));
	free(faint);
	/* the IOPS of the full view are the fixture's: 20000, bursts 200000 */
	char *dat = chart_file("out", "rnd_precond-precond-time.gp", "dat");
	double x[400], y[400];
	int n = dat_block(dat, 0, x, y, 400);
	CHECK(n >= 298);
	int bursts = 0;
	for (int i = 0; i < n; i++) {
		bursts += fabs(y[i] - 200000) < 1;
		CHECK(fabs(y[i] - 20000) < 1 || fabs(y[i] - 200000) < 1);
	}
	CHECK(bursts == 6);
	free(dat);
}

TEST(max_latency_during_preconditioning)
{
	CHECK(setup());
	/* the fixture's histogram rebuilt: its exact maximum, in ms */
	struct lat_hist *h = hist_new();
	fx_hist(h, FX_PRECOND_N, 8000);
	double truth = (double)h->max / 1e6;
	hist_free(h);
	char *dat = chart_file("out", "rnd_precond-precond-max-latency", "dat");
	char l[8][64];
	double v[8];
	int n = dat ? bar_rows(dat, l, v, 8) : 0;
	CHECK(n == 3);
	for (int i = 0; i < n; i++)
		CHECK_REL(v[i], truth, 1e-9);
	free(dat);
}

TEST(two_in_one_points_carry_their_qd)
{
	CHECK(setup());
	char *dat = chart_file("out", "RND_4_KiB_read-2in1-all", "dat");
	char *gp = chart_file("out", "RND_4_KiB_read-2in1-all", "gp");
	CHECK(gp && strstr(gp, "with labels"));
	static const int qds[] = { 1, 4, 16, 64 };
	for (int i = 0; dat && i < 4; i++) {
		char want[32];
		snprintf(want, sizeof(want), "\t\"QD%d\"\n", qds[i]);
		const char *p = strstr(strstr(dat, "# index 0:"), want);
		CHECK(p != NULL);
		while (p && p > dat && p[-1] != '\n')
			p--;
		double iops = p ? strtod(p, NULL) : 0;
		CHECK_REL(iops, fx_sweep_iops(1, qds[i], 1), 1e-3);
	}
	free(dat);
	free(gp);
	char *html = slurp("out", "index.html");
	CHECK(html && strstr(html, "RND QD1 is left out of this chart"));
	free(html);
}

TEST(std_dev_per_qd_every_device)
{
	CHECK(setup());
	char *html = slurp("out", "index.html");
	const char *t = html ? strstr(html, "RND 4 KiB read: standard deviation "
				      "of the 100 ms samples per QD") : NULL;
	CHECK(t != NULL);
	/* QD1 read, DUT: 20 samples alternating 19600 / 20400 IOPS: sample
	   sd 400 sqrt(20/19) = 410.4, CV 2.05 %; sim:slow at 0.6 of it */
	CHECK(t && strstr(t, "410 (2.05 %)"));
	CHECK(t && strstr(t, "246 (2.05 %)"));
	free(html);
}

/* The percentile-50 point of a nines block: the latency there. */
static double block_p50(const char *dat, int index)
{
	double x[512], y[512];
	int n = dat_block(dat, index, x, y, 512);
	double best = NAN, d = 1e9;
	for (int i = 0; i < n; i++)
		if (fabs(y[i] - 50) < d) {
			d = fabs(y[i] - 50);
			best = x[i];
		}
	return best;
}

TEST(burst_and_steady_latency_in_one_nines_chart)
{
	CHECK(setup());
	char *dat = chart_file("out", "tail_latency-burst-steady-nines", "dat");
	CHECK(dat != NULL);
	if (!dat)
		return;
	/* fixture: R/W ratio (burst) p50 60 us both ways; tail (steady)
	   read 80 us, write 20 us; fx_hist spreads +-10 % */
	CHECK(strstr(dat, "# index 0: \"burst: "));
	CHECK(strstr(dat, "# index 1: \"steady state: "));
	CHECK_REL(block_p50(dat, 0), 60, 0.03);
	CHECK_REL(block_p50(dat, 1), 80, 0.03);
	CHECK_REL(block_p50(dat, 2), 60, 0.03);
	CHECK_REL(block_p50(dat, 3), 20, 0.03);
	CHECK(!strstr(dat, "# index 4:"));
	free(dat);
}

TEST(device_summary_small_calculations)
{
	CHECK(setup());
	char *html = slurp("out", "index.html");
	const char *t = html ? strstr(html, "Small calculations") : NULL;
	CHECK(t != NULL);
	/* by hand: 8 x 0.5 x 270 uF x 35^2 = 1.323 J; / 25 W = 52.9 ms;
	   2200 GB raw / 2000 GB user - 1 = 10 %; 2e12 / 2 GiB = 1 : 931 */
	CHECK(t && strstr(t, "1.323 J (8 x 270 µF at 35 V)"));
	CHECK(t && strstr(t, "52.9 ms"));
	CHECK(t && strstr(t, "10.0 %"));
	CHECK(t && strstr(t, "1 : 931"));
	CHECK(t && strstr(t, "not known (the datasheet file is the DUT&#39;s)"));
	free(html);
	html = slurp("out-mib", "index.html");
	CHECK(html && strstr(html, "not known (no datasheet file given)"));
	free(html);
}

static int count_member(void *ctx, const struct json_member *m)
{
	(*(int *)ctx)++;
	return m->kind == JK_NULL;	/* stop at a null */
}

TEST(json_scan_reads_top_level_only)
{
	const char *j = "{\"a\": 1.5, \"s\": \"x\\\"y\\u00e9\", \"o\": {\"a\": 2},"
			" \"l\": [1, {\"b\": []}], \"t\": true, \"n\": null,"
			" \"z\": 3}";
	double v;
	char buf[64];
	struct json_member m;
	CHECK(json_get_number(j, "a", &v) && v == 1.5);
	CHECK(json_get_text(j, "s", buf, sizeof(buf)));
	CHECK_EQ_STR(buf, "x\"y\xc3\xa9");
	CHECK(json_get_member(j, "o", &m) && m.kind == JK_OBJECT);
	CHECK_EQ_STR(m.value, "{\"a\":2}");	/* compact JSON */
	CHECK(json_get_member(j, "l", &m) && m.kind == JK_ARRAY);
	CHECK(json_get_number(j, "z", &v) && v == 3);
	CHECK(!json_get_number(j, "s", &v));
	CHECK(!json_get_member(j, "b", &m));	/* nested keys are not top */
	int n = 0;
	CHECK(json_scan_object(j, count_member, &n) == 0);
	CHECK(n == 6);
	CHECK(json_scan_object("{\"a\": 1,}", count_member, &n) == -1);
	CHECK(json_scan_object("{\"a\" 1}", count_member, &n) == -1);
	CHECK(json_scan_object("[1]", count_member, &n) == -1);
	CHECK(json_scan_object("{\"a\": [1, 2}", count_member, &n) == -1);
	CHECK(json_scan_object("{\"a\": tru}", count_member, &n) == -1);
	CHECK(!json_get_member(NULL, "a", &m));
}

TEST(spec_from_names_and_json)
{
	struct rpt_spec s;
	rpt_spec_parse(&s, NULL, "randwrite 4KiB QD32x1 70% read");
	CHECK_EQ_STR(s.pattern, "rand");
	CHECK(s.bs == 4096 && s.qd == 32 && s.read_pct == 70);
	rpt_spec_parse(&s, "{\"rw\":\"write\",\"read_pct\":0,\"bs\":131072,"
			   "\"qd\":8}", "job");
	CHECK_EQ_STR(s.pattern, "seq");
	CHECK(s.bs == 131072 && s.qd == 8 && s.read_pct == 0);
}

/*
 * A plain run's workload carries the name its user gave (--name, a job
 * file's section), whatever it holds: the page shows it in full, never
 * reads it as a step's keys: "qd=7" in a user's name is not a queue depth
 * (this one ran at QD2).  (The page escapes the label where it writes it:
 * test_report_hostile.sh.)  A step's workload keeps its keys and is
 * described in words.
 */
TEST(plain_run_names_show_as_given)
{
	static const char *const names[] = {
		"qd=7 a=b <b>tag</b>&amp;", "test=SEQ1M-Q8T1 dir=write",
		"idle=5000 phase=write", "span=4096", "pass=1 run=2", "plain",
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct rpt_workload w;
		char want[128];
		memset(&w, 0, sizeof w);
		snprintf(w.name, sizeof w.name, "%s", names[i]);
		rpt_spec_parse(&w.spec, "{\"rw\":\"randread\",\"read_pct\":100,"
			       "\"bs\":4096,\"qd\":2}", w.name);
		workload_label(&w, w.label, sizeof w.label);
		snprintf(want, sizeof want, "RND 4 KiB read (%s)", names[i]);
		CHECK_EQ_STR(w.label, want);
	}
	struct rpt_workload st;
	memset(&st, 0, sizeof st);
	snprintf(st.step, sizeof st.step, "rnd_sweeps");
	snprintf(st.name, sizeof st.name, "mix=70 qd=1");
	rpt_spec_parse(&st.spec, "{\"pattern\":\"rand\",\"read_pct\":70,"
		       "\"bs\":4096,\"qd\":1}", st.name);
	workload_label(&st, st.label, sizeof st.label);
	CHECK_EQ_STR(st.label, "RND 4 KiB 70:30 QD1");
}

TEST(labels_made_unique)
{
	struct rpt_run r[3];
	memset(r, 0, sizeof(r));
	for (int i = 0; i < 3; i++) {
		snprintf(r[i].label, sizeof(r[i].label), "disk");
		r[i].id = i == 2 ? 2 : i + 1;
		snprintf(r[i].source, sizeof(r[i].source), "/x/db%d.db", i);
	}
	rpt_labels_unique(r, 3);
	CHECK_EQ_STR(r[0].label, "disk");
	CHECK_EQ_STR(r[1].label, "disk #2");
	CHECK_EQ_STR(r[2].label, "disk #2 db2.db");
}

/* A point at (x, y) in a chart's data, within `rel` relative. */
static bool has_point(const char *dat, double px, double py, double rel)
{
	for (const char *p = dat; *p;) {
		const char *eol = strchr(p, '\n');
		double x, y;
		if (p[0] != '#' && sscanf(p, "%lf %lf", &x, &y) == 2 &&
		    fabs(x - px) <= rel * fabs(px) + 1e-9 &&
		    fabs(y - py) <= rel * fabs(py) + 1e-9)
			return true;
		if (!eol)
			break;
		p = eol + 1;
	}
	return false;
}

/*
 * A stalled sweep point -- 20 samples of 100 ms, not one I/O completed --
 * is a measurement: the table says so (not a bare 0), and the all-points
 * 2-in-1 chart draws it at 0 IOPS with its latency at least the 2 s
 * window, with a note naming the device and the QD.
 */
TEST(stalled_sweep_point_flagged_and_drawn)
{
	char dir[600], db[700], out[700];
	snprintf(dir, sizeof(dir), "/tmp/ssdbench-stall.XXXXXX");
	CHECK(mkdtemp(dir));
	snprintf(db, sizeof(db), "%s/stall.db", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	struct sb_err e;
	struct store *s;
	CHECK(store_open(db, &s, &e) == 0);
	struct run_begin b = { .kind = "suite", .target = "sim:stall",
			       .command_line = "ssdbench suite",
			       .params_json = "{}" };
	int64_t run;
	CHECK(store_run_begin(s, &b, &run, &e) == 0);
	int64_t st = fx_step(s, run, 0, "rnd_sweeps", "{\"kind\":\"sweep\"}");
	double v[20], zero[20] = { 0 };
	for (int k = 0; k < 20; k++)
		v[k] = 40.96;	/* 10000 IOPS of 4 KiB */
	struct fx_wl w1 = { "mix=0 qd=1", "rand", 0, 4096, 1, 0 };
	struct fx_wl w4 = { "mix=0 qd=4", "rand", 0, 4096, 4, 0 };
	fx_put(s, run, st, 0, &w1, v, 20, 100, 20000);
	fx_put(s, run, st, 1, &w4, zero, 20, 100, 20000);
	fx_step_done(s, st);
	CHECK(store_run_finish(s, run, "done", NULL, &e) == 0);
	store_close(s);
	struct rpt_run r;
	CHECK(rpt_run_load(&r, db, run, &e) == 0);
	struct report_opts o;
	report_opts_defaults(&o);
	o.out_dir = out;
	struct report_stats rs;
	CHECK(report_build(&r, 1, &o, &rs, &e) == 0);

	char path[1200];
	snprintf(path, sizeof(path), "%s/index.html", out);
	char *html = slurp_path(path);
	CHECK(html && strstr(html, "stalled: no I/O completed in the 2 s window"));
	char note[300];
	snprintf(note, sizeof(note), "%s at QD4: stalled", r.label);
	CHECK(html && strstr(html, note));
	DIR *d = opendir(out);
	bool seen = false;
	for (struct dirent *de; d && (de = readdir(d));) {
		if (!strstr(de->d_name, "RND_4_KiB_write-2in1-all.dat"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", out, de->d_name);
		char *dat = slurp_path(path);
		seen = true;
		CHECK(dat && has_point(dat, 0, 2e6, 1e-9));		/* 2 s in us */
		CHECK(dat && has_point(dat, 10000, 100, 0.02));	/* p50 of +-10 % */
		free(dat);
	}
	if (d)
		closedir(d);
	CHECK(seen);
	free(html);
	rpt_run_free(&r);
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

/* The figures fig_load stores for one level of load_sweep, made up here. */
static void load_level(struct store *s, int64_t run, int64_t st, unsigned load,
		       double sc)
{
	static const char *const keys[] = { "target_iops", "iops", "resp_p50_us",
					    "resp_p99_us", "resp_p99_9_us", "resp_p99_99_us",
					    "svc_p99_99_us", "late_share" };
	double v[] = { 1000.0 * load, 1000.0 * load * sc, 50 + load, 100 + 2 * load,
		       200 + 5 * load, (300 + 10 * load) / sc, 150, 0.25 };
	struct sb_err e;
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		char key[128];
		snprintf(key, sizeof key, "load_sweep.mix100.load%u.%s", load, keys[k]);
		CHECK(store_put_metric(s, run, st, 0, key, v[k], "", &e) == 0);
	}
}

static int64_t load_run(struct store *s, const char *target, double sc)
{
	struct sb_err e;
	struct run_begin b = { .kind = "suite", .target = target,
			       .command_line = "ssdbench suite", .params_json = "{}" };
	int64_t run;
	CHECK(store_run_begin(s, &b, &run, &e) == 0);
	int64_t st = fx_step(s, run, 0, "load_sweep", "{\"kind\":\"load_sweep\"}");
	double v[10];
	for (int k = 0; k < 10; k++)
		v[k] = 409.6 * sc;	/* 100000 IOPS of 4 KiB */
	static const unsigned loads[] = { 10, 50, 100 };
	struct fx_wl max = { "mix=100 phase=max", "rand", 100, 4096, 4, 0 };
	fx_put(s, run, st, 0, &max, v, 10, 40, 20000);
	for (int i = 0; i < 3; i++) {
		char name[32];
		snprintf(name, sizeof name, "mix=100 load=%u", loads[i]);
		struct fx_wl w = { name, "rand", 100, 4096, 4, 0 };
		fx_put(s, run, st, (uint32_t)i + 1, &w, v, 10, 40, 20000);
		load_level(s, run, st, loads[i], sc);
	}
	/* the finding: p99.99 (300 + 10 load) / sc over 1 ms first at 100 % */
	static const char *const keys[] = { "max_iops", "limit_us", "limit_crossed",
					    "limit_crossed_load_pct", "limit_crossed_iops",
					    "limit_ok_iops" };
	double f[] = { 100000 * sc, 1000, 1, 100, 100000 * sc, 50000 * sc };
	for (int k = 0; k < 6; k++) {
		char key[128];
		snprintf(key, sizeof key, "load_sweep.mix100.%s", keys[k]);
		CHECK(store_put_metric(s, run, st, 0, key, f[k], "", &e) == 0);
	}
	fx_step_done(s, st);
	CHECK(store_run_finish(s, run, "done", NULL, &e) == 0);
	return run;
}

/*
 * load_sweep: the response-latency curve is the stored figures, point for
 * point (x the achieved IOPS, y each percentile), with the limit as a
 * line; every device's p99.99 on a second chart; the finding in words; a
 * hostile device name only as escaped text.
 */
TEST(load_sweep_curve_is_the_figures)
{
	char dir[600], db[700], out[700];
	snprintf(dir, sizeof(dir), "/tmp/ssdbench-load.XXXXXX");
	CHECK(mkdtemp(dir));
	snprintf(db, sizeof(db), "%s/load.db", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	struct sb_err e;
	struct store *s;
	CHECK(store_open(db, &s, &e) == 0);
	int64_t dut = load_run(s, "sim:dut", 1.0);
	int64_t other = load_run(s, "sim:<b>evil</b>", 0.5);
	store_close(s);
	struct rpt_run r[2];
	CHECK(rpt_run_load(&r[0], db, dut, &e) == 0);
	CHECK(rpt_run_load(&r[1], db, other, &e) == 0);
	struct report_opts o;
	report_opts_defaults(&o);
	o.out_dir = out;
	struct report_stats rs;
	CHECK(report_build(r, 2, &o, &rs, &e) == 0);

	char path[1200];
	DIR *d = opendir(out);
	int seen = 0;
	for (struct dirent *de; d && (de = readdir(d));) {
		size_t n = strlen(de->d_name);
		if (n < 4 || strcmp(de->d_name + n - 4, ".dat") || !strstr(de->d_name, "load_sweep"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", out, de->d_name);
		char *dat = slurp_path(path);
		if (!dat)
			continue;
		if (strstr(de->d_name, "devices")) {
			seen |= 2;
			CHECK(has_point(dat, 100000, 1300, 1e-9));	/* the DUT */
			CHECK(has_point(dat, 50000, 2600, 1e-9));	/* the other at 100 % */
		} else {
			seen |= 1;
			for (unsigned l = 10; l <= 100; l += l == 10 ? 40 : 50) {
				CHECK(has_point(dat, 1000.0 * l, 50 + l, 1e-9));
				CHECK(has_point(dat, 1000.0 * l, 100 + 2 * l, 1e-9));
				CHECK(has_point(dat, 1000.0 * l, 200 + 5 * l, 1e-9));
				CHECK(has_point(dat, 1000.0 * l, 300 + 10 * l, 1e-9));
			}
			char gp[1200];
			snprintf(gp, sizeof gp, "%.*s.gp", (int)(strlen(path) - 4), path);
			char *g = slurp_path(gp);
			CHECK(g && strstr(g, "first 1000 "));	/* the limit */
			free(g);
		}
		free(dat);
	}
	if (d)
		closedir(d);
	CHECK_EQ_U64(seen, 3);
	snprintf(path, sizeof(path), "%s/index.html", out);
	char *html = slurp_path(path);
	CHECK(html && strstr(html, "RND 4 KiB read: p99.99 response latency exceeds 1.00 ms "
			     "at 100 % load (100.0 k IOPS achieved of 100.0 k IOPS at most)"));
	CHECK(html && !strstr(html, "<b>evil"));
	CHECK(html && strstr(html, "&lt;b&gt;evil"));
	free(html);
	rpt_run_free(&r[0]);
	rpt_run_free(&r[1]);
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

/*
 * Where a simulated drive's figures come from, from a model built by
 * hand: per step the ways, the I/Os reported and simulated summed over
 * its workloads, the share simulated and the extrapolated rest (reference:
 * the sums of the workloads put in); a step recorded before the store
 * kept it says "not recorded"; the device's name and the step's are
 * escaped as data.
 */
TEST(provenance_note_per_step)
{
	if (!setup())
		return;
	struct rpt_step steps[3] = { { .name = "rnd_sweeps" }, { .name = "fill" },
				     { .name = "x<i>y" } };
	struct rpt_workload wl[4];
	memset(wl, 0, sizeof wl);
	const struct { const char *step; enum io_way way; uint64_t rep, sim; bool known; } w[4] = {
		{ "rnd_sweeps", IO_WAY_BULK, 1000, 100, true },
		{ "rnd_sweeps", IO_WAY_EXACT, 500, 500, true },
		{ "fill", IO_WAY_BULK, 300, 0, true },
		{ "x<i>y", IO_WAY_UNKNOWN, 70, 0, false },
	};
	for (int i = 0; i < 4; i++) {
		snprintf(wl[i].step, sizeof wl[i].step, "%s", w[i].step);
		snprintf(wl[i].name, sizeof wl[i].name, "w%d", i);
		snprintf(wl[i].label, sizeof wl[i].label, "w%d", i);
		snprintf(wl[i].status, sizeof wl[i].status, "done");
		wl[i].way = w[i].way;
		wl[i].sim_known = w[i].known;
		wl[i].ios_reported = w[i].rep;
		wl[i].ios_simulated = w[i].sim;
	}
	struct rpt_run r;
	memset(&r, 0, sizeof r);
	snprintf(r.label, sizeof r.label, "Drive <b>&amp;</b>");
	snprintf(r.target, sizeof r.target, "sim:drive");
	snprintf(r.kind, sizeof r.kind, "suite");
	r.steps = steps;
	r.nsteps = 3;
	r.wl = wl;
	r.nwl = 4;
	struct report_opts o;
	struct report_stats st;
	struct sb_err e;
	char out[600];
	snprintf(out, sizeof(out), "%s/prov", root);
	report_opts_defaults(&o);
	o.out_dir = out;
	if (report_build(&r, 1, &o, &st, &e)) {
		CHECK_FAIL("report: %s", e.msg);
		return;
	}
	char *page = slurp("prov", "index.html");
	const char *note = page ? strstr(page, "class=\"note provenance\"") : NULL;
	CHECK(note != NULL);
	if (note) {
		const char *end = strstr(note, "</div>");
		char *n = strndup(note, end ? (size_t)(end - note) : strlen(note));
		/* rnd_sweeps: 600 of 1500 simulated, 40 %, 900 extrapolated */
		CHECK(strstr(n, "<td>exact, bulk</td><td class=\"num\">1500</td>"
			      "<td class=\"num\">600</td><td class=\"num\">40.00</td>"
			      "<td class=\"num\">900</td>") != NULL);
		CHECK(strstr(n, "<td>bulk</td><td class=\"num\">300</td>"
			      "<td class=\"num\">0</td><td class=\"num\">0</td>"
			      "<td class=\"num\">300</td>") != NULL);
		CHECK(strstr(n, "<td>not recorded</td><td>not recorded</td>") != NULL);
		CHECK(strstr(n, "(40.00 %); Fill drive (0 %).") != NULL);
		/* data escaped: the label and the unknown step's name */
		CHECK(strstr(n, "Drive &lt;b&gt;&amp;amp;&lt;/b&gt;") != NULL);
		CHECK(strstr(n, "<b>&amp;</b>") == NULL && strstr(n, "x<i>y") == NULL);
		CHECK(strstr(n, "x&lt;i&gt;y") != NULL);
		free(n);
	}
	free(page);
}

TEST(zz_cleanup)
{
	for (int i = 0; i < 3; i++)
		rpt_run_free(&runs[i]);
	if (keep || !root[0])
		return;
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}

CHECK_MAIN("report")
