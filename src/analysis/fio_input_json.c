/*
 * fio's JSON output, read with jansson.  fio's JSON changed its units over
 * the years without saying so; the fields present tell which units a file
 * uses (see fio_input.h), so a fio 2.x file is not misread as fio 3's.
 */
#include "analysis/fio_input.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const fio_dir_names[FIO_NDIRS] = { "read", "write", "trim", "mixed" };

/* A number member, or NAN when it is absent or not a number. */
static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static int cmp_pair(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* One latency object; `scale` turns its unit into ns. */
static void read_lat(const json_t *o, double scale, struct fio_lat_summary *l)
{
	memset(l, 0, sizeof *l);
	l->min_ns = l->max_ns = l->mean_ns = NAN;
	if (!json_is_object(o))
		return;
	l->present = true;
	l->min_ns = num(o, "min") * scale;
	l->max_ns = num(o, "max") * scale;
	l->mean_ns = num(o, "mean") * scale;
	const json_t *pct = json_object_get(o, "percentile");
	if (!json_is_object(pct))
		return;
	double pairs[FIO_JSON_MAX_PS][2];
	size_t k = 0;
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)pct, key, v) {
		double p = strtod(key, NULL);
		/* fio 2.x pads the list with "0.00": 0 */
		if (!json_is_number(v) || !(p > 0) || k == FIO_JSON_MAX_PS)
			continue;
		pairs[k][0] = p;
		pairs[k][1] = json_number_value(v) * scale;
		k++;
	}
	qsort(pairs, k, sizeof pairs[0], cmp_pair);
	for (size_t i = 0; i < k; i++) {
		l->ps[i] = pairs[i][0];
		l->pv_ns[i] = pairs[i][1];
	}
	l->np = k;
}

static void read_dir(const json_t *d, struct fio_dir_summary *o)
{
	memset(o, 0, sizeof *o);
	o->io_bytes = o->total_ios = o->runtime_ms = o->bw_bytes = o->iops = NAN;
	read_lat(NULL, 1, &o->clat);
	read_lat(NULL, 1, &o->lat);
	if (!json_is_object(d))
		return;
	o->present = true;
	const json_t *clat_ns = json_object_get(d, "clat_ns");
	/* io_kbytes came in fio 2.21 with io_bytes turning into bytes;
	   clat_ns (2.99) is newer still */
	o->io_kib = !json_object_get(d, "io_kbytes") && !clat_ns;
	o->lat_us = !clat_ns && json_object_get(d, "clat") != NULL;
	o->io_bytes = num(d, "io_bytes") * (o->io_kib ? 1024 : 1);
	o->total_ios = num(d, "total_ios");
	o->runtime_ms = num(d, "runtime");
	o->iops = num(d, "iops");
	o->bw_bytes = num(d, "bw_bytes");
	if (isnan(o->bw_bytes))
		o->bw_bytes = num(d, "bw") * 1024;	/* KiB/s in every version */
	if (clat_ns) {
		read_lat(clat_ns, 1, &o->clat);
		read_lat(json_object_get(d, "lat_ns"), 1, &o->lat);
	} else {
		read_lat(json_object_get(d, "clat"), 1000, &o->clat);
		read_lat(json_object_get(d, "lat"), 1000, &o->lat);
	}
}

/* "iops_slope:10.000000%", "bw:2.5%", "iops:500" */
static int parse_ss_name(struct fio_ss_summary *s, struct sb_err *e)
{
	const char *colon = strchr(s->ss, ':');
	if (!colon)
		return sb_errf(e, "steadystate \"%s\": no ':' before the limit", s->ss);
	char rule[16];
	snprintf(rule, sizeof rule, "%.*s", (int)(colon - s->ss), s->ss);
	s->iops = !strcmp(rule, "iops") || !strcmp(rule, "iops_slope");
	s->slope = !strcmp(rule, "iops_slope") || !strcmp(rule, "bw_slope");
	if (!s->iops && !s->slope && strcmp(rule, "bw"))
		return sb_errf(e, "steadystate \"%s\": not iops, iops_slope, bw or "
			       "bw_slope", s->ss);
	char *end;
	s->limit = strtod(colon + 1, &end);
	s->pct = *end == '%';
	return 0;
}

