#include "engine/workload.h"

#include "common/json.h"

void workload_json_members(struct json_writer *j, const struct workload *w)
{
	char desc[320];
	json_string(j, "name", w->name);
	json_string(j, "description", workload_describe(w, desc, sizeof desc));
	json_string(j, "pattern", w->pattern == PATTERN_SEQ ? "seq" : "rand");
	json_string(j, "rw", workload_rw(w));
	json_u64(j, "read_pct", w->read_pct);
	json_u64(j, "trim_pct", w->trim_pct);
	json_u64(j, "bs", w->bs);
	json_u64(j, "qd", w->qd);
	json_u64(j, "jobs", w->jobs);
	json_u64(j, "span_offset", w->span_offset);
	json_u64(j, "span_len", w->span_len);
	json_u64(j, "stop_bytes", w->stop_bytes);
	json_u64(j, "stop_time_ns", w->stop_time_ns);
	json_u64(j, "ramp_ns", w->ramp_ns);
	json_bool(j, "sync", w->sync);
	json_bool(j, "buffered", w->buffered);
	json_u64(j, "fsync_every", w->fsync_every);
	json_u64(j, "rate", w->rate);
	json_u64(j, "rate_iops", w->rate_iops);
	json_string(j, "rate_process", arrival_process_name(w->rate_process));
	json_bool(j, "open_loop", workload_open_loop(w));
	json_u64(j, "seed", w->seed);
	char dist[256];
	json_string(j, "random_distribution", access_dist_format(&w->dist, dist, sizeof dist));
	if (workload_has_bssplit(w)) {
		char split[1024];
		json_string(j, "bssplit", bs_split_format(w->bssplit, split, sizeof split));
	}
}

static void workload_object(struct json_writer *j, const void *w)
{
	json_object_begin(j, NULL);
	workload_json_members(j, w);
	json_object_end(j);
}

char *workload_json_string(const struct workload *w)
{
	return json_to_string(workload_object, w);
}
