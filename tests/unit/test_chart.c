/*
 * The chart machinery: data files hold exactly the points given (and drop
 * those gnuplot cannot draw; a series over 4000 points is thinned),
 * scripts carry the labels, log axes and ranges asked for, and gnuplot turns them into non-empty SVG and PNG files whose
 * text shows the axis labels.
 */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/chart.h"

static char tmpdir[256];

static const char *tmp(void)
{
	if (!tmpdir[0]) {
		snprintf(tmpdir, sizeof(tmpdir), "/tmp/ssdbench-chart.XXXXXX");
		if (!mkdtemp(tmpdir))
			abort();
	}
	return tmpdir;
}

static char *slurp(const char *name, const char *ext)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s.%s", tmp(), name, ext);
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

static long file_size(const char *name, const char *ext)
{
	char path[512];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s.%s", tmp(), name, ext);
	return stat(path, &st) ? -1 : (long)st.st_size;
}

/* Parse the x/y data blocks back: block b, point k. */
static int read_xy(const char *dat, size_t block, double *x, double *y,
		   size_t max)
{
	size_t b = 0, n = 0;
	int blank = 0;
	for (const char *p = dat; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		if (len == 0) {
			if (++blank == 2)
				b++;
		} else {
			blank = 0;
			if (p[0] != '#' && b == block && n < max &&
			    sscanf(p, "%lf %lf", &x[n], &y[n]) == 2)
				n++;
		}
		p += len + (eol ? 1 : 0);
	}
	return (int)n;
}

TEST(lines_points_written_exactly)
{
	struct sb_err e;
	struct chart c;
	chart_init(&c, "lines1", "Fill: bandwidth vs GB written", CHART_LINES);
	chart_axis_set(&c.x, "GB written", false);
	chart_axis_set(&c.y, "Bandwidth (MB/s)", false);
	struct chart_series *a = chart_add_series(&c, "DUT", &e);
	for (int i = 0; i < 100; i++)
		CHECK(series_add(a, i * 0.5, 1000.0 + i * 0.25, NULL, &e) == 0);
	struct chart_series *b = chart_add_series(&c, "Other \"drive\"", &e);
	CHECK(series_add(b, 1, 7, NULL, &e) == 0);
	CHECK(series_add(b, 2, NAN, NULL, &e) == 0);	/* dropped */
	CHECK(series_add(b, 3, 9, NULL, &e) == 0);
	CHECK(chart_points(&c) == 103);
	CHECK(chart_write(&c, tmp(), &e) == 0);

	char *dat = slurp("lines1", "dat");
	CHECK(dat != NULL);
	double x[200], y[200];
	CHECK(read_xy(dat, 0, x, y, 200) == 100);
	for (int i = 0; i < 100; i++) {
		CHECK(x[i] == i * 0.5);
		CHECK(y[i] == 1000.0 + i * 0.25);
	}
	CHECK(read_xy(dat, 1, x, y, 200) == 2);
	CHECK(x[0] == 1 && y[0] == 7 && x[1] == 3 && y[1] == 9);
	free(dat);

	char *gp = slurp("lines1", "gp");
	CHECK(strstr(gp, "set xlabel 'GB written'"));
	CHECK(strstr(gp, "set ylabel 'Bandwidth (MB/s)'"));
	CHECK(strstr(gp, "title 'Other \"drive\"'"));
	CHECK(strstr(gp, "index 1 using 1:2 with lines"));
	CHECK(!strstr(gp, "logscale"));
	free(gp);

	CHECK(chart_render(tmp(), "lines1", &e) == 0);
	CHECK(file_size("lines1", "png") > 1000);
	char *svg = slurp("lines1", "svg");
	CHECK(svg && strstr(svg, "<svg"));
	CHECK(svg && strstr(svg, "GB written"));
	CHECK(svg && strstr(svg, "Bandwidth (MB/s)"));
	CHECK(file_size("lines1", "log") == -1);	/* removed on success */
	free(svg);
	chart_free(&c);
}

/* Text from outside reaches a script only through the whitelist: no
   backquote (gnuplot runs `cmd` in double quotes), no newline or carriage
   return (a line that starts with `system` runs), no broken UTF-8; a
   single quote is doubled inside gnuplot's single-quoted strings.  The
   script still draws, and creates nothing. */
