/*
 * The virtual-time SSD model: one simulated drive with its own clock.
 *
 * Two ways to drive it, over one state:
 *   - discrete: sim_submit() reserves each I/O's path through controller
 *     cores, NAND units, channels and the link, and the write buffer; the
 *     completion time is known at submit.  sim_reap() moves the clock to the
 *     earliest completion (or to a deadline).
 *   - fluid: sim_run_fluid() advances a uniform stream (a fill, hours of
 *     random preconditioning) by integrating rates between the points where
 *     the drive changes regime, at a cost per interval, not per I/O.
 * Nothing runs on its own: folding, GC and idle work are integrated in
 * closed form up to the time the host next touches the drive.
 *
 * Deterministic: the same profile, seed and call sequence give bit-identical
 * results.  Memory: about a byte per MiB of capacity plus a few fixed
 * tables, never more than a few MB.
 */
#ifndef SSDBENCH_SIM_SIM_H
#define SSDBENCH_SIM_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "common/hist.h"
#include "sim/profile.h"

struct sim;

enum sim_op { SIM_READ, SIM_WRITE, SIM_TRIM, SIM_FLUSH };

struct sim_io {
	uint8_t op;		/* enum sim_op */
	uint64_t offset, len;	/* bytes */
	uint64_t tag;		/* returned with the completion */
	bool fua;		/* a write that completes on media (O_SYNC) */
};

struct sim_cpl {
	uint64_t tag;
	uint64_t t_submit_ns, t_done_ns;
	int32_t res;		/* bytes, or -errno */
};

/* The profile is copied (already scaled by the caller if wanted). */
int sim_open(const struct sim_profile *p, uint64_t seed, struct sim **out,
	     struct sb_err *e);
void sim_close(struct sim *s);

const struct sim_profile *sim_profile(const struct sim *s);
uint64_t sim_capacity(const struct sim *s);	/* user bytes, 4 KiB aligned */
uint64_t sim_now(const struct sim *s);		/* ns */
uint32_t sim_outstanding(const struct sim *s);

/* Queue one I/O at the current time; its completion time is fixed now. */
int sim_submit(struct sim *s, const struct sim_io *io, struct sb_err *e);
/*
 * Take up to `max` completions in time order.  Waits (moves the clock) until
 * `min` are due or the clock reaches `deadline_ns`; then also returns any
 * others already due.  Returns how many were returned.
 */
int sim_reap(struct sim *s, struct sim_cpl *out, int min, int max,
	     uint64_t deadline_ns);
/* The host sleeps for dt; the drive does its idle work. */
void sim_idle(struct sim *s, uint64_t dt_ns);
/* Trim a range now (a whole-drive discard: the purge fallback). */
int sim_discard(struct sim *s, uint64_t off, uint64_t len, struct sb_err *e);
/* Wait until the write buffer is on media: the clock moves. */
void sim_flush(struct sim *s);

/*
 * A rate-limited stream of single I/Os beside a fluid read stream (the
 * boot search's writer and trimmer beside its readers): every one of its
 * I/Os is simulated, one at a time, gated by a token bucket of one I/O
 * (the engine's rate limit), with a flush after every flush_every bytes
 * written (its fsyncs).
 */
#define SIM_MAX_SIDE 4
struct sim_side {
	uint8_t op;		/* SIM_WRITE or SIM_TRIM */
	uint32_t bs;
	uint64_t span_off, span_len;
	uint64_t rate;		/* bytes/s, > 0 */
	uint64_t flush_every;	/* writes: bytes between flushes; 0 = none */
	uint64_t seed;
};

struct sim_side_slice {
	uint64_t bytes, ios;
	const struct lat_hist *lat;
	uint64_t sim_ios;	/* of ios, those simulated one by one */
};

/* How a fluid stream's I/Os are produced (sim_run_fluid's dispatch). */
enum sim_way {
	SIM_WAY_EXACT,		/* every I/O simulated (exact, side streams) */
	SIM_WAY_BULK,		/* a calibration window simulated (a write
				   stream: none), the rest extrapolated */
	SIM_WAY_SAMPLED,	/* reads simulated in windows, repeated between */
};

/* A uniform stream for the fluid engine. */
struct sim_stream {
	bool write;		/* else read */
	bool random;		/* else sequential */
	uint32_t bs;		/* bytes per I/O */
	uint32_t qd;		/* I/Os kept in flight */
	uint64_t span_off, span_len;	/* bytes */
	uint64_t start_off;	/* sequential: first offset (inside the span) */
	uint64_t seed;		/* random offsets */
	uint32_t read_pct;	/* 1..99: a mix, this share of the I/Os read
				   (`write` is then ignored); 0: none */
	bool exact;		/* every I/O through the discrete engine in a
				   closed loop at qd: nothing extrapolated */
	bool sampled;		/* reads beside side streams, run for a time
				   (no byte limit), on a full-duplex link
				   (not link_shared) whose queue takes all
				   their I/Os (qd + nside <= qd_cap):
				   the reads simulated in windows recurring
				   through the stream, the slices between
				   repeating theirs, while the side streams'
				   I/Os all go on (sampled.h); otherwise
				   every read */
	/* Beside a read stream (read_pct 0, not write): up to SIM_MAX_SIDE
	   rate-limited streams, run for the same time. */
	const struct sim_side *side;
	uint32_t nside;
	/* on_grid: slices end on the caller's grid, at grid_ns + k slice_ns
	   (its intervals: the first slice may be shorter); otherwise every
	   slice_ns from the stream's start */
	bool on_grid;
	uint64_t grid_ns;
	/* sampled: the windows begin with the first slice that starts at
	   or after this time on the model clock (every I/O before it is
	   simulated: a ramp) */
	uint64_t sample_from_ns;
};

