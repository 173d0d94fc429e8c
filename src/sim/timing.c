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

/*
 * A page read that meets a background program or erase (interference_ns)
 * takes one draw k, uniform over 2^53: below the meeting share p it
 * meets one, and k's place in that share, x in [0, 1) (k x 2^-53 / p,
 * by a multiply), again uniform, says which (a program in the first
 * PROG_SHARE of it) and how far into it the read arrives.  The wait in
 * us, before the suspend cuts it.
 */
#define PROG_SHARE 0.9
static const double meet_share[2] = { 0.25, 0.6 };	/* SLC, native */

static double meet_wait(const struct meet_lims *m, uint64_t k)
{
	double x = (double)k * m->x_per_k;
	return x < PROG_SHARE ? x * m->prog_us : (x - PROG_SHARE) * m->erase_us;
}

/* The predicates below are monotone in k (each step of the formulas
   above rounds so), so draw_first finds where each turns true. */
struct meet_past {
	const struct meet_lims *m;
	double susp;
	uint64_t end;	/* true from here on */
};

static bool past_prog(const void *ctx, uint64_t k)
{
	const struct meet_past *x = ctx;
	return k >= x->end || (double)k * x->m->x_per_k >= PROG_SHARE;
}

static bool past_susp(const void *ctx, uint64_t k)
{
	const struct meet_past *x = ctx;
	return k >= x->end || meet_wait(x->m, k) > x->susp;
}

static struct meet_lims meet_lims_of(const struct sim *s, double p)
{
	struct meet_lims m = {
		.x_per_k = 0x1.0p-53 / p,
		.prog_us = s->p.t_prog_us / PROG_SHARE,
		.erase_us = s->p.t_bers_us / (1.0 - PROG_SHARE),
	};
	m.meet = unit_lim(p);
	struct meet_past x = { &m, s->p.t_susp_us, m.meet };
	m.prog = draw_first(0, past_prog, &x);
	bool cut = s->p.t_susp_us > 0;
	x.end = m.prog;
	m.prog_cut = cut ? draw_first(0, past_susp, &x) : m.prog;
	x.end = m.meet;
	m.erase_cut = cut ? draw_first(m.prog, past_susp, &x) : m.meet;
	return m;
}

/* The pages read before the next one that retries: geometric, from one
   draw per retry rather than one per page (the same law: each page
   retries with p_rr, on its own). */
