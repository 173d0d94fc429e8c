/*
 * The JSON export: one object with the run, its steps, workloads (each with
 * per-direction rates and latency, optionally samples and histogram
 * buckets), metrics and device readings.  Whitespace is not part of the
 * format: it is indented when small, one line when it carries samples.
 */
#include <stdlib.h>

#include "cli/export.h"
#include "cli/run_output.h"
#include "cli/run_view.h"
#include "common/json.h"

/* JSON kept as text in the database goes in as JSON; should a row hold
   something that is not (a bug elsewhere), it goes in as a string, so the
   export stays valid. */
static void stored_json(struct json_writer *w, const char *key,
			const char *text)
{
	if (!text)
		json_null(w, key);
	else if (json_valid(text))
		json_raw(w, key, text);
	else
		json_string(w, key, text);
}

static void text_or_null(struct json_writer *w, const char *key,
			 const char *text)
{
	if (text && *text)
		json_string(w, key, text);
	else
		json_null(w, key);
}

static void id_or_null(struct json_writer *w, const char *key, int64_t id)
{
	if (id > 0)
		json_i64(w, key, id);
	else
		json_null(w, key);
}

static void put_run(struct json_writer *w, const struct run_row *r, bool full)
{
	json_i64(w, "id", r->id);
	json_string(w, "kind", r->kind);
	json_string(w, "target", r->target);
	json_string(w, "status", r->status);
	text_or_null(w, "engine_mode", r->engine_mode);
	json_string(w, "started_at", r->started_at);
	text_or_null(w, "finished_at", r->finished_at);
	text_or_null(w, "error", r->error);
	if (!full)
		return;
	text_or_null(w, "command_line", r->command_line);
	stored_json(w, "params", r->params_json);
	stored_json(w, "host", r->host_json);
	stored_json(w, "facts_before", r->facts_before_json);
	stored_json(w, "facts_after", r->facts_after_json);
}

static int put_steps(struct json_writer *w, struct store *s, int64_t run_id,
		     struct sb_err *e)
{
	struct step_row *st;
	size_t n;
	if (store_list_steps(s, run_id, &st, &n, e))
		return -1;
	json_array_begin(w, "steps");
	for (size_t i = 0; i < n; i++) {
		json_object_begin(w, NULL);
		json_i64(w, "id", st[i].id);
		json_i64(w, "seq", st[i].seq);
		json_string(w, "name", st[i].name);
		json_string(w, "status", st[i].status);
		json_string(w, "started_at", st[i].started_at);
		text_or_null(w, "finished_at", st[i].finished_at);
		stored_json(w, "params", st[i].params_json);
		text_or_null(w, "error", st[i].error);
		json_object_end(w);
	}
	json_array_end(w);
	store_step_rows_free(st, n);
	return 0;
}

static void put_lat(struct json_writer *w, const char *key, const struct lat_view *l)
{
	json_object_begin(w, key);
	json_u64(w, "count", l->count);
	json_double(w, "mean", l->mean_ns);
	json_u64(w, "min", l->min_ns);
	for (int p = 0; p < RUN_VIEW_NPCT; p++)
		json_u64(w, run_view_pct_names[p], l->pct_ns[p]);
	json_u64(w, "max", l->max_ns);
	json_object_end(w);
}

static void put_dir(struct json_writer *w, const char *key,
		    const struct dir_view *v)
{
	json_object_begin(w, key);
	json_u64(w, "total_ios", v->ios);
	json_u64(w, "total_bytes", v->bytes);
	json_double(w, "iops", v->iops);
	json_double(w, "bw_bytes", v->bw_bytes);
	put_lat(w, "lat_ns", &v->lat);
	/* an open loop's response latency and late starts; null otherwise */
	if (v->open_loop) {
		put_lat(w, "response_lat_ns", &v->resp);
		run_json_lateness(w, "lateness", &v->late);
	} else {
		json_null(w, "response_lat_ns");
		json_null(w, "lateness");
	}
	json_object_end(w);
}

