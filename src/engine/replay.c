/*
 * A job's trace during a run: the next recorded I/O, remapped onto the
 * workload's span, and the backend time it is due.  The job submits it
 * then if a slot is free (job_prepare); until then the driver's agenda
 * holds the job on a timer, the same as a rate-limited job, so on the
 * simulator's virtual clock an I/O starts exactly at its time.
 */
#include <errno.h>
#include <stdlib.h>

#include "engine/replay.h"
#include "engine/workload.h"

void replay_map(uint64_t base, uint64_t span, uint32_t block, uint64_t offset,
		uint32_t len, uint64_t *out_off, uint32_t *out_len)
{
	uint64_t b = block ? block : 1;
	uint64_t l = (len + b - 1) / b * b;
	uint64_t o = offset % span;
	o -= o % b;
	if (o + l > span)
		o = (span - l) / b * b;
	*out_off = base + o;
	*out_len = (uint32_t)l;
}

struct replay_src {
	struct trace_reader *rd;
	struct trace_io next;	/* read, mapped, not yet taken */
	bool have, ended;
	bool first_seen;
	uint64_t t_first;	/* the trace's time of its first I/O */
	uint64_t start;		/* backend time the workload started */
	uint8_t timing;
	double speed;
	uint64_t base, span;
	uint32_t block;
};

int replay_src_open(const struct workload *w, struct replay_src **out, struct sb_err *e)
{
	struct replay_src *s = calloc(1, sizeof *s);
	if (!s)
		return sb_errno(e, ENOMEM, "replay");
	if (trace_reader_open(w->replay.path, (enum replay_format)w->replay.format, &s->rd, e)) {
		free(s);
		return -1;
	}
	s->timing = w->replay.timing;
	s->speed = w->replay.speed;
	s->base = w->span_offset;
	s->span = w->span_len;
	s->block = w->replay.block;
	*out = s;
	return 0;
}

void replay_src_close(struct replay_src *s)
{
	if (!s)
		return;
	trace_reader_close(s->rd);
	free(s);
}

void replay_src_start(struct replay_src *s, uint64_t t0)
{
	s->start = t0;
}

/* The backend time the recorded time t is due at. */
static uint64_t due_at(const struct replay_src *s, uint64_t t)
{
	uint64_t rel = t > s->t_first ? t - s->t_first : 0;
	if (s->timing == REPLAY_SCALED) {
		double x = (double)rel / s->speed;
		rel = x >= 1.8e19 ? UINT64_MAX / 2 : (uint64_t)x;
	}
	return s->start + rel;
}

int replay_src_next(struct replay_src *s, uint64_t now, struct trace_io *io,
		    uint64_t *due, struct sb_err *e)
{
	if (!s->have && !s->ended) {
		int got = trace_reader_next(s->rd, &s->next, e);
		if (got < 0)
			return -1;
		if (got == 0) {
			s->ended = true;
		} else {
			s->have = true;
			if (!s->first_seen) {
				s->first_seen = true;
				s->t_first = s->next.t_ns;
			}
			replay_map(s->base, s->span, s->block, s->next.offset, s->next.len,
				   &s->next.offset, &s->next.len);
		}
	}
	if (s->ended)
		return REPLAY_END;
	*due = s->timing == REPLAY_AFAP ? now : due_at(s, s->next.t_ns);
	if (*due > now)
		return REPLAY_WAIT;
	*io = s->next;
	return REPLAY_DUE;
}

void replay_src_take(struct replay_src *s)
{
	s->have = false;
}
