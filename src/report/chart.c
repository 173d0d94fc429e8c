/*
 * The chart model: growing arrays of points and nothing else.  Writing and
 * rendering live in chart_gnuplot.c and chart_render.c.
 */
#include "report/chart.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void chart_init(struct chart *c, const char *name, const char *title,
		enum chart_kind kind)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->title, sizeof(c->title), "%s", title);
	c->kind = kind;
	c->opacity = 1.0;
}

static void series_free(struct chart_series *s)
{
	if (s->labels)
		for (size_t i = 0; i < s->n; i++)
			free(s->labels[i]);
	free(s->labels);
	free(s->x);
	free(s->y);
}

void chart_free(struct chart *c)
{
	for (size_t i = 0; i < c->nseries; i++)
		series_free(&c->series[i]);
	free(c->series);
	c->series = NULL;
	c->nseries = c->cap = 0;
	free(c->vmarks);
	c->vmarks = NULL;
	c->nvmarks = c->vmarks_cap = 0;
	free(c->marks);
	c->marks = NULL;
	c->nmarks = c->marks_cap = 0;
}

int chart_add_mark(struct chart *c, bool vertical, double at,
		   const char *label, struct sb_err *e)
{
	if (c->nmarks == c->marks_cap) {
		size_t cap = c->marks_cap ? 2 * c->marks_cap : 8;
		struct chart_mark *m = realloc(c->marks, cap * sizeof(*m));
		if (!m)
			return sb_errno(e, ENOMEM, "chart %s: marks", c->name);
		c->marks = m;
		c->marks_cap = cap;
	}
	struct chart_mark *m = &c->marks[c->nmarks++];
	m->vertical = vertical;
	m->at = at;
	snprintf(m->label, sizeof(m->label), "%s", label ? label : "");
	return 0;
}

int chart_add_vmark(struct chart *c, double x, struct sb_err *e)
{
	if (c->nvmarks == c->vmarks_cap) {
		size_t cap = c->vmarks_cap ? 2 * c->vmarks_cap : 16;
		double *v = realloc(c->vmarks, cap * sizeof(*v));
		if (!v)
			return sb_errno(e, ENOMEM, "chart %s: marks", c->name);
		c->vmarks = v;
		c->vmarks_cap = cap;
	}
	c->vmarks[c->nvmarks++] = x;
	return 0;
}

void chart_axis_set(struct chart_axis *a, const char *label, bool log)
{
	snprintf(a->label, sizeof(a->label), "%s", label);
	a->log = log;
}

void chart_axis_range(struct chart_axis *a, double min, double max)
{
	a->has_min = a->has_max = true;
	a->min = min;
	a->max = max;
}

struct chart_series *chart_add_series(struct chart *c, const char *title,
				      struct sb_err *e)
{
	if (c->nseries == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 4;
		struct chart_series *p = realloc(c->series, cap * sizeof(*p));
		if (!p) {
			sb_errno(e, ENOMEM, "chart %s: series", c->name);
			return NULL;
		}
		c->series = p;
		c->cap = cap;
	}
	struct chart_series *s = &c->series[c->nseries++];
	memset(s, 0, sizeof(*s));
	s->colour = -1;
	snprintf(s->title, sizeof(s->title), "%s", title);
	return s;
}

int series_add(struct chart_series *s, double x, double y, const char *label,
	       struct sb_err *e)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		double *nx = realloc(s->x, cap * sizeof(double));
		if (nx)
			s->x = nx;
		double *ny = nx ? realloc(s->y, cap * sizeof(double)) : NULL;
		if (ny)
			s->y = ny;
		char **nl = ny ? realloc(s->labels, cap * sizeof(char *)) : NULL;
		if (!nl)
			return sb_errno(e, ENOMEM, "series %s: points", s->title);
		s->labels = nl;
		s->cap = cap;
	}
	s->labels[s->n] = NULL;
	if (label && !(s->labels[s->n] = strdup(label)))
		return sb_errno(e, ENOMEM, "series %s: label", s->title);
	s->x[s->n] = x;
	s->y[s->n] = y;
	s->n++;
	return 0;
}

size_t chart_points(const struct chart *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nseries; i++)
		n += c->series[i].n;
	return n;
}

size_t chart_points_written_max(const struct chart *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nseries; i++) {
		size_t k = c->series[i].n;
		n += c->kind != CHART_BARS && k > CHART_SERIES_MAX_POINTS
			? CHART_SERIES_MAX_POINTS : k;
	}
	return n;
}

void series_sort_desc(struct chart_series *s)
{
	/* Insertion sort: rankings have a handful of devices, and a stable
	   order keeps ties where the caller put them (the DUT first). */
	for (size_t i = 1; i < s->n; i++) {
		double x = s->x[i], y = s->y[i];
		char *l = s->labels[i];
		size_t j = i;
		for (; j > 0 && s->y[j - 1] < y; j--) {
			s->x[j] = s->x[j - 1];
			s->y[j] = s->y[j - 1];
			s->labels[j] = s->labels[j - 1];
		}
		s->x[j] = x;
		s->y[j] = y;
		s->labels[j] = l;
	}
}
