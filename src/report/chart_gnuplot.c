/*
 * A chart as a gnuplot data file and script.  The two files are meant to be
 * read and edited by people who restyle charts for a blog post, so the
 * data file says what each block and column is, and the script has one
 * setting per line and draws the SVG first, then the PNG with `replot`.
 *
 * Points gnuplot cannot draw (not finite, or <= 0 on a log axis) are left
 * out of the data file rather than left for gnuplot to warn about.  A
 * series longer than a chart can show is thinned on the way (chart_thin.c).
 */
#include "report/chart.h"

#include "common/utf8.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tableau 10: distinct on screen and in print; the DUT takes the first. */
static const char *const palette[] = {
	"1f77b4", "d62728", "2ca02c", "ff7f0e", "9467bd",
	"8c564b", "e377c2", "7f7f7f", "bcbd22", "17becf",
};
#define PALETTE_N (sizeof(palette) / sizeof(palette[0]))

static bool name_ok(const char *name)
{
	if (!*name)
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' ||
		      *p == '.'))
			return false;
	return name[0] != '.';
}

/*
 * Text from outside (a run's name, a target's path, a drive's model string,
 * a database someone handed over) reaches gnuplot only through here, and
 * only characters on a whitelist pass: gnuplot runs `cmd` inside
 * double-quoted strings, `system "cmd"` at the start of any line and
 * expands @macros, so a backquote, a newline or a control character must
 * never reach a script.  Letters, digits, space, the punctuation below and
 * well-formed UTF-8 pass; other control characters become a space, every
 * other byte '?'.  The SVG terminal escapes '<' and '&' itself.
 */
static bool gp_char_ok(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') ||
	       (c && strchr(" !#%&()*+,-./:;<=>?[]^_{|}~'\"", c));
}

/* `s` cleaned as above; `quote` doubled (gnuplot's single-quoted strings)
   or, with `swap`, turned into the other quote (data-file fields). */
static void gp_text(FILE *f, const char *s, char quote, bool swap)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		if (*p >= 0x80) {
			size_t n = utf8_seq_len(p);
			if (n) {
				fwrite(p, 1, n, f);
				p += n;
			} else {
				fputc('?', f);
				p++;
			}
			continue;
		}
		unsigned char c = *p++;
		if (c < 0x20 || c == 0x7f)
			c = ' ';
		else if (!gp_char_ok(c))
			c = '?';
		if (c == (unsigned char)quote) {
			fputc(swap ? (quote == '"' ? '\'' : '"') : quote, f);
			if (swap)
				continue;
		}
		fputc(c, f);
	}
}

/* A gnuplot string in single quotes: no escapes, no substitution. */
static void gp_string(FILE *f, const char *s)
{
	fputc('\'', f);
	gp_text(f, s, '\'', false);
	fputc('\'', f);
}

/* A quoted field in the data file; gnuplot data has no escapes. */
static void dat_label(FILE *f, const char *s)
{
	fputc('"', f);
	gp_text(f, s, '"', true);
	fputc('"', f);
}

/* A comment line of a script or data file: one line, whatever `s` holds. */
static void gp_comment(FILE *f, const char *what, const char *s)
{
	fprintf(f, "# %s", what);
	gp_text(f, s, 0, false);
	fputc('\n', f);
}

static bool point_drawable(const struct chart *c, double x, double y)
{
	if (!isfinite(x) || !isfinite(y))
		return false;
	if (c->kind != CHART_BARS && c->x.log && x <= 0)
		return false;
	if (c->kind == CHART_NINES)
		return y >= 0 && y < 100;
	if (c->y.log && y <= 0)
		return false;
	return true;
}

/* Inside the fixed ends of both axes (a clipped scatter view). */
static bool point_in_view(const struct chart *c, double x, double y)
{
	return !(c->x.has_min && x < c->x.min) && !(c->x.has_max && x > c->x.max) &&
	       !(c->y.has_min && y < c->y.min) && !(c->y.has_max && y > c->y.max);
}

/* One block of the data file: the series' drawable points, thinned to
   CHART_SERIES_MAX_POINTS when there are more (with a comment saying so).
   A scatter chart draws no marker outside its fixed axis ends, so a
   thinned one keeps only the points in view: the steps then divide what
   is shown, and a bucket's highest point is the highest one in view. */