TEST(hostile_text_stays_text)
{
	struct sb_err e;
	struct chart c;
	chart_init(&c, "hostile", "t`touch pwned-a`\nsystem \"touch pwned-b\"\r"
		   "\xff\xc3(", CHART_LINES);
	chart_axis_set(&c.x, "x\\\" . system(\"touch pwned-c\") . \"", false);
	chart_axis_set(&c.y, "it's @y \xc2\xb5s", false);
	struct chart_series *a =
		chart_add_series(&c, "a'\nsystem 'touch pwned-d'", &e);
	CHECK(series_add(a, 1, 2, NULL, &e) == 0);
	CHECK(series_add(a, 2, 3, NULL, &e) == 0);
	CHECK(chart_write(&c, tmp(), &e) == 0);
	char *gp = slurp("hostile", "gp");
	char *dat = slurp("hostile", "dat");
	CHECK(gp && !strchr(gp, '`') && !strchr(gp, '\r'));
	CHECK(dat && !strchr(dat, '`') && !strchr(dat, '\r'));
	for (const char *p = gp; p && *p; p++) {
		if (p == gp || p[-1] == '\n')
			CHECK(strncmp(p, "system", 6));
		CHECK(*(const unsigned char *)p != 0xff);
	}
	CHECK(gp && strstr(gp, "set title 't?touch pwned-a? system \"touch "
				"pwned-b\" ?" "?('"));
	CHECK(gp && strstr(gp, "set xlabel 'x?\" . system(\"touch pwned-c\") . \"'"));
	CHECK(gp && strstr(gp, "set ylabel 'it''s ?y \xc2\xb5s'"));
	CHECK(gp && strstr(gp, "title 'a'' system ''touch pwned-d'''"));
	CHECK(chart_render(tmp(), "hostile", &e) == 0);
	static const char *const made[] = { "pwned-a", "pwned-b", "pwned-c",
					    "pwned-d" };
	for (size_t i = 0; i < 4; i++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/%s", tmp(), made[i]);
		CHECK(access(path, F_OK) != 0);
	}
	free(gp);
	free(dat);
	chart_free(&c);
}

TEST(log_axes_and_ranges)
{
	struct sb_err e;
	struct chart c;
	chart_init(&c, "twoinone", "4-corners", CHART_SCATTER);
	chart_axis_set(&c.x, "IOPS", false);
	chart_axis_set(&c.y, "p50 latency (µs)", true);
	chart_axis_range(&c.y, 10, 1000);
	c.opacity = 0.25;
	struct chart_series *s = chart_add_series(&c, "RND 4K read", &e);
	CHECK(series_add(s, 1000, 80, NULL, &e) == 0);
	CHECK(series_add(s, 2000, 0, NULL, &e) == 0);	/* not on a log axis */
	CHECK(series_add(s, 4000, 120, NULL, &e) == 0);
	CHECK(chart_write(&c, tmp(), &e) == 0);
	char *gp = slurp("twoinone", "gp");
	CHECK(strstr(gp, "set logscale y 10"));
	CHECK(!strstr(gp, "set logscale x"));
	/* a log range a hair wider, so gnuplot keeps the end ticks */
	CHECK(strstr(gp, "set yrange [9.99999999:1000.000001]"));
	CHECK(strstr(gp, "set ytics (\"10\" 10, \"20\" 20, \"50\" 50, \"100\" 100, "
			  "\"200\" 200, \"500\" 500, \"1000\" 1000)"));
	CHECK(strstr(gp, "with points"));
	CHECK(strstr(gp, "#bf1f77b4"));	/* 25 % opaque = 0xbf transparent */
	free(gp);
	char *dat = slurp("twoinone", "dat");
	double x[8], y[8];
	CHECK(read_xy(dat, 0, x, y, 8) == 2);
	CHECK(x[1] == 4000 && y[1] == 120);
	free(dat);
	CHECK(chart_render(tmp(), "twoinone", &e) == 0);
	char *svg = slurp("twoinone", "svg");
	CHECK(svg && strstr(svg, "p50 latency (µs)"));
	/* the ticks at both ends of the log range are drawn */
	CHECK(svg && strstr(svg, "<text>10</text>") && strstr(svg, "<text>1000</text>"));
	free(svg);
	chart_free(&c);
}

