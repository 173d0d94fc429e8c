/*
 * One job: qd slots, kept full (a closed loop) or filled as I/Os arrive on
 * the workload's schedule (an open loop, arrivals.h).  Everything here
 * runs on the job's driver thread; only the interval hand-over touches
 * shared state.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/internal.h"

/* -EAGAIN completions of one I/O in a row before the run stops on it. */
#define MAX_EAGAIN_RETRIES 1000

/* Stamp granularity: the smallest logical block there is, so written
   blocks differ at every block size a device may use. */
#define STAMP_UNIT 512u

static uint64_t mix_seed(uint64_t seed, uint64_t a, uint64_t b)
{
	uint64_t x = seed ^ (a * 0x9e3779b97f4a7c15ull) ^ (b << 56);
	return splitmix64(&x);
}

int job_init(struct job *j, struct wl_state *wl, uint32_t index, uint32_t gindex,
	     uint32_t buf_base, struct sb_err *e)
{
	const struct workload *w = &wl->w;
	memset(j, 0, sizeof *j);
	j->wl = wl;
	j->index = index;
	j->gindex = gindex;
	j->qd = w->qd;
	j->buf_base = buf_base;
	offset_gen_init(&j->og, w, index, mix_seed(w->seed, gindex, 1));
	rng_seed(&j->rng, mix_seed(w->seed, gindex, 2));
	j->t_sub = calloc(j->qd, sizeof *j->t_sub);
	j->t_arr = calloc(j->qd, sizeof *j->t_arr);
	j->off = calloc(j->qd, sizeof *j->off);
	j->len = calloc(j->qd, sizeof *j->len);
	j->op = calloc(j->qd, sizeof *j->op);
	j->free_slot = calloc(j->qd, sizeof *j->free_slot);
	j->done_len = calloc(j->qd, sizeof *j->done_len);
	j->retries = calloc(j->qd, sizeof *j->retries);
	j->redo = calloc(j->qd, sizeof *j->redo);
	if (!j->t_sub || !j->t_arr || !j->off || !j->len || !j->op || !j->free_slot || !j->done_len ||
	    !j->retries || !j->redo)
		return sb_errf(e, "out of memory");
	for (uint32_t s = 0; s < j->qd; s++)
		j->free_slot[s] = j->qd - 1 - s;
	j->nfree = j->qd;
	j->open_loop = workload_open_loop(w);
	for (int b = 0; b < IVL_RING; b++)
		for (int d = 0; d < DIR_COUNT; d++) {
			struct ivl_buf *ib = &j->ring[b];
			if (!workload_dir_used(w, (enum io_dir)d))
				continue;
			if (!(ib->hist[d] = hist_new()) ||
			    (j->open_loop && (!(ib->resp[d] = hist_new()) ||
					      !(ib->late[d] = hist_new()))))
				return sb_errf(e, "out of memory");
		}
	/* Job index in the top 16 bits, a 48-bit counter below: unique in the
	   run; the run's salt makes runs differ. */
	j->stamp_base = wl->run->stamp_salt ^ ((uint64_t)gindex << 48);
	if (w->pattern == PATTERN_SEQ)
		j->quota = seq_quota_blocks(w->span_len / w->bs, w->jobs, index,
					    w->stop_bytes / w->bs) * w->bs;
	/* The workload's rate, split evenly: jobs run alike. */
	j->rate_bytes = w->rate != 0;
	uint64_t rate = w->rate ? w->rate : w->rate_iops;
	j->rate = rate / w->jobs + (index < rate % w->jobs);
	if (rate && !j->rate)
		j->rate = 1;
	const char *iolog = wl->run->opts->iolog_path;
	if (iolog && iolog_open(iolog, &j->log, e))
		return -1;
	if (workload_is_replay(w) && replay_src_open(w, &j->replay, e))
		return -1;
	return 0;
}

void job_free(struct job *j)
{
	free(j->t_sub);
	free(j->t_arr);
	free(j->off);
	free(j->len);
	free(j->op);
	free(j->free_slot);
	free(j->done_len);
	free(j->retries);
	free(j->redo);
	for (int b = 0; b < IVL_RING; b++)
		for (int d = 0; d < DIR_COUNT; d++) {
			hist_free(j->ring[b].hist[d]);
			hist_free(j->ring[b].resp[d]);
			hist_free(j->ring[b].late[d]);
		}
	if (j->log) {
		struct sb_err e;
		if (iolog_close(j->log, &e))
			run_fail(j->wl->run, &e);
	}
	replay_src_close(j->replay);
	memset(j, 0, sizeof *j);
}

