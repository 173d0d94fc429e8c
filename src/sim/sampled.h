/*
 * A sampled stream (sim_stream.sampled): reads beside side streams that
 * need no per-I/O tail (the boot search's readers) are simulated only in
 * windows that recur through the stream.  Between windows (the gaps) no
 * read is simulated: each slice repeats one of the last window's slices,
 * its read count, bytes and latency histogram, so the gaps keep the
 * window's rate, latency shape and the spread of its samples, at no cost
 * per read.  Everything that moves the drive's state stays real
 * throughout: every write, fsync and trim of the side streams.  In a gap
 * a side stream's I/O takes at least a latency drawn from that stream's
 * I/Os in the window (beside the reads it would have waited for them:
 * queue slots, cores, link), and the stream goes on only then, so its
 * pace is the one it has beside the reads.  Each window thus measures
 * the drive as the whole stream has left it: a p99 that grows through a
 * trial is followed window by window.
 *
 * The slices, from the stream's start:
 *   first  SMP_FIRST slices real: the queue fills and settles; the last
 *          SMP_KEEP of them are the first window;
 *   then   in turn: the gap (SMP_GAP slices on average, no reads: its
 *          length drawn from 12 to 36, so the windows fall at no fixed
 *          period that a periodic event of the drive, a journal flush
 *          say, could keep missing or hitting), a lead slice
 *          (reads simulated again from an empty queue, not counted: the
 *          slice repeats the window too), the window (SMP_KEEP slices,
 *          real, kept).
 * A gap ends at once, the lead starting, when the write path enters a
 * regime no window has seen (SLC to direct, the first GC...): what the
 * reads meet has changed, and a window measures it.  (Regimes that
 * alternate, GC and its bursts, end no gap once both were measured.)
 * While a side stream's fsync is in flight (the buffer drained on demand:
 * a rare, long event for the reads beside it) every read is simulated
 * and counted as itself, in no window; after it, one real slice, then a
 * window.
 *
 * A warped mix (a sweep's sequential read/write mix, exact, no side
 * streams: fluid.c exact_gap) uses the same windows without the lead:
 * across a gap the discrete engine's state is not left to drain but moved
 * on in time (sim_warp: the clock, the I/Os in flight, cores, units,
 * channels, links, slots), so the window after it starts from exactly the
 * state the last one ended in, and the gap's writes go through the write
 * path along the cursor (every byte written reaches it, and the cursor
 * stands where the I/Os put it).  Its gaps are longer (SMP_WARP_GAP), its
 * slices keep the writes too, its windows see the regimes afresh (a gap
 * ends at a regime its own window did not see, mid-slice), and a window
 * that saw the write buffer full (SMP_WB_FULL: the loop bound by the
 * buffer, write by write) is followed by no gap.
 */
#ifndef SSDBENCH_SIM_SAMPLED_H
#define SSDBENCH_SIM_SAMPLED_H

#include <stdbool.h>
#include <stdint.h>

#include "common/hist.h"

#define SMP_FIRST 8u
#define SMP_KEEP 3u
#define SMP_GAP 24u		/* on average: SMP_GAP +- SMP_GAP / 2 */
#ifndef SMP_WARP_GAP
#define SMP_WARP_GAP 36u	/* a warped mix's (no lead, no transient) */
#endif
#define SMP_MAX_SIDE 4u		/* SIM_MAX_SIDE */
/* A regime of a warped mix's own, beside the write path's (enum regime):
   the write buffer full, the writes waiting for room. */
#define SMP_WB_FULL 31u

enum smp_phase {
	SMP_REAL,	/* real, not kept: the first slices, a flush's */
	SMP_KEPT,	/* real, kept: the window */
	SMP_GAP_,	/* no reads: the slice repeats the window */
	SMP_LEAD,	/* reads again, the slice repeats the window */
};

/* A side stream's completion held in a gap (next_cpl in fluid.c); each
   side stream has one I/O in flight at most.  tag 0: none. */
struct smp_held {
	uint64_t t_done, lat, tag;
};

/* A window's latencies of one kind as a table to draw from: each
   non-empty bucket's value and the count up to and with it. */
struct smp_table {
	uint64_t *cum, *val;
	uint32_t n, cap;
};

/* One kept slice of the stream's reads (and a mix's writes). */
struct smp_slice {
	uint64_t bytes, ios;
	struct lat_hist *lat;
	uint64_t wbytes, wios;
	struct lat_hist *wlat;	/* NULL: no writes (a stream with side streams) */
};