TEST(nines_scale)
{
	struct sb_err e;
	struct chart c;
	chart_init(&c, "nines", "Tail latency", CHART_NINES);
	chart_axis_set(&c.x, "Latency (µs)", true);
	chart_axis_range(&c.x, 1, 10000);
	chart_axis_set(&c.y, "Percentile (%)", false);
	struct chart_series *s = chart_add_series(&c, "read, 12.3 k IOPS", &e);
	CHECK(series_add(s, 50, 50, NULL, &e) == 0);
	CHECK(series_add(s, 80, 99.99, NULL, &e) == 0);
	CHECK(series_add(s, 900, 100, NULL, &e) == 0);	/* off the scale */
	CHECK(chart_write(&c, tmp(), &e) == 0);
	char *gp = slurp("nines", "gp");
	CHECK(strstr(gp, "set logscale x 10"));
	CHECK(strstr(gp, "set xrange [0.999999999:10000.00001]"));
	CHECK(strstr(gp, "\"99.9999\" 6"));
	CHECK(strstr(gp, "(-log10(1-$2/100))"));
	CHECK(strstr(gp, "read, 12.3 k IOPS"));
	free(gp);
	char *dat = slurp("nines", "dat");
	double x[8], y[8];
	CHECK(read_xy(dat, 0, x, y, 8) == 2);
	CHECK(y[1] == 99.99);
	free(dat);
	CHECK(chart_render(tmp(), "nines", &e) == 0);
	char *svg = slurp("nines", "svg");
	CHECK(svg && strstr(svg, "99.9999"));
	free(svg);
	chart_free(&c);
}

TEST(bars_ranked_with_pass_line)
{
	struct sb_err e;
	struct chart c;
	chart_init(&c, "boot", "Boot workload", CHART_BARS);
	chart_axis_set(&c.x, "Device", false);
	chart_axis_set(&c.y, "Read IOPS", false);
	c.has_hline = true;
	c.hline = 60000;
	snprintf(c.hline_title, sizeof(c.hline_title), "pass: 60 k IOPS");
	c.bar_values = true;
	struct chart_series *s = chart_add_series(&c, "Boot score", &e);
	CHECK(series_add(s, 0, 41000, "B", &e) == 0);
	CHECK(series_add(s, 1, 95000, "A", &e) == 0);
	CHECK(series_add(s, 2, 41000, "C", &e) == 0);
	series_sort_desc(s);
	CHECK_EQ_STR(s->labels[0], "A");
	CHECK_EQ_STR(s->labels[1], "B");	/* ties keep their order */
	CHECK_EQ_STR(s->labels[2], "C");
	CHECK(chart_write(&c, tmp(), &e) == 0);
	char *dat = slurp("boot", "dat");
	/* values printed on the bars are in the data, written for reading */
	CHECK(strstr(dat, "\"A\"\t95000\t\"95k\"\n\"B\"\t41000\t\"41k\"\n"
			  "\"C\"\t41000\t\"41k\"\n"));
	free(dat);
	char *gp = slurp("boot", "gp");
	CHECK(strstr(gp, "histograms"));
	CHECK(strstr(gp, "first 60000"));
	CHECK(strstr(gp, "set yrange [0:109250]"));	/* 95000 * 1.15 */
	free(gp);
	CHECK(chart_render(tmp(), "boot", &e) == 0);
	char *svg = slurp("boot", "svg");
	CHECK(svg && strstr(svg, "Read IOPS"));
	CHECK(svg && strstr(svg, "pass: 60 k IOPS"));
	free(svg);
	chart_free(&c);
}

TEST(bars_grouped_by_category)
{
	struct sb_err e;
	struct chart c;
	chart_init(&c, "reclaim", "GB per idle", CHART_BARS);
	chart_axis_set(&c.x, "Idle (s)", false);
	chart_axis_set(&c.y, "GB written in 1 min", false);
	struct chart_series *a = chart_add_series(&c, "DUT", &e);
	struct chart_series *b = chart_add_series(&c, "Other", &e);
	CHECK(series_add(a, 0, 10, "5", &e) == 0);
	CHECK(series_add(a, 1, 20, "10", &e) == 0);
	CHECK(series_add(b, 0, 30, "10", &e) == 0);
	CHECK(series_add(b, 1, 40, "60", &e) == 0);
	CHECK(chart_write(&c, tmp(), &e) == 0);
	char *dat = slurp("reclaim", "dat");
	CHECK(strstr(dat, "\"5\"\t10\t?\n\"10\"\t20\t30\n\"60\"\t?\t40\n"));
	free(dat);
	CHECK(chart_render(tmp(), "reclaim", &e) == 0);
	chart_free(&c);
}