void job_start(struct job *j, uint64_t t0)
{
	j->cur_index = 0;
	j->next_boundary = t0 + j->wl->run->interval;
	/* The first arrival at the start; each job its own draws.  A
	   replay's arrivals are its trace's times. */
	if (j->replay)
		replay_src_start(j->replay, t0);
	else if (j->open_loop)
		arrivals_init(&j->arr, j->wl->w.rate_process, j->rate, t0,
			      mix_seed(j->wl->w.seed, j->gindex, 3));
}

void job_fill_buffers(struct job *j)
{
	const struct workload *w = &j->wl->w;
	if (!workload_dir_used(w, DIR_WRITE))
		return;
	/* Random bytes once: incompressible.  Stamps make each block unique. */
	uint32_t len = workload_bs_max(w);
	for (uint32_t s = 0; s < j->qd; s++) {
		uint8_t *b = j->wl->run->ops->queue_buffer(j->q, j->buf_base + s);
		for (uint32_t i = 0; i + 8 <= len; i += 8) {
			uint64_t v = rng_next(&j->rng);
			memcpy(b + i, &v, 8);
		}
	}
}

/*
 * A bijective 64-bit mix (splitmix64's finalizer: xor-shifts and odd
 * multipliers are invertible), so distinct counters give distinct stamps
 * that look random: the stamps do not make the data compressible.
 */
static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void stamp(struct job *j, uint8_t *buf, uint32_t len)
{
	for (uint32_t i = 0; i < len; i += STAMP_UNIT) {
		uint64_t v = mix64(j->stamp_base ^ j->stamp_count++);
		memcpy(buf + i, &v, sizeof v);
	}
}

static enum io_op pick_op(struct job *j)
{
	const struct workload *w = &j->wl->w;
	if (w->trim_pct == 100 || (w->trim_pct && rng_below(&j->rng, 100) < w->trim_pct))
		return IO_TRIM;
	if (w->read_pct == 100)
		return IO_READ;
	if (w->read_pct == 0)
		return IO_WRITE;
	return rng_below(&j->rng, 100) < w->read_pct ? IO_READ : IO_WRITE;
}

/*
 * Open loop: the next I/O may go once its arrival is due.  Arrivals are
 * taken in order, each as soon as it is due and a slot is free, so those
 * that found the queue full go, late, as slots come back: the backlog is
 * the schedule itself and needs no memory.
 */
static bool arrival_due(struct job *j, uint64_t now)
{
	if (!j->open_loop || j->arr.next_ns <= now)
		return true;
	j->blocked_until = j->arr.next_ns;
	return false;
}

/* `arrival`: when the I/O was due (open loop), else now. */
static void take_slot(struct job *j, uint64_t now, uint64_t arrival, enum io_op op,
		      uint64_t off, uint32_t len, struct io_req *r)
{
	uint32_t s = j->free_slot[--j->nfree];
	j->t_sub[s] = now;
	j->t_arr[s] = arrival;
	j->off[s] = off;
	j->len[s] = len;
	j->op[s] = (uint8_t)op;
	j->done_len[s] = 0;
	j->retries[s] = 0;
	j->inflight++;
	*r = (struct io_req){ .offset = off, .len = len, .op = (uint8_t)op,
			      .buf = j->buf_base + s,
			      .user_data = (uint64_t)j->gindex << 32 | s };
}

/* An I/O into a free slot, due at `arrival`; a write gets its unique stamps. */
static void issue(struct job *j, uint64_t now, uint64_t arrival, enum io_op op,
		  uint64_t off, uint32_t len, struct io_req *r)
{
	take_slot(j, now, arrival, op, off, len, r);
	if (op == IO_WRITE) {
		stamp(j, j->wl->run->ops->queue_buffer(j->q, r->buf), len);
		j->written_since_fsync += len;
	}
}

/* The size of the next I/O of direction op: its mix, or bs. */
static uint32_t io_size(struct job *j, enum io_op op)
{
	const struct workload *w = &j->wl->w;
	const struct bs_split *s = &w->bssplit[op == IO_READ ? DIR_READ
					       : op == IO_WRITE ? DIR_WRITE : DIR_TRIM];
	return s->n ? bs_split_next(s, &j->rng) : w->bs;
}

