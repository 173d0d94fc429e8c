/*
 * A chart, described as data: series of points, two axes, a kind.  The
 * report builds charts from stored runs; chart_write() turns one into a
 * gnuplot data file (NAME.dat) and script (NAME.gp) that a user can edit
 * and re-run, and chart_render() runs gnuplot on the script to make
 * NAME.svg and NAME.png.  Nothing here knows about SSDs.
 *
 * Kinds:
 *   lines    x/y lines, one per series (bandwidth vs time, overlays)
 *   scatter  x/y points, one colour per series, marker opacity settable
 *   bars     categories along x, one bar per series in each category;
 *            category labels come from the first series' point labels
 *   nines    x = latency (log), y = percentile drawn on a "nines" scale
 *            (50, 90, 99 ... 99.9999 %): y values are percentiles 0..100
 */
#ifndef SSDBENCH_REPORT_CHART_H
#define SSDBENCH_REPORT_CHART_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

enum chart_kind { CHART_LINES, CHART_SCATTER, CHART_BARS, CHART_NINES };

/* The highest percentile a nines chart shows: six nines. */
#define CHART_NINES_MAX 6

struct chart_axis {
	char label[128];	/* with its unit: "Bandwidth (MB/s)" */
	bool log;		/* base-10 log scale */
	bool has_min, has_max;	/* fixed range ends; else the data's, out to
				   the next tick */
	double min, max;
	bool pow2_ticks;	/* a log axis ticked 1, 2, 4 ... (queue depths) */
};

struct chart_series {
	char title[128];	/* legend entry */
	int colour;		/* palette index; -1: the series' position */
	bool emphasis;		/* drawn last (on top) and thicker: the DUT */
	size_t n, cap;
	double *x, *y;
	char **labels;		/* bars: category of each point; lines and
				   scatter: a text drawn beside the point
				   ("QD32"), NULL for none */
};

/* A labelled reference line across the plot: a level at y, or a moment
   or amount at x. */
struct chart_mark {
	bool vertical;		/* at x; else at y */
	double at;
	char label[96];		/* "" for none */
};

struct chart {
	char name[96];		/* file stem: letters, digits, '-', '_' */
	char title[192];
	enum chart_kind kind;
	struct chart_axis x, y;
	struct chart_series *series;
	size_t nseries, cap;
	double opacity;		/* scatter markers, 0..1 (1 = opaque) */
	bool has_hline;		/* a horizontal reference line (pass mark) */
	double hline;
	char hline_title[64];
	bool bar_values;	/* print each bar's value above it */
	double *vmarks;		/* vertical marks at these x (device queries) */
	size_t nvmarks, vmarks_cap;
	struct chart_mark *marks;	/* labelled levels and moments */
	size_t nmarks, marks_cap;
};

/* Zeroed chart with a name, title and kind; opacity 1. */
void chart_init(struct chart *c, const char *name, const char *title,
		enum chart_kind kind);
void chart_free(struct chart *c);
void chart_axis_set(struct chart_axis *a, const char *label, bool log);
void chart_axis_range(struct chart_axis *a, double min, double max);

/* A new empty series; NULL when out of memory. */
struct chart_series *chart_add_series(struct chart *c, const char *title,
				      struct sb_err *e);
/* Append a point; `label` only for bars (copied). */
int series_add(struct chart_series *s, double x, double y, const char *label,
	       struct sb_err *e);

/* A vertical mark at x (a moment: a device query ran then). */
int chart_add_vmark(struct chart *c, double x, struct sb_err *e);

/* A labelled reference line (a cache level, where the cache ended). */
int chart_add_mark(struct chart *c, bool vertical, double at,
		   const char *label, struct sb_err *e);

/*
 * A number for reading on a chart (tick labels, values on bars): never an
 * exponent; from 10^4 up with a k, M or G suffix ("1.1M", "500k"), at most
 * three significant digits after the suffix (chart_ticks.c).
 */
const char *chart_number(double v, char *buf, size_t len);

/*
 * The ticks of an axis over [lo, hi] (the data, or the axis' fixed ends):
 * linear axes step by 1, 2, 2.5 or 5 x 10^k (about six ticks), log axes
 * by decades (with 2 and 5 between when the axis spans at most two
 * decades); a free end is moved out to the next tick, a fixed end kept.
 * Labels are chart_number's, with the decimals the step needs.
 */
#define CHART_MAX_TICKS 48
struct chart_ticks {
	size_t n;
	double v[CHART_MAX_TICKS];
	char label[CHART_MAX_TICKS][24];
	double lo, hi;		/* the axis range to set */
};
void chart_ticks(const struct chart_axis *a, double lo, double hi,
		 struct chart_ticks *t);

/* Points in all series; a chart with none is not worth drawing. */
size_t chart_points(const struct chart *c);

/*
 * The most points of one lines, scatter or nines series that a data file
 * holds: about two per pixel of the 960-pixel SVG (and 1.5 of the
 * 1280-pixel PNG), more than a line or a cloud of markers can show apart.
 * A longer series is thinned (chart_thin) as it is written; a shorter one
 * is written point for point.
 */
#define CHART_SERIES_MAX_POINTS 4000

/*
 * Thin the points idx[0 .. *n) of x/y (all finite, x > 0 on a log axis) to
 * at most `max` (>= 4): the x range (log10 x with `logx`) is cut into
 * (max - 2) / 2 equal buckets and each keeps its lowest-y and highest-y
 * point (the first of equal ones); the first and last points stay too.
 * Kept indices stay in their order, compacted at the front of idx; *n is
 * their count.  Nothing changes when *n <= max.
 */
int chart_thin(const double *x, const double *y, size_t *idx, size_t *n,
	       bool logx, size_t max, struct sb_err *e);

/* The most points the data file of chart c holds: each lines, scatter or
   nines series counted up to CHART_SERIES_MAX_POINTS. */
size_t chart_points_written_max(const struct chart *c);

/* Sort a bar series' points by value, largest first (rankings). */
void series_sort_desc(struct chart_series *s);

/*
 * Write DIR/NAME.dat and DIR/NAME.gp.  The script refers to the data file
 * and its outputs by bare name, so it runs from DIR: `cd DIR && gnuplot
 * NAME.gp`.  Fails on an empty chart, a bad name or an I/O error.
 */
int chart_write(const struct chart *c, const char *dir, struct sb_err *e);

/*
 * Run `gnuplot NAME.gp` in DIR (the program named by $SSDBENCH_GNUPLOT, or
 * "gnuplot"), and check that NAME.svg and NAME.png came out non-empty.
 * gnuplot's complaints go to DIR/NAME.log and into the error message.
 */
int chart_render(const char *dir, const char *name, struct sb_err *e);

/*
 * Render n charts with up to `jobs` gnuplot processes at once; stops
 * starting new ones at the first failure (whose error is reported) and
 * waits for every one it started.
 */
#define CHART_MAX_JOBS 16
int chart_render_all(const char *dir, const char (*names)[96], size_t n,
		     unsigned jobs, struct sb_err *e);

#endif