static uint64_t retry_gap(struct sim *s)
{
	double u = (double)((1ull << 53) - rng_draw53(&s->rng_retry)) * 0x1.0p-53;	/* (0, 1] */
	double g = floor(log(u) / s->retry_log);
	return g < 0x1.0p62 ? (uint64_t)g : 1ull << 62;
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
	for (uint64_t m = 0; m < MAP_XFERS; m++)	/* map_page_bytes: map_init's */
		s->ch_map_ns[m] = xfer_ns((double)s->page_div.d + (double)(m * s->map_page_bytes),
					  p->ch_gbs);
	/* log1p(-p) < 0 for every p in (0, 1], -inf at 1 (gaps of 0) */
	s->retry_log = p->p_rr > 0 ? log1p(-p->p_rr) : 0;
	s->retry_left = s->retry_log < 0 ? retry_gap(s) : 0;
	for (int g = 0; g < 2; g++)
		s->meet[g] = meet_lims_of(s, meet_share[g]);
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

/* The controller core that frees first (the first of equals), by
   selects: which core that is follows the I/Os' service times. */
static uint64_t *pick_core(struct sim *s)
{
	const uint64_t *f = s->core_free;
	uint64_t least = f[0];
	int best = 0;
	for (int i = 1; i < s->p.cores; i++) {
		bool lt = f[i] < least;
		least = lt ? f[i] : least;
		best = lt ? i : best;
	}
	return &s->core_free[best];
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
 * while the write path is busy past the read's start: the caller asks),
 * by one draw (meet_wait).  Most waits are cut by the suspend: that
 * answer, and none, come from the integer draw against its bounds,
 * without the floating-point conversions (a drive without suspend has
 * no cut: every wait is converted).  The draw comes from r: the
 * caller's copy of rng_collide.
 */
static uint64_t interference_ns(const struct sim *s, struct rng *r, int g)
{
	const struct meet_lims *m = &s->meet[g];
	uint64_t k = rng_draw53(r);
	/* below its op's cut: a wait shorter than the suspend (rare) */
	if (__builtin_expect(k < (k < m->prog ? m->prog_cut : m->erase_cut), 0))
		return us(meet_wait(m, k));
	/* none or a cut one, four pages in ten against six, by a mask: a
	   branch there was mispredicted at every other page */
	return s->susp_ns & -(uint64_t)(k < m->meet);
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
		if (chunk_mapped(s, o >> s->chunk_shift) && map_lookup(s, pg, false))
			n++;
	}
	return n;
}

/* A read's NAND pages, a block at a time, before their reservations:
   each page's unit, service and retry times and channel transfer. */
#define RD_BLOCK 32
struct read_blk {
	uint32_t unit[RD_BLOCK];
	uint64_t svc[RD_BLOCK], retry[RD_BLOCK], ch_ns[RD_BLOCK];
	uint64_t n0;		/* the first page's bytes of the read */
};

/* Where a read stands between blocks of its pages. */
struct read_pos {
	uint64_t at, end;	/* the next byte, the read's end */
	uint64_t pg, pg_end;	/* at's page, and where it ends */
	uint64_t c_end;		/* where the chunk of `tag` ends (0: none yet) */
	enum chunk_tag tag;
	const struct page_ns *one;	/* the chunk's pages' read time, or NULL:
					   by each page's type */
	/* A chunk of two classes that read otherwise (q > 0): a page is in
	   the minor one when its hash's top 5 bits fall below q; each
	   class's read time as `one` (NULL: by type), and whether it is
	   mapped (an unmapped page: nothing to read). */
	uint32_t q;
	const struct page_ns *pt[2];	/* major, minor */
	uint32_t mapped[2];
};

/* A class's pages' read time when they share one (SLC, or a drive with
   one native type), or NULL: by each page's type. */
static const struct page_ns *class_time(const struct sim *s, enum chunk_tag t)
{
	if (t == CH_SLC && s->p.tr_slc_us > 0)
		return &s->pg_slc;
	return s->ntypes == 1 ? &s->pg_nat[0] : NULL;
}

/* The chunk at `at` (past the drive's end: unmapped): its classes, where
   it ends, and its pages' read time when they share one. */
static void read_chunk(const struct sim *s, struct read_pos *r)
{
	uint64_t c = r->at >> s->chunk_shift;
	r->c_end = (c + 1) << s->chunk_shift;
	r->tag = c < s->nchunks ? chunk_tag(s, c) : CH_UNMAPPED;
	r->q = 0;
	r->one = class_time(s, r->tag);
	if (c < s->nchunks && chunk_mixed(s, c)) {
		/* two classes that read alike (native and folded, the
		   most common: data written into a chunk, folded since)
		   read as one */
		struct chunk_mix x = chunks_mix(s, c);
		const struct page_ns *minor = class_time(s, x.minor);
		bool mapped = x.major != CH_UNMAPPED, minor_mapped = x.minor != CH_UNMAPPED;
		if (minor_mapped != mapped || minor != r->one) {
			r->q = x.q;
			r->pt[0] = r->one;
			r->pt[1] = minor;
			r->mapped[0] = mapped;
			r->mapped[1] = minor_mapped;
		}
	}
}

/* A page of hash ph (which picks its unit) and read times pt, as the
   m-th of the block; ch_ns is its transfer. */
static inline void page_put(const struct sim *s, const struct page_ns *pt, uint64_t ph,
			    uint64_t ch_ns, struct read_blk *b, uint32_t m)
{
	b->unit[m] = (uint32_t)mod_by(&s->unit_div, ph);
	b->svc[m] = pt->svc;
	b->retry[m] = pt->retry;
	b->ch_ns[m] = ch_ns;
}

/* Page pg, of read times `one` or (NULL) its type's, by its hash. */
static inline void page_add(const struct sim *s, const struct page_ns *one, uint64_t pg,
			    uint64_t ch_ns, struct read_blk *b, uint32_t m)
{
	uint64_t ph = hash64(pg);
	page_put(s, one ? one : &s->pg_nat[mod47_by(ph >> 17, s->type_magic, (uint64_t)s->ntypes)],
		 ph, ch_ns, b, m);
}

/* Page pg of a chunk of two classes (r->q), in its class, put as the
   m-th of the block; whether it counts: not when its class is unmapped
   (nothing to read).  Put either way, without a branch on its class (a
   random share of the pages). */
static inline uint32_t page_add_mixed(const struct sim *s, const struct read_pos *r, uint64_t pg,
				      uint64_t ch_ns, struct read_blk *b, uint32_t m)
{
	uint64_t ph = hash64(pg);
	uint32_t minor = (ph >> 59) < r->q;
	/* the class's one time or the page type's, by a mask: which one
	   is the page's draw (a branch there missed at every other page
	   of an SLC share) */
	uintptr_t one = (uintptr_t)r->pt[minor];
	uint64_t type = s->ntypes > 1 ? mod47_by(ph >> 17, s->type_magic, (uint64_t)s->ntypes) : 0;
	uintptr_t by_type = (uintptr_t)&s->pg_nat[type];
	uintptr_t keep = -(uintptr_t)(one != 0);
	page_put(s, (const struct page_ns *)((one & keep) | (by_type & ~keep)), ph, ch_ns, b, m);
	return r->mapped[minor];
}

/*
 * The next block of a read's NAND pages: up to RD_BLOCK of them.
 * Unmapped pages are left out: nothing is stored there, no NAND access.
 * A native page's read time goes by its type, and a page of a chunk of
 * two classes by its class, both from its hash (which also picks its
 * unit).  Whole pages in one chunk (nearly all) go a run at a time: the
 * same classes, the same transfer.
 */
static uint32_t read_pages(const struct sim *s, struct read_pos *r, struct read_blk *b)
{
	const uint64_t page = s->page_div.d, end = r->end;
	uint64_t at = r->at, pg = r->pg, pg_end = r->pg_end;
	uint32_t m = 0;
	while (at < end && m < RD_BLOCK) {
		if (at >= r->c_end) {
			r->at = at;
			read_chunk(s, r);
		}
		uint64_t lim = end < r->c_end ? end : r->c_end;
		bool mapped = r->tag != CH_UNMAPPED || r->q;
		if (mapped && at + page == pg_end && lim >= pg_end) {
			uint64_t k = div_by(&s->page_div, lim - at);	/* >= 1 */
			if (k > RD_BLOCK - m)
				k = RD_BLOCK - m;
			const struct page_ns *one = r->one;
			const uint64_t ch_ns = s->ch_page_ns;
			if (!m)
				b->n0 = page;
			if (r->q) {
				for (uint32_t i = 0; i < k; i++)
					m += page_add_mixed(s, r, pg + i, ch_ns, b, m);
			} else {
				if (one)	/* two loops: each without the test */
					for (uint32_t i = 0; i < k; i++)
						page_add(s, one, pg + i, ch_ns, b, m + i);
				else
					for (uint32_t i = 0; i < k; i++)
						page_add(s, NULL, pg + i, ch_ns, b, m + i);
				m += (uint32_t)k;
			}
			pg += k;
			at += k * page;
			pg_end += k * page;
			continue;
		}
		uint64_t n = (pg_end < end ? pg_end : end) - at;
		uint64_t ch_ns = n == page ? s->ch_page_ns : xfer_ns((double)n, s->p.ch_gbs);
		if (r->q) {
			uint32_t add = page_add_mixed(s, r, pg, ch_ns, b, m);
			if (!m && add)
				b->n0 = n;
			m += add;
		} else if (mapped) {
			if (!m)
				b->n0 = n;
			page_add(s, r->one, pg, ch_ns, b, m++);
		}
		at += n;
		pg++;
		pg_end += page;
	}
	r->at = at;
	r->pg = pg;
	r->pg_end = pg_end;
	return m;
}

/*
 * A read: the core and firmware, then its NAND pages a block at a time,
 * each block in steps that each keep little in registers: the pages
 * (read_pages), the ones that retry (a draw per retry: retry_gap), their
 * interference draws, then the unit and channel reservations, in page
 * order.  Each generator draws in page order as it would page by page
 * (the two are apart), and nothing a page's reservations depend on comes
 * from a later page's.
 */
uint64_t timing_read(struct sim *s, uint64_t t, uint64_t off, uint64_t len)
{
	const struct sim_profile *p = &s->p;
	uint64_t start = reserve(pick_core(s), t, s->t_ctrl_ns) +
			 s->fw_rd_ns[latency_fw_draw(s)];
	uint64_t maps = s->map ? map_misses(s, off, len) : 0;
	bool first = true;
	/* Background programs and erases run until the write path's time. */
	bool busy = ns_to_s(start) < s->wp.t;
	int g = s->wp.last != RG_SLC;
	const bool retries = s->retry_log < 0;
	uint64_t pg = div_by(&s->page_div, off);
	struct read_pos r = { off, off + len, pg, (pg + 1) * s->page_div.d, 0, CH_UNMAPPED, NULL,
			      0, { NULL, NULL }, { 0, 0 } };
	uint64_t end = start;
	uint64_t *unit_free = s->unit_free, *ch_free = s->ch_free;
	struct read_blk b;
	uint64_t ready[RD_BLOCK];
	while (r.at < r.end) {
		uint32_t m = read_pages(s, &r, &b);
		if (!m)
			continue;
		if (retries) {	/* the pages that retry, if any is in the block */
			uint64_t left = s->retry_left;
			uint32_t i = 0;
			while (left < m - i) {
				i += (uint32_t)left;
				b.svc[i] += b.retry[i];
				i++;
				left = retry_gap(s);
			}
			s->retry_left = left - (m - i);
		}
		if (first) {	/* the map pages first (map_misses) */
			first = false;
			/* by index, not by a branch on whether there are any:
			   a drive whose cache holds half the map misses about
			   every other read */
			b.svc[0] += maps * s->tr_map_ns;
			if (b.n0 == s->page_div.d && maps < MAP_XFERS)
				b.ch_ns[0] = s->ch_map_ns[maps];
			else if (maps)
				b.ch_ns[0] = xfer_ns((double)b.n0 + (double)(maps * s->map_page_bytes),
						     p->ch_gbs);
		}
		if (busy) {
			struct rng rc = s->rng_collide;
			for (uint32_t i = 0; i < m; i++)
				ready[i] = start + interference_ns(s, &rc, g);
			s->rng_collide = rc;
		} else {
			for (uint32_t i = 0; i < m; i++)
				ready[i] = start;
		}
		for (uint32_t i = 0; i < m; i++) {
			uint32_t u = b.unit[i];
			uint64_t a = reserve(&unit_free[u], ready[i], b.svc[i]);
			end = max_u64(end, reserve(&ch_free[mod_by(&s->ch_div, u)], a, b.ch_ns[i]));
		}
	}
	if (len != s->rd_link_len) {
		s->rd_link_len = len;
		s->rd_link_ns = xfer_ns((double)len, p->link_rd_gbs);
	}
	return reserve(&s->link_free[0], end, s->rd_link_ns);
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
