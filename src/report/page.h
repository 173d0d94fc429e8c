/*
 * The HTML page, written in two parts while the sections are built: the
 * summary at the top (headline text, figures) and the body (one section per
 * test).  page_finish() puts them into one file with inline CSS, so the page
 * needs nothing but the chart SVGs beside it.  Every text that comes from
 * data goes through page_esc.
 */
#ifndef SSDBENCH_REPORT_PAGE_H
#define SSDBENCH_REPORT_PAGE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "common/error.h"
#include "report/chart.h"

struct page {
	const char *dir;
	FILE *top, *body;
	char *top_buf, *body_buf;
	size_t top_len, body_len;
	char (*charts)[96];	/* names, rendered by page_finish */
	size_t ncharts, cap;
	size_t ntables;
};

int page_open(struct page *p, const char *dir, struct sb_err *e);
void page_close(struct page *p);

/* Escaped text into f. */
void page_esc(FILE *f, const char *s);

void page_h2(struct page *p, const char *id, const char *title);
void page_h3(struct page *p, const char *title);
/* A paragraph of escaped text. */
void page_para(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Write the chart's data and script and put it on the page as a figure;
 * the chart is rendered by page_finish.  A chart without points is
 * skipped (returns 0, nothing shown): a missing test is not an error.
 */
int page_chart(struct page *p, const struct chart *c, struct sb_err *e);

/* Tables: header cells given as a NULL-ended list. */
void page_table_begin(FILE *f, struct page *p, const char *caption, ...);
void page_tr(FILE *f);
void page_td(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A cell with a CSS class ("pass", "fail", "num"). */
void page_td_class(FILE *f, const char *cls, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * A number cell for reading: never an exponent ("12620", "167", "8.91",
 * "0.0372"), `decimals` after the point below 100 (-1: three significant
 * digits); a value that is not a number (NaN, inf) is `absent`, which
 * says why ("-" only where the table's note explains it).
 */
void page_td_num(FILE *f, double v, int decimals, const char *absent);
/* The same text, for sentences and other cells. */
const char *page_num(double v, int decimals, char *buf, size_t len);
void page_table_end(FILE *f);

/* Render every chart, write DIR/index.html. */
int page_finish(struct page *p, const char *title, const char *subtitle,
		struct sb_err *e);

#endif
