/*
 * Reading a run from the store into the report's model.  One histogram
 * buffer is reused for every workload, so memory stays at the reduced
 * model's size however many workloads the run has.
 */
#include "report/model.h"

#include <jansson.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/json_scan.h"
#include "store/store.h"

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Truncating copy: store strings are bounded, the model's fields too. */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = src ? strnlen(src, len - 1) : 0;
	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

static void reduce_samples(struct rpt_workload *w,
			   const struct interval_sample *smp, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct interval_sample *s = &smp[i];
		struct rpt_point *p = &w->pts[i];
		p->t_s = (double)s->t_end_ns / 1e9;
		p->dur_ns = s->t_end_ns - s->t_start_ns;
		p->dur_s = (double)p->dur_ns / 1e9;
		p->ramp = s->ramp;
		uint64_t ios = 0, sum = 0, p99 = 0;
		for (int d = 0; d < 2; d++) {
			p->bytes[d] = s->dir[d].bytes;
			p->ios[d] = s->dir[d].ios;
			ios += s->dir[d].ios;
			sum += s->dir[d].lat_sum_ns;
			if (s->dir[d].lat_p99_ns > p99)
				p99 = s->dir[d].lat_p99_ns;
		}
		p->lat_mean_us = ios ? (double)sum / (double)ios / 1000.0 : 0;
		p->lat_p99_us = (double)p99 / 1000.0;
	}
	w->npts = n;
}

static const char *step_name(const struct step_row *steps, size_t n,
			     int64_t id)
{
	for (size_t i = 0; i < n; i++)
		if (steps[i].id == id)
			return steps[i].name;
	return "";
}

static int load_workloads(struct rpt_run *r, struct store *db,
			  const struct step_row *steps, size_t nsteps,
			  struct sb_err *e)
{
	struct workload_row *rows = NULL;
	size_t n = 0;
	/* step_id 0: every workload of the run, each naming its step. */
	if (store_list_workloads(db, r->id, 0, &rows, &n, e))
		return sb_err_wrap(e, "run %lld", (long long)r->id);
	r->wl = n ? calloc(n, sizeof(*r->wl)) : NULL;
	if (n && !r->wl) {
		store_workload_rows_free(rows, n);
		return sb_errno(e, ENOMEM, "workloads");
	}
	for (size_t i = 0; i < n; i++) {
		struct rpt_workload *w = &r->wl[i];
		w->id = rows[i].id;
		copy_str(w->step, sizeof(w->step),
			 step_name(steps, nsteps, rows[i].step_id));
		copy_str(w->name, sizeof(w->name), rows[i].name);
		copy_str(w->status, sizeof(w->status), rows[i].status);
		rpt_spec_parse(&w->spec, rows[i].spec_json, rows[i].name);
		workload_label(w, w->label, sizeof(w->label));
		for (int d = 0; d < 2; d++) {
			w->bytes[d] = rows[i].totals.bytes[d];
			w->ios[d] = rows[i].totals.ios[d];
		}
		w->measured_s = (double)rows[i].totals.measured_ns / 1e9;
		w->way = rows[i].totals.way;
		w->sim_known = rows[i].totals.sim_known;
		w->ios_reported = store_ios_reported(&rows[i].totals);
		w->ios_simulated = rows[i].totals.ios_simulated;
		r->stalls_known = rows[i].stalls_known;
		r->driver_stalls += rows[i].totals.driver_stalls;
		r->driver_stall_ns += rows[i].totals.driver_stall_ns;
	}
	r->nwl = n;
	store_workload_rows_free(rows, n);
	return 0;
}

/* The moments device queries ran during the workload, for the marks. */
static int load_queries(struct rpt_workload *w, struct store *db,
			struct sb_err *e)
{
	struct device_query_row *q = NULL;
	size_t n = 0;
	if (store_list_device_queries(db, w->id, &q, &n, e))
		return -1;
	w->query_t_s = n ? calloc(n, sizeof(*w->query_t_s)) : NULL;
	if (n && !w->query_t_s) {
		free(q);
		return sb_errno(e, ENOMEM, "device queries");
	}
	for (size_t i = 0; i < n; i++)
		w->query_t_s[i] = (double)q[i].t_start_ns / 1e9;
	w->nqueries = n;
	w->query_s = (double)device_queries_total_ns(q, n) / 1e9;
	free(q);
	return 0;
}

static int load_details(struct rpt_run *r, struct store *db, struct sb_err *e)
{
	struct lat_hist *h = hist_new();
	if (!h)
		return sb_errno(e, ENOMEM, "histogram");
	for (size_t i = 0; i < r->nwl; i++) {
		struct rpt_workload *w = &r->wl[i];
		for (int d = 0; d < 2; d++) {
			if (!w->ios[d])
				continue;
			hist_reset(h);
			if (store_load_histogram(db, w->id, (enum io_dir)d, h, e))
				goto fail;
			rpt_lat_from_hist(&w->lat[d], h);
		}
		struct interval_sample *smp = NULL;
		size_t n = 0;
		if (store_load_samples(db, w->id, &smp, &n, e))
			goto fail;
		w->pts = n ? calloc(n, sizeof(*w->pts)) : NULL;
		if (n && !w->pts) {
			free(smp);
			sb_errno(e, ENOMEM, "samples");
			goto fail;
		}
		reduce_samples(w, smp, n);
		free(smp);
		if (load_queries(w, db, e))
			goto fail;
	}
	hist_free(h);
	return 0;
fail:
	hist_free(h);
	return sb_err_wrap(e, "run %lld", (long long)r->id);
}

