/*
 * The model's insides, shared by the files of src/sim/ and by nothing else.
 *
 * Space is counted in native-equivalent bytes (see SIMULATOR.md §1): one byte
 * of SLC data costs m of them.  The write path state (struct wpath) is
 * integrated in seconds as doubles; the host clock is uint64 ns.
 */
#ifndef SSDBENCH_SIM_MODEL_H
#define SSDBENCH_SIM_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "common/rng.h"
#include "sim/cplq.h"
#include "sim/magicdiv.h"
#include "sim/mapcache.h"
#include "sim/sampler.h"
#include "sim/sim.h"

/* What the write path is doing; also names it for sim_state(). */
enum regime {
	RG_SLC,		/* host into SLC */
	RG_DIRECT,	/* host straight to native, maybe background folding */
	RG_ROUND,	/* foreground fold round segment */
	RG_GC,		/* foreground GC, banking free space */
	RG_BURST,	/* spending the bank: host at full direct rate */
	RG_STALL,	/* slc_only: window shut */
	RG_IDLE,	/* no host: idle fold and GC */
};
const char *regime_name(enum regime r);

/* Where a chunk's data is (chunks.c): its classes. */
enum chunk_tag { CH_UNMAPPED, CH_SLC, CH_NATIVE, CH_FOLDED };

/* A chunk's data as at most two classes: `major` holds the most of it,
   `minor` the share q / CHUNK_ONE of it, q at most CHUNK_Q_MAX (0: all
   of it is major's). */
#define CHUNK_ONE 32u
#define CHUNK_Q_MAX 15u
struct chunk_mix {
	enum chunk_tag major, minor;
	uint32_t q;
};

/* What the host bytes of one write step overwrite (per host byte). */
struct overwrite {
	double inv_slc;		/* valid SLC bytes invalidated */
	double inv_nat;		/* valid native bytes invalidated */
	double folded;		/* share landing on folded-origin data (c_fo) */
	double lba;		/* where the piece starts (byte offset) */
	uint64_t span_off, span_len;	/* a bulk random stream: anywhere in it */
	double map_wb;		/* map-page write-back bytes owed per host byte */
};

struct wpath {
	double t;		/* s: the time the state stands at */
	double last_busy;	/* s: when the host last had work in the drive */
	double S_st, S_dyn, T_v, T_i;
	int round_seg;		/* -1: no round running */
	double round_left;	/* bytes still to fold in the segment */
	bool fg_seen;		/* a round (or a full cache) since the last idle */
	bool gc_active, burst;
	bool win_open;		/* slc_only */
	double journal;		/* host bytes since the last journal flush */
	uint64_t journal_flushes;	/* how many there were */
	enum regime last;
	/* counters */
	double host_bytes, nand_bytes, fold_bytes, gc_copy_bytes;
	double inv_bytes;	/* host data made invalid by overwrites and trims */
	double map_wb_bytes;	/* map pages written back (map.c) */
	double fold_carry;	/* folded bytes not yet moved to chunk tags */
	/* A bulk random stream's host bytes still in the write buffer when
	   it ended (fluid.c): the next bulk random stream over the same span
	   takes them over (the buffer stays as full as I/O by I/O), anything
	   else drains them first (wp_idle_to), as the buffer would. */
	double pend;
	struct overwrite pend_ow;	/* what they overwrite */
};

struct jitter {
	uint64_t tick;		/* index of the 10 ms tick x belongs to */
	double x;		/* unit-variance OU state */
	double a, b;		/* x' = a x + b N(0,1) */
	struct rng rng;
	/* For every t in [win_lo, win_hi], jitter_at(t) is x and
	   jitter_tick_end(t) is win_end (jitter_tick; empty: win_lo > win_hi) */
	double win_lo, win_hi, win_end;
};

/*
 * x / d and x % d for a divisor fixed at open: a shift and a mask when d is
 * a power of two (page, chunk and unit counts usually are), the hardware
 * division otherwise.  Exact either way.
 */
struct divisor {
	uint64_t d, mask;
	int shift;		/* -1: not a power of two */
};

static inline struct divisor divisor_of(uint64_t d)
{
	struct divisor v = { d, d - 1, -1 };
	if (d && !(d & (d - 1)))
		v.shift = __builtin_ctzll(d);
	return v;
}

