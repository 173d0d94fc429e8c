#include "cli/run_output.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/latency.h"
#include "cli/commands.h"
#include "cli/export.h"
#include "cli/run_view.h"
#include "common/term_text.h"
#include "common/rank.h"
#include "common/json.h"
#include "common/units.h"
#include "suite/totals.h"

static const double json_pcts[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95,
				    99, 99.5, 99.9, 99.95, 99.99, 99.999, 99.9999 };
#define NJSON_PCTS (sizeof json_pcts / sizeof json_pcts[0])

static double per_second(uint64_t n, uint64_t ns)
{
	return ns ? (double)n * 1e9 / (double)ns : 0.0;
}

/* "mean .., p50 .., ..., max .."; true when a percentile is only the max. */
static bool print_lat(FILE *out, const char *label, const struct lat_hist *h)
{
	char a[32];
	bool marked = false;
	uint64_t v[RUN_VIEW_NPCT];
	hist_percentiles(h, run_view_pcts, RUN_VIEW_NPCT, v);
	fprintf(out, "        %s mean %s", label, fmt_ns((uint64_t)hist_mean(h), a, sizeof a));
	for (int k = 0; k < RUN_VIEW_NPCT; k++) {
		bool ok = percentile_supported(run_view_pcts[k], h->count);
		marked |= !ok;
		fprintf(out, ", %s %s", run_view_pct_names[k],
			ok ? fmt_ns(v[k], a, sizeof a) : PCT_AT_MAX);
	}
	fprintf(out, ", max %s\n", fmt_ns(h->max, a, sizeof a));
	return marked;
}

void run_print_lateness(FILE *out, const char *indent, const struct lateness_summary *l)
{
	char a[32], b[32];
	if (!l->late) {
		fprintf(out, "%slate: none of %" PRIu64 " I/Os (each went at its arrival)\n",
			indent, l->ios);
		return;
	}
	fprintf(out, "%slate: %" PRIu64 " of %" PRIu64 " I/Os (%.2f %%) went after their "
		"arrival, by %s on average, at most %s\n", indent, l->late, l->ios,
		100.0 * (double)l->late / (double)l->ios,
		fmt_ns((uint64_t)l->late_mean_ns, a, sizeof a), fmt_ns(l->max_ns, b, sizeof b));
}

void run_print_summary(FILE *out, const struct run_report *r)
{
	const struct engine_result *res = r->res;
	char a[32], b[32], text[1024];
	fprintf(out, "target %s (%s, %s, logical block %u B)\n",
		term_text(res->facts.path, text, sizeof text),
		res->facts.kind, fmt_bytes(res->facts.size, a, sizeof a),
		res->facts.logical_block);
	fprintf(out, "engine %s, mode %s, batch %u%s\n", res->backend,
		res->mode[0] ? res->mode : "-", r->batch,
		r->run_id ? "" : ", not stored");
	if (r->run_id && !strcmp(r->status, "done"))
		fprintf(out, "run %" PRId64 " stored\n", r->run_id);
	else if (r->run_id)	/* what it kept is in the status line below */
		fprintf(out, "run %" PRId64 " stored as %s\n", r->run_id, r->status);
	bool marked = false, open_loop = false;
	for (uint32_t i = 0; i < res->nworkloads; i++) {
		const struct workload_result *wr = &res->wl[i];
		char desc[128];
		fprintf(out, "\n[%s] %s, %s measured%s\n",
			term_text(r->w[i].name, text, sizeof text),
			workload_describe(&r->w[i], desc, sizeof desc),
			fmt_ns(wr->measured_ns, b, sizeof b),
			wr->stopped_by_hook ? " (stopped)" : "");
		for (int d = 0; d < DIR_COUNT; d++) {
			if (!wr->ios[d])
				continue;
			const struct lat_hist *h = wr->hist[d];
			double mbps = per_second(wr->bytes[d], wr->measured_ns) /
				      (r->mib ? 1048576.0 : 1e6);
			fprintf(out, "  %-5s IOPS %.0f, %.1f %s, %" PRIu64 " I/Os, %s\n",
				io_dir_name((enum io_dir)d),
				per_second(wr->ios[d], wr->measured_ns), mbps,
				r->mib ? "MiB/s" : "MB/s", wr->ios[d],
				fmt_bytes(wr->bytes[d], a, sizeof a));
			marked |= print_lat(out, "lat", h);
			if (!wr->response[d])
				continue;
			/* open loop: the latency above is service latency */
			marked |= print_lat(out, "response", wr->response[d]);
			struct lateness_summary l;
			lat_lateness(wr->lateness[d], &l);
			run_print_lateness(out, "        ", &l);
		}
		if (workload_open_loop(&r->w[i]))
			open_loop = true;
	}
	if (open_loop)
		fprintf(out, "\nopen loop: lat is service latency (submission to completion), "
			"response runs from each I/O's scheduled arrival (docs/run.md)\n");
	if (marked)
		fprintf(out, "\n%s: fewer than one I/O beyond that percentile, so it is "
			"only the max\n", PCT_AT_MAX);
	if (strcmp(r->status, "done"))
		fprintf(out, "\nstatus: %s%s%s\n", r->status, r->error ? ": " : "",
			term_text(r->error, text, sizeof text));
}