/*
 * One I/O's bytes of the workload's byte budget.  Random jobs share the budget,
 * so a slow job does not hold up the end; sequential jobs each have their
 * own share, so N jobs filling a span write each block exactly once.
 */
static bool claim(struct job *j, uint32_t len)
{
	const struct workload *w = &j->wl->w;
	if (w->pattern == PATTERN_RAND)
		return atomic_fetch_add(&j->wl->claimed, len) < w->stop_bytes;
	if (j->claimed >= j->quota)
		return false;
	j->claimed += len;
	return true;
}

/*
 * A replay's next I/O into *r if it is due; false when it is not yet (the
 * time it is due in blocked_until, for the driver's timer) or the trace
 * ended (the job stops; a bad record fails the run).
 */
static bool replay_next(struct job *j, uint64_t now, struct io_req *r)
{
	struct wl_state *wl = j->wl;
	struct trace_io io;
	struct sb_err e;
	uint64_t due;
	int got = replay_src_next(j->replay, now, &io, &due, &e);
	if (got == REPLAY_WAIT) {
		j->blocked_until = due;
		return false;
	}
	if (got < 0)
		run_fail(wl->run, &e);
	if (got != REPLAY_DUE ||
	    (wl->w.stop_bytes && now >= wl->ramp_end && !claim(j, io.len))) {
		j->stopping = true;
		return false;
	}
	replay_src_take(j->replay);
	issue(j, now, j->open_loop ? due : now, (enum io_op)io.op, io.offset, io.len, r);
	return true;
}

static uint32_t slot_len(const struct job *j, uint32_t s)
{
	return j->op[s] == IO_FSYNC ? 0 : j->len[s];
}

static void release_slot(struct job *j, uint32_t s)
{
	j->free_slot[j->nfree++] = s;
	j->inflight--;
}

/*
 * Issue again what came back unfinished: the same request after -EAGAIN,
 * the remainder after a short read or write (as fio does).  Its latency
 * still counts from the first submission: that is what the caller waited.
 * After an error of the run nothing is issued again; the slot is dropped.
 */
static uint32_t issue_redo(struct job *j, struct io_req *out)
{
	uint32_t n = 0;
	bool abort = atomic_load_explicit(&j->wl->run->abort, memory_order_relaxed);
	for (uint32_t i = 0; i < j->nredo; i++) {
		uint32_t s = j->redo[i];
		if (abort) {
			release_slot(j, s);
			continue;
		}
		uint32_t done = j->done_len[s];
		out[n++] = (struct io_req){ .offset = j->off[s] + done,
					    .len = slot_len(j, s) - done,
					    .op = j->op[s], .buf = j->buf_base + s,
					    .buf_off = done,
					    .user_data = (uint64_t)j->gindex << 32 | s };
	}
	j->nredo = 0;
	return n;
}

uint32_t job_prepare(struct job *j, uint64_t now, struct io_req *out)
{
	struct wl_state *wl = j->wl;
	const struct workload *w = &wl->w;
	if (j->done)
		return 0;
	if (!j->stopping && (atomic_load_explicit(&wl->stop, memory_order_relaxed) ||
			     atomic_load_explicit(&wl->run->abort, memory_order_relaxed) ||
			     now >= wl->stop_at))
		j->stopping = true;
	/* A sequential job with an empty slice (more jobs than blocks). */
	if (!j->og.nblocks)
		j->stopping = true;
	uint32_t n = issue_redo(j, out);
	j->blocked_until = 0;
	while (!j->stopping && j->nfree) {
		if (w->fsync_every && j->written_since_fsync >= w->fsync_every) {
			if (j->fsync_inflight)
				break;
			j->fsync_inflight = true;
			j->written_since_fsync = 0;
			take_slot(j, now, now, IO_FSYNC, 0, 0, &out[n++]);
			continue;
		}
		if (j->replay) {
			if (!replay_next(j, now, &out[n]))
				break;
			n++;
			continue;
		}
		/* drawn once, kept until it is due: the same sequence of
		   operations and sizes whatever the timing */
		if (!j->next_len) {
			j->next_op = (uint8_t)pick_op(j);
			j->next_len = io_size(j, (enum io_op)j->next_op);
		}
		uint32_t len = j->next_len;
		if (!arrival_due(j, now))
			break;
		if (w->stop_bytes && now >= wl->ramp_end && !claim(j, len)) {
			j->stopping = true;
			break;
		}
		enum io_op op = (enum io_op)j->next_op;
		j->next_len = 0;
		uint64_t off = offset_next(&j->og);
		if (len > j->og.bs)
			off = offset_fit(&j->og, off, len);
		uint64_t arrival = j->open_loop ? j->arr.next_ns : now;
		if (j->open_loop)
			arrivals_take(&j->arr, j->rate_bytes ? len : 1);
		issue(j, now, arrival, op, off, len, &out[n++]);
	}
	if (j->stopping && !j->inflight)
		job_finish(j);
	return n;
}

