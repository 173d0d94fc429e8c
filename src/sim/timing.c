/*
 * The discrete engine: each I/O reserves next-free times on the resources
 * it crosses (start = max(arrival, free); free = start + service), as FEMU
 * and NVMeVirt do, so its completion time is known at submit.  Queue-depth
 * scaling then comes from collisions and caps, not fitted curves.
 *
 *   read:  core (t_ctrl) -> firmware -> per page: unit (tR) -> channel
 *          -> read link
 *   write: core -> firmware -> write link -> write buffer, which completes
 *          early and drains at the write path's rate (wpath.c)
 */
#include <math.h>
#include <stdlib.h>

#include "sim/model.h"

static uint64_t us(double v)
{
	return (uint64_t)(v * 1000.0 + 0.5);
}

static uint64_t xfer_ns(double bytes, double gbs)
{
	return (uint64_t)(bytes / gbs + 0.5);	/* bytes / (bytes/ns) */
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* The smallest 53-bit draw k with k * 2^-53 >= p: rng_unit() < p exactly
   when the draw's k is below it (scaling by 2^53 is exact). */
static uint64_t unit_lim(double p)
{
	return p <= 0 ? 0 : (uint64_t)ceil(p * 0x1.0p53);
}

/* The wait into an operation of op us that the third draw k gives,
   before the suspend time cuts it. */
static double op_wait(uint64_t k, double op)
{
	return (double)k * 0x1.0p-53 * op;	/* rng_unit() x op */
}

struct wait_past {
	double op, susp;
};

static bool past_susp(const void *ctx, uint64_t k)
{
	const struct wait_past *x = ctx;
	return op_wait(k, x->op) > x->susp;
}

/* The first third draw whose wait into an op of `op` us passes the
   suspend time: op_wait is monotone in k (each step rounds so). */
static uint64_t susp_from(double op, double susp)
{
	struct wait_past x = { op, susp };
	return susp > 0 ? draw_first(0, past_susp, &x) : 1ull << 53;
}

int timing_init(struct sim *s, struct sb_err *e)
{
	const struct sim_profile *p = &s->p;
	s->page_div = divisor_of((uint64_t)(p->page_kib * 1024.0));
	s->unit_div = divisor_of((uint64_t)p->units);
	s->ch_div = divisor_of((uint64_t)p->channels);
	if (!s->page_div.d || !s->unit_div.d || !s->ch_div.d)
		return sb_errf(e, "sim %s: a page, units and channels are needed", p->name);
	if (s->map)
		s->map_div = divisor_of(s->map_lba);
	s->chunk_shift = __builtin_ctzll(s->chunk);
	s->chunk_mask = s->chunk - 1;
	s->t_ctrl_ns = us(p->t_ctrl_us);
	s->t_core_wr_ns = us(p->cores / (p->wr_cap_kiops * 1e3) * 1e6);
	s->t_commit_ns = (uint64_t)(p->t_commit_us * 1000.0);
	for (int i = 0; i < FW_BINS; i++) {
		double f = p->t_fw_cv > 0 ? s->fw_bin[i] : 1.0;
		s->fw_rd_ns[i] = us(p->t_fw_rd_us * f);
		s->fw_wr_ns[i] = us(p->t_fw_wr_us * f);
	}
	s->pg_slc = (struct page_ns){ us(p->tr_slc_us), us(p->n_rr * p->tr_slc_us) };
	s->ntypes = latency_page_types(s);
	for (int t = 0; t < s->ntypes; t++) {
		double tr = p->tr_nat_us * latency_page_factor(s, t);
		s->pg_nat[t] = (struct page_ns){ us(tr), us(p->n_rr * tr) };
	}
	/* the hash's top 47 bits modulo m (mod47_by) */
	s->type_magic = s->ntypes > 1 ? mod47_magic((uint64_t)s->ntypes) : 0;
	s->ch_page_ns = xfer_ns((double)s->page_div.d, p->ch_gbs);
	s->retry_lim = p->p_rr > 0 ? unit_lim(p->p_rr) : 0;
	s->collide_lim[0] = unit_lim(0.25);
	s->collide_lim[1] = unit_lim(0.6);
	s->prog_lim = unit_lim(0.9);
	s->susp_lim[0] = susp_from(p->t_prog_us, p->t_susp_us);
	s->susp_lim[1] = susp_from(p->t_bers_us, p->t_susp_us);
	s->susp_ns = us(p->t_susp_us);
	s->wb_cap_bytes = (uint64_t)(p->wbuf_mib * 1048576.0);
	s->wb_unit = divisor_of((uint64_t)(p->wbuf_release_kib * 1024.0));
	s->rd_link_len = s->wr_link_len = UINT64_MAX;
	return 0;
}

static uint64_t reserve(uint64_t *free_at, uint64_t start, uint64_t service)
{
	uint64_t s = max_u64(start, *free_at);
	*free_at = s + service;
	return s + service;
}

/* The controller core that frees first. */
static uint64_t *pick_core(struct sim *s)
{
	uint64_t *best = &s->core_free[0];
	for (int i = 1; i < s->p.cores; i++)
		if (s->core_free[i] < *best)
			best = &s->core_free[i];
	return best;
}

/*
 * The interface's slots: an I/O takes the one that frees first and holds
 * it until its completion.  Which slot is which does not matter, only the
 * times they free, so they are kept sorted: the earliest is at the head,
 * and a completion goes in from the back (it is nearly always the
 * latest), not a scan of every slot per I/O.  Only a drive with slots
 * (s->nslots) has them: the caller asks (sim_submit), without a call per
 * I/O on the others.
 */
uint64_t timing_slot(struct sim *s, uint64_t t)
{
	uint64_t first = s->slot_free[s->slot_head];
	s->slot_head = s->slot_head + 1 == s->nslots ? 0 : s->slot_head + 1;
	s->slot_n--;
	return max_u64(t, first);
}

void timing_slot_done(struct sim *s, uint64_t t_done)
{
	uint32_t n = s->nslots, j = s->slot_head + s->slot_n;
	if (j >= n)
		j -= n;
	for (uint32_t k = s->slot_n; k > 0; k--) {
		uint32_t prev = j ? j - 1 : n - 1;
		if (s->slot_free[prev] <= t_done)
			break;
		s->slot_free[j] = s->slot_free[prev];
		j = prev;
	}
	s->slot_free[j] = t_done;
	s->slot_n++;
}

static uint64_t hash64(uint64_t x)
{
	return splitmix64(&x);
}

/*
 * A read waits behind background programs and erases on its unit (only
 * while the write path is busy past the read's start: the caller asks).
 * The first draw says whether it meets one, the second which, the third
 * how far in; a suspend cuts the wait (most waits are cut: that answer
 * comes from the integer draw, without the floating-point conversions).
 * The draws come from r: the caller's copy of rng_collide.
 */
static uint64_t interference_ns(const struct sim *s, struct rng *r, uint64_t lim)
{
	if (rng_draw53(r) >= lim)
		return 0;
	int j = rng_draw53(r) >= s->prog_lim;
	uint64_t k = rng_draw53(r);
	if (k >= s->susp_lim[j])
		return s->susp_ns;
	return us(op_wait(k, j ? s->p.t_bers_us : s->p.t_prog_us));
}

/*
 * A read whose map page the cache does not hold loads it first (map.c):
 * the map-page reads it misses, in ns.  They go to the unit of the read's
 * first data page, just before it, with their transfer on its channel:
 * the same unit and channel time as a map page elsewhere, in one
 * reservation, since a unit reserved ahead for a data read that must wait
 * for its map page would stay shut to every earlier read meanwhile.
 * Unmapped data needs no lookup: nothing is stored there.
 */
static uint64_t map_misses(struct sim *s, uint64_t off, uint64_t len)
{
	uint64_t n = 0;
	uint64_t last = div_by(&s->map_div, off + len - 1);
	for (uint64_t pg = div_by(&s->map_div, off); pg <= last; pg++) {
		uint64_t o = max_u64(off, pg * s->map_lba);
		if (chunk_tag(s, o >> s->chunk_shift) != CH_UNMAPPED && map_lookup(s, pg, false))
			n++;
	}
	return n;
}

/*
 * The retry draws, one per NAND page read in page order, come from
 * rng_retry, which nothing else draws from.  A retry is rare (p_rr is
 * 1e-4 to 1e-3), so the generator runs ahead, in a loop of its own, to
 * its next draw that retries: the pages before it (retry_miss of them)
 * then cost a subtraction, not a draw each.  The same draws, so the
 * same pages retry.
 */
#define RETRY_SCAN 65536	/* the most draws one look ahead makes */

static void retry_ahead(struct sim *s)
{
	struct rng r = s->rng_retry;
	const uint64_t lim = s->retry_lim;
	uint64_t n = 0;
	while (n < RETRY_SCAN && rng_draw53(&r) >= lim)
		n++;
	s->retry_miss = n;
	s->retry_hit = n < RETRY_SCAN;
	s->rng_retry = r;
}

/* Which of the next m <= 64 pages read retry: bit i for the i-th. */
static uint64_t retry_mask_slow(struct sim *s, uint32_t m)
{
	uint64_t mask = 0;
	uint32_t i = 0;
	for (;;) {
		uint64_t take = s->retry_miss < m - i ? s->retry_miss : m - i;
		s->retry_miss -= take;
		i += (uint32_t)take;
		if (i == m)
			return mask;
		if (s->retry_hit) {	/* retry_miss is 0: the next page retries */
			mask |= 1ull << i;
			s->retry_hit = false;
			if (++i == m)
				return mask;
		}
		retry_ahead(s);
	}
}

static inline uint64_t retry_mask(struct sim *s, uint32_t m)
{
	if (!s->retry_lim)
		return 0;	/* no retries: no draws */
	if (s->retry_miss >= m) {
		s->retry_miss -= m;
		return 0;
	}
	return retry_mask_slow(s, m);
}

/* A partial page's transfer on its channel: a 4 KiB random stream asks
   for one length again and again. */
static uint64_t part_ns(struct sim *s, uint64_t n)
{
	if (n != s->rd_part_len) {
		s->rd_part_len = n;
		s->rd_part_ns = xfer_ns((double)n, s->p.ch_gbs);
	}
	return s->rd_part_ns;
}

/* One read's state while its pages reserve their units and channels. */
struct read_go {
	uint64_t start;		/* when its pages may start: core and firmware done */
	uint64_t end;		/* the last channel transfer's end so far */
	uint64_t maps;		/* map pages missed, still to go before a page */
	uint64_t collide_lim;
	bool busy;		/* the write path runs past start: interference */
};

/* The most pages whose draws are taken at once (the retry mask's bits). */
#define RD_BLOCK 64

/* The interference waits of the next m pages (busy), from rng_collide,
   in page order. */
static void collide_waits(struct sim *s, const struct read_go *g, uint32_t m, uint64_t *wait)
{
	struct rng rc = s->rng_collide;
	for (uint32_t i = 0; i < m; i++)
		wait[i] = interference_ns(s, &rc, g->collide_lim);
	s->rng_collide = rc;
}

/* What each page of a read uses, copied into locals: the compiler then
   keeps them in registers (through a pointer into the sim each store to
   a unit's or channel's free time would make it load them again). */
struct page_env {
	uint64_t *unit_free, *ch_free;
	const struct page_ns *nat;
	struct divisor unit_div, ch_div;
	uint64_t type_magic, ntypes;
};

static inline struct page_env page_env_of(const struct sim *s)
{
	return (struct page_env){ s->unit_free, s->ch_free, s->pg_nat, s->unit_div, s->ch_div,
				  s->type_magic, (uint64_t)s->ntypes };
}

/*
 * One page: its hash picks its unit and (a native page of a drive with
 * several types: one = NULL) its type's read time; a retry adds the
 * retry time; then it reserves its unit from `ready` and its channel
 * after that.  Returns the read's end with this page's transfer.
 * `pow2`: units and channels are known to be powers of two (masks; else
 * mod_by asks), constant in each caller, so each variant has its own
 * code.
 */
static inline __attribute__((always_inline)) uint64_t
page_go(const struct page_env *v, const struct page_ns *one, bool pow2, uint64_t pg, bool retry,
	uint64_t ready, uint64_t extra_svc, uint64_t ch_ns, uint64_t end)
{
	uint64_t ph = hash64(pg);
	const struct page_ns *pt = one ? one : &v->nat[mod47_by(ph >> 17, v->type_magic, v->ntypes)];
	uint64_t u = pow2 ? ph & v->unit_div.mask : mod_by(&v->unit_div, ph);
	uint64_t c = pow2 ? u & v->ch_div.mask : mod_by(&v->ch_div, u);
	uint64_t svc = pt->svc + (retry ? pt->retry : 0) + extra_svc;
	uint64_t a = reserve(&v->unit_free[u], ready, svc);
	return max_u64(end, reserve(&v->ch_free[c], a, ch_ns));
}

/* Whole pages pg .. pg + k - 1 (bits of rmask retry; busy: wait[] is
   their interference), in a loop without the first page's cases. */
static inline __attribute__((always_inline)) uint64_t
pages_whole(const struct sim *s, uint64_t end, const struct page_ns *one, bool pow2, bool busy,
	    uint64_t start, uint64_t pg, uint32_t k, uint64_t rmask, const uint64_t *wait)
{
	const struct page_env v = page_env_of(s);
	const uint64_t ch_ns = s->ch_page_ns;
	for (uint32_t i = 0; i < k; i++)
		end = page_go(&v, one, pow2, pg + i, rmask >> i & 1, busy ? start + wait[i] : start,
			      0, ch_ns, end);
	return end;
}

#define PAGES_WHOLE(pow2, busy) \
	(one ? pages_whole(s, end, one, pow2, busy, start, pg, k, rmask, wait) : \
	       pages_whole(s, end, NULL, pow2, busy, start, pg, k, rmask, wait))

/* pages_whole's variant for the drive and the read. */
static uint64_t pages_whole_any(const struct sim *s, uint64_t end, const struct page_ns *one,
				bool busy, uint64_t start, uint64_t pg, uint32_t k, uint64_t rmask,
				const uint64_t *wait)
{
	bool pow2 = s->unit_div.shift >= 0 && s->ch_div.shift >= 0;
	if (pow2)
		return busy ? PAGES_WHOLE(true, true) : PAGES_WHOLE(true, false);
	return busy ? PAGES_WHOLE(false, true) : PAGES_WHOLE(false, false);
}

/* One page with its own service and transfer (a read's first or last). */
static uint64_t page_one(const struct sim *s, const struct read_go *g, const struct page_ns *one,
			 uint64_t pg, bool retry, uint64_t wait, uint64_t extra_svc, uint64_t ch_ns)
{
	const struct page_env v = page_env_of(s);
	return page_go(&v, one, false, pg, retry, g->start + wait, extra_svc, ch_ns, g->end);
}

/* A read's first page, n of its bytes: it also reads the map pages the
   read missed (map_misses), their unit time and transfer with its own. */
static void page_first(struct sim *s, struct read_go *g, const struct page_ns *one, uint64_t pg,
		       uint64_t n, bool retry, uint64_t wait)
{
	uint64_t extra = 0, ch_ns = n == s->page_div.d ? s->ch_page_ns : part_ns(s, n);
	if (g->maps) {
		extra = g->maps * s->tr_map_ns;
		ch_ns = xfer_ns((double)n + (double)(g->maps * s->map_page_bytes), s->p.ch_gbs);
		g->maps = 0;
	}
	g->end = page_one(s, g, one, pg, retry, wait, extra, ch_ns);
}

/*
 * k pages from pg, all of one chunk's (its pages' read time `one`, or
 * NULL: by each page's type): the first has n_first of the read's
 * bytes, the last n_last, those between are whole.  Their draws go a
 * block at a time (retries, then interference: each generator in page
 * order); the read's first page also reads the map pages it missed
 * (map_misses): their unit time and their transfer go with it.
 */
static void read_span(struct sim *s, struct read_go *g, const struct page_ns *one,
		      uint64_t pg, uint64_t k, uint64_t n_first, uint64_t n_last)
{
	const uint64_t page = s->page_div.d;
	uint64_t wait[RD_BLOCK];
	for (uint64_t i = 0; i < k; ) {
		uint32_t m = k - i < RD_BLOCK ? (uint32_t)(k - i) : RD_BLOCK;
		uint64_t rmask = retry_mask(s, m);
		if (g->busy)
			collide_waits(s, g, m, wait);
		else
			wait[0] = wait[m - 1] = 0;	/* the first's and last's, below */
		uint32_t j = 0, jend = m;
		if (i == 0) {
			page_first(s, g, one, pg, n_first, rmask & 1, wait[0]);
			j = 1;
		}
		bool last_part = i + m == k && k > 1 && n_last != page;
		if (last_part)
			jend = m - 1;
		if (jend > j)
			g->end = pages_whole_any(s, g->end, one, g->busy, g->start, pg + i + j,
						 jend - j, rmask >> j, wait + j);
		if (last_part)
			g->end = page_one(s, g, one, pg + k - 1, rmask >> (m - 1) & 1, wait[m - 1], 0,
					  part_ns(s, n_last));
		i += m;
	}
}

/* The chunk c's pages' read time when they share one (SLC, or a drive
   with one native type), else NULL: by each page's type. */
static const struct page_ns *chunk_one(const struct sim *s, enum chunk_tag tag)
{
	if (tag == CH_SLC && s->p.tr_slc_us > 0)
		return &s->pg_slc;
	return s->ntypes == 1 ? &s->pg_nat[0] : NULL;
}

/*
 * A read's NAND pages, a chunk at a time: each page goes with the chunk
 * its part of the read starts in (the first at the read's offset, the
 * others where they start), and pages in unmapped chunks are left out
 * (nothing is stored there, no NAND access; past the drive's end is
 * unmapped too).
 */
static void read_chunks(struct sim *s, struct read_go *g, uint64_t off, uint64_t len)
{
	const uint64_t page = s->page_div.d, end = off + len;
	uint64_t at = off;
	while (at < end) {
		uint64_t c = at >> s->chunk_shift;
		uint64_t c_end = (c + 1) << s->chunk_shift;
		uint64_t lim = end < c_end ? end : c_end;
		uint64_t pg = div_by(&s->page_div, at);
		uint64_t k = div_by(&s->page_div, lim - 1) - pg + 1;	/* pages starting here */
		uint64_t span_end = (pg + k) * page < end ? (pg + k) * page : end;
		enum chunk_tag tag = c < s->nchunks ? chunk_tag(s, c) : CH_UNMAPPED;
		if (tag != CH_UNMAPPED) {
			uint64_t first_end = (pg + 1) * page < end ? (pg + 1) * page : end;
			read_span(s, g, chunk_one(s, tag), pg, k, first_end - at,
				  span_end - (pg + k - 1) * page);
		}
		at = span_end;
	}
}

/* A read within one page (a 4 KiB random read's): read_chunks' case of
   one page, without its loops. */
static void read_in_page(struct sim *s, struct read_go *g, uint64_t off, uint64_t len)
{
	uint64_t c = off >> s->chunk_shift;
	enum chunk_tag tag = c < s->nchunks ? chunk_tag(s, c) : CH_UNMAPPED;
	if (tag == CH_UNMAPPED)
		return;
	uint64_t wait = 0;
	bool retry = retry_mask(s, 1) & 1;
	if (g->busy)
		collide_waits(s, g, 1, &wait);
	page_first(s, g, chunk_one(s, tag), div_by(&s->page_div, off), len, retry, wait);
}

/*
 * A read: the core and firmware, the map pages it misses, then its NAND
 * pages (read_chunks): each reserves its unit, then its channel, in page
 * order; the read link after the last.
 */
uint64_t timing_read(struct sim *s, uint64_t t, uint64_t off, uint64_t len)
{
	const struct sim_profile *p = &s->p;
	uint64_t start = reserve(pick_core(s), t, s->t_ctrl_ns) +
			 s->fw_rd_ns[latency_fw_draw(s)];
	struct read_go g = {
		.start = start, .end = start,
		.maps = s->map ? map_misses(s, off, len) : 0,
		/* Background programs and erases run until the write path's time. */
		.busy = ns_to_s(start) < s->wp.t,
		.collide_lim = s->collide_lim[s->wp.last != RG_SLC],
	};
	if (div_by(&s->page_div, off) == div_by(&s->page_div, off + len - 1))
		read_in_page(s, &g, off, len);
	else
		read_chunks(s, &g, off, len);
	if (len != s->rd_link_len) {
		s->rd_link_len = len;
		s->rd_link_ns = xfer_ns((double)len, p->link_rd_gbs);
	}
	return reserve(&s->link_free[0], g.end, s->rd_link_ns);
}

/*
 * Buffer admission: the earliest time >= t at which `len` more bytes fit.
 * Drained bytes give their room back a release unit at a time (at the
 * drain of the byte that completes the unit), so a write that finds the
 * buffer full waits for a whole unit (latency.c).
 */
static uint64_t wbuf_admit(struct sim *s, uint64_t t, uint32_t len)
{
	uint64_t cap = s->wb_cap_bytes;
	uint64_t adm = max_u64(t, s->wb_last_adm);
	for (;;) {
		while (s->wb_len && s->wb[s->wb_head].drain_end <= adm) {
			s->wb_unreleased += s->wb[s->wb_head].bytes;
			s->wb_head = (s->wb_head + 1) & (s->wb_cap - 1);
			s->wb_len--;
			uint64_t back = s->wb_unit.d ? s->wb_unreleased - mod_by(&s->wb_unit, s->wb_unreleased) :
						       s->wb_unreleased;
			if (!s->wb_len)
				back = s->wb_unreleased;	/* empty: all of it */
			s->wb_bytes -= back;
			s->wb_unreleased -= back;
		}
		if (!s->wb_len || s->wb_bytes + len <= cap)
			break;
		adm = s->wb[s->wb_head].drain_end;
	}
	s->wb_last_adm = adm;
	return adm;
}

/* The ring's capacity stays a power of two (1024, doubling). */
static int wbuf_push(struct sim *s, uint64_t drain_end, uint32_t len)
{
	if (s->wb_len == s->wb_cap) {
		uint32_t ncap = s->wb_cap ? s->wb_cap * 2 : 1024;
		struct wbuf_ent *n = malloc(sizeof *n * ncap);
		if (!n)
			return -1;
		for (uint32_t i = 0; i < s->wb_len; i++)
			n[i] = s->wb[(s->wb_head + i) & (s->wb_cap - 1)];
		free(s->wb);
		s->wb = n;
		s->wb_cap = ncap;
		s->wb_head = 0;
	}
	s->wb[(s->wb_head + s->wb_len) & (s->wb_cap - 1)] = (struct wbuf_ent){ drain_end, len };
	s->wb_len++;
	s->wb_bytes += len;
	return 0;
}

int timing_wbuf_hold(struct sim *s, uint64_t drain_end, uint32_t len)
{
	return wbuf_push(s, drain_end, len);
}

uint64_t timing_write(struct sim *s, uint64_t t, uint64_t off, uint64_t len)
{
	const struct sim_profile *p = &s->p;
	uint64_t fw = reserve(pick_core(s), t, s->t_core_wr_ns) + s->fw_wr_ns[latency_fw_draw(s)];
	int li = p->link_shared ? 0 : 1;
	if (len != s->wr_link_len) {
		s->wr_link_len = len;
		s->wr_link_ns = xfer_ns((double)len, p->link_wr_gbs);
	}
	uint64_t landed = reserve(&s->link_free[li], fw, s->wr_link_ns);
	s->wr_land_ns += landed - t;
	s->wr_land_n++;
	return max_u64(landed, timing_wpath(s, landed, off, len));
}

uint64_t timing_wpath(struct sim *s, uint64_t landed, uint64_t off, uint64_t len)
{
	/* Drain through the write path, one chunk at a time so each piece
	   knows what it overwrites. */
	double t0 = ns_to_s(landed);
	if (s->wp.t < t0)
		wp_idle_to(s, t0);
	for (uint64_t o = 0; o < len; ) {
		uint64_t n = s->chunk - ((off + o) & s->chunk_mask);
		if (n > len - o)
			n = len - o;
		struct overwrite ow;
		chunks_overwrite(s, off + o, &ow);
		ow.lba = (double)(off + o);
		ow.map_wb = map_write(s, off + o, n) / (double)n;
		double share = 0, want = (double)n;
		double got = wp_write(s, want, INFINITY, INFINITY, &ow, &share);
		if (got < want - 1e-6)
			s->stuck = true;	/* no rate at all: a profile that cannot write */
		chunks_wrote(s, off + o, n, share >= 0.5 ? CH_SLC : CH_NATIVE);
		o += n;
	}
	uint64_t drain_end = s_to_ns(s->wp.t);
	if (drain_end > s->drain_end)
		s->drain_end = drain_end;
	uint64_t adm = wbuf_admit(s, landed, (uint32_t)len);
	if (wbuf_push(s, drain_end, (uint32_t)len))
		s->oom = true;
	return adm;
}

void timing_shift(struct sim *s, uint64_t dt)
{
	for (int i = 0; i < s->p.cores; i++)
		s->core_free[i] += dt;
	for (int i = 0; i < s->p.units; i++)
		s->unit_free[i] += dt;
	for (int i = 0; i < s->p.channels; i++)
		s->ch_free[i] += dt;
	s->link_free[0] += dt;
	s->link_free[1] += dt;
	for (uint32_t i = 0; i < s->nslots; i++)
		s->slot_free[i] += dt;
}

uint64_t timing_other(struct sim *s, uint64_t t)
{
	return reserve(pick_core(s), t, s->t_ctrl_ns);
}