struct smp_window {
	enum smp_phase ph;
	uint32_t left;			/* slices to begin before the next phase */
	uint32_t seen, win_seen;	/* write path regimes (bits) the windows
					   saw: so far, up to the last one */
	struct smp_slice t[SMP_KEEP];	/* the last window's slices */
	uint32_t kept, next_kept, next_repeat;
	uint64_t repeated;		/* reads the repeated slices gave */
	uint64_t repeated_w;		/* and a mix's writes */
	bool warp;			/* a warped mix (above): no lead */
	uint64_t gaps;			/* the gaps' lengths: a splitmix64 state */
	bool flushing;			/* a side stream's fsync in flight */
	struct lat_hist *side[SMP_MAX_SIDE];	/* side I/Os in the window */
	struct smp_table tab[SMP_MAX_SIDE];	/* the last window's, to draw */
	uint32_t nside;
	struct smp_held held[SMP_MAX_SIDE];	/* by side stream */
	uint32_t nheld;			/* how many of them are held */
};

/* seed: the gaps' lengths; warp: a sequential mix's (above), whose
   slices keep writes too.  -1 on ENOMEM (nothing held). */
int smp_init(struct smp_window *m, uint32_t nside, bool warp, uint64_t seed);
void smp_free(struct smp_window *m);

/* A slice begins (the one before was emitted).  -1 on ENOMEM. */
int smp_slice_begins(struct smp_window *m);

/*
 * The next three are asked once per completion of the stream (fluid.c),
 * so they are inline, the common answer (nothing changes) without a call.
 */

/* A gap meets a regime no window saw: the lead begins. */
void smp_regime_new(struct smp_window *m);

/* The write path is in regime r (enum regime) now: a window notes it, a
   gap ends if no window saw it. */
static inline void smp_regime(struct smp_window *m, unsigned r)
{
	uint32_t bit = r < 32 ? 1u << r : 0;
	if (m->ph == SMP_KEPT)
		m->seen |= bit;
	else if (m->ph == SMP_GAP_ && !(m->win_seen & bit))
		smp_regime_new(m);
}

/* smp_flush when `on` is news. */
void smp_flush_changes(struct smp_window *m, bool on);

/* Whether a side stream's fsync is in flight now. */
static inline void smp_flush(struct smp_window *m, bool on)
{
	if (on != m->flushing)
		smp_flush_changes(m, on);
}

/* Whether the reads are not simulated now: a gap with a whole window to
   repeat. */
static inline bool smp_in_gap(const struct smp_window *m)
{
	return m->ph == SMP_GAP_ && m->kept == SMP_KEEP;
}

/* A warped mix's gap: the window's slice the slice now in the gap will
   repeat (the one smp_slice_ends returns for it). */
const struct smp_slice *smp_peek(const struct smp_window *m);
/* Whether no window saw regime r (enum regime): a gap must end. */
bool smp_unseen(const struct smp_window *m, unsigned r);
/* A window begins with the slice now beginning. */
void smp_end_gap(struct smp_window *m);
/* A warped mix's gap ends inside the slice now running: the rest of it
   is simulated (the slice stays as counted), a window begins with the
   next. */
void smp_cut(struct smp_window *m);

/*
 * The slice now ending, with the stream's reads counted in *now and the
 * side streams' latencies in side_lat: a window's whole slice is kept
 * (NULL returned); a gap's or a lead's is to be replaced by the window's
 * slice returned (in turn).  NULL: the slice stays as counted.
 */
const struct smp_slice *smp_slice_ends(struct smp_window *m, const struct smp_slice *now,
				       bool whole, struct lat_hist *const *side_lat);

/* A latency drawn from side stream i's I/Os in the last window (u in
   [0, 1)); 0 when it had none. */
uint64_t smp_side_draw(const struct smp_window *m, uint32_t i, double u);

/* Hold side stream tag - 2's completion until t_done, as latency lat. */
void smp_hold(struct smp_window *m, uint64_t tag, uint64_t t_done, uint64_t lat);
const struct smp_held *smp_held_first(const struct smp_window *m);
/* The held completion due first; NULL: none. */
static inline const struct smp_held *smp_held_next(const struct smp_window *m)
{
	return m->nheld ? smp_held_first(m) : NULL;
}
/* It completes now. */
struct smp_held smp_release(struct smp_window *m, const struct smp_held *h);

#endif
