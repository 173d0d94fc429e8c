#include "engine/workload.h"

#include <stdio.h>
#include <string.h>

#include "common/units.h"

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

int workload_validate(struct workload *w, uint64_t target_size,
		      uint32_t logical_block, struct sb_err *e)
{
	char a[32], b[32];
	if (w->bs < BS_MIN || w->bs > BS_MAX)
		return sb_errf(e, "block size %s is out of range (512 B to 64 MiB)",
			       fmt_bytes(w->bs, a, sizeof a));
	if (logical_block && w->bs % logical_block)
		return sb_errf(e, "block size %u B is not a multiple of the target's "
			       "logical block size (%u B)", w->bs, logical_block);
	if (w->qd < 1 || w->qd > QD_MAX)
		return sb_errf(e, "queue depth %u is out of range (1 to %u)", w->qd, QD_MAX);
	if (w->jobs < 1 || w->jobs > JOBS_MAX)
		return sb_errf(e, "jobs %u is out of range (1 to %u)", w->jobs, JOBS_MAX);
	if (w->read_pct > 100 || w->trim_pct > 100)
		return sb_errf(e, "read and trim shares are percentages (0 to 100)");
	if ((uint64_t)w->qd * w->bs > JOB_BUFFER_MAX)
		return sb_errf(e, "queue depth %u x block size %s needs %s of buffers per job "
			       "(limit %s)", w->qd, fmt_bytes(w->bs, a, sizeof a),
			       fmt_bytes((uint64_t)w->qd * w->bs, b, sizeof b), "1 GiB");
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
	if (w->span_len < w->bs)
		return sb_errf(e, "span of %s is too small for one block of %s",
			       fmt_bytes(w->span_len, a, sizeof a), fmt_bytes(w->bs, b, sizeof b));
	/* Byte stops count whole blocks, so the count can be exact. */
	if (w->stop_bytes) {
		w->stop_bytes -= w->stop_bytes % w->bs;
		if (!w->stop_bytes)
			return sb_errf(e, "the amount to transfer is smaller than one block");
	}
	return 0;
}

const char *workload_rw(const struct workload *w)
{
	bool rnd = w->pattern == PATTERN_RAND;
	if (w->trim_pct == 100)
		return rnd ? "randtrim" : "trim";
	if (w->read_pct == 100)
		return rnd ? "randread" : "read";
	if (w->read_pct == 0)
		return rnd ? "randwrite" : "write";
	return rnd ? "randrw" : "rw";
}

const char *workload_describe(const struct workload *w, char *buf, unsigned len)
{
	char bs[32];
	fmt_bytes(w->bs, bs, sizeof bs);
	int n = snprintf(buf, len, "%s %s QD%ux%u", workload_rw(w), bs, w->qd, w->jobs);
	if (n > 0 && (unsigned)n < len && w->read_pct != 0 && w->read_pct != 100 && w->trim_pct != 100)
		n += snprintf(buf + n, len - n, " %u%% read", w->read_pct);
	if (n > 0 && (unsigned)n < len && w->trim_pct && w->trim_pct != 100)
		snprintf(buf + n, len - n, " %u%% trim", w->trim_pct);
	return buf;
}