static inline uint64_t div_by(const struct divisor *v, uint64_t x)
{
	return v->shift >= 0 ? x >> v->shift : x / v->d;
}

static inline uint64_t mod_by(const struct divisor *v, uint64_t x)
{
	return v->shift >= 0 ? x & v->mask : x % v->d;
}

/* a % d for a < 2^47 and 2 <= d < 2^17 (so a d < 2^64: magicdiv.h) with
   magic = mod47_magic(d). */
static inline uint64_t mod47_magic(uint64_t d)
{
	return magic_of(d);
}

static inline uint64_t mod47_by(uint64_t a, uint64_t magic, uint64_t d)
{
	return a - div_by_magic(a, magic) * d;
}

struct wbuf_ent {
	uint64_t drain_end;	/* ns */
	uint32_t bytes;
};

/* Bins of the firmware-time factor (latency.c): FW_BODY equal ones up to
   the 99th percentile, then one per nine to 99.9999 % and the rest. */
#define FW_BODY 56
#define FW_BINS (FW_BODY + 5)

/* I/Os the firmware bins gave that are not in h yet (wlat_flush puts
   them there): n[i] of latency base + t_fw x bin i's factor, for each
   bit i of bins. */
struct wlat_pend {
	struct lat_hist *h;
	double base, t_fw;
	uint64_t bins;
	uint64_t n[FW_BINS];
};

/* A bulk write stream's latency bookkeeping (latency.c wlat_add). */
struct wlat {
	double excess;		/* s: latency owed to writes still to wait */
	double waits;		/* writes owed a wait for a release unit */
	double bin_carry[FW_BINS];
	/* two latencies held back: a buffer-bound stream's steps alternate
	   between the writes that passed and those that waited for a
	   release unit; pend[mru] had the last */
	struct wlat_pend pend[2];
	int mru;
};

struct sim {
	struct sim_profile p;
	uint64_t capacity;
	int m;
	double U, R;		/* bytes */
	double slc_st_cap, slc_dyn_max, f_res, f_fg, f_lo, w_burst;
	double w_slc, w_dir, f_bg, f_idle, p_gc, g_idle, fold_rate, stall_rate;
	double win_open_b, journal_b, journal_stall_s, t_idle_enter_s;

	uint64_t now;		/* ns */
	struct wpath wp;
	struct jitter jit;

	/* chunk map (chunks.c): a byte per chunk (read it with chunk_tag()
	   and chunks_mix()): its major class, minor class << 2, and the
	   minor's share q << 4 */
	uint8_t *tags;
	struct rng rng_chunks;		/* rounds shares to whole parts */
	uint64_t nchunks, chunk;	/* count, bytes each */
	uint64_t ntag[4];		/* chunks by major class */
	uint64_t nminor[4];		/* mixed chunks by minor class */
	uint64_t eq[4];			/* each class's share of every chunk,
					   summed, in CHUNK_ONE parts */
	uint64_t fold_cursor;
	uint64_t piece_chunk, piece_end;	/* the write stream's current chunk */
	uint64_t piece_bytes;		/* the bytes it wrote there */
	struct chunk_mix piece_prev;	/* the chunk before the stream entered */

	/* discrete timing resources, ns */
	uint64_t *core_free, *unit_free, *ch_free, link_free[2];
	/* qd_cap slots when the interface limits depth: the times they free,
	   a ring sorted from slot_head (the earliest), slot_n of them */
	uint64_t *slot_free;
	uint32_t nslots, slot_head, slot_n;
	struct wbuf_ent *wb;	/* write buffer FIFO (ring) */
	uint32_t wb_head, wb_len, wb_cap;
	uint64_t wb_bytes, wb_last_adm;
	uint64_t wb_unreleased;	/* drained bytes whose release unit is not whole */
	uint64_t drain_end;	/* ns: when the buffer is empty */
	/* Writes' time to land (core, firmware, link) before any wait for
	   buffer room, summed: a mixed bulk stream's calibration reads it. */
	uint64_t wr_land_ns, wr_land_n;
	uint64_t repeated_reads;	/* sampled streams' reads repeated, not simulated */
	uint64_t repeated_writes;	/* sampled mixes' writes repeated: through the
					   write path, not the discrete engine */