static void json_lat(struct json_writer *j, const char *name, const struct lat_hist *h)
{
	json_object_begin(j, name);
	json_u64(j, "min", h->count ? h->min : 0);
	json_u64(j, "max", h->max);
	json_double(j, "mean", hist_mean(h));
	json_object_begin(j, "percentiles");
	uint64_t v[NJSON_PCTS];
	hist_percentiles(h, json_pcts, NJSON_PCTS, v);
	char key[NJSON_PCTS][32];
	for (size_t k = 0; k < NJSON_PCTS; k++) {
		snprintf(key[k], sizeof key[k], "%.6f", json_pcts[k]);
		json_u64(j, key[k], v[k]);
	}
	json_object_end(j);
	/* Keys above with fewer than one I/O beyond them: their value is
	   only the max, not a measured percentile. */
	json_array_begin(j, "unsupported_percentiles");
	for (size_t k = 0; k < NJSON_PCTS; k++)
		if (!percentile_supported(json_pcts[k], h->count))
			json_string(j, NULL, key[k]);
	json_array_end(j);
	json_object_end(j);
}

void run_json_lateness(struct json_writer *j, const char *key,
		       const struct lateness_summary *l)
{
	json_object_begin(j, key);
	json_u64(j, "ios", l->ios);
	json_u64(j, "late_ios", l->late);
	json_double(j, "late_mean_ns", l->late_mean_ns);
	json_u64(j, "p99_ns", l->p99_ns);
	json_u64(j, "max_ns", l->max_ns);
	json_object_end(j);
}

static void json_dir(struct json_writer *j, enum io_dir d, const struct workload_result *wr)
{
	json_object_begin(j, io_dir_name(d));
	json_double(j, "iops", per_second(wr->ios[d], wr->measured_ns));
	json_double(j, "bw_bytes", per_second(wr->bytes[d], wr->measured_ns));
	json_u64(j, "total_ios", wr->ios[d]);
	json_u64(j, "total_bytes", wr->bytes[d]);
	json_lat(j, "lat_ns", wr->hist[d]);
	/* open loop: lat_ns is service latency; closed loop: null, as
	   response latency is then the same as lat_ns */
	if (wr->response[d]) {
		struct lateness_summary l;
		lat_lateness(wr->lateness[d], &l);
		json_lat(j, "response_lat_ns", wr->response[d]);
		run_json_lateness(j, "lateness", &l);
	} else {
		json_null(j, "response_lat_ns");
		json_null(j, "lateness");
	}
	json_object_end(j);
}

void run_print_json(FILE *out, const struct run_report *r)
{
	const struct engine_result *res = r->res;
	struct json_writer j;
	json_init(&j, out, true);
	json_object_begin(&j, NULL);
	json_string(&j, "ssdbench_version", SSDBENCH_VERSION);
	if (r->run_id)
		json_i64(&j, "run_id", r->run_id);
	else
		json_null(&j, "run_id");
	json_string(&j, "status", r->status);
	if (r->error)
		json_string(&j, "error", r->error);
	else
		json_null(&j, "error");
	json_object_begin(&j, "target");
	json_string(&j, "path", res->facts.path);
	json_string(&j, "kind", res->facts.kind);
	json_u64(&j, "size", res->facts.size);
	json_u64(&j, "logical_block", res->facts.logical_block);
	json_u64(&j, "physical_block", res->facts.physical_block);
	json_object_end(&j);
	json_object_begin(&j, "engine");
	json_string(&j, "backend", res->backend);
	json_string(&j, "mode", res->mode);
	json_u64(&j, "batch", r->batch);
	json_bool(&j, "iopoll_requested", r->iopoll);
	json_bool(&j, "sqpoll_requested", r->sqpoll);
	json_object_end(&j);
	json_array_begin(&j, "workloads");
	for (uint32_t i = 0; i < res->nworkloads; i++) {
		const struct workload_result *wr = &res->wl[i];
		json_object_begin(&j, NULL);
		workload_json_members(&j, &r->w[i]);
		json_u64(&j, "measured_ns", wr->measured_ns);
		json_bool(&j, "stopped_by_hook", wr->stopped_by_hook);
		json_u64(&j, "driver_stalls", wr->driver_stalls);
		json_u64(&j, "driver_stall_ns", wr->driver_stall_ns);
		struct store_totals t;
		store_totals_of(wr, &t);
		export_json_provenance(&j, &t);
		for (int d = 0; d < DIR_COUNT; d++)
			json_dir(&j, (enum io_dir)d, wr);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
}
