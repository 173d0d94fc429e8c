#include "sim/sampler.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

#define NBLK 1024
#define BPG 256			/* pages per block */
#define NPG (NBLK * BPG)

struct blk {
	int32_t nvalid, wp;
	int32_t next, prev;	/* bin or free list */
	uint8_t inbin;
};

struct sampler {
	int32_t upages;		/* user pages */
	double grain;		/* bytes per user page */
	int32_t *map;		/* user page -> physical page, -1 unmapped */
	int32_t *rmap;		/* physical page -> user page, -1 invalid */
	struct blk blk[NBLK];
	int32_t bin[BPG + 1];	/* head of blocks with n valid pages */
	int32_t minv;		/* no bin below this is non-empty */
	int32_t freelist, nfree;
	int32_t front[2];	/* open blocks: host data, and GC and folding */
	double carry_h, carry_f;	/* bytes not yet a whole page */
	int32_t *ring;		/* pages staged in SLC, oldest first */
	uint32_t ring_cap, ring_head, ring_len;
	/* recent write amplification, decayed per host page */
	double host_w, all_w, decay;
	double v_avg;		/* valid pages of recent GC victims (EWMA) */
	uint64_t victims;
	double wa_uniform;	/* sim_waf_lw(rho), asked for at every write step */
	struct rng rng;
	/* sampler_wa's answer while no block has changed bins: the write
	   path asks several times a step, and most exact writes place no
	   page at all (a sampler page is many of them) */
	double wa_now;
	bool wa_known;
};

static void bin_rm(struct sampler *sp, int32_t b)
{
	struct blk *k = &sp->blk[b];
	if (!k->inbin)
		return;
	sp->wa_known = false;
	k->inbin = 0;
	if (k->prev >= 0)
		sp->blk[k->prev].next = k->next;
	else
		sp->bin[k->nvalid] = k->next;
	if (k->next >= 0)
		sp->blk[k->next].prev = k->prev;
	k->next = k->prev = -1;
}

static void bin_add(struct sampler *sp, int32_t b)
{
	struct blk *k = &sp->blk[b];
	sp->wa_known = false;
	k->inbin = 1;
	k->prev = -1;
	k->next = sp->bin[k->nvalid];
	if (k->next >= 0)
		sp->blk[k->next].prev = b;
	sp->bin[k->nvalid] = b;
	if (k->nvalid < sp->minv)
		sp->minv = k->nvalid;
}

static int32_t alloc_blk(struct sampler *sp)
{
	int32_t b = sp->freelist;
	sp->freelist = sp->blk[b].next;
	sp->nfree--;
	sp->blk[b] = (struct blk){ 0, 0, -1, -1, 0 };
	return b;
}

static void invalidate(struct sampler *sp, int32_t lpn)
{
	int32_t old = sp->map[lpn];
	if (old < 0)
		return;
	int32_t b = old / BPG;
	sp->rmap[old] = -1;
	sp->map[lpn] = -1;
	if (sp->blk[b].inbin) {
		bin_rm(sp, b);
		sp->blk[b].nvalid--;
		bin_add(sp, b);
	} else {
		sp->blk[b].nvalid--;
	}
}

/* Host data and internal copies go to separate open blocks, as FTLs do,
   so folding and GC do not mix their pages into the host's sequence. */
static void place(struct sampler *sp, int32_t lpn, int which)
{
	invalidate(sp, lpn);
	int32_t fb = sp->front[which];
	struct blk *f = &sp->blk[fb];
	int32_t p = fb * BPG + f->wp++;
	sp->rmap[p] = lpn;
	sp->map[lpn] = p;
	f->nvalid++;
	if (f->wp == BPG) {
		bin_add(sp, fb);
		sp->front[which] = alloc_blk(sp);
	}
}

/* Greedy: erase the block with the fewest valid pages, copying them. */
static void gc(struct sampler *sp)
{
	while (sp->nfree < 2) {
		int32_t v = sp->minv;
		while (v <= BPG && sp->bin[v] < 0)
			v++;
		sp->minv = v;
		if (v > BPG)
			return;
		int32_t b = sp->bin[v];
		bin_rm(sp, b);
		sp->v_avg = sp->victims ? 0.98 * sp->v_avg + 0.02 * v : v;
		sp->victims++;
		for (int32_t i = 0; i < BPG; i++) {
			int32_t lpn = sp->rmap[b * BPG + i];
			if (lpn >= 0) {
				place(sp, lpn, 1);
				sp->all_w += 1;
			}
		}
		sp->blk[b].next = sp->freelist;
		sp->freelist = b;
		sp->nfree++;
	}
}