/* The ticks of an axis, by hand. */
static void check_ticks(const struct chart_axis *a, double lo, double hi,
			const char *want, double want_lo, double want_hi)
{
	struct chart_ticks t;
	chart_ticks(a, lo, hi, &t);
	char got[512] = "";
	size_t u = 0;
	for (size_t i = 0; i < t.n; i++)
		u += (size_t)snprintf(got + u, sizeof(got) - u, "%s%s",
				      i ? " " : "", t.label[i]);
	CHECK_EQ_STR(got, want);
	CHECK(t.lo == want_lo && t.hi == want_hi);
}

TEST(ticks_for_reading)
{
	struct chart_axis a;
	memset(&a, 0, sizeof(a));
	/* IOPS to 1.1 M: steps of 200 k (1.1 M / 6 = 183 k, up to 2 x 10^5),
	   the top end out to the next tick */
	check_ticks(&a, 0, 1.1e6, "0 200k 400k 600k 800k 1M 1.2M", 0, 1.2e6);
	/* 1.25 M needs two decimals where the step is 250 k */
	check_ticks(&a, 0, 1.4e6, "0 250k 500k 750k 1M 1.25M 1.5M", 0, 1.5e6);
	/* MB/s below 10^4: plain digits */
	check_ticks(&a, 3000, 5050, "3000 3500 4000 4500 5000 5500", 3000, 5500);
	/* small values: the decimals of the step, none trailing */
	check_ticks(&a, 0, 0.9, "0 0.2 0.4 0.6 0.8 1", 0, 1);
	/* a fixed end is kept, the ticks stay inside */
	a.has_min = a.has_max = true;
	a.min = 0;
	a.max = 109250;
	check_ticks(&a, 0, 95000, "0 20k 40k 60k 80k 100k", 0, 109250);
	/* log: decades, with 2 and 5 between on a short span */
	memset(&a, 0, sizeof(a));
	a.log = true;
	check_ticks(&a, 3, 4000, "1 10 100 1k 10k", 1, 10000);
	check_ticks(&a, 12, 80, "10 20 50 100", 10, 100);
	check_ticks(&a, 0.02, 0.3, "0.01 0.02 0.05 0.1 0.2 0.5 1", 0.01, 1);
	/* queue depths */
	a.pow2_ticks = true;
	check_ticks(&a, 1, 256, "1 2 4 8 16 32 64 128 256", 1, 256);
	check_ticks(&a, 4, 64, "4 8 16 32 64", 4, 64);
	/* a number for reading */
	char b[32];
	CHECK_EQ_STR(chart_number(1257000, b, sizeof(b)), "1.26M");
	CHECK_EQ_STR(chart_number(80000, b, sizeof(b)), "80k");
	CHECK_EQ_STR(chart_number(2666.67, b, sizeof(b)), "2667");
	CHECK_EQ_STR(chart_number(8.914, b, sizeof(b)), "8.91");
	CHECK_EQ_STR(chart_number(0.0372, b, sizeof(b)), "0.0372");
	CHECK_EQ_STR(chart_number(2.3e9, b, sizeof(b)), "2.3G");
}