struct sim_slice {
	uint64_t t_start_ns, t_end_ns;	/* absolute, on the model clock */
	uint64_t bytes, ios;		/* a mixed stream: its reads */
	const struct lat_hist *lat;	/* completions of this slice */
	uint64_t next_off;		/* sequential: where the stream stands */
	uint64_t wbytes, wios;		/* a mixed stream's writes */
	const struct lat_hist *wlat;
	struct sim_side_slice side[SIM_MAX_SIDE];	/* the side streams' */
	/* Provenance, changing no figure: of ios + wios, how many were
	   simulated one by one (their latencies are theirs); the rest were
	   extrapolated (a bulk stream past its calibration, a sampled
	   stream's repeated slices).  way: the stream's, the same in every
	   slice. */
	uint64_t sim_ios;
	enum sim_way way;
};

/* 0 go on, 1 stop the stream, -1 abort (the callback filled e). */
typedef int (*sim_slice_fn)(void *ctx, const struct sim_slice *sl,
			    struct sb_err *e);

/*
 * Run a stream from the current time until max_bytes were done or max_ns
 * passed (0 = no limit on that count; at least one must be set), calling
 * `fn` for every slice_ns of virtual time (the last slice may be shorter).
 * Nothing may be outstanding.  Returns 0, or -1 with e set.
 */
int sim_run_fluid(struct sim *s, const struct sim_stream *st,
		  uint64_t max_bytes, uint64_t max_ns, uint64_t slice_ns,
		  sim_slice_fn fn, void *ctx, struct sb_err *e);

/*
 * A memo of streams, kept by the caller across drives it opens again and
 * again (a suite's purges reopen its simulated drive): a stream asked of a
 * drive that has only idled since sim_open, in exactly the state (every
 * byte, the clock too) a recorded stream started from, with the same
 * stream and limits, is not run again: its recorded slices are handed to
 * `fn` (the same numbers, histograms and times; the clock at each as it
 * stood then) and the drive is put in the state the run left.  A stream
 * that `fn` stops or fails part way is run again from the start, its
 * slices up to that one not handed over twice, so the drive stands where
 * the run would have stopped.  Anything else runs as without a memo (the
 * first stream from a fresh drive is recorded, replacing the last one).
 */
struct sim_memo;
int sim_memo_new(struct sim_memo **out, struct sb_err *e);
void sim_memo_free(struct sim_memo *m);
/* s uses m (borrowed: m outlives s; NULL: none). */
void sim_use_memo(struct sim *s, struct sim_memo *m);
/* Streams recorded and streams repeated from the record, so far. */
uint64_t sim_memo_records(const struct sim_memo *m);
uint64_t sim_memo_replays(const struct sim_memo *m);

/* A look inside, for tests, `sim show` and the docs. */
struct sim_state {
	double now_s;
	double slc_static, slc_dyn;	/* valid bytes in SLC */
	double native_valid, native_stale;
	double free_bytes;		/* F */
	double slc_room;		/* SLC the host could write now */
	double host_bytes, nand_bytes;	/* written by the host, programmed */
	double fold_bytes, gc_copy_bytes;
	double wa_inst;			/* write amplification GC would see now */
	const char *regime;		/* what the write path does now */
	double map_hits, map_misses;	/* map-cache lookups (0: whole map held) */
	double map_wb_bytes;		/* map pages written back */
	double map_held, map_dirty;	/* map pages the cache holds, and how
					   many of them are dirty */
	double map_cached_span;		/* LBA bytes the cached map pages cover
					   (the capacity when the map is held whole) */
	double repeated_reads;		/* sampled streams' reads that repeat a
					   window's, not simulated (sampled.h) */
	double repeated_writes;		/* a sampled mix's writes that repeat a
					   window's: through the write path in
					   bulk, not the discrete engine */
};
void sim_state(const struct sim *s, struct sim_state *st);

/* Write amplification of uniform random writes under greedy GC with large
   blocks, as a function of over-provisioning rho (Xiang & Kurkoski). */
double sim_waf_lw(double rho);
/* Agarwal & Marrow's simpler estimate, for comparison. */
double sim_waf_agarwal(double rho);

/* Check the accounting invariant; 0 or -1 with the broken relation in e. */
int sim_check_invariants(const struct sim *s, struct sb_err *e);

#endif