/* One page reaches native media: from the host (which 0) or a fold (1). */
static void native_page(struct sampler *sp, int32_t lpn, int which)
{
	sp->host_w = sp->host_w * sp->decay + 1;
	sp->all_w = sp->all_w * sp->decay + 1;
	place(sp, lpn, which);
	gc(sp);
}

/* A host page: straight to native, or staged in SLC until folded. */
static void host_page(struct sampler *sp, int32_t lpn, bool to_slc)
{
	if (to_slc && sp->ring_len < sp->ring_cap) {
		sp->ring[(sp->ring_head + sp->ring_len++) % sp->ring_cap] = lpn;
		return;
	}
	native_page(sp, lpn, 0);
}

int sampler_new(double rho, uint64_t user_bytes, double slc_bytes, uint64_t seed,
		struct sampler **out, struct sb_err *e)
{
	struct sampler *sp = calloc(1, sizeof *sp);
	if (!sp)
		return sb_errf(e, "sim: no memory for the GC sampler");
	double up = floor((double)NPG / (1.0 + rho));
	/* GC needs a few spare blocks to move at all */
	if (up > NPG - 4 * BPG)
		up = NPG - 4 * BPG;
	sp->upages = (int32_t)up;
	sp->wa_uniform = sim_waf_lw(rho);
	sp->grain = (double)user_bytes / up;
	sp->map = malloc(sizeof *sp->map * (size_t)sp->upages);
	sp->rmap = malloc(sizeof *sp->rmap * NPG);
	sp->ring_cap = (uint32_t)ceil(slc_bytes / sp->grain) + 16;
	sp->ring = malloc(sizeof *sp->ring * sp->ring_cap);
	if (!sp->map || !sp->rmap || !sp->ring) {
		sampler_free(sp);
		return sb_errf(e, "sim: no memory for the GC sampler");
	}
	for (int32_t i = 0; i < sp->upages; i++)
		sp->map[i] = -1;
	for (int32_t i = 0; i < NPG; i++)
		sp->rmap[i] = -1;
	for (int32_t i = 0; i <= BPG; i++)
		sp->bin[i] = -1;
	sp->freelist = -1;
	for (int32_t b = NBLK - 1; b >= 0; b--) {
		sp->blk[b] = (struct blk){ 0, 0, sp->freelist, -1, 0 };
		sp->freelist = b;
		sp->nfree++;
	}
	sp->minv = 0;
	sp->front[0] = alloc_blk(sp);
	sp->front[1] = alloc_blk(sp);
	/* remember about 2 % of the drive's pages */
	sp->decay = 1.0 - 1.0 / (0.02 * (double)sp->upages);
	rng_seed(&sp->rng, seed ^ 0x67635f73616dull);
	*out = sp;
	return 0;
}

void sampler_free(struct sampler *sp)
{
	if (!sp)
		return;
	free(sp->map);
	free(sp->rmap);
	free(sp->ring);
	free(sp);
}

/* The struct without its arrays' addresses, as bytes (padding and all: a
   copy by assignment need not keep it): what is compared as the struct. */
static void fields_of(const struct sampler *sp, struct sampler *v)
{
	memcpy(v, sp, sizeof *v);
	v->map = v->rmap = v->ring = NULL;
}

int sampler_clone(const struct sampler *sp, struct sampler **out)
{
	struct sampler *c = malloc(sizeof *c);
	if (!c)
		return -1;
	memcpy(c, sp, sizeof *c);
	c->map = malloc(sizeof *c->map * (size_t)sp->upages);
	c->rmap = malloc(sizeof *c->rmap * NPG);
	c->ring = malloc(sizeof *c->ring * sp->ring_cap);
	if (!c->map || !c->rmap || !c->ring) {
		sampler_free(c);
		return -1;
	}
	memcpy(c->map, sp->map, sizeof *c->map * (size_t)sp->upages);
	memcpy(c->rmap, sp->rmap, sizeof *c->rmap * NPG);
	memcpy(c->ring, sp->ring, sizeof *c->ring * sp->ring_cap);
	*out = c;
	return 0;
}