TEST(marks_and_point_labels_drawn)
{
	struct sb_err e;
	struct chart c;
	chart_init(&c, "marks", "Fill: levels", CHART_LINES);
	chart_axis_set(&c.x, "Written (GB)", false);
	chart_axis_set(&c.y, "Bandwidth (MB/s)", false);
	struct chart_series *s = chart_add_series(&c, "DUT", &e);
	CHECK(series_add(s, 0, 14100, "QD1", &e) == 0);
	CHECK(series_add(s, 700, 1200000, "QD`rm`", &e) == 0);
	CHECK(chart_add_mark(&c, false, 14100, "SLC cache 14.1 GB/s", &e) == 0);
	CHECK(chart_add_mark(&c, true, 677, "cache ends at 677 GB", &e) == 0);
	CHECK(chart_write(&c, tmp(), &e) == 0);
	char *gp = slurp("marks", "gp");
	CHECK(gp && strstr(gp, "set arrow from graph 0, first 14100 to graph 1"));
	CHECK(gp && strstr(gp, "set arrow from first 677, graph 0 to first 677"));
	CHECK(gp && strstr(gp, "set label 'SLC cache 14.1 GB/s'"));
	CHECK(gp && strstr(gp, "using 1:2:3 with labels"));
	/* ticks written out: 1.2 M, never gnuplot's 1.2e+06 */
	CHECK(gp && strstr(gp, "\"1.2M\" 1200000"));
	free(gp);
	char *dat = slurp("marks", "dat");
	CHECK(dat && strstr(dat, "0\t14100\t\"QD1\"\n"));
	CHECK(dat && strstr(dat, "\"QD?rm?\""));	/* whitelisted */
	free(dat);
	CHECK(chart_render(tmp(), "marks", &e) == 0);
	char *svg = slurp("marks", "svg");
	CHECK(svg && strstr(svg, "1.2M") && strstr(svg, "QD1") &&
	      strstr(svg, "cache ends at 677 GB"));
	CHECK(svg && !strstr(svg, "e+06") && !strstr(svg, "e+05"));
	free(svg);
	chart_free(&c);
}

TEST(refuses_what_it_cannot_draw)
{
	struct sb_err e;
	struct chart c;
	chart_init(&c, "empty", "Nothing", CHART_LINES);
	CHECK(chart_write(&c, tmp(), &e) == -1);
	CHECK(strstr(e.msg, "no points"));
	struct chart_series *s = chart_add_series(&c, "s", &e);
	CHECK(series_add(s, 1, 1, NULL, &e) == 0);
	snprintf(c.name, sizeof(c.name), "../escape");
	CHECK(chart_write(&c, tmp(), &e) == -1);
	CHECK(strstr(e.msg, "not a plain file name"));
	snprintf(c.name, sizeof(c.name), "ok");
	CHECK(chart_write(&c, "/nonexistent/dir", &e) == -1);
	CHECK(strstr(e.msg, "cannot create"));
	chart_free(&c);
}

TEST(gnuplot_failures_are_reported)
{
	struct sb_err e;
	char path[512];
	snprintf(path, sizeof(path), "%s/broken.gp", tmp());
	FILE *f = fopen(path, "w");
	fputs("set terminal svg\nset output \"broken.svg\"\n"
	      "plot \"no-such-file.dat\" using 1:2\n", f);
	fclose(f);
	CHECK(chart_render(tmp(), "broken", &e) == -1);
	CHECK(strstr(e.msg, "gnuplot failed"));
	CHECK(strstr(e.msg, "no-such-file.dat"));

	setenv("SSDBENCH_GNUPLOT", "/nonexistent/gnuplot", 1);
	CHECK(chart_render(tmp(), "lines1", &e) == -1);
	CHECK(strstr(e.msg, "cannot run"));
	unsetenv("SSDBENCH_GNUPLOT");
}

TEST(render_all_stops_at_the_first_failure)
{
	struct sb_err e;
	struct chart c;
	const char names[3][96] = { "all-a", "all-broken", "all-c" };
	for (int i = 0; i < 3; i++) {
		chart_init(&c, names[i], "t", CHART_LINES);
		chart_axis_set(&c.x, "x", false);
		chart_axis_set(&c.y, "y", false);
		struct chart_series *s = chart_add_series(&c, "s", &e);
		CHECK(series_add(s, 1, 2, NULL, &e) == 0);
		CHECK(series_add(s, 2, 3, NULL, &e) == 0);
		CHECK(chart_write(&c, tmp(), &e) == 0);
		chart_free(&c);
	}
	CHECK(chart_render_all(tmp(), names, 3, 4, &e) == 0);
	CHECK(file_size("all-c", "svg") > 0 && file_size("all-a", "png") > 0);
	char path[512];
	snprintf(path, sizeof(path), "%s/all-broken.gp", tmp());
	FILE *f = fopen(path, "a");
	fputs("plot \"missing.dat\" using 1:2\n", f);
	fclose(f);
	CHECK(chart_render_all(tmp(), names, 3, 1, &e) == -1);
	CHECK(strstr(e.msg, "chart all-broken"));
	CHECK(strstr(e.msg, "missing.dat"));
}

