/*
 * A sampled stream (sim_stream.sampled): reads beside side streams that
 * need no per-I/O tail (the boot search's readers) keep their closed loop
 * of qd reads all through, but are simulated only in windows that recur
 * through the stream.  Between windows (the gaps) a read is virtual: it
 * holds its place in the queue for a latency drawn from the last window's
 * reads, and is counted with it; it costs a draw, not a trip through the
 * drive.  Everything that moves the drive's state stays real throughout:
 * the side streams' writes, fsyncs and trims (each held, in a gap, to at
 * least a latency drawn from the window's I/Os of its stream: beside the
 * reads it would have waited for them).  Each window thus measures the
 * drive as the whole stream has left it (a p99 that grows through a
 * trial is followed, window by window), and the gaps keep the window's
 * rate and latency shape.
 *
 * The slices, from the stream's start:
 *   first  SMP_FIRST slices real: the queue fills and settles; the last
 *          SMP_KEEP of them are the first window;
 *   then   in turn: the gap (SMP_GAP slices, reads virtual), a lead slice
 *          (real reads again, not in the window: the queue still holds
 *          the gap's virtual reads, which load nothing), the window
 *          (SMP_KEEP slices, real, measured).
 * A gap ends at once, the lead starting, when the write path enters a
 * regime the window did not see (SLC to direct, GC, a burst...): what
 * the reads meet has changed, and a window measures it.
 */
#ifndef SSDBENCH_SIM_SAMPLED_H
#define SSDBENCH_SIM_SAMPLED_H

#include <stdbool.h>
#include <stdint.h>

#include "common/hist.h"

#define SMP_FIRST 8u
#define SMP_KEEP 3u
#define SMP_GAP 12u
#define SMP_PERIOD (SMP_GAP + 1u + SMP_KEEP)
#define SMP_MAX_SIDE 4u		/* SIM_MAX_SIDE */

enum smp_phase {
	SMP_REAL,	/* real reads, not measured */
	SMP_KEPT,	/* real reads, measured: the window */
	SMP_GAP_,	/* virtual reads */
};


/* A virtual completion in flight: a virtual read (tag 0), or a real
   I/O of the gap held to a latency drawn from the window (its tag). */
struct smp_vread {
	uint64_t t_done, lat, tag;
};

/* A window's latencies of one kind as a table to draw from: each
   non-empty bucket's value and the count up to and with it. */
struct smp_table {
	uint64_t *cum, *val;
	uint32_t n, cap;
};

/* Kinds of I/O a window measures, by their fluid.c tags: the stream's
   reads (0), side stream i's (2 + i); 1 (a mix's writes) is not sampled. */
#define SMP_KINDS (2u + SMP_MAX_SIDE)

struct smp_window {
	enum smp_phase ph;
	uint32_t left;			/* slices to begin before the next phase */
	uint32_t seen, win_seen;	/* write path regimes (bits) in the window
					   being measured, in the last one */
	struct lat_hist *win[SMP_KINDS];	/* the window's real I/Os */
	struct smp_table tab[SMP_KINDS];	/* the last window's, to draw */
	uint32_t nkinds;
	struct smp_vread *vq;		/* a min-heap on t_done */
	uint32_t nv, vcap;
};

/* -1 on ENOMEM (nothing held). */
int smp_init(struct smp_window *m, uint32_t nside);
void smp_free(struct smp_window *m);

/* A slice begins (the one before was emitted): a window's first slice
   starts an empty window, a gap's first draws from the last.  -1 on
   ENOMEM. */
int smp_slice_begins(struct smp_window *m);

/* The write path is in regime r (enum regime) now: a window notes it, a
   gap ends if the window did not see it. */
void smp_regime(struct smp_window *m, unsigned r);

/* A real I/O of kind `tag` completed in a window with this latency. */
void smp_measured(struct smp_window *m, uint64_t tag, uint64_t lat);

/* Whether the last window had I/Os of this kind to draw from. */
bool smp_can_draw(const struct smp_window *m, uint64_t tag);
/* A latency drawn from the last window's I/Os of this kind (u in
   [0, 1)); 0 when it had none. */
uint64_t smp_draw(const struct smp_window *m, uint64_t tag, double u);

/* The virtual reads in flight. */
int smp_vpush(struct smp_window *m, uint64_t t_done, uint64_t lat, uint64_t tag);
const struct smp_vread *smp_vtop(const struct smp_window *m);	/* NULL: none */
struct smp_vread smp_vpop(struct smp_window *m);

#endif