static int put_samples(struct json_writer *w, struct store *s, int64_t wl,
		       struct sb_err *e)
{
	struct interval_sample *x;
	size_t n;
	if (store_load_samples(s, wl, &x, &n, e))
		return -1;
	json_array_begin(w, "samples");
	for (size_t i = 0; i < n; i++) {
		json_object_begin(w, NULL);
		json_u64(w, "idx", x[i].index);
		json_u64(w, "t_start_ns", x[i].t_start_ns);
		json_u64(w, "t_end_ns", x[i].t_end_ns);
		json_bool(w, "ramp", x[i].ramp);
		for (int d = 0; d < DIR_COUNT; d++) {
			const struct interval_dir *v = &x[i].dir[d];
			json_object_begin(w, io_dir_name((enum io_dir)d));
			json_u64(w, "bytes", v->bytes);
			json_u64(w, "ios", v->ios);
			json_u64(w, "lat_p50_ns", v->lat_p50_ns);
			json_u64(w, "lat_p99_ns", v->lat_p99_ns);
			json_u64(w, "lat_max_ns", v->lat_max_ns);
			json_u64(w, "lat_sum_ns", v->lat_sum_ns);
			json_object_end(w);
		}
		json_object_end(w);
	}
	json_array_end(w);
	free(x);
	return 0;
}

static int put_histograms(struct json_writer *w, struct store *s, int64_t wl,
			  struct lat_hist *h, struct sb_err *e)
{
	json_object_begin(w, "histograms");
	for (int d = 0; d < DIR_COUNT; d++) {
		if (store_load_histogram(s, wl, (enum io_dir)d, h, e))
			return -1;
		if (!h->count)
			continue;
		json_object_begin(w, io_dir_name((enum io_dir)d));
		json_u64(w, "count", h->count);
		json_u64(w, "sum_ns", h->sum);
		json_u64(w, "min_ns", h->min);
		json_u64(w, "max_ns", h->max);
		json_array_begin(w, "buckets");	/* [low_ns, high_ns, count] */
		for (uint32_t b = h->lo; b <= h->hi; b++) {
			if (!h->buckets[b])
				continue;
			json_array_begin(w, NULL);
			json_u64(w, NULL, hist_bucket_low(b));
			json_u64(w, NULL, hist_bucket_high(b));
			json_u64(w, NULL, h->buckets[b]);
			json_array_end(w);
		}
		json_array_end(w);
		json_object_end(w);
	}
	json_object_end(w);
	return 0;
}

struct json_ctx {
	struct json_writer *w;
	unsigned parts;
};

/* How many device queries ran during the workload and their total time;
   null in a database from before they were recorded. */
static int put_device_queries(struct json_writer *w, struct store *s,
			      const struct workload_row *wl, struct sb_err *e)
{
	if (!wl->stalls_known) {
		json_null(w, "device_queries");
		json_null(w, "device_query_ns");
		return 0;
	}
	struct device_query_row *q;
	size_t n;
	if (store_list_device_queries(s, wl->id, &q, &n, e))
		return -1;
	json_u64(w, "device_queries", n);
	json_u64(w, "device_query_ns", device_queries_total_ns(q, n));
	free(q);
	return 0;
}

/* Where the I/Os come from (docs/json.md): io_way null in a database
   from before it was recorded; the counts null when unknown or not a
   simulation. */
void export_json_provenance(struct json_writer *w, const struct store_totals *t)
{
	if (t->way != IO_WAY_UNKNOWN)
		json_string(w, "io_way", io_way_name(t->way));
	else
		json_null(w, "io_way");
	json_u64(w, "ios_reported", store_ios_reported(t));
	if (t->sim_known) {
		json_u64(w, "ios_simulated", t->ios_simulated);
		json_u64(w, "ios_extrapolated", store_ios_extrapolated(t));
	} else {
		json_null(w, "ios_simulated");
		json_null(w, "ios_extrapolated");
	}
}