	struct cplq cq;		/* the I/Os in flight (cplq.h) */
	uint64_t seq;

	struct rng rng_retry, rng_collide, rng_fw;
	double fw_bin[FW_BINS];	/* firmware-time factors, mean 1 */
	double fw_prob[FW_BINS], fw_cum[FW_BINS];	/* their probabilities */
	/* A draw's 53 bits k land in bin i when fw_lim[i-1] <= k < fw_lim[i]
	   (latency.c): the bins' bounds as integers, for a draw without a
	   division or a search. */
	uint64_t fw_lim[FW_BINS];
	uint64_t fw_guess;	/* k x this / 2^64: a body draw's bin, give or take one */

	/* The discrete engine's per-I/O constants, computed once at open
	   (timing_init) by the same expressions the per-I/O formulas use, so
	   every I/O's times are the same to the nanosecond. */
	struct divisor page_div, unit_div, ch_div, map_div;	/* map_div: map_lba */
	uint64_t chunk_mask;		/* chunk - 1 (a power of two) */
	int chunk_shift;
	uint64_t t_ctrl_ns, t_core_wr_ns, t_commit_ns;
	uint64_t fw_rd_ns[FW_BINS], fw_wr_ns[FW_BINS];	/* firmware time per bin */
	/* A page read's service and retry cost: SLC, and native by page type */
	struct page_ns { uint64_t svc, retry; } pg_slc, pg_nat[4];
	uint64_t type_magic;	/* page type = (hash >> 17) % m by a multiply */
	int ntypes;		/* page types with their own read time (1: one) */
	uint64_t ch_page_ns;	/* a whole page's transfer on its channel */
	/* ... after m map pages a read missed, for m < MAP_XFERS (timing.c) */
#define MAP_XFERS 4
	uint64_t ch_map_ns[MAP_XFERS];
	/* Read retries come every so many pages (timing.c): the pages to
	   read before the next one that retries, and log(1 - p_rr) for the
	   gap after it (0: no retries). */
	uint64_t retry_left;
	double retry_log;
	/* A page read's one interference draw k (timing.c), by whether the
	   write path was last in SLC [0] or not [1]: below meet it meets a
	   program or an erase, a program below prog; its wait is cut to
	   susp_ns from prog_cut (a program) or erase_cut (an erase) on.
	   Its place x in the meeting share is k x x_per_k; the wait, x x
	   prog_us into a program, (x - 0.9) x erase_us into an erase. */
	struct meet_lims {
		uint64_t meet, prog, prog_cut, erase_cut;
		double x_per_k, prog_us, erase_us;
	} meet[2];
	uint64_t susp_ns;
	uint64_t wb_cap_bytes;	/* write buffer size */
	struct divisor wb_unit;	/* its release unit */
	/* The last transfer time asked for on the read and write links (a
	   stream asks for one length again and again). */
	uint64_t rd_link_len, rd_link_ns, wr_link_len, wr_link_ns;
	struct sampler *samp;	/* GC's write amplification (NULL: none) */
	/* The L2P map cache (map.c); NULL when the whole map is held. */
	struct mapcache *map;
	uint64_t map_lba;	/* LBA bytes one map page maps */
	uint64_t map_page_bytes, map_slots, tr_map_ns;
	double map_watch_miss;	/* the watched span's share of misses, warm */
	uint64_t map_mark_hits, map_mark_misses;	/* lookups at the last check */
	uint64_t map_mark_ios;	/* the stream's I/Os then */
	bool map_warm;		/* its last block of lookups missed no more */
	bool oom;		/* an allocation failed inside a submit */
	bool stuck;		/* the write path could not move */
	/* Bookkeeping, no part of the drive's state (snapshot.c leaves
	   both out of its comparison and its copies): */
	struct sim_memo *memo;	/* the caller's memo of streams (memo.c), or NULL */
	bool pristine;		/* only sim_idle since sim_open: a stream now
				   may repeat one the memo holds */
};

/* fluid.c: sim_run_fluid's work, the memo aside (memo.c decides
   whether a stream runs or repeats a recorded one). */