static int load_metrics(struct rpt_run *r, struct store *db,
			const struct step_row *steps, size_t nsteps,
			struct sb_err *e)
{
	struct metric_row *m = NULL;
	size_t n = 0;
	if (store_list_metrics(db, r->id, &m, &n, e))
		return -1;
	r->metrics = n ? calloc(n, sizeof(*r->metrics)) : NULL;
	if (n && !r->metrics) {
		free(m);
		return sb_errno(e, ENOMEM, "metrics");
	}
	for (size_t i = 0; i < n; i++) {
		struct rpt_metric *o = &r->metrics[i];
		copy_str(o->step, sizeof(o->step),
			 step_name(steps, nsteps, m[i].step_id));
		copy_str(o->key, sizeof(o->key), m[i].key);
		copy_str(o->unit, sizeof(o->unit), m[i].unit);
		o->value = m[i].value;
	}
	r->nmetrics = n;
	free(m);
	return 0;
}

/* The model a run's target facts name: "device" holds it for a real
   device and for a simulated one ("... (simulated)"); older files may
   have it at the top.  Empty when neither does. */
static void facts_model(const char *facts_json, char *buf, size_t len)
{
	buf[0] = '\0';
	json_t *root = facts_json ? json_loads(facts_json, 0, NULL) : NULL;
	const json_t *dev = json_object_get(root, "device");
	const char *m = json_string_value(json_object_get(dev, "model"));
	if (!m)
		m = json_string_value(json_object_get(root, "model"));
	if (m)
		copy_str(buf, len, m);
	json_decref(root);
}

/* A short name for the device: the model from the facts, else the target. */
static void make_label(struct rpt_run *r)
{
	char model[96];
	facts_model(r->facts_json, model, sizeof(model));
	if (model[0])
		copy_str(r->label, sizeof(r->label), model);
	else
		copy_str(r->label, sizeof(r->label), r->target);
	double v;
	if (json_get_number(r->facts_json, "size", &v) ||
	    json_get_number(r->facts_json, "capacity", &v) ||
	    json_get_number(r->facts_json, "size_bytes", &v))
		r->capacity = (uint64_t)v;
}

int rpt_run_load(struct rpt_run *r, const char *path, int64_t run_id,
		 struct sb_err *e)
{
	memset(r, 0, sizeof(*r));
	struct store *db;
	if (store_open_readonly(path, &db, e))
		return -1;
	struct run_row row;
	struct step_row *steps = NULL;
	size_t nsteps = 0;
	if (store_get_run(db, run_id, &row, e)) {
		store_close(db);
		return -1;
	}
	copy_str(r->source, sizeof(r->source), path);
	r->id = row.id;
	copy_str(r->kind, sizeof(r->kind), row.kind);
	copy_str(r->status, sizeof(r->status), row.status);
	copy_str(r->engine_mode, sizeof(r->engine_mode), row.engine_mode);
	copy_str(r->target, sizeof(r->target), row.target);
	copy_str(r->started_at, sizeof(r->started_at), row.started_at);
	copy_str(r->finished_at, sizeof(r->finished_at), row.finished_at);
	r->command_line = dup_or_null(row.command_line);
	r->host_json = dup_or_null(row.host_json);
	r->params_json = dup_or_null(row.params_json);
	r->facts_json = dup_or_null(row.facts_after_json ? row.facts_after_json
							 : row.facts_before_json);
	store_run_row_free(&row);
	make_label(r);

	int rc = store_list_steps(db, run_id, &steps, &nsteps, e);
	if (!rc && nsteps) {
		r->steps = calloc(nsteps, sizeof(*r->steps));
		if (!r->steps)
			rc = sb_errno(e, ENOMEM, "steps");
		for (size_t i = 0; !rc && i < nsteps; i++) {
			/* A resumed step appears twice; list it once. */
			if (rpt_step(r, steps[i].name))
				continue;
			struct rpt_step *o = &r->steps[r->nsteps++];
			copy_str(o->name, sizeof(o->name), steps[i].name);
			if (!json_get_text(steps[i].params_json, "kind",
					   o->kind, sizeof(o->kind)))
				o->kind[0] = '\0';
			o->params_json = dup_or_null(steps[i].params_json);
		}
	}
	if (!rc)
		rc = load_workloads(r, db, steps, nsteps, e);
	if (!rc)
		rc = load_metrics(r, db, steps, nsteps, e);
	if (!rc)
		rc = load_details(r, db, e);
	store_step_rows_free(steps, nsteps);
	store_close(db);
	if (rc)
		rpt_run_free(r);
	return rc;
}

void rpt_run_free(struct rpt_run *r)
{
	for (size_t i = 0; i < r->nwl; i++) {
		free(r->wl[i].pts);
		free(r->wl[i].query_t_s);
	}
	free(r->wl);
	free(r->metrics);
	for (size_t i = 0; i < r->nsteps; i++)
		free(r->steps[i].params_json);
	free(r->steps);
	free(r->command_line);
	free(r->host_json);
	free(r->facts_json);
	free(r->params_json);
	memset(r, 0, sizeof(*r));
}