/*
 * A long series is thinned to the budget docs/report.md states (4000
 * points per series), keeping what a reader looks for.  The reference is
 * the series as built: its known spikes, its one stall, its first and last
 * points and its extremes, found by scanning it here.  x = k / 100 prints
 * in %.10g and parses back to the same double (both are the correctly
 * rounded k / 100).
 */
enum { THIN_BUDGET = 4000, THIN_N = 1000000 };

static const size_t spike_at[] = { 1, 123457, 500001, 654321, 876543, 999998 };
static const double spike_y[] = { 9e4, 5e4, 7.25e4, 3e4, 6e4, 8e4 };
#define NSPIKES (sizeof(spike_at) / sizeof(spike_at[0]))
static const size_t stall_at = 333333;

static double thin_y(size_t k)
{
	for (size_t i = 0; i < NSPIKES; i++)
		if (k == spike_at[i])
			return spike_y[i];
	if (k == stall_at)
		return 0.5;
	return 1000.0 + (double)((k * 7919) % 997) / 8;	/* noise, 1000-1125 */
}

static void thin_chart(struct chart *c, const char *name, enum chart_kind kind)
{
	struct sb_err e;
	chart_init(c, name, "RND preconditioning: latency vs time", kind);
	chart_axis_set(&c->x, "Time (s)", false);
	chart_axis_set(&c->y, "Latency (us)", kind == CHART_SCATTER);
	struct chart_series *s = chart_add_series(c, "DUT", &e);
	CHECK(s != NULL);
	for (size_t k = 0; s && k < THIN_N; k++)
		CHECK(series_add(s, (double)k / 100, thin_y(k), NULL, &e) == 0);
}

static int has_point(const double *x, const double *y, int n, double px,
		     double py)
{
	for (int i = 0; i < n; i++)
		if (x[i] == px && y[i] == py)
			return 1;
	return 0;
}

TEST(long_series_thinned_keeping_spikes_and_extremes)
{
	static const enum chart_kind kinds[] = { CHART_LINES, CHART_SCATTER };
	static const char *const names[] = { "thin-lines", "thin-scatter" };
	struct sb_err e;
	double *x = malloc(THIN_N * sizeof(*x)), *y = malloc(THIN_N * sizeof(*y));
	CHECK(x && y);
	for (size_t i = 0; x && y && i < 2; i++) {
		struct chart c;
		thin_chart(&c, names[i], kinds[i]);
		CHECK(chart_write(&c, tmp(), &e) == 0);
		char *dat = slurp(names[i], "dat");
		CHECK(dat != NULL);
		int n = dat ? read_xy(dat, 0, x, y, THIN_N) : 0;
		CHECK(n > 2 * (THIN_BUDGET / 2 - 1) * 9 / 10);	/* not over-thinned */
		CHECK(n <= THIN_BUDGET);
		for (size_t k = 0; k < NSPIKES; k++)
			CHECK(has_point(x, y, n, (double)spike_at[k] / 100,
					spike_y[k]));
		CHECK(has_point(x, y, n, (double)stall_at / 100, 0.5));
		/* first, last, and the extremes scanned from the series */
		const struct chart_series *s = &c.series[0];
		size_t lo = 0, hi = 0;
		for (size_t k = 1; k < s->n; k++) {
			lo = s->y[k] < s->y[lo] ? k : lo;
			hi = s->y[k] > s->y[hi] ? k : hi;
		}
		CHECK(has_point(x, y, n, s->x[0], s->y[0]));
		CHECK(has_point(x, y, n, s->x[s->n - 1], s->y[s->n - 1]));
		CHECK(has_point(x, y, n, s->x[lo], s->y[lo]));
		CHECK(has_point(x, y, n, s->x[hi], s->y[hi]));
		for (int k = 1; k < n; k++)	/* in the order given */
			CHECK(x[k] > x[k - 1]);
		/* the axes still span the whole series */
		char *gp = slurp(names[i], "gp");
		CHECK(gp && strstr(gp, "set xrange [0:10000]"));
		free(gp);
		free(dat);
		chart_free(&c);
	}
	free(x);
	free(y);
}

/* gnuplot's SVG of the 1 M-point scatter (one marker per point: 100 MB
   as it was) stays small enough for a browser. */