int fluid_run(struct sim *s, const struct sim_stream *st,
	      uint64_t max_bytes, uint64_t max_ns, uint64_t slice_ns,
	      sim_slice_fn fn, void *ctx, struct sb_err *e);

/* snapshot.c: a deep copy of a drive with nothing in flight, ... */
int sim_snapshot(const struct sim *s, struct sim **out, struct sb_err *e);
/* ... whether two drives are in the same state, every byte of it (the
   clock too; the I/Os in flight: none on either), ... */
bool sim_same_state(const struct sim *a, const struct sim *b);
/* ... and s put in snap's state (s has nothing in flight; its memo stays). */
int sim_restore(struct sim *s, const struct sim *snap, struct sb_err *e);

/* sim.c: the clock, the I/Os in flight (their submission and completion
   times) and every discrete resource (timing_shift) dt later, as if the
   time between had not been: a sampled mix's gap (sampled.h).  The write
   path is not moved (the caller writes the gap's writes through it).
   Returns the latest completion now due. */
uint64_t sim_warp(struct sim *s, uint64_t dt);

/* The next completion out of the queue (not empty), due at t. */
static inline struct sim_cpl sim_take(struct sim *s, uint64_t t)
{
	struct cpl_ent h = cplq_pop(&s->cq);
	return (struct sim_cpl){ h.tag, h.t_submit, t, h.res };
}

/* sim_reap(s, c, 1, 1, UINT64_MAX), inline for fluid.c's closed loops
   (one a completion): the next completion, the clock moved to it when
   later; false when none is outstanding. */
static inline bool sim_reap_next(struct sim *s, struct sim_cpl *c)
{
	if (!cplq_len(&s->cq))
		return false;
	uint64_t t = cplq_min_t(&s->cq);
	if (t > s->now)
		s->now = t;
	*c = sim_take(s, t);
	return true;
}

/* waf.c */
double waf_inst(const struct sim *s);
double waf_scatter(const struct sim *s);

/* jitter.c */
void jitter_init(struct jitter *j, double tau_s, uint64_t seed);
double jitter_at(struct jitter *j, double t_s);	/* unit-variance value */
double jitter_tick_end(double t_s);		/* end of t's 10 ms tick */
/* Both of one time: jitter_at's value, and *end = jitter_tick_end(t_s).
   A write step asks for them at every step, thousands of times a tick on
   the exact path: the window answers those without a division. */
double jitter_tick_slow(struct jitter *j, double t_s, double *end);
static inline double jitter_tick(struct jitter *j, double t_s, double *end)
{
	if (t_s >= j->win_lo && t_s <= j->win_hi) {
		*end = j->win_end;
		return j->x;
	}
	return jitter_tick_slow(j, t_s, end);
}

/* chunks.c */
int chunks_init(struct sim *s, struct sb_err *e);
void chunks_set(struct sim *s, uint64_t c, enum chunk_tag t);	/* all of c */
void chunks_set_mix(struct sim *s, uint64_t c, struct chunk_mix x);
void chunks_fold(struct sim *s, double folded);	/* retag folded SLC data */
void chunks_overwrite(struct sim *s, uint64_t off, struct overwrite *ow);
void chunks_wrote(struct sim *s, uint64_t off, uint64_t n, enum chunk_tag t);	/* any chunks */
/* How many chunks after c (at most max) hold all of their data in x's
   one class (0 when x holds two). */
uint64_t chunks_alike(const struct sim *s, uint64_t c, struct chunk_mix x, uint64_t max);
/* n bytes at off, inside one chunk, trimmed. */
void chunks_trimmed(struct sim *s, uint64_t off, uint64_t n);
/* Of the unmapped data in chunks [c0, c1], the share f written at random,
   slc of it to SLC, the rest native (a bulk random stream's writes). */
void chunks_map_random(struct sim *s, uint64_t c0, uint64_t c1, double f, double slc);
/* Chunks [c0, c1] by class: each class's share of them, summed, in chunks. */
void chunks_count(const struct sim *s, uint64_t c0, uint64_t c1, double n[4]);
double chunks_density(const struct sim *s, enum chunk_tag t);