static int write_xy_block(FILE *f, const struct chart *c,
			  const struct chart_series *s, struct sb_err *e)
{
	size_t n = 0, all;
	size_t *idx = s->n ? malloc(s->n * sizeof(*idx)) : NULL;
	if (s->n && !idx)
		return sb_errno(e, ENOMEM, "chart %s: %zu points", c->name, s->n);
	for (size_t k = 0; k < s->n; k++)
		if (point_drawable(c, s->x[k], s->y[k]))
			idx[n++] = k;
	all = n;
	bool clipped = false;
	if (n > CHART_SERIES_MAX_POINTS && c->kind == CHART_SCATTER) {
		size_t m = 0;
		for (size_t j = 0; j < n; j++)
			if (point_in_view(c, s->x[idx[j]], s->y[idx[j]]))
				idx[m++] = idx[j];
		clipped = m < n;
		n = m;
	}
	if (chart_thin(s->x, s->y, idx, &n, c->x.log, CHART_SERIES_MAX_POINTS,
		       e)) {
		free(idx);
		return -1;
	}
	if (n < all)
		fprintf(f, "# thinned: %zu of %zu points, the lowest and highest"
			   " y of each of %d equal steps along x, and the"
			   " first and last%s\n", n, all,
			(CHART_SERIES_MAX_POINTS - 2) / 2,
			clipped ? ", of those inside the axis ranges" : "");
	for (size_t j = 0; j < n; j++) {
		size_t k = idx[j];
		fprintf(f, "%.10g\t%.10g", s->x[k], s->y[k]);
		if (s->labels && s->labels[k]) {
			fputc('\t', f);
			dat_label(f, s->labels[k]);
		}
		fputc('\n', f);
	}
	free(idx);
	return 0;
}

static int write_xy_data(FILE *f, const struct chart *c, struct sb_err *e)
{
	for (size_t i = 0; i < c->nseries; i++) {
		const struct chart_series *s = &c->series[i];
		if (i)
			fputs("\n\n", f);
		fprintf(f, "# index %zu: ", i);
		dat_label(f, s->title);
		fputc('\n', f);
		if (write_xy_block(f, c, s, e))
			return -1;
	}
	return 0;
}

/* Does a lines or scatter series carry texts beside its points? */
static bool series_has_labels(const struct chart_series *s)
{
	for (size_t k = 0; s->labels && k < s->n; k++)
		if (s->labels[k])
			return true;
	return false;
}

/* The extent of the drawable points (and the marks) along x or y; NaN
   when there is none. */
static void data_range(const struct chart *c, bool y, double *lo, double *hi)
{
	*lo = *hi = NAN;
	for (size_t i = 0; i < c->nseries; i++) {
		const struct chart_series *s = &c->series[i];
		for (size_t k = 0; k < s->n; k++) {
			if (!point_drawable(c, s->x[k], s->y[k]))
				continue;
			double v = y ? s->y[k] : s->x[k];
			if (!(v >= *lo))
				*lo = v;
			if (!(v <= *hi))
				*hi = v;
		}
	}
	for (size_t i = 0; i < c->nmarks; i++) {
		double v = c->marks[i].at;
		if (c->marks[i].vertical != !y || !isfinite(v) ||
		    ((y ? c->y.log : c->x.log) && v <= 0))
			continue;
		if (!(v >= *lo))
			*lo = v;
		if (!(v <= *hi))
			*hi = v;
	}
}

/* Categories in order of first appearance over all series. */
static size_t bar_categories(const struct chart *c, const char **cat,
			     size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nseries; i++) {
		const struct chart_series *s = &c->series[i];
		for (size_t k = 0; k < s->n; k++) {
			const char *l = s->labels[k] ? s->labels[k] : "";
			size_t j = 0;
			while (j < n && strcmp(cat[j], l))
				j++;
			if (j == n && n < max)
				cat[n++] = l;
		}
	}
	return n;
}

#define MAX_CATEGORIES 512

