#include "engine/workload.h"

#include <stdio.h>
#include <string.h>

#include "common/units.h"
#include "engine/replay.h"

#define BS_MIN 512u
#define BS_MAX (64u << 20)
#define QD_MAX 1024u
#define JOBS_MAX 256u
/* I/O buffers a job pins: qd * bs.  Beyond this, refuse rather than swap. */
#define JOB_BUFFER_MAX (1ull << 30)

void workload_defaults(struct workload *w)
{
	memset(w, 0, sizeof *w);
	snprintf(w->name, sizeof w->name, "job");
	w->pattern = PATTERN_SEQ;
	w->read_pct = 100;
	w->bs = 4096;
	w->qd = 1;
	w->jobs = 1;
}

bool workload_open_loop(const struct workload *w)
{
	/* a replay at its trace's times arrives on that schedule */
	return w->rate || w->rate_iops ||
	       (workload_is_replay(w) && w->replay.timing != REPLAY_AFAP);
}

bool workload_has_bssplit(const struct workload *w)
{
	return w->bssplit[0].n || w->bssplit[1].n || w->bssplit[2].n;
}

/* The sizes a workload's I/Os may have: each direction's mix, or bs for a
   direction without one. */
static void bs_bounds(const struct workload *w, uint32_t *min, uint32_t *max)
{
	*min = *max = w->bs;
	bool first = true;
	for (int d = 0; d < 3; d++) {
		const struct bs_split *s = &w->bssplit[d];
		for (uint32_t i = 0; i < (s->n ? s->n : 1); i++) {
			uint32_t bs = s->n ? s->bs[i] : w->bs;
			if (first || bs < *min)
				*min = bs;
			if (first || bs > *max)
				*max = bs;
			first = false;
		}
	}
}

uint32_t workload_bs_max(const struct workload *w)
{
	uint32_t lo, hi;
	bs_bounds(w, &lo, &hi);
	return hi;
}

uint32_t workload_bs_min(const struct workload *w)
{
	uint32_t lo, hi;
	bs_bounds(w, &lo, &hi);
	return lo;
}

static int validate_bssplit(const struct workload *w, uint32_t logical_block,
			    struct sb_err *e)
{
	char a[32];
	for (int d = 0; d < 3; d++)
		for (uint32_t i = 0; i < w->bssplit[d].n; i++) {
			uint32_t bs = w->bssplit[d].bs[i];
			if (bs < BS_MIN || bs > BS_MAX)
				return sb_errf(e, "bssplit: block size %s is out of range "
					       "(512 B to 64 MiB)", fmt_bytes(bs, a, sizeof a));
			if (logical_block && bs % logical_block)
				return sb_errf(e, "bssplit: block size %u B is not a multiple "
					       "of the target's logical block size (%u B)",
					       bs, logical_block);
		}
	if (w->pattern != PATTERN_RAND)
		return sb_errf(e, "bssplit applies to random I/O (randread, randwrite, "
			       "randrw, randtrim)");
	return 0;
}

bool workload_dir_used(const struct workload *w, enum io_dir d)
{
	if (workload_is_replay(w))
		return w->replay.ios[d] > 0;
	switch (d) {
	case DIR_READ:
		return w->trim_pct < 100 && w->read_pct > 0;
	case DIR_WRITE:
		return w->trim_pct < 100 && w->read_pct < 100;
	default:
		return w->trim_pct > 0;
	}
}

/*
 * A replay's I/Os come from its trace: what the scan found sets the block
 * size (the buffers: the longest I/O, in whole logical blocks) and the
 * shares, and what would shape generated I/O is refused.  Idempotent: a
 * workload is validated by the CLI and again by the engine.
 */