/* The pages staged, in order (the ring's other slots were never written,
   or are left over: no state). */
static bool same_ring(const struct sampler *a, const struct sampler *b)
{
	for (uint32_t i = 0; i < a->ring_len; i++)
		if (a->ring[(a->ring_head + i) % a->ring_cap] !=
		    b->ring[(b->ring_head + i) % b->ring_cap])
			return false;
	return true;
}

bool sampler_equal(const struct sampler *a, const struct sampler *b)
{
	struct sampler fa, fb;
	fields_of(a, &fa);
	fields_of(b, &fb);
	return !memcmp(&fa, &fb, sizeof fa) &&
	       !memcmp(a->map, b->map, sizeof *a->map * (size_t)a->upages) &&
	       !memcmp(a->rmap, b->rmap, sizeof *a->rmap * NPG) &&
	       same_ring(a, b);
}

static int32_t page_of(const struct sampler *sp, double off)
{
	double p = floor(off / sp->grain);
	if (p < 0)
		p = 0;
	if (p >= sp->upages)
		p = sp->upages - 1;
	return (int32_t)p;
}

void sampler_write_seq(struct sampler *sp, double off, double bytes, bool to_slc)
{
	sp->carry_h += bytes;
	while (sp->carry_h >= sp->grain) {
		sp->carry_h -= sp->grain;
		/* the page where this stretch of the stream ends */
		host_page(sp, page_of(sp, off + bytes - sp->carry_h - 1), to_slc);
	}
}

void sampler_write_rand(struct sampler *sp, uint64_t span_off, uint64_t span_len,
			double bytes, bool to_slc)
{
	int32_t first = page_of(sp, (double)span_off);
	int32_t last = page_of(sp, (double)(span_off + span_len) - 1);
	sp->carry_h += bytes;
	while (sp->carry_h >= sp->grain) {
		sp->carry_h -= sp->grain;
		host_page(sp, first + (int32_t)rng_below(&sp->rng, (uint64_t)(last - first + 1)),
			  to_slc);
	}
}

void sampler_fold(struct sampler *sp, double bytes)
{
	sp->carry_f += bytes;
	while (sp->carry_f >= sp->grain && sp->ring_len) {
		sp->carry_f -= sp->grain;
		int32_t lpn = sp->ring[sp->ring_head];
		sp->ring_head = (sp->ring_head + 1) % sp->ring_cap;
		sp->ring_len--;
		native_page(sp, lpn, 1);
	}
	if (!sp->ring_len)
		sp->carry_f = 0;
}

void sampler_trim(struct sampler *sp, uint64_t off, uint64_t len)
{
	/* pages wholly inside the range */
	double a = ceil((double)off / sp->grain);
	double b = floor((double)(off + len) / sp->grain);
	for (double p = a; p < b && p < sp->upages; p++)
		invalidate(sp, (int32_t)p);
}

double sampler_wa_recent(const struct sampler *sp)
{
	return sp->host_w > 0 ? sp->all_w / sp->host_w : 1.0;
}

double sampler_wa_uniform(const struct sampler *sp)
{
	return sp->wa_uniform;
}

double sampler_wa_scan(struct sampler *sp)
{
	int32_t v = sp->minv;
	while (v <= BPG && sp->bin[v] < 0)
		v++;
	sp->minv = v;
	if (v >= BPG)
		return 1.0;	/* nothing to reclaim, or nothing stale */
	/* The recent victims' average smooths the page granularity; the
	   next victim decides when it is far cheaper (a trim, a sequential
	   overwrite). */
	double vv = sp->victims && v >= 0.9 * sp->v_avg ? sp->v_avg : v;
	return (double)BPG / ((double)BPG - vv);
}

double sampler_wa(struct sampler *sp)
{
	if (!sp->wa_known) {
		sp->wa_now = sampler_wa_scan(sp);
		sp->wa_known = true;
	}
	return sp->wa_now;
}