static int read_ss(const json_t *o, struct fio_ss_summary *s, struct sb_err *e)
{
	memset(s, 0, sizeof *s);
	if (!json_is_object(o))
		return 0;
	const json_t *name = json_object_get(o, "ss");
	const json_t *data = json_object_get(o, "data");
	const json_t *bw = json_object_get(data, "bw");
	const json_t *iops = json_object_get(data, "iops");
	if (!json_is_string(name) || !json_is_array(bw) || !json_is_array(iops) ||
	    json_array_size(bw) != json_array_size(iops))
		return sb_errf(e, "steadystate: no \"ss\" name or no bw/iops data of one length");
	snprintf(s->ss, sizeof s->ss, "%s", json_string_value(name));
	if (parse_ss_name(s, e))
		return -1;
	s->present = true;
	s->duration_s = num(o, "duration");
	s->attained = num(o, "attained") > 0;
	const json_t *crit = json_object_get(o, "criterion");
	s->criterion = json_is_string(crit) ? strtod(json_string_value(crit), NULL)
					    : num(o, "criterion");
	s->slope_value = num(o, "slope");
	s->max_deviation = num(o, "max_deviation");
	s->bw_mean = num(data, "bw_mean");
	s->iops_mean = num(data, "iops_mean");
	s->n = json_array_size(bw);
	s->bw_data = calloc(s->n ? s->n : 1, sizeof *s->bw_data);
	s->iops_data = calloc(s->n ? s->n : 1, sizeof *s->iops_data);
	if (!s->bw_data || !s->iops_data)
		return sb_errno(e, ENOMEM, "steadystate data");
	for (size_t i = 0; i < s->n; i++) {
		const json_t *b = json_array_get(bw, i), *io = json_array_get(iops, i);
		if (!json_is_integer(b) || !json_is_integer(io) ||
		    json_integer_value(b) < 0 || json_integer_value(io) < 0)
			return sb_errf(e, "steadystate data %zu: not a count", i);
		s->bw_data[i] = (uint64_t)json_integer_value(b);
		s->iops_data[i] = (uint64_t)json_integer_value(io);
	}
	return 0;
}

void fio_jobs_free(struct fio_job_summary *jobs, size_t n)
{
	if (!jobs)
		return;
	for (size_t i = 0; i < n; i++) {
		free(jobs[i].ss.bw_data);
		free(jobs[i].ss.iops_data);
	}
	free(jobs);
}

/* The jobs of one parsed document appended to *jobs. */
static int add_document(const json_t *root, unsigned doc,
			struct fio_job_summary **jobs, size_t *n,
			struct sb_err *e)
{
	const json_t *arr = json_object_get(root, "jobs");
	size_t k = json_array_size(arr);
	struct fio_job_summary *more = realloc(*jobs, (*n + k + 1) * sizeof *more);
	if (!more)
		return sb_errno(e, ENOMEM, "fio JSON");
	*jobs = more;
	const json_t *ver = json_object_get(root, "fio version");
	for (size_t i = 0; i < k; i++) {
		const json_t *j = json_array_get(arr, i);
		struct fio_job_summary *o = &more[*n];
		memset(o, 0, sizeof *o);
		(*n)++;
		const json_t *name = json_object_get(j, "jobname");
		snprintf(o->name, sizeof o->name, "%s",
			 json_is_string(name) ? json_string_value(name) : "");
		snprintf(o->version, sizeof o->version, "%s",
			 json_is_string(ver) ? json_string_value(ver) : "");
		o->document = doc;
		for (int d = 0; d < FIO_NDIRS; d++)
			read_dir(json_object_get(j, fio_dir_names[d]), &o->dir[d]);
		if (read_ss(json_object_get(j, "steadystate"), &o->ss, e))
			return sb_err_wrap(e, "job %s", o->name);
	}
	return 0;
}

static size_t line_of(const char *text, const char *at)
{
	size_t line = 1;
	for (const char *p = text; p < at; p++)
		line += *p == '\n';
	return line;
}

int fio_json_parse(const char *text, size_t len,
		   struct fio_job_summary **jobs, size_t *n, struct sb_err *e)
{
	*jobs = NULL;
	*n = 0;
	unsigned docs = 0;
	bool other = false;	/* an object without "jobs" was seen */
	const char *p = text, *end = text + len;
	while (p < end) {
		/* a document starts a line: fio writes its '{' first */
		if (*p != '{' || (p > text && p[-1] != '\n')) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			p = nl ? nl + 1 : end;
			continue;
		}
		json_error_t je;
		json_t *root = json_loadb(p, (size_t)(end - p),
					  JSON_DISABLE_EOF_CHECK, &je);
		if (!root) {
			fio_jobs_free(*jobs, *n);
			*jobs = NULL;
			*n = 0;
			return sb_errf(e, "fio JSON document at line %zu: %s (line %d of it)",
				       line_of(text, p), je.text, je.line);
		}
		if (json_is_array(json_object_get(root, "jobs"))) {
			int rc = add_document(root, docs++, jobs, n, e);
			if (rc) {
				json_decref(root);
				fio_jobs_free(*jobs, *n);
				*jobs = NULL;
				*n = 0;
				return sb_err_wrap(e, "fio JSON document %u", docs);
			}
		} else {
			other = true;
		}
		json_decref(root);
		p += je.position > 0 ? (size_t)je.position : 1;
	}
	if (docs == 0)
		return sb_errf(e, "not fio JSON output: %s", other ?
			       "no \"jobs\" array (was it run with --output-format=json?)" :
			       "no JSON object starts a line");
	return 0;
}