static int validate_replay(struct workload *w, uint32_t logical_block, struct sb_err *e)
{
	struct replay_spec *r = &w->replay;
	char a[32];
	if (!r->len_max)
		return sb_errf(e, "replay %s: the trace has not been read (replay_scan)", r->path);
	if (w->jobs != 1)
		return sb_errf(e, "a replay is one stream in the trace's order: jobs must be 1");
	if (workload_has_bssplit(w) || w->dist.kind != DIST_UNIFORM || w->rate ||
	    w->rate_iops || w->rate_process != ARRIVAL_UNIFORM)
		return sb_errf(e, "bssplit, random_distribution and the rates do not apply "
			       "to a replay: its trace says where, how much and when");
	if (r->timing == REPLAY_SCALED && !(r->speed > 0))
		return sb_errf(e, "replay speed %g is not positive", r->speed);
	uint32_t blk = logical_block ? logical_block : BS_MIN;
	uint64_t bs = ((uint64_t)r->len_max + blk - 1) / blk * blk;
	if (bs > BS_MAX)
		return sb_errf(e, "the trace's longest I/O, %s in whole blocks, is more than "
			       "64 MiB", fmt_bytes(bs, a, sizeof a));
	r->block = blk;
	w->bs = (uint32_t)bs;
	w->pattern = PATTERN_RAND;
	uint64_t rw = r->ios[DIR_READ] + r->ios[DIR_WRITE], all = rw + r->ios[DIR_TRIM];
	w->read_pct = rw ? (uint32_t)(r->ios[DIR_READ] * 100 / rw) : 0;
	w->trim_pct = all ? (uint32_t)(r->ios[DIR_TRIM] * 100 / all) : 0;
	return 0;
}

int workload_validate(struct workload *w, uint64_t target_size,
		      uint32_t logical_block, struct sb_err *e)
{
	char a[32], b[32];
	if (workload_is_replay(w) && validate_replay(w, logical_block, e))
		return -1;
	if (w->bs < BS_MIN || w->bs > BS_MAX)
		return sb_errf(e, "block size %s is out of range (512 B to 64 MiB)",
			       fmt_bytes(w->bs, a, sizeof a));
	if (logical_block && w->bs % logical_block)
		return sb_errf(e, "block size %u B is not a multiple of the target's "
			       "logical block size (%u B)", w->bs, logical_block);
	if (workload_has_bssplit(w) && validate_bssplit(w, logical_block, e))
		return -1;
	uint32_t bs_max = workload_bs_max(w), bs_min = workload_bs_min(w);
	if (w->qd < 1 || w->qd > QD_MAX)
		return sb_errf(e, "queue depth %u is out of range (1 to %u)", w->qd, QD_MAX);
	if (w->jobs < 1 || w->jobs > JOBS_MAX)
		return sb_errf(e, "jobs %u is out of range (1 to %u)", w->jobs, JOBS_MAX);
	if (w->read_pct > 100 || w->trim_pct > 100)
		return sb_errf(e, "read and trim shares are percentages (0 to 100)");
	if ((uint64_t)w->qd * bs_max > JOB_BUFFER_MAX)
		return sb_errf(e, "queue depth %u x block size %s needs %s of buffers per job "
			       "(limit %s)", w->qd, fmt_bytes(bs_max, a, sizeof a),
			       fmt_bytes((uint64_t)w->qd * bs_max, b, sizeof b), "1 GiB");
	if (logical_block && w->span_offset % logical_block)
		return sb_errf(e, "span offset %llu is not a multiple of the logical "
			       "block size (%u B)", (unsigned long long)w->span_offset, logical_block);
	if (w->span_offset >= target_size)
		return sb_errf(e, "span offset %s is beyond the target (%s)",
			       fmt_bytes(w->span_offset, a, sizeof a),
			       fmt_bytes(target_size, b, sizeof b));
	if (!w->span_len)
		w->span_len = target_size - w->span_offset;
	if (w->span_len > target_size - w->span_offset)
		return sb_errf(e, "span %llu+%llu ends beyond the target (%llu bytes)",
			       (unsigned long long)w->span_offset,
			       (unsigned long long)w->span_len,
			       (unsigned long long)target_size);
	/* Sequential jobs beyond the span's block count get an empty slice
	   and stay idle: a pass is still every block once. */
	if (w->span_len < w->bs || (w->span_len / bs_min) * bs_min < bs_max)
		return sb_errf(e, "span of %s is too small for one block of %s",
			       fmt_bytes(w->span_len, a, sizeof a),
			       fmt_bytes(bs_max > w->bs ? bs_max : w->bs, b, sizeof b));
	if (w->dist.kind != DIST_UNIFORM) {
		struct dist_sampler ds;
		if (w->pattern != PATTERN_RAND)
			return sb_errf(e, "random_distribution applies to random I/O "
				       "(randread, randwrite, randrw, randtrim)");
		if (dist_sampler_init(&ds, &w->dist, w->span_len / bs_min, 0, e))
			return -1;
	}
	if (w->rate && w->rate_iops)
		return sb_errf(e, "a rate in bytes/s and one in I/Os per second: give one of them");
	if (w->rate_process != ARRIVAL_UNIFORM && !workload_open_loop(w))
		return sb_errf(e, "rate-process %s needs a rate (--rate-iops or --rate)",
			       arrival_process_name(w->rate_process));
	/* Byte stops count whole blocks, so the count can be exact (a
	   replay's blocks are the trace's own). */
	if (w->stop_bytes && !workload_is_replay(w)) {
		w->stop_bytes -= w->stop_bytes % w->bs;
		if (!w->stop_bytes)
			return sb_errf(e, "the amount to transfer is smaller than one block");
	}
	return 0;
}

