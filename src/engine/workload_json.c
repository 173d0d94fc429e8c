#include "engine/workload.h"

#include "common/json.h"
#include "engine/replay.h"

/* What was replayed: the trace, how it was read and timed, what it held. */
static void replay_members(struct json_writer *j, const struct replay_spec *r)
{
	char timing[32];
	json_object_begin(j, "replay");
	json_string(j, "file", r->path);
	json_string(j, "format", replay_format_name((enum replay_format)r->format));
	json_string(j, "timing", replay_timing_format(r, timing, sizeof timing));
	json_u64(j, "reads", r->ios[DIR_READ]);
	json_u64(j, "writes", r->ios[DIR_WRITE]);
	json_u64(j, "trims", r->ios[DIR_TRIM]);
	json_u64(j, "bytes", r->bytes);
	json_u64(j, "duration_ns", r->duration_ns);
	json_u64(j, "skipped", r->skipped);
	json_u64(j, "block", r->block);
	json_object_end(j);
}

void workload_json_members(struct json_writer *j, const struct workload *w)
{
	char desc[320];
	json_string(j, "name", w->name);
	json_string(j, "description", workload_describe(w, desc, sizeof desc));
	json_string(j, "pattern", workload_is_replay(w) ? "replay"
				  : w->pattern == PATTERN_SEQ ? "seq" : "rand");
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
	if (workload_is_replay(w))
		replay_members(j, &w->replay);
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