static double write_bar_data(FILE *f, const struct chart *c)
{
	/* One series with its values printed: the text in a last column,
	   written here (gnuplot's sprintf would print 1.26e+06). */
	bool values = c->bar_values && c->nseries == 1;
	const char *cat[MAX_CATEGORIES];
	size_t ncat = bar_categories(c, cat, MAX_CATEGORIES);
	double ymax = 0;
	fputs("# category", f);
	for (size_t i = 0; i < c->nseries; i++) {
		fputc('\t', f);
		dat_label(f, c->series[i].title);
	}
	fputc('\n', f);
	for (size_t j = 0; j < ncat; j++) {
		dat_label(f, cat[j]);
		for (size_t i = 0; i < c->nseries; i++) {
			const struct chart_series *s = &c->series[i];
			size_t k = 0;
			while (k < s->n &&
			       strcmp(s->labels[k] ? s->labels[k] : "", cat[j]))
				k++;
			if (k < s->n && isfinite(s->y[k])) {
				fprintf(f, "\t%.10g", s->y[k]);
				if (s->y[k] > ymax)
					ymax = s->y[k];
			} else {
				fputs("\t?", f);
			}
			if (values) {
				char b[32];
				fputc('\t', f);
				dat_label(f, k < s->n && isfinite(s->y[k])
					  ? chart_number(s->y[k], b, sizeof(b)) : "");
			}
		}
		fputc('\n', f);
	}
	return ymax;
}

/*
 * An axis with its range and its ticks written out (chart_ticks): the
 * labels are ssdbench's, so none is ever in scientific notation.  `lo`,
 * `hi` are the data's extent (NaN: none).
 */
static void write_axis(FILE *f, char xy, const struct chart_axis *a,
		       double lo, double hi)
{
	fprintf(f, "set %clabel ", xy);
	gp_string(f, a->label);
	fputc('\n', f);
	if (a->log)
		fprintf(f, "set logscale %c 10\n", xy);
	struct chart_ticks t;
	chart_ticks(a, lo, hi, &t);
	/* gnuplot drops a log axis' tick that lies exactly on the range's
	   end (log10 rounds): the range is a hair wider. */
	double slack = a->log ? 1e-9 : 0;
	fprintf(f, "set %crange [%.10g:%.10g]\n", xy, t.lo * (1 - slack),
		t.hi * (1 + slack));
	fprintf(f, "set %ctics (", xy);
	for (size_t i = 0; i < t.n; i++)
		fprintf(f, "%s\"%s\" %.10g", i ? ", " : "", t.label[i], t.v[i]);
	fputs(")\n", f);
}

/* Labelled levels and moments: dashed grey lines, the text at the line. */
static void write_marks(FILE *f, const struct chart *c)
{
	for (size_t i = 0; i < c->nmarks; i++) {
		const struct chart_mark *m = &c->marks[i];
		if (!isfinite(m->at))
			continue;
		if (m->vertical)
			fprintf(f, "set arrow from first %.10g, graph 0 to first "
				   "%.10g, graph 1 nohead lw 1.5 dt 4 lc rgb "
				   "\"#444444\" front\n", m->at, m->at);
		else
			fprintf(f, "set arrow from graph 0, first %.10g to graph 1, "
				   "first %.10g nohead lw 1.5 dt 2 lc rgb "
				   "\"#444444\" front\n", m->at, m->at);
		if (!m->label[0])
			continue;
		fputs("set label ", f);
		gp_string(f, m->label);
		if (m->vertical)
			fprintf(f, " at first %.10g, graph 0.98 rotate by 90 right "
				   "offset -0.7,0 front tc rgb \"#444444\"\n", m->at);
		else
			fprintf(f, " at graph 0.99, first %.10g right offset 0,0.6 "
				   "front tc rgb \"#444444\"\n", m->at);
	}
}

/* gnuplot's "#AARRGGBB": AA is transparency, 00 opaque. */
static void colour_rgb(FILE *f, size_t i, double opacity)
{
	int aa = (int)lround((1.0 - opacity) * 255.0);
	if (aa < 0)
		aa = 0;
	if (aa > 255)
		aa = 255;
	fprintf(f, "rgb \"#%02x%s\"", aa, palette[i % PALETTE_N]);
}

/* A line or marker colour. */
static void colour(FILE *f, size_t i, double opacity)
{
	fputs("lc ", f);
	colour_rgb(f, i, opacity);
}

#define LINESPOINTS_MAX 64

/* A series' colour: the one the report gave it (a device keeps its
   colour on every chart), else its position. */
static size_t series_colour(const struct chart *c, size_t i)
{
	return c->series[i].colour >= 0 ? (size_t)c->series[i].colour : i;
}