/* wpath.c */
double wp_free(const struct sim *s);
double wp_slc_room(const struct sim *s);
void wp_idle_to(struct sim *s, double t);	/* integrate idle work to t */
/*
 * Write `bytes` of host data starting at wp.t (the caller moved it past
 * any gap), limited to host_cap bytes/s (the queue's own limit) and to
 * max_dt seconds.  Returns bytes written; *slc_share gets the share that
 * went to SLC.  Advances wp.t.
 */
double wp_write(struct sim *s, double bytes, double host_cap, double max_dt,
		const struct overwrite *ow, double *slc_share);
/* wp_write, stopping where the next byte would go elsewhere (SLC or
   native) than the first: a sequential stream's step over several
   chunks, which chunks_wrote then tags by where it went. */
double wp_write_route(struct sim *s, double bytes, double host_cap, double max_dt,
		      const struct overwrite *ow, double *slc_share);
void wp_trim(struct sim *s, double slc_bytes, double nat_bytes, bool whole);

/* latency.c */
/* The first 53-bit draw k >= from for which the monotone past(ctx, k)
   holds (2^53: none): where a draw's outcome changes, as an integer. */
uint64_t draw_first(uint64_t from, bool (*past)(const void *ctx, uint64_t k), const void *ctx);
void latency_init(struct sim *s);
/* The firmware-time bin a draw's 53 bits k (a uniform k * 2^-53) fall in:
   the definition, and the same by the integer bounds (fw_lim). */
int latency_fw_bin_of(const struct sim *s, uint64_t k);
static inline int latency_fw_bin_fast(const struct sim *s, uint64_t k);
static inline int latency_fw_draw(struct sim *s);	/* one I/O's bin (0: no variation) */
/* Page types with their own read time (1: all read at tR), and the
   factor on tR of type t. */
int latency_page_types(const struct sim *s);
double latency_page_factor(const struct sim *s, int type);
/* n bulk writes of mean latency lat (s); l_w0 is an unhindered write's,
   t_fw its firmware part. */
void wlat_add(const struct sim *s, struct wlat *wl, struct lat_hist *h, uint64_t n,
	      double lat, double l_w0, double t_fw, double bs, double qd);
/* wlat_add's body: `count` I/Os of latency base + t_fw x the firmware
   factor, spread over the bins with wl's carries. */
void latency_add_body(const struct sim *s, struct wlat *wl, struct lat_hist *h,
		      uint64_t count, double base, double t_fw);
/* wlat_add and latency_add_body hold I/Os back while the latencies
   repeat: this adds them to their histogram, which must come before the
   histogram is read (a slice's end) and before wl goes out of scope. */
void wlat_flush(const struct sim *s, struct wlat *wl);

/* map.c: the L2P map cache's costs (SIMULATOR.md §8) */
int map_init(struct sim *s, struct sb_err *e);
/* Look a map page up for a read or a write; true on a miss.  Inline: a
   sequential read's lookup is most often of the page the one before
   looked up, answered without a call (mapcache_access). */
static inline bool map_lookup(struct sim *s, uint64_t page, bool write)
{
	bool dirtied;
	bool miss = mapcache_access(s->map, page, write, &dirtied);
	if (dirtied)
		s->wp.map_wb_bytes += (double)s->map_page_bytes;
	return miss;
}
/* The map pages a write of [off, off + len) updates: write-back bytes owed. */
double map_write(struct sim *s, uint64_t off, uint64_t len);
/* Write-back bytes per host byte a random write stream or mix owes once
   the cache is warm for its span (uniform: a write dirties every page it
   misses, and in a mix the clean ones the reads loaded). */
double map_random_wb(const struct sim *s, const struct sim_stream *st);
/* A random stream's span: watch the misses of its lookups ... */
void map_watch(struct sim *s, const struct sim_stream *st);
/* ... and whether, after `ios` I/Os, they miss more than a warm cache's. */
bool map_cold(struct sim *s, uint64_t ios);
/* After a bulk random stream of n I/Os: the cache as its last ones left it. */
void map_after_random(struct sim *s, const struct sim_stream *st, double n, double write_share);

/* timing.c */
int timing_init(struct sim *s, struct sb_err *e);
uint64_t timing_read(struct sim *s, uint64_t t, uint64_t off, uint64_t len);
uint64_t timing_write(struct sim *s, uint64_t t, uint64_t off, uint64_t len);
uint64_t timing_other(struct sim *s, uint64_t t);
/* A write's part after its transfer landed at `landed`: the write path,
   the chunk tags, the write buffer; the time it is admitted to the
   buffer.  timing_write's own, and a sampled mix's writes in a gap. */
