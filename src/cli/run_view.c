#include "cli/run_view.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rank.h"

const double run_view_pcts[RUN_VIEW_NPCT] = { 50, 99, 99.9, 99.99, 99.999, 99.9999 };
const char *const run_view_pct_names[RUN_VIEW_NPCT] = {
	"p50", "p99", "p99.9", "p99.99", "p99.999", "p99.9999"
};

static void lat_view_fill(struct lat_view *v, const struct lat_hist *h)
{
	v->count = h->count;
	v->mean_ns = h->count ? hist_mean(h) : NAN;
	v->min_ns = h->count ? h->min : 0;
	v->max_ns = h->max;
	hist_percentiles(h, run_view_pcts, RUN_VIEW_NPCT, v->pct_ns);
	for (int p = 0; p < RUN_VIEW_NPCT; p++)
		v->pct_supported[p] = percentile_supported(run_view_pcts[p], h->count);
}

int run_view_dir(struct store *s, const struct workload_row *w,
		 enum io_dir d, struct lat_hist *scratch, struct dir_view *out,
		 struct sb_err *e)
{
	memset(out, 0, sizeof *out);
	out->ios = w->totals.ios[d];
	out->bytes = w->totals.bytes[d];
	double secs = (double)w->totals.measured_ns / 1e9;
	out->iops = secs > 0 ? (double)out->ios / secs : NAN;
	out->bw_bytes = secs > 0 ? (double)out->bytes / secs : NAN;
	if (store_load_histogram(s, w->id, d, scratch, e))
		return -1;
	lat_view_fill(&out->lat, scratch);

	if (store_load_histogram_kind(s, w->id, d, HIST_LATENESS, scratch, e))
		return -1;
	/* every open-loop I/O has a lateness, 0 when it went on time */
	out->open_loop = scratch->count > 0;
	lat_lateness(scratch, &out->late);
	if (store_load_histogram_kind(s, w->id, d, HIST_RESPONSE, scratch, e))
		return -1;
	lat_view_fill(&out->resp, scratch);
	return 0;
}

int run_view_each_workload(struct store *s, int64_t run_id,
			   run_view_workload_fn fn, void *ctx,
			   struct sb_err *e)
{
	struct run_row r;
	struct workload_row *w;
	size_t n;
	int rc = 0;
	if (store_get_run(s, run_id, &r, e))
		return -1;
	store_run_row_free(&r);
	struct lat_hist *h = hist_new();
	if (!h)
		return sb_errf(e, "out of memory");
	if (store_list_workloads(s, run_id, 0, &w, &n, e)) {
		hist_free(h);
		return -1;
	}
	for (size_t i = 0; i < n && !rc; i++)
		rc = fn(s, &w[i], h, ctx, e);
	store_workload_rows_free(w, n);
	hist_free(h);
	return rc;
}

bool dir_view_empty(const struct dir_view *v)
{
	return v->ios == 0 && v->bytes == 0 && v->lat.count == 0;
}

int run_view_parse_id(const char *arg, int64_t *id, struct sb_err *e)
{
	char *end;
	if (!strcmp(arg, "last")) {
		*id = 0;
		return 0;
	}
	errno = 0;
	long long v = strtoll(arg, &end, 10);
	if (errno || end == arg || *end || v <= 0)
		return sb_errf(e, "'%s' is not a run id (a number from "
			       "'ssdbench show', or 'last')", arg);
	*id = v;
	return 0;
}

int run_view_resolve_last(struct store *s, int64_t *id, struct sb_err *e)
{
	struct run_row *rows;
	size_t n;
	if (*id > 0)
		return 0;
	if (store_list_runs(s, &rows, &n, e))
		return -1;
	if (n)
		*id = rows[0].id;
	store_run_rows_free(rows, n);
	if (!n)
		return sb_errf(e, "there are no runs in the database yet");
	return 0;
}

const char *run_view_status(const char *status, char *buf, size_t len)
{
	if (!strcmp(status, "running"))
		snprintf(buf, len, "running (interrupted or still running)");
	else
		snprintf(buf, len, "%s", status);
	return buf;
}

void run_view_provenance(const struct store_totals *t, char *buf, size_t len)
{
	uint64_t all = store_ios_reported(t), sim = t->ios_simulated;
	const char *way = io_way_name(t->way);
	if (t->way == IO_WAY_UNKNOWN)
		snprintf(buf, len, "not recorded (a database from before it was)");
	else if (!t->sim_known)
		snprintf(buf, len, "%s, each I/O measured on the device", way);
	else if (sim >= all)
		snprintf(buf, len, "%s, every I/O simulated one by one (%llu)", way,
			 (unsigned long long)all);
	else
		snprintf(buf, len, "%s: %llu of %llu I/Os simulated one by one (%.2f %%), "
			 "%llu extrapolated", way, (unsigned long long)sim,
			 (unsigned long long)all, 100.0 * (double)sim / (double)all,
			 (unsigned long long)store_ios_extrapolated(t));
}