static void write_xy_series(FILE *f, const struct chart *c, const char *dat, size_t i)
{
	const struct chart_series *s = &c->series[i];
	double lw = s->emphasis ? 3.5 : 2, ps = s->emphasis ? 1.1 : 0.8;
	fprintf(f, "\"%s\" index %zu using 1:", dat, i);
	if (c->kind == CHART_NINES)
		fputs("(-log10(1-$2/100))", f);
	else
		fputc('2', f);
	if (c->kind == CHART_SCATTER) {
		/* Small translucent markers for the cloud; the legend gets
		   an opaque, readable one from a series with no points. */
		fprintf(f, " with points pt 7 ps %.2f ", s->emphasis ? 0.45 : 0.35);
		colour(f, series_colour(c, i), c->opacity);
		fputs(" notitle, \\\n     NaN with points pt 7 ps 1.5 ", f);
		colour(f, series_colour(c, i), 1.0);
	} else if (s->n <= LINESPOINTS_MAX) {
		/* A few points (one per QD, per span) are the data:
		   mark them, not just the lines between. */
		fprintf(f, " with linespoints lw %.1f pt 7 ps %.1f ", lw, ps);
		colour(f, series_colour(c, i), 1.0);
	} else {
		fprintf(f, " with lines lw %.1f ", lw);
		colour(f, series_colour(c, i), 1.0);
	}
	fputs(" title ", f);
	gp_string(f, s->title);
	if (c->kind != CHART_NINES && series_has_labels(s)) {
		/* The point's text (its QD) beside it, in the series' colour. */
		fprintf(f, ", \\\n     \"%s\" index %zu using 1:2:3 with labels "
			   "left offset 0.5,0.5 font \",10\" tc ", dat, i);
		colour_rgb(f, series_colour(c, i), 1.0);
		fputs(" notitle", f);
	}
}

static void write_xy_plot(FILE *f, const struct chart *c, const char *dat)
{
	fputs("plot ", f);
	/* The emphasised series last, so it is drawn over the others. */
	size_t k = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < c->nseries; i++) {
			if (c->series[i].emphasis != (pass == 1))
				continue;
			if (k++)
				fputs(", \\\n     ", f);
			write_xy_series(f, c, dat, i);
		}
	fputc('\n', f);
}

static void write_bar_plot(FILE *f, const struct chart *c, const char *dat,
			   double ymax)
{
	fputs("set style data histograms\n"
	      "set style histogram clustered gap 1\n"
	      "set style fill solid 0.85 border -1\n"
	      "set boxwidth 0.9\n"
	      "set xtics rotate by -25 scale 0\n"
	      "set grid noxtics\n", f);
	if (c->nseries == 1)
		fputs("set key off\n", f);	/* the y label names it */
	/* From 0, with room above the tallest bar for its value. */
	struct chart_axis y = c->y;
	double top = ymax;
	if (c->has_hline && c->hline > top)
		top = c->hline;
	if (!y.has_min) {
		y.has_min = true;
		y.min = 0;
	}
	if (!y.has_max && top > 0) {
		y.has_max = true;
		y.max = top * 1.15;
	}
	write_axis(f, 'y', &y, 0, top > 0 ? top : 1);
	fputs("plot ", f);
	for (size_t i = 0; i < c->nseries; i++) {
		if (i)
			fputs(", \\\n     ", f);
		fprintf(f, "\"%s\" using %zu%s ", i ? "" : dat, i + 2,
			i ? "" : ":xtic(1)");
		colour(f, series_colour(c, i), 1.0);
		fputs(" title ", f);
		gp_string(f, c->series[i].title);
	}
	if (c->bar_values && c->nseries == 1)
		fputs(", \\\n     \"\" using 0:2:3 with labels offset 0,0.8 "
		      "notitle", f);
	fputc('\n', f);
}