uint64_t timing_wpath(struct sim *s, uint64_t landed, uint64_t off, uint64_t len);
/* Every discrete resource's free time (cores, units, channels, links,
   interface slots) dt later: a sampled mix's time warp (sim_warp). */
void timing_shift(struct sim *s, uint64_t dt);
/* Bytes the buffer holds until drain_end (a bulk stream's, drained
   ahead of the host's clock: wpath.c wp_settle); -1 out of memory. */
int timing_wbuf_hold(struct sim *s, uint64_t drain_end, uint32_t len);
uint64_t timing_slot(struct sim *s, uint64_t t);	/* interface depth (s->nslots > 0) */
void timing_slot_done(struct sim *s, uint64_t t_done);

/*
 * Builds with SSDBENCH_SIM_CHECKS (the sanitizer build) check the
 * accounting invariant after every submit and every fluid slice, so every
 * simulated run, not only the unit tests, stops at the first broken
 * relation with an error instead of measuring a drive that cannot exist.
 */
static inline int sim_self_check(const struct sim *s, struct sb_err *e)
{
#ifdef SSDBENCH_SIM_CHECKS
	if (sim_check_invariants(s, e))
		return sb_err_wrap(e, "sim %s: accounting invariant broken at %.6f s",
				   s->p.name, s->wp.t);
#else
	(void)s;
	(void)e;
#endif
	return 0;
}

/* The class that holds the most of chunk c. */
static inline enum chunk_tag chunk_tag(const struct sim *s, uint64_t c)
{
	return (enum chunk_tag)(s->tags[c] & 3);
}

/* Chunk c's classes. */
static inline struct chunk_mix chunks_mix(const struct sim *s, uint64_t c)
{
	unsigned b = s->tags[c];
	return (struct chunk_mix){ (enum chunk_tag)(b & 3), (enum chunk_tag)((b >> 2) & 3), b >> 4 };
}

/* Whether another class holds part of it (chunks_mix says which). */
static inline bool chunk_mixed(const struct sim *s, uint64_t c)
{
	return s->tags[c] >> 4;
}

/* Whether any of chunk c's data is mapped (a read of it looks its map up). */
static inline bool chunk_mapped(const struct sim *s, uint64_t c)
{
	unsigned b = s->tags[c];
	return (b & 3) != CH_UNMAPPED || ((b >> 4) && ((b >> 2) & 3) != CH_UNMAPPED);
}

/* latency_fw_bin_of by the bounds: a guess from the body's equal widths,
   corrected by comparisons that nearly always hold. */
static inline int latency_fw_bin_fast(const struct sim *s, uint64_t k)
{
	int i = FW_BODY;
	if (k < s->fw_lim[FW_BODY - 1]) {
		i = (int)(((unsigned __int128)k * s->fw_guess) >> 64);
		if (i > FW_BODY - 1)
			i = FW_BODY - 1;
		while (i > 0 && k < s->fw_lim[i - 1])
			i--;
	}
	while (k >= s->fw_lim[i])
		i++;
	return i;
}

static inline int latency_fw_draw(struct sim *s)
{
	if (s->p.t_fw_cv <= 0)
		return 0;
	return latency_fw_bin_fast(s, rng_draw53(&s->rng_fw));
}

/*
 * fmin and fmax as x86-64's libm computes them, inline (the write path's
 * steps are dozens of them, and a call spills every live double): a NaN
 * operand gives the other one, else a < b ? a : b (SSE2's minsd, a tie
 * of zeros gives b), a > b ? a : b for the max.
 */
static inline double min_d(double a, double b) { return __builtin_isnan(b) ? a : a < b ? a : b; }
static inline double max_d(double a, double b) { return __builtin_isnan(b) ? a : a > b ? a : b; }

static inline double ns_to_s(uint64_t ns) { return (double)ns * 1e-9; }
static inline uint64_t s_to_ns(double s) { return s <= 0 ? 0 : (uint64_t)(s * 1e9 + 0.5); }

#endif