static int put_workload(struct store *s, const struct workload_row *wl,
			struct lat_hist *h, void *ctx, struct sb_err *e)
{
	struct json_writer *w = ((struct json_ctx *)ctx)->w;
	unsigned parts = ((struct json_ctx *)ctx)->parts;
	json_object_begin(w, NULL);
	json_i64(w, "id", wl->id);
	id_or_null(w, "step_id", wl->step_id);
	json_u64(w, "index", wl->index);
	json_string(w, "name", wl->name);
	json_string(w, "status", wl->status);
	text_or_null(w, "mode", wl->mode);
	stored_json(w, "spec", wl->spec_json);
	json_bool(w, "final", wl->final);
	json_u64(w, "measured_ns", wl->totals.measured_ns);
	if (wl->stalls_known) {
		json_u64(w, "driver_stalls", wl->totals.driver_stalls);
		json_u64(w, "driver_stall_ns", wl->totals.driver_stall_ns);
	} else {
		json_null(w, "driver_stalls");
		json_null(w, "driver_stall_ns");
	}
	if (put_device_queries(w, s, wl, e))
		return -1;
	export_json_provenance(w, &wl->totals);
	for (int d = 0; d < DIR_COUNT; d++) {
		struct dir_view v;
		if (run_view_dir(s, wl, (enum io_dir)d, h, &v, e))
			return -1;
		put_dir(w, io_dir_name((enum io_dir)d), &v);
	}
	if ((parts & EXPORT_SAMPLES) && put_samples(w, s, wl->id, e))
		return -1;
	if ((parts & EXPORT_HISTOGRAMS) && put_histograms(w, s, wl->id, h, e))
		return -1;
	json_object_end(w);
	return 0;
}

static int put_workloads(struct json_writer *w, struct store *s,
			 int64_t run_id, unsigned parts, struct sb_err *e)
{
	struct json_ctx ctx = { w, parts };
	json_array_begin(w, "workloads");
	int rc = run_view_each_workload(s, run_id, put_workload, &ctx, e);
	json_array_end(w);
	return rc;
}

static int put_metrics(struct json_writer *w, struct store *s, int64_t run_id,
		       struct sb_err *e)
{
	struct metric_row *m;
	struct device_reading *r;
	size_t n;
	if (store_list_metrics(s, run_id, &m, &n, e))
		return -1;
	json_array_begin(w, "metrics");
	for (size_t i = 0; i < n; i++) {
		json_object_begin(w, NULL);
		id_or_null(w, "step_id", m[i].step_id);
		id_or_null(w, "workload_id", m[i].workload_id);
		json_string(w, "key", m[i].key);
		json_double(w, "value", m[i].value);
		json_string(w, "unit", m[i].unit);
		json_object_end(w);
	}
	json_array_end(w);
	free(m);
	if (store_list_device_readings(s, run_id, &r, &n, e))
		return -1;
	json_array_begin(w, "device_readings");
	for (size_t i = 0; i < n; i++) {
		json_object_begin(w, NULL);
		json_u64(w, "t_ns", r[i].t_ns);
		json_string(w, "key", r[i].key);
		json_double(w, "value", r[i].value);
		json_object_end(w);
	}
	json_array_end(w);
	free(r);
	return 0;
}

int export_json_run(FILE *out, struct store *s, int64_t run_id,
		    unsigned parts, struct sb_err *e)
{
	struct run_row r;
	struct json_writer w;
	if (store_get_run(s, run_id, &r, e))
		return -1;
	json_init(&w, out, parts == 0);
	json_object_begin(&w, NULL);
	json_string(&w, "format", "ssdbench-export");
	json_u64(&w, "format_version", EXPORT_FORMAT_VERSION);
	json_object_begin(&w, "run");
	put_run(&w, &r, true);
	json_object_end(&w);
	store_run_row_free(&r);
	if (put_steps(&w, s, run_id, e) || put_workloads(&w, s, run_id, parts, e) ||
	    put_metrics(&w, s, run_id, e))
		return -1;
	json_object_end(&w);
	json_finish(&w);
	return 0;
}

int export_json_run_list(FILE *out, struct store *s, struct sb_err *e)
{
	struct run_row *rows;
	struct json_writer w;
	size_t n;
	if (store_list_runs(s, &rows, &n, e))
		return -1;
	json_init(&w, out, true);
	json_object_begin(&w, NULL);
	json_string(&w, "format", "ssdbench-runs");
	json_u64(&w, "format_version", EXPORT_FORMAT_VERSION);
	json_array_begin(&w, "runs");
	for (size_t i = 0; i < n; i++) {
		json_object_begin(&w, NULL);
		put_run(&w, &rows[i], false);
		json_object_end(&w);
	}
	json_array_end(&w);
	json_object_end(&w);
	json_finish(&w);
	store_run_rows_free(rows, n);
	return 0;
}
