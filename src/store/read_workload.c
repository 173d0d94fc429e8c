/*
 * Reading workloads, their samples and histograms back, exactly as written:
 * counters round-trip bit for bit, histograms decode to identical buckets.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store_impl.h"

static void workload_from_row(sqlite3_stmt *st, void *row)
{
	struct workload_row *r = row;
	r->id = sqlite3_column_int64(st, 0);
	r->step_id = sqlite3_column_int64(st, 1);
	r->index = (uint32_t)sqlite3_column_int64(st, 2);
	store_col_copy(st, 3, r->name, sizeof r->name);
	store_col_copy(st, 4, r->status, sizeof r->status);
	store_col_copy(st, 5, r->mode, sizeof r->mode);
	r->spec_json = store_col_strdup(st, 6);
	for (int d = 0; d < DIR_COUNT; d++) {
		r->totals.bytes[d] = (uint64_t)sqlite3_column_int64(st, 7 + d);
		r->totals.ios[d] = (uint64_t)sqlite3_column_int64(st, 10 + d);
	}
	r->totals.measured_ns = (uint64_t)sqlite3_column_int64(st, 13);
	r->final = sqlite3_column_int(st, 14) != 0;
	r->stalls_known = sqlite3_column_type(st, 15) != SQLITE_NULL;
	r->totals.driver_stalls = (uint64_t)sqlite3_column_int64(st, 15);
	r->totals.driver_stall_ns = (uint64_t)sqlite3_column_int64(st, 16);
	r->totals.way = io_way_parse((const char *)sqlite3_column_text(st, 17));
	r->totals.sim_known = sqlite3_column_type(st, 18) != SQLITE_NULL;
	r->totals.ios_simulated = (uint64_t)sqlite3_column_int64(st, 18);
}

static void workload_rows_free(void *rows, size_t n)
{
	store_workload_rows_free(rows, n);
}

int store_list_workloads(struct store *s, int64_t run_id, int64_t step_id,
			 struct workload_row **out, size_t *n,
			 struct sb_err *e)
{
	*out = NULL;
	*n = 0;
	int v = store_schema_version(s);
	sqlite3_stmt *st = store_stmt(s, v < 3 ? ST_WORKLOAD_LIST_V2 :
				      v < 6 ? ST_WORKLOAD_LIST_V5 : ST_WORKLOAD_LIST, e);
	if (!st)
		return -1;
	store_bind_i64(s, st, 1, run_id);
	store_bind_i64(s, st, 2, step_id > 0 ? step_id : 0);
	return store_read_rows(s, st, sizeof **out, workload_from_row,
			       workload_rows_free, "listing workloads",
			       (void **)out, n, e);
}

void store_workload_rows_free(struct workload_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(rows[i].spec_json);
	free(rows);
}

static void query_from_row(sqlite3_stmt *st, void *row)
{
	struct device_query_row *q = row;
	q->t_start_ns = (uint64_t)sqlite3_column_int64(st, 0);
	q->t_end_ns = (uint64_t)sqlite3_column_int64(st, 1);
	store_col_copy(st, 2, q->source, sizeof q->source);
}

int store_list_device_queries(struct store *s, int64_t workload_id,
			      struct device_query_row **out, size_t *n,
			      struct sb_err *e)
{
	*out = NULL;
	*n = 0;
	if (store_schema_version(s) < 3)
		return 0;	/* no table yet: nothing was recorded */
	sqlite3_stmt *st = store_stmt(s, ST_QUERY_LIST, e);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, workload_id);
	return store_read_rows(s, st, sizeof **out, query_from_row, NULL,
			       "listing device queries", (void **)out, n, e);
}

uint64_t device_queries_total_ns(const struct device_query_row *q, size_t n)
{
	uint64_t sum = 0;
	for (size_t i = 0; i < n; i++)
		if (q[i].t_end_ns > q[i].t_start_ns)
			sum += q[i].t_end_ns - q[i].t_start_ns;
	return sum;
}

static int workload_exists(struct store *s, int64_t workload_id,
			   struct sb_err *e)
{
	sqlite3_stmt *st = store_stmt(s, ST_WORKLOAD_EXISTS, e);
	if (!st)
		return -1;
	store_bind_i64(s, st, 1, workload_id);
	if (store_binds_ok(s, st, "looking up a workload", e))
		return -1;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		sqlite3_reset(st);
		return 0;
	}
	if (store_read_done(s, st, rc, "reading a workload", e))
		return -1;
	return sb_errf(e, "no workload with id %lld in %s",
		       (long long)workload_id, s->path);
}

static void sample_from_row(sqlite3_stmt *st, void *row)
{
	struct interval_sample *x = row;
	x->workload = (uint32_t)sqlite3_column_int64(st, 0);
	x->index = (uint64_t)sqlite3_column_int64(st, 1);
	x->t_start_ns = (uint64_t)sqlite3_column_int64(st, 2);
	x->t_end_ns = (uint64_t)sqlite3_column_int64(st, 3);
	x->ramp = sqlite3_column_int(st, 4) != 0;
	for (int d = 0; d < DIR_COUNT; d++) {
		struct interval_dir *v = &x->dir[d];
		int c = 5 + 6 * d;
		v->bytes = (uint64_t)sqlite3_column_int64(st, c);
		v->ios = (uint64_t)sqlite3_column_int64(st, c + 1);
		v->lat_p50_ns = (uint64_t)sqlite3_column_int64(st, c + 2);
		v->lat_p99_ns = (uint64_t)sqlite3_column_int64(st, c + 3);
		v->lat_max_ns = (uint64_t)sqlite3_column_int64(st, c + 4);
		v->lat_sum_ns = (uint64_t)sqlite3_column_int64(st, c + 5);
	}
}

