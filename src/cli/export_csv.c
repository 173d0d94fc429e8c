/*
 * The CSV exports (RFC 4180: comma-separated, one header line, text quoted
 * when it holds a comma, quote or line break).  Every row names its run and
 * workload, so files of several runs can be concatenated and still make
 * sense after the header lines are dropped.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/export.h"
#include "cli/run_view.h"

static void csv_text(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* A rate: empty when undefined (no measured time). */
static void csv_double(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, ",%.6f", v);
	else
		fputs(",", out);
}

/* run_id,workload_id,step_id,workload_index,workload_name */
static void workload_prefix(FILE *out, int64_t run_id,
			    const struct workload_row *w)
{
	fprintf(out, "%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRIu32 ",", run_id,
		w->id, w->step_id, w->index);
	csv_text(out, w->name);
}

static int list_workloads(struct store *s, int64_t run_id,
			  struct workload_row **wl, size_t *n, struct sb_err *e)
{
	struct run_row r;
	/* An unknown run is an error, not an empty file. */
	if (store_get_run(s, run_id, &r, e))
		return -1;
	store_run_row_free(&r);
	return store_list_workloads(s, run_id, 0, wl, n, e);
}

int export_csv_samples(FILE *out, struct store *s, int64_t run_id,
		       struct sb_err *e)
{
	struct workload_row *wl;
	size_t n;
	if (list_workloads(s, run_id, &wl, &n, e))
		return -1;
	fputs("run_id,workload_id,step_id,workload_index,workload_name,idx,"
	      "t_start_ns,t_end_ns,ramp", out);
	for (int d = 0; d < DIR_COUNT; d++) {
		const char *dn = io_dir_name((enum io_dir)d);
		fprintf(out, ",%s_bytes,%s_ios,%s_p50_ns,%s_p99_ns,%s_max_ns,"
			"%s_lat_sum_ns", dn, dn, dn, dn, dn, dn);
	}
	fputc('\n', out);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		struct interval_sample *x;
		size_t ns;
		if ((rc = store_load_samples(s, wl[i].id, &x, &ns, e)))
			break;
		for (size_t k = 0; k < ns; k++) {
			workload_prefix(out, run_id, &wl[i]);
			fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d",
				x[k].index, x[k].t_start_ns, x[k].t_end_ns,
				x[k].ramp);
			for (int d = 0; d < DIR_COUNT; d++) {
				const struct interval_dir *v = &x[k].dir[d];
				fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
					",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
					v->bytes, v->ios, v->lat_p50_ns,
					v->lat_p99_ns, v->lat_max_ns,
					v->lat_sum_ns);
			}
			fputc('\n', out);
		}
		free(x);
	}
	store_workload_rows_free(wl, n);
	return rc;
}

int export_csv_summary(FILE *out, struct store *s, int64_t run_id,
		       struct sb_err *e)
{
	struct workload_row *wl;
	size_t n;
	int rc = 0;
	struct lat_hist *h = hist_new();
	if (!h)
		return sb_errf(e, "out of memory");
	if (list_workloads(s, run_id, &wl, &n, e)) {
		hist_free(h);
		return -1;
	}
	fputs("run_id,workload_id,step_id,workload_index,workload_name,status,"
	      "final,direction,measured_ns,total_ios,total_bytes,iops,bw_bytes,"
	      "lat_count,lat_mean_ns,lat_min_ns", out);
	for (int p = 0; p < RUN_VIEW_NPCT; p++) {	/* p99.9 -> lat_p99_9_ns */
		char name[32];
		snprintf(name, sizeof name, "%s", run_view_pct_names[p]);
		for (char *c = name; *c; c++)
			if (*c == '.')
				*c = '_';
		fprintf(out, ",lat_%s_ns", name);
	}
	fputs(",lat_max_ns\n", out);
	for (size_t i = 0; i < n && !rc; i++) {
		for (int d = 0; d < DIR_COUNT && !rc; d++) {
			struct dir_view v;
			if ((rc = run_view_dir(s, &wl[i], (enum io_dir)d, h, &v, e)))
				break;
			if (dir_view_empty(&v))
				continue;
			workload_prefix(out, run_id, &wl[i]);
			fputc(',', out);
			csv_text(out, wl[i].status);
			fprintf(out, ",%d,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64,
				wl[i].final, io_dir_name((enum io_dir)d),
				wl[i].totals.measured_ns, v.ios, v.bytes);
			csv_double(out, v.iops);
			csv_double(out, v.bw_bytes);
			fprintf(out, ",%" PRIu64, v.lat_count);
			csv_double(out, v.lat_mean_ns);
			fprintf(out, ",%" PRIu64, v.lat_min_ns);
			for (int p = 0; p < RUN_VIEW_NPCT; p++)
				fprintf(out, ",%" PRIu64, v.lat_pct_ns[p]);
			fprintf(out, ",%" PRIu64 "\n", v.lat_max_ns);
		}
	}
	store_workload_rows_free(wl, n);
	hist_free(h);
	return rc;
}

int export_csv_histograms(FILE *out, struct store *s, int64_t run_id,
			  struct sb_err *e)
{
	struct workload_row *wl;
	size_t n;
	int rc = 0;
	struct lat_hist *h = hist_new();
	if (!h)
		return sb_errf(e, "out of memory");
	if (list_workloads(s, run_id, &wl, &n, e)) {
		hist_free(h);
		return -1;
	}
	fputs("run_id,workload_id,step_id,workload_index,workload_name,"
	      "direction,bucket_low_ns,bucket_high_ns,count\n", out);
	for (size_t i = 0; i < n && !rc; i++) {
		for (int d = 0; d < DIR_COUNT && !rc; d++) {
			if ((rc = store_load_histogram(s, wl[i].id, (enum io_dir)d,
						       h, e)))
				break;
			for (uint32_t b = h->lo; h->count && b <= h->hi; b++) {
				if (!h->buckets[b])
					continue;
				workload_prefix(out, run_id, &wl[i]);
				fprintf(out, ",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
					io_dir_name((enum io_dir)d),
					hist_bucket_low(b), hist_bucket_high(b),
					h->buckets[b]);
			}
		}
	}
	store_workload_rows_free(wl, n);
	hist_free(h);
	return rc;
}
