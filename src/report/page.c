/*
 * HTML output.  Two memory streams (summary and body) are filled while the
 * sections run, then joined under one <head> with the style sheet inline.
 * The small script at the end only marks on <body> how many images loaded;
 * it lets a headless browser check a page without screenshots, and does
 * nothing a reader would notice.
 */
#include "report/page.h"

#include "common/utf8.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char style[] =
	"body{font-family:Helvetica,Arial,sans-serif;max-width:1100px;"
	"margin:0 auto;padding:1em 2em;color:#222;line-height:1.45}\n"
	"h1{font-size:1.7em;margin-bottom:0.2em}\n"
	"h2{border-bottom:2px solid #1f77b4;padding-bottom:0.2em;"
	"margin-top:2em}\n"
	"h3{margin-top:1.4em}\n"
	".sub{color:#666;margin-top:0}\n"
	"figure{margin:1em 0}\n"
	"figure img{width:100%;height:auto;border:1px solid #ddd}\n"
	"figcaption{font-size:0.9em;color:#555}\n"
	"figcaption a{color:#555}\n"
	"table{border-collapse:collapse;margin:1em 0;font-size:0.92em;"
	"max-width:100%}\n"
	/* A long path or name may break anywhere, so a table as wide as
	   the runs table still fits the page. */
	"td{overflow-wrap:anywhere}\n"
	"caption{text-align:left;font-weight:bold;padding:0.3em 0}\n"
	"th,td{border:1px solid #ccc;padding:0.25em 0.6em;vertical-align:top}\n"
	"th{background:#f0f4f8;text-align:left}\n"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
	"td.pass{background:#e3f4e3}\n"
	"td.fail{background:#fbe3e3}\n"
	".headline{background:#f7f9fb;border-left:4px solid #1f77b4;"
	"padding:0.6em 1em}\n"
	"nav a{margin-right:0.8em}\n";

static const char script[] =
	"<script>\n"
	"window.addEventListener('load', function () {\n"
	"  var imgs = document.images, ok = 0;\n"
	"  for (var i = 0; i < imgs.length; i++)\n"
	"    if (imgs[i].complete && imgs[i].naturalWidth > 0) ok++;\n"
	"  document.body.setAttribute('data-images', ok + '/' + imgs.length);\n"
	"});\n"
	"</script>\n";

/* Above this many points a chart is shown as PNG on the page. */
#define PAGE_SVG_MAX_POINTS 4000

int page_open(struct page *p, const char *dir, struct sb_err *e)
{
	memset(p, 0, sizeof(*p));
	p->dir = dir;
	p->top = open_memstream(&p->top_buf, &p->top_len);
	p->body = open_memstream(&p->body_buf, &p->body_len);
	if (!p->top || !p->body) {
		page_close(p);
		return sb_errno(e, errno, "page buffers");
	}
	return 0;
}

void page_close(struct page *p)
{
	if (p->top)
		fclose(p->top);
	if (p->body)
		fclose(p->body);
	free(p->top_buf);
	free(p->body_buf);
	free(p->charts);
	memset(p, 0, sizeof(*p));
}

/* Text as HTML text or a quoted attribute value: markup characters as
   entities, control characters as spaces, bytes that are not well-formed
   UTF-8 as U+FFFD, so text from a database shows as what it is. */
void page_esc(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		if (*p >= 0x80) {
			size_t n = utf8_seq_len(p);
			if (n)
				fwrite(p, 1, n, f);
			else
				fputs("\xef\xbf\xbd", f);
			p += n ? n : 1;
			continue;
		}
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case '\n': case '\t': fputc(*p, f); break;
		default: fputc(*p < 0x20 || *p == 0x7f ? ' ' : *p, f);
		}
		p++;
	}
}

static void vesc(FILE *f, const char *fmt, va_list ap)
{
	char buf[4096];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	page_esc(f, buf);
}

void page_h2(struct page *p, const char *id, const char *title)
{
	fputs("<h2 id=\"", p->body);
	page_esc(p->body, id);
	fputs("\">", p->body);
	page_esc(p->body, title);
	fputs("</h2>\n", p->body);
}

void page_h3(struct page *p, const char *title)
{
	fputs("<h3>", p->body);
	page_esc(p->body, title);
	fputs("</h3>\n", p->body);
}

void page_para(FILE *f, const char *fmt, ...)
{
	va_list ap;
	fputs("<p>", f);
	va_start(ap, fmt);
	vesc(f, fmt, ap);
	va_end(ap);
	fputs("</p>\n", f);
}