static const char op_letter[] = { 'R', 'W', 'T', 'F' };

/* A completion that is not the whole I/O yet: queue it to be issued again. */
static bool needs_redo(struct job *j, uint32_t s, int32_t res)
{
	if (res == -EAGAIN && j->retries[s] < MAX_EAGAIN_RETRIES) {
		j->retries[s]++;
		j->redo[j->nredo++] = s;
		return true;
	}
	uint32_t len = slot_len(j, s);
	if (res > 0 && (j->op[s] == IO_READ || j->op[s] == IO_WRITE) &&
	    j->done_len[s] + (uint32_t)res < len) {
		j->done_len[s] += (uint32_t)res;
		j->retries[s] = 0;
		j->redo[j->nredo++] = s;
		return true;
	}
	return false;
}

void job_complete(struct job *j, const struct io_cpl *c)
{
	struct run *r = j->wl->run;
	uint32_t s = (uint32_t)c->user_data;
	uint64_t t = c->t_done_ns;
	enum io_op op = (enum io_op)j->op[s];
	uint32_t len = slot_len(j, s);
	if (needs_redo(j, s, c->res))
		return;
	uint64_t lat = t > j->t_sub[s] ? t - j->t_sub[s] : 0;
	/* Trims (discard commands, punched holes) and fsyncs complete with 0. */
	uint32_t got = c->res > 0 ? j->done_len[s] + (uint32_t)c->res : j->done_len[s];
	bool ok = c->res >= 0 && (op == IO_TRIM || op == IO_FSYNC || got == len);
	if (!ok) {
		static const char *names[] = { "read", "write", "trim", "fsync" };
		struct sb_err e;
		if (c->res == -EAGAIN)
			sb_errf(&e, "%s of %u bytes at offset %llu: still refused (EAGAIN) "
				"after %d tries", names[op], len,
				(unsigned long long)j->off[s], MAX_EAGAIN_RETRIES);
		else if (c->res < 0)
			sb_errno(&e, -c->res, "%s of %u bytes at offset %llu failed",
				 names[op], len, (unsigned long long)j->off[s]);
		else
			sb_errf(&e, "short %s at offset %llu: %u of %u bytes, then nothing "
				"(the end of the target?)", names[op],
				(unsigned long long)j->off[s], got, len);
		run_fail(r, &e);
		j->stopping = true;
		goto free_slot;
	}
	if (op == IO_FSYNC) {
		j->fsync_inflight = false;
	} else {
		struct ivl_buf *b = &j->ring[j->head % IVL_RING];
		enum io_dir d = op == IO_READ ? DIR_READ : op == IO_WRITE ? DIR_WRITE : DIR_TRIM;
		hist_add(b->hist[d], lat);
		if (b->resp[d]) {
			uint64_t a = j->t_arr[s];
			hist_add(b->resp[d], t > a ? t - a : 0);
			hist_add(b->late[d], j->t_sub[s] > a ? j->t_sub[s] - a : 0);
		}
		b->bytes[d] += len;
		b->ios[d]++;
	}
	if (j->log)
		iolog_line(j->log, t - r->t0, j->wl->index, j->index, op_letter[op],
			   j->off[s], len, lat, op == IO_READ || op == IO_WRITE ? (int32_t)got : c->res);
free_slot:
	j->t_last = t;
	release_slot(j, s);
}

void job_finish(struct job *j)
{
	if (j->done)
		return;
	j->ring[j->head % IVL_RING].last = true;
	j->ring[j->head % IVL_RING].t_last = j->t_last;
	run_publish(j->wl->run, j);
	j->done = true;
}