static void write_script(FILE *f, const struct chart *c, double bar_ymax)
{
	char dat[128], svg[128], png[128];
	snprintf(dat, sizeof(dat), "%s.dat", c->name);
	snprintf(svg, sizeof(svg), "%s.svg", c->name);
	snprintf(png, sizeof(png), "%s.png", c->name);

	gp_comment(f, "", c->title);
	fprintf(f, "# Written by ssdbench from %s; edit and re-run with:"
		   " gnuplot %s.gp\n", dat, c->name);
	fputs("set encoding utf8\n"
	      "set terminal svg size 960,540 dynamic noenhanced "
	      "font \"Helvetica,13\" background rgb \"white\"\n", f);
	fprintf(f, "set output \"%s\"\n", svg);
	fputs("set title ", f);
	gp_string(f, c->title);
	fputs("\nset grid\nset datafile missing \"?\"\n", f);
	fputs(c->kind == CHART_NINES ? "set key bottom right\n"
				     : "set key below\n", f);
	double lo, hi;
	if (c->kind == CHART_BARS) {
		fputs("set xlabel ", f);
		gp_string(f, c->x.label);
		fputc('\n', f);
	} else {
		data_range(c, false, &lo, &hi);
		write_axis(f, 'x', &c->x, lo, hi);
	}
	if (c->kind == CHART_NINES) {
		fprintf(f, "set ylabel ");
		gp_string(f, c->y.label);
		fprintf(f, "\nset yrange [0:%d]\n"
			   "set ytics (\"0\" 0, \"50\" 0.30103, \"90\" 1, "
			   "\"99\" 2, \"99.9\" 3, \"99.99\" 4, \"99.999\" 5, "
			   "\"99.9999\" 6)\n", CHART_NINES_MAX);
	} else if (c->kind != CHART_BARS) {
		data_range(c, true, &lo, &hi);
		write_axis(f, 'y', &c->y, lo, hi);
	}
	write_marks(f, c);
	if (c->has_hline) {
		fprintf(f, "set arrow from graph 0, first %.10g to graph 1, "
			   "first %.10g nohead lw 2 dt 2 lc rgb \"#d62728\" "
			   "front\n", c->hline, c->hline);
		fputs("set label ", f);
		gp_string(f, c->hline_title);
		fprintf(f, " at graph 0.01, first %.10g offset 0,0.7 front\n",
			c->hline);
	}
	/* Numbers only: the marks carry no text of their own (the page's
	   note under the chart says what they are). */
	for (size_t i = 0; i < c->nvmarks; i++)
		if (isfinite(c->vmarks[i]))
			fprintf(f, "set arrow from first %.10g, graph 0 to first "
				   "%.10g, graph 1 nohead lw 1 dt 3 lc rgb "
				   "\"#7f7f7f\" back\n", c->vmarks[i],
				c->vmarks[i]);
	if (c->kind == CHART_BARS)
		write_bar_plot(f, c, dat, bar_ymax);
	else
		write_xy_plot(f, c, dat);
	fputs("set terminal pngcairo size 1280,720 noenhanced "
	      "font \"Helvetica,12\" background rgb \"white\"\n", f);
	fprintf(f, "set output \"%s\"\nreplot\nunset output\n", png);
}

static FILE *open_in(const char *dir, const char *name, const char *ext,
		     struct sb_err *e)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s.%s", dir, name, ext);
	FILE *f = fopen(path, "w");
	if (!f)
		sb_errno(e, errno, "cannot create %s", path);
	return f;
}

static int close_checked(FILE *f, const char *dir, const char *name,
			 const char *ext, struct sb_err *e)
{
	int bad = ferror(f);
	if (fclose(f) || bad)
		return sb_errno(e, errno ? errno : EIO, "cannot write %s/%s.%s",
				dir, name, ext);
	return 0;
}

int chart_write(const struct chart *c, const char *dir, struct sb_err *e)
{
	if (!name_ok(c->name))
		return sb_errf(e, "chart name '%s' is not a plain file name",
			       c->name);
	if (chart_points(c) == 0)
		return sb_errf(e, "chart %s has no points to draw", c->name);
	if (c->kind == CHART_BARS)
		for (size_t i = 0; i < c->nseries; i++)
			if (c->series[i].n && !c->series[i].labels)
				return sb_errf(e, "bar chart %s: series without"
					       " categories", c->name);

	FILE *f = open_in(dir, c->name, "dat", e);
	if (!f)
		return -1;
	gp_comment(f, "", c->title);
	gp_comment(f, "x: ", c->x.label);
	gp_comment(f, "y: ", c->y.label);
	double ymax = 0;
	if (c->kind == CHART_BARS)
		ymax = write_bar_data(f, c);
	else if (write_xy_data(f, c, e)) {
		fclose(f);
		return -1;
	}
	if (close_checked(f, dir, c->name, "dat", e))
		return -1;

	if (!(f = open_in(dir, c->name, "gp", e)))
		return -1;
	write_script(f, c, ymax);
	return close_checked(f, dir, c->name, "gp", e);
}