const char *workload_rw(const struct workload *w)
{
	bool rnd = w->pattern == PATTERN_RAND;
	if (workload_is_replay(w))
		return "replay";
	if (w->trim_pct == 100)
		return rnd ? "randtrim" : "trim";
	if (w->read_pct == 100)
		return rnd ? "randread" : "read";
	if (w->read_pct == 0)
		return rnd ? "randwrite" : "write";
	return rnd ? "randrw" : "rw";
}

/* "replay trace.log (blkparse, recorded) QD8" */
static const char *describe_replay(const struct workload *w, char *buf, unsigned len)
{
	const char *base = strrchr(w->replay.path, '/');
	char timing[32];
	snprintf(buf, len, "replay %.200s (%s, %s) QD%u", base ? base + 1 : w->replay.path,
		 replay_format_name((enum replay_format)w->replay.format),
		 replay_timing_format(&w->replay, timing, sizeof timing), w->qd);
	return buf;
}

const char *workload_describe(const struct workload *w, char *buf, unsigned len)
{
	char bs[32];
	if (workload_is_replay(w))
		return describe_replay(w, buf, len);
	/* with a mix the sizes are said at the end */
	if (workload_has_bssplit(w))
		snprintf(bs, sizeof bs, "mixed sizes");
	else
		fmt_bytes(w->bs, bs, sizeof bs);
	int n = snprintf(buf, len, "%s %s QD%ux%u", workload_rw(w), bs, w->qd, w->jobs);
	if (n > 0 && (unsigned)n < len && w->read_pct != 0 && w->read_pct != 100 && w->trim_pct != 100)
		n += snprintf(buf + n, len - n, " %u%% read", w->read_pct);
	if (n > 0 && (unsigned)n < len && w->trim_pct && w->trim_pct != 100)
		n += snprintf(buf + n, len - n, " %u%% trim", w->trim_pct);
	if (n > 0 && (unsigned)n < len && w->dist.kind != DIST_UNIFORM) {
		char d[256];
		n += snprintf(buf + n, len - n, " %s", access_dist_format(&w->dist, d, sizeof d));
	}
	if (n > 0 && (unsigned)n < len && w->rate_iops)
		n += snprintf(buf + n, len - n, " at %llu IOPS %s",
			      (unsigned long long)w->rate_iops, arrival_process_name(w->rate_process));
	else if (n > 0 && (unsigned)n < len && w->rate)
		n += snprintf(buf + n, len - n, " at %s/s %s", fmt_bytes(w->rate, bs, sizeof bs),
			      arrival_process_name(w->rate_process));
	if (n > 0 && (unsigned)n < len && workload_has_bssplit(w)) {
		char d[1024];
		snprintf(buf + n, len - n, " bssplit %s", bs_split_format(w->bssplit, d, sizeof d));
	}
	return buf;
}