/* A workload's samples in order, each row read by `from_row` into an
   element of `elem` bytes: the whole rows or only some columns. */
static int load_sample_rows(struct store *s, int64_t workload_id, enum store_stmt id,
			    size_t elem, void (*from_row)(sqlite3_stmt *, void *),
			    void **out, size_t *n, struct sb_err *e)
{
	*out = NULL;
	*n = 0;
	if (workload_exists(s, workload_id, e))
		return -1;
	sqlite3_stmt *st = store_stmt(s, id, e);
	if (!st)
		return -1;
	store_bind_i64(s, st, 1, workload_id);
	return store_read_rows(s, st, elem, from_row, NULL, "reading samples", out, n, e);
}

int store_load_samples(struct store *s, int64_t workload_id,
		       struct interval_sample **out, size_t *n,
		       struct sb_err *e)
{
	return load_sample_rows(s, workload_id, ST_SAMPLE_LIST, sizeof **out,
				sample_from_row, (void **)out, n, e);
}

/* The columns of ST_SAMPLE_COUNTS or, with only the writes asked for,
   ST_SAMPLE_COUNTS_WRITE: times and ramp, then (bytes, I/Os) of each
   direction read. */
static void counts_from_row(sqlite3_stmt *st, bool writes_only, struct sample_counts *x)
{
	x->t_start_ns = (uint64_t)sqlite3_column_int64(st, 0);
	x->t_end_ns = (uint64_t)sqlite3_column_int64(st, 1);
	x->ramp = sqlite3_column_int(st, 2) != 0;
	int c = 3;
	for (int d = 0; d < DIR_COUNT; d++) {
		if (writes_only && d != DIR_WRITE) {
			x->bytes[d] = x->ios[d] = 0;
			continue;
		}
		x->bytes[d] = (uint64_t)sqlite3_column_int64(st, c++);
		x->ios[d] = (uint64_t)sqlite3_column_int64(st, c++);
	}
}

int store_each_sample_counts(struct store *s, int64_t workload_id, unsigned dirs,
			     sample_counts_fn fn, void *ctx, struct sb_err *e)
{
	if (workload_exists(s, workload_id, e))
		return -1;
	bool writes_only = dirs == 1u << DIR_WRITE;
	sqlite3_stmt *st = store_stmt(s, writes_only ? ST_SAMPLE_COUNTS_WRITE : ST_SAMPLE_COUNTS, e);
	if (!st)
		return -1;
	store_bind_i64(s, st, 1, workload_id);
	if (store_binds_ok(s, st, "reading samples", e))
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct sample_counts x;
		counts_from_row(st, writes_only, &x);
		if (fn(ctx, &x, e)) {
			sqlite3_reset(st);
			return -1;
		}
	}
	return store_read_done(s, st, rc, "reading samples", e);
}

int store_load_histogram(struct store *s, int64_t workload_id,
			 enum io_dir dir, struct lat_hist *out,
			 struct sb_err *e)
{
	return store_load_histogram_kind(s, workload_id, dir, HIST_SERVICE, out, e);
}

const char *hist_kind_name(enum hist_kind k)
{
	return k == HIST_RESPONSE ? "response" : k == HIST_LATENESS ? "lateness" : "service";
}

int store_load_histogram_kind(struct store *s, int64_t workload_id,
			      enum io_dir dir, enum hist_kind kind,
			      struct lat_hist *out, struct sb_err *e)
{
	hist_reset(out);
	/* before version 5 no workload was open loop */
	if (kind != HIST_SERVICE && store_schema_version(s) < 5)
		return workload_exists(s, workload_id, e);
	sqlite3_stmt *st = store_stmt(s, kind == HIST_SERVICE ? ST_HIST_GET : ST_AHIST_GET, e);
	if (!st)
		return -1;
	store_bind_i64(s, st, 1, workload_id);
	store_bind_text(s, st, 2, io_dir_name(dir));
	if (kind != HIST_SERVICE)
		store_bind_text(s, st, 9, hist_kind_name(kind));
	if (store_binds_ok(s, st, "reading a histogram", e))
		return -1;
	int rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		if (store_read_done(s, st, rc, "reading a histogram", e))
			return -1;
		/* No row: nothing was measured in that direction. */
		return workload_exists(s, workload_id, e);
	}
	const void *blob = sqlite3_column_blob(st, 0);
	size_t len = (size_t)sqlite3_column_bytes(st, 0);
	rc = hist_decode(out, blob, len);
	sqlite3_reset(st);
	if (rc)
		return sb_errf(e, "%s: the %s %s histogram of workload %lld is "
			       "damaged or from a newer ssdbench", s->path,
			       io_dir_name(dir), hist_kind_name(kind), (long long)workload_id);
	return 0;
}