TEST(long_series_svg_stays_small)
{
	struct sb_err e;
	struct chart c;
	thin_chart(&c, "thin-svg", CHART_SCATTER);
	CHECK(chart_write(&c, tmp(), &e) == 0);
	CHECK(chart_render(tmp(), "thin-svg", &e) == 0);
	long svg = file_size("thin-svg", "svg");
	CHECK(svg > 0 && svg < 2L * 1000 * 1000);
	chart_free(&c);
}

/* A clipped scatter view (the reviewer's time clipped at 2500 s of a
   10 000 s run, latency at 20 000) thins what it shows: the steps divide
   the window, so it keeps about the budget inside it, and a step's
   highest point is the highest under the clip, not a spike above it. */
TEST(clipped_scatter_thinned_inside_its_view)
{
	struct sb_err e;
	struct chart c;
	thin_chart(&c, "thin-clip", CHART_SCATTER);
	chart_axis_range(&c.x, 0, 2500);
	chart_axis_range(&c.y, 0.1, 20000);
	CHECK(chart_write(&c, tmp(), &e) == 0);
	char *dat = slurp("thin-clip", "dat");
	double *x = malloc(THIN_N * sizeof(*x)), *y = malloc(THIN_N * sizeof(*y));
	if (!dat || !x || !y)
		abort();
	int n = read_xy(dat, 0, x, y, THIN_N), above = 0;
	CHECK(n > 2 * (THIN_BUDGET / 2 - 1) * 9 / 10 && n <= THIN_BUDGET);
	for (int k = 0; k < n; k++)
		above += x[k] > 2500 || y[k] > 20000;
	CHECK(above == 0);
	/* the lowest point in view, scanned from the series */
	const struct chart_series *s = &c.series[0];
	size_t lo = SIZE_MAX;
	for (size_t k = 0; k < s->n && s->x[k] <= 2500; k++)
		if (s->y[k] <= 20000 && (lo == SIZE_MAX || s->y[k] < s->y[lo]))
			lo = k;
	CHECK(lo != SIZE_MAX && has_point(x, y, n, s->x[lo], s->y[lo]));
	/* the step holding the 9e4 spike at x = 0.01 keeps its highest
	   point under the clip */
	double top = 0;
	for (size_t k = 0; k < 250; k++)
		if (thin_y(k) <= 20000 && thin_y(k) > top)
			top = thin_y(k);
	int found = 0;
	for (int k = 0; k < n; k++)
		found += x[k] <= 2.5 && y[k] == top;
	CHECK(found >= 1);
	free(x);
	free(y);
	free(dat);
	chart_free(&c);
}

/* A series of exactly the budget is written point for point, as the data
   file always was: the expected text is built here from the format. */
TEST(series_within_budget_written_unchanged)
{
	struct sb_err e;
	struct chart c;
	chart_init(&c, "budget", "t", CHART_LINES);
	chart_axis_set(&c.x, "x", false);
	chart_axis_set(&c.y, "y", false);
	struct chart_series *s = chart_add_series(&c, "DUT", &e);
	size_t cap = 64 + (size_t)THIN_BUDGET * 32, used = 0;
	char *want = malloc(cap);
	if (!want)
		abort();
	used += (size_t)snprintf(want, cap, "# t\n# x: x\n# y: y\n"
					    "# index 0: \"DUT\"\n");
	for (int k = 0; k < THIN_BUDGET; k++) {
		double px = k * 0.37, py = k % 50 == 7 ? 9e5 : 100 + k % 13;
		CHECK(series_add(s, px, py, NULL, &e) == 0);
		used += (size_t)snprintf(want + used, cap - used,
					 "%.10g\t%.10g\n", px, py);
	}
	CHECK(chart_write(&c, tmp(), &e) == 0);
	char *dat = slurp("budget", "dat");
	CHECK(dat && !strcmp(dat, want));
	free(dat);
	/* one point more and it is thinned, saying so */
	CHECK(series_add(s, THIN_BUDGET * 0.37, 1, NULL, &e) == 0);
	CHECK(chart_write(&c, tmp(), &e) == 0);
	dat = slurp("budget", "dat");
	CHECK(dat && strstr(dat, "# thinned: "));
	free(dat);
	free(want);
	chart_free(&c);
}

/* Runs last (constructors register in order): remove the temp dir. */
TEST(zz_cleanup)
{
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp());
	CHECK(system(cmd) == 0);
}

CHECK_MAIN("chart")
