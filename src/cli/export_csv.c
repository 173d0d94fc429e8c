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

struct csv_ctx {
	FILE *out;
	int64_t run_id;
};

/* run_id,workload_id,step_id,workload_index,workload_name */
static void workload_prefix(const struct csv_ctx *c,
			    const struct workload_row *w)
{
	fprintf(c->out, "%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRIu32 ",",
		c->run_id, w->id, w->step_id, w->index);
	csv_text(c->out, w->name);
}

static int sample_rows(struct store *s, const struct workload_row *w,
		       struct lat_hist *h, void *ctx, struct sb_err *e)
{
	const struct csv_ctx *c = ctx;
	struct interval_sample *x;
	size_t n;
	(void)h;
	if (store_load_samples(s, w->id, &x, &n, e))
		return -1;
	for (size_t k = 0; k < n; k++) {
		workload_prefix(c, w);
		fprintf(c->out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d",
			x[k].index, x[k].t_start_ns, x[k].t_end_ns, x[k].ramp);
		for (int d = 0; d < DIR_COUNT; d++) {
			const struct interval_dir *v = &x[k].dir[d];
			fprintf(c->out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%"
				PRIu64 ",%" PRIu64 ",%" PRIu64, v->bytes, v->ios,
				v->lat_p50_ns, v->lat_p99_ns, v->lat_max_ns,
				v->lat_sum_ns);
		}
		fputc('\n', c->out);
	}
	free(x);
	return 0;
}

int export_csv_samples(FILE *out, struct store *s, int64_t run_id,
		       struct sb_err *e)
{
	struct csv_ctx c = { out, run_id };
	fputs("run_id,workload_id,step_id,workload_index,workload_name,idx,"
	      "t_start_ns,t_end_ns,ramp", out);
	for (int d = 0; d < DIR_COUNT; d++) {
		const char *dn = io_dir_name((enum io_dir)d);
		fprintf(out, ",%s_bytes,%s_ios,%s_p50_ns,%s_p99_ns,%s_max_ns,"
			"%s_lat_sum_ns", dn, dn, dn, dn, dn, dn);
	}
	fputc('\n', out);
	return run_view_each_workload(s, run_id, sample_rows, &c, e);
}

/* ",P_count,P_mean_ns,P_min_ns,P_p50_ns ... P_p99_9999_ns,P_max_ns":
   p99.9 is written p99_9. */
static void lat_columns(FILE *out, const char *prefix)
{
	fprintf(out, ",%s_count,%s_mean_ns,%s_min_ns", prefix, prefix, prefix);
	for (int p = 0; p < RUN_VIEW_NPCT; p++) {
		char name[32];
		snprintf(name, sizeof name, "%s", run_view_pct_names[p]);
		for (char *ch = name; *ch; ch++)
			if (*ch == '.')
				*ch = '_';
		fprintf(out, ",%s_%s_ns", prefix, name);
	}
	fprintf(out, ",%s_max_ns", prefix);
}

#define LAT_FIELDS (4 + RUN_VIEW_NPCT)
#define LATENESS_FIELDS 5

static void lat_values(FILE *out, const struct lat_view *l)
{
	fprintf(out, ",%" PRIu64, l->count);
	csv_double(out, l->mean_ns);
	fprintf(out, ",%" PRIu64, l->min_ns);
	for (int p = 0; p < RUN_VIEW_NPCT; p++)
		fprintf(out, ",%" PRIu64, l->pct_ns[p]);
	fprintf(out, ",%" PRIu64, l->max_ns);
}

static void empty_values(FILE *out, int n)
{
	while (n-- > 0)
		fputc(',', out);
}

/* Where the workload's I/Os come from (docs/database.md): empty io_way in
   a database from before it was recorded, empty counts when unknown or
   not a simulation (a device measures every I/O). */
#define PROVENANCE_COLUMNS ",io_way,ios_reported,ios_simulated,ios_extrapolated"

static void provenance_values(FILE *out, const struct store_totals *t)
{
	fprintf(out, ",%s,%" PRIu64, t->way != IO_WAY_UNKNOWN ? io_way_name(t->way) : "",
		store_ios_reported(t));
	if (t->sim_known)
		fprintf(out, ",%" PRIu64 ",%" PRIu64, t->ios_simulated,
			store_ios_extrapolated(t));
	else
		empty_values(out, 2);
}

static int summary_rows(struct store *s, const struct workload_row *w,
			struct lat_hist *h, void *ctx, struct sb_err *e)
{
	const struct csv_ctx *c = ctx;
	for (int d = 0; d < DIR_COUNT; d++) {
		struct dir_view v;
		if (run_view_dir(s, w, (enum io_dir)d, h, &v, e))
			return -1;
		if (dir_view_empty(&v))
			continue;
		workload_prefix(c, w);
		fputc(',', c->out);
		csv_text(c->out, w->status);
		fprintf(c->out, ",%d,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64,
			w->final, io_dir_name((enum io_dir)d),
			w->totals.measured_ns, v.ios, v.bytes);
		csv_double(c->out, v.iops);
		csv_double(c->out, v.bw_bytes);
		lat_values(c->out, &v.lat);
		/* an open loop's response latency and late starts; empty for
		   a closed loop or an older database, as JSON's null */
		if (v.open_loop) {
			lat_values(c->out, &v.resp);
			fprintf(c->out, ",%" PRIu64 ",%" PRIu64, v.late.ios,
				v.late.late);
			csv_double(c->out, v.late.late_mean_ns);
			fprintf(c->out, ",%" PRIu64 ",%" PRIu64, v.late.p99_ns,
				v.late.max_ns);
		} else {
			empty_values(c->out, LAT_FIELDS + LATENESS_FIELDS);
		}
		provenance_values(c->out, &w->totals);
		fputc('\n', c->out);
	}
	return 0;
}

int export_csv_summary(FILE *out, struct store *s, int64_t run_id,
		       struct sb_err *e)
{
	struct csv_ctx c = { out, run_id };
	fputs("run_id,workload_id,step_id,workload_index,workload_name,status,"
	      "final,direction,measured_ns,total_ios,total_bytes,iops,bw_bytes", out);
	lat_columns(out, "lat");
	lat_columns(out, "response_lat");
	/* LATENESS_FIELDS of them */
	fputs(",lateness_ios,lateness_late_ios,lateness_late_mean_ns,"
	      "lateness_p99_ns,lateness_max_ns" PROVENANCE_COLUMNS "\n", out);
	return run_view_each_workload(s, run_id, summary_rows, &c, e);
}

static int histogram_rows(struct store *s, const struct workload_row *w,
			  struct lat_hist *h, void *ctx, struct sb_err *e)
{
	const struct csv_ctx *c = ctx;
	for (int d = 0; d < DIR_COUNT; d++) {
		if (store_load_histogram(s, w->id, (enum io_dir)d, h, e))
			return -1;
		for (uint32_t b = h->lo; h->count && b <= h->hi; b++) {
			if (!h->buckets[b])
				continue;
			workload_prefix(c, w);
			fprintf(c->out, ",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
				io_dir_name((enum io_dir)d), hist_bucket_low(b),
				hist_bucket_high(b), h->buckets[b]);
		}
	}
	return 0;
}

int export_csv_histograms(FILE *out, struct store *s, int64_t run_id,
			  struct sb_err *e)
{
	struct csv_ctx c = { out, run_id };
	fputs("run_id,workload_id,step_id,workload_index,workload_name,"
	      "direction,bucket_low_ns,bucket_high_ns,count\n", out);
	return run_view_each_workload(s, run_id, histogram_rows, &c, e);
}
