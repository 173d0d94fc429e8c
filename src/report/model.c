/*
 * The report's model of a run: lookups and the reductions that turn stored
 * histograms and specs into it.  Loading from the store is model_load.c.
 */
#include "report/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/json_scan.h"

void rpt_lat_from_hist(struct rpt_lat *l, const struct lat_hist *h)
{
	memset(l, 0, sizeof(*l));
	l->count = h->count;
	if (!h->count)
		return;
	l->mean_us = hist_mean(h) / 1000.0;
	l->min_us = (double)h->min / 1000.0;
	l->max_us = (double)h->max / 1000.0;
	lat_summarize(h, lat_qos_percentiles, LAT_QOS_NPS, &l->qos);
	l->ncurve = lat_nines_curve(h, RPT_GRID_NINES, 1.0 / RPT_GRID_STEPS,
				    l->curve, RPT_CURVE_MAX);
}

double rpt_lat_at(const struct rpt_lat *l, double p)
{
	if (p >= 100.0)
		return l->max_us;
	if (p <= 0.0)
		return l->min_us;
	for (size_t i = 0; i < l->qos.np; i++)
		if (fabs(l->qos.ps[i] - p) < 1e-9)
			return (double)l->qos.v_ns[i] / 1000.0;
	double nines = -log10(1.0 - p / 100.0), best = INFINITY, v = l->max_us;
	for (size_t i = 0; i < l->ncurve; i++)
		if (fabs(l->curve[i].nines - nines) < best) {
			best = fabs(l->curve[i].nines - nines);
			v = (double)l->curve[i].latency_ns / 1000.0;
		}
	return v;
}

const struct rpt_metric *rpt_metric(const struct rpt_run *r, const char *key)
{
	for (size_t i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].key, key))
			return &r->metrics[i];
	return NULL;
}

const struct rpt_step *rpt_step(const struct rpt_run *r, const char *step)
{
	for (size_t i = 0; i < r->nsteps; i++)
		if (!strcmp(r->steps[i].name, step))
			return &r->steps[i];
	return NULL;
}

bool rpt_step_param(const struct rpt_run *r, const char *step,
		    const char *key, char *buf, size_t len)
{
	const struct rpt_step *s = rpt_step(r, step);
	return s && json_get_text(s->params_json, key, buf, len);
}

const struct rpt_workload *rpt_find(const struct rpt_run *r, const char *step,
				    const char *name)
{
	for (size_t i = 0; i < r->nwl; i++)
		if (!strcmp(r->wl[i].step, step) && !strcmp(r->wl[i].name, name))
			return &r->wl[i];
	return NULL;
}

double rpt_bw(const struct rpt_workload *w)
{
	if (w->measured_s <= 0)
		return 0;
	return (double)(w->bytes[0] + w->bytes[1]) / w->measured_s;
}

double rpt_iops(const struct rpt_workload *w)
{
	if (w->measured_s <= 0)
		return 0;
	return (double)(w->ios[0] + w->ios[1]) / w->measured_s;
}

double rpt_stall_window_s(const struct rpt_workload *w)
{
	if (w->ios[0] + w->ios[1])
		return 0;
	double s = w->measured_s;
	for (size_t i = 0; s <= 0 && i < w->npts; i++)
		if (!w->pts[i].ramp)
			s += w->pts[i].dur_s;
	return s > 0 ? s : 0;
}

static int json_int(const char *json, const char *key, int64_t dflt)
{
	double v;
	return json_get_number(json, key, &v) ? (int)v : (int)dflt;
}

/*
 * Fill what the spec left unknown from a name in the engine's describe
 * style ("randwrite 4KiB QD32x1 70% read"): suites name workloads that
 * way, and a report should not go blank over a missing spec field.
 */
static void spec_from_name(struct rpt_spec *s, const char *name)
{
	char buf[64];
	int dir_share = -1;
	snprintf(buf, sizeof(buf), "%s", name);
	for (char *save = NULL, *t = strtok_r(buf, " _,", &save); t;
	     t = strtok_r(NULL, " _,", &save)) {
		char *end;
		if (!s->pattern[0] && (!strncmp(t, "seq", 3) ||
				       !strncmp(t, "rand", 4) ||
				       !strncmp(t, "rnd", 3))) {
			snprintf(s->pattern, sizeof(s->pattern), "%s",
				 t[0] == 's' ? "seq" : "rand");
			/* "randwrite ... 70% read": the share wins. */
			if (strstr(t, "read"))
				dir_share = 100;
			if (strstr(t, "write"))
				dir_share = 0;
		} else if ((t[0] == 'Q' || t[0] == 'q') &&
			   (t[1] == 'D' || t[1] == 'd') && s->qd < 0) {
			long qd = strtol(t + 2, &end, 10);
			if (end != t + 2 && qd > 0)
				s->qd = (int)qd;
		} else if (t[0] >= '0' && t[0] <= '9') {
			double v = strtod(t, &end);
			if (*end == '%' && s->read_pct < 0)
				s->read_pct = (int)v;
			else if (s->bs < 0 && (!strcmp(end, "KiB") ||
					       !strcmp(end, "k") ||
					       !strcmp(end, "K")))
				s->bs = (int64_t)(v * 1024);
			else if (s->bs < 0 && (!strcmp(end, "MiB") ||
					       !strcmp(end, "m") ||
					       !strcmp(end, "M")))
				s->bs = (int64_t)(v * 1048576);
			else if (s->bs < 0 && (!strcmp(end, "B") && v >= 512))
				s->bs = (int64_t)v;
		}
	}
	if (s->read_pct < 0)
		s->read_pct = dir_share;
}