int page_chart(struct page *p, const struct chart *c, struct sb_err *e)
{
	if (chart_points(c) == 0)
		return 0;
	if (chart_write(c, p->dir, e))
		return -1;
	if (p->ncharts == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 32;
		char (*n)[96] = realloc(p->charts, cap * sizeof(*n));
		if (!n)
			return sb_errno(e, ENOMEM, "chart list");
		p->charts = n;
		p->cap = cap;
	}
	for (size_t i = 0; i < p->ncharts; i++)
		if (!strcmp(p->charts[i], c->name))
			return sb_errf(e, "two charts named %s", c->name);
	snprintf(p->charts[p->ncharts++], 96, "%s", c->name);
	/* A chart of many markers (several devices' thinned series) is
	   an SVG a browser takes long to draw; the page shows its PNG and
	   links the SVG. */
	bool heavy = chart_points_written_max(c) > PAGE_SVG_MAX_POINTS;
	fprintf(p->body, "<figure id=\"fig-%s\"><img src=\"%s.%s\" alt=\"",
		c->name, c->name, heavy ? "png" : "svg");
	page_esc(p->body, c->title);
	fputs("\"><figcaption>", p->body);
	page_esc(p->body, c->title);
	fprintf(p->body, " (<a href=\"%s.%s\">%s</a>, <a href=\"%s.dat\">"
			 "data</a>, <a href=\"%s.gp\">gnuplot</a>)"
			 "</figcaption></figure>\n", c->name, heavy ? "svg" : "png",
		heavy ? "SVG" : "PNG", c->name, c->name);
	return 0;
}

void page_table_begin(FILE *f, struct page *p, const char *caption, ...)
{
	va_list ap;
	p->ntables++;
	fputs("<table>\n", f);
	if (caption) {
		fputs("<caption>", f);
		page_esc(f, caption);
		fputs("</caption>\n", f);
	}
	fputs("<tr>", f);
	va_start(ap, caption);
	for (const char *h; (h = va_arg(ap, const char *));) {
		fputs("<th>", f);
		page_esc(f, h);
		fputs("</th>", f);
	}
	va_end(ap);
}

void page_tr(FILE *f)
{
	fputs("</tr>\n<tr>", f);
}

void page_td(FILE *f, const char *fmt, ...)
{
	va_list ap;
	fputs("<td>", f);
	va_start(ap, fmt);
	vesc(f, fmt, ap);
	va_end(ap);
	fputs("</td>", f);
}

void page_td_class(FILE *f, const char *cls, const char *fmt, ...)
{
	va_list ap;
	fprintf(f, "<td class=\"%s\">", cls);
	va_start(ap, fmt);
	vesc(f, fmt, ap);
	va_end(ap);
	fputs("</td>", f);
}

const char *page_num(double v, int decimals, char *buf, size_t len)
{
	double a = fabs(v);
	if (a >= 99.95 || v == 0)
		snprintf(buf, len, "%.0f", v);
	else if (decimals >= 0)
		snprintf(buf, len, "%.*f", decimals, v);
	else
		/* Three significant digits, fixed point. */
		snprintf(buf, len, "%.*f", a >= 9.995 ? 1 : a >= 0.9995 ? 2
				   : a >= 0.09995 ? 3 : 4, v);
	return buf;
}

void page_td_num(FILE *f, double v, int decimals, const char *absent)
{
	char b[64];
	fputs("<td class=\"num\">", f);
	page_esc(f, isfinite(v) ? page_num(v, decimals, b, sizeof b) : absent);
	fputs("</td>", f);
}

void page_table_end(FILE *f)
{
	fputs("</tr>\n</table>\n", f);
}

int page_finish(struct page *p, const char *title, const char *subtitle,
		struct sb_err *e)
{
	/* gnuplot starts slowly and draws on one core: a few at once. */
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned jobs = cpus < 1 ? 1 : cpus > 8 ? 8 : (unsigned)cpus;
	if (chart_render_all(p->dir, (const char (*)[96])p->charts,
			     p->ncharts, jobs, e))
		return -1;
	fflush(p->top);
	fflush(p->body);

	char path[4096];
	snprintf(path, sizeof(path), "%s/index.html", p->dir);
	FILE *f = fopen(path, "w");
	if (!f)
		return sb_errno(e, errno, "cannot create %s", path);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n"
	      "<link rel=\"icon\" href=\"data:,\">\n<title>", f);
	page_esc(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
	page_esc(f, title);
	fputs("</h1>\n<p class=\"sub\">", f);
	page_esc(f, subtitle);
	fputs("</p>\n", f);
	fwrite(p->top_buf, 1, p->top_len, f);
	fwrite(p->body_buf, 1, p->body_len, f);
	fputs(script, f);
	fputs("</body>\n</html>\n", f);
	int bad = ferror(f);
	if (fclose(f) || bad)
		return sb_errno(e, errno ? errno : EIO, "cannot write %s", path);
	return 0;
}