void rpt_spec_parse(struct rpt_spec *s, const char *spec_json,
		    const char *name)
{
	memset(s, 0, sizeof(*s));
	s->read_pct = s->qd = s->jobs = -1;
	s->bs = s->span = -1;
	if (!spec_json) {
		spec_from_name(s, name ? name : "");
		return;
	}
	char buf[64];
	if (json_get_text(spec_json, "pattern", buf, sizeof(buf))) {
		if (!strncmp(buf, "seq", 3))
			snprintf(s->pattern, sizeof(s->pattern), "seq");
		else if (!strncmp(buf, "rand", 4) || !strncmp(buf, "rnd", 3))
			snprintf(s->pattern, sizeof(s->pattern), "rand");
		else if (!strcmp(buf, "replay"))
			snprintf(s->pattern, sizeof(s->pattern), "replay");
	} else if (json_get_text(spec_json, "rw", buf, sizeof(buf))) {
		/* `ssdbench run` stores fio's word: randread, write, rw ... */
		snprintf(s->pattern, sizeof(s->pattern), "%s",
			 !strncmp(buf, "rand", 4) ? "rand" : "seq");
	}
	s->read_pct = json_int(spec_json, "read_pct", -1);
	s->qd = json_int(spec_json, "qd", -1);
	s->jobs = json_int(spec_json, "jobs", -1);
	double v;
	/* a replay's bs is its longest I/O, not the size of its I/Os */
	if (json_get_number(spec_json, "bs", &v) && strcmp(s->pattern, "replay"))
		s->bs = (int64_t)v;
	if (json_get_number(spec_json, "span_len", &v) ||
	    json_get_number(spec_json, "span", &v))
		s->span = (int64_t)v;
	struct json_member m;
	s->sync = json_get_member(spec_json, "sync", &m) &&
		  !strcmp(m.value, "true");
	spec_from_name(s, name ? name : "");
	char desc[64];
	if (json_get_text(spec_json, "description", desc, sizeof(desc)))
		spec_from_name(s, desc);
}

struct trace_pt *rpt_trace(const struct rpt_workload *w, size_t *n)
{
	*n = 0;
	struct trace_pt *t = malloc((w->npts ? w->npts : 1) * sizeof(*t));
	if (!t)
		return NULL;
	for (size_t i = 0; i < w->npts; i++) {
		const struct rpt_point *p = &w->pts[i];
		if (p->ramp || !p->dur_ns)
			continue;
		t[*n].ns = p->dur_ns;
		t[*n].bytes = p->bytes[0] + p->bytes[1];
		t[*n].ios = p->ios[0] + p->ios[1];
		(*n)++;
	}
	if (!*n) {
		free(t);
		return NULL;
	}
	return t;
}

static bool label_taken(const struct rpt_run *runs, size_t upto,
			const char *label)
{
	for (size_t i = 0; i < upto; i++)
		if (!strcmp(runs[i].label, label))
			return true;
	return false;
}

void rpt_labels_unique(struct rpt_run *runs, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		if (!label_taken(runs, i, runs[i].label))
			continue;
		char base[sizeof(runs[i].label)];
		memcpy(base, runs[i].label, sizeof(base));
		base[60] = '\0';	/* room for what follows */
		const char *file = strrchr(runs[i].source, '/');
		file = file ? file + 1 : runs[i].source;
		snprintf(runs[i].label, sizeof(runs[i].label), "%.60s #%lld", base,
			 (long long)runs[i].id);
		if (label_taken(runs, i, runs[i].label))
			snprintf(runs[i].label, sizeof(runs[i].label),
				 "%.60s #%lld %.40s", base, (long long)runs[i].id,
				 file);
		for (int k = 2; label_taken(runs, i, runs[i].label); k++)
			snprintf(runs[i].label, sizeof(runs[i].label),
				 "%.60s #%lld (%d)", base, (long long)runs[i].id, k);
	}
}
