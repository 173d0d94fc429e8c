/*
 * The chunk map: where the data of each chunk of LBA space (1 MiB, or
 * larger so the map stays under 2^21 entries) is: nowhere (unmapped), in
 * SLC, in native blocks written directly, or in native blocks folded from
 * SLC.  Writes often cover a chunk only in part (4 KiB random writes into
 * a 2 MiB chunk), so a chunk holds up to two classes: the one with the
 * most of it and another with a share of it, in 32nds (under a half), all
 * in one byte per chunk (at most 2 MiB, which a core's cache holds:
 * every read looks its chunk up).  A read finds each page in one class,
 * the minor one at its share (by the page's hash: timing.c); an
 * overwrite invalidates each class at its share.  A share that moves by
 * less than a 32nd (a 4 KiB write moves a 2 MiB chunk's by a 512th) is
 * rounded to a whole 32nd up or down at random, in proportion, so the
 * shares summed over chunks (what reads and overwrites meet) are those
 * of the bytes written.  Byte counts live in the write path: a class's
 * share of a chunk holds the class's average density of valid bytes
 * ("density"), so the map never needs per-page state.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/model.h"

#define MAX_CHUNKS (1ull << 21)
#define ONE CHUNK_ONE

int chunks_init(struct sim *s, struct sb_err *e)
{
	uint64_t c = 1ull << 20;
	while (s->capacity / c > MAX_CHUNKS)
		c <<= 1;
	s->chunk = c;
	s->nchunks = (s->capacity + c - 1) / c;
	s->tags = calloc(s->nchunks, 1);	/* all CH_UNMAPPED (0) */
	if (!s->tags)
		return sb_errf(e, "sim: no memory for the chunk map");
	memset(s->ntag, 0, sizeof s->ntag);
	memset(s->nminor, 0, sizeof s->nminor);
	memset(s->eq, 0, sizeof s->eq);
	s->ntag[CH_UNMAPPED] = s->nchunks;
	s->eq[CH_UNMAPPED] = s->nchunks * ONE;
	s->fold_cursor = 0;
	return 0;
}

/* Chunk c, now `o`, becomes x. */
static void put(struct sim *s, uint64_t c, struct chunk_mix o, struct chunk_mix x)
{
	s->ntag[o.major]--;
	s->eq[o.major] -= ONE - o.q;
	if (o.q) {
		s->eq[o.minor] -= o.q;
		s->nminor[o.minor]--;
	}
	if (x.q > CHUNK_Q_MAX)
		x.q = CHUNK_Q_MAX;
	if (!x.q || x.minor == x.major) {
		x.q = 0;
		x.minor = CH_UNMAPPED;
	}
	s->tags[c] = (uint8_t)((unsigned)x.major | (unsigned)x.minor << 2 | x.q << 4);
	s->ntag[x.major]++;
	s->eq[x.major] += ONE - x.q;
	if (x.q) {
		s->eq[x.minor] += x.q;
		s->nminor[x.minor]++;
	}
}

void chunks_set_mix(struct sim *s, uint64_t c, struct chunk_mix x)
{
	put(s, c, chunks_mix(s, c), x);
}

void chunks_set(struct sim *s, uint64_t c, enum chunk_tag t)
{
	chunks_set_mix(s, c, (struct chunk_mix){ t, CH_UNMAPPED, 0 });
}

/* Each class's share of a chunk (they add to 1). */
static void shares_of(struct chunk_mix x, double sh[4])
{
	sh[0] = sh[1] = sh[2] = sh[3] = 0;
	sh[x.major] = (double)(ONE - x.q) / ONE;
	sh[x.minor] += (double)x.q / ONE;
}

/*
 * The chunk nearest shares sh (adding to 1) in two classes: the largest
 * is the major one, every other's share goes to the next largest (ties:
 * the lower class), rounded to a whole 32nd, up with the probability of
 * the part it lacks.
 */
static struct chunk_mix mix_of(struct sim *s, const double sh[4])
{
	int a = 0, b = -1;
	for (int i = 1; i < 4; i++)
		if (sh[i] > sh[a])
			a = i;
	for (int i = 0; i < 4; i++)
		if (i != a && (b < 0 || sh[i] > sh[b]))
			b = i;
	double q = (1.0 - sh[a]) * ONE;
	uint32_t whole = 0;
	if (q >= CHUNK_Q_MAX)
		whole = CHUNK_Q_MAX;
	else if (q > 0) {
		whole = (uint32_t)q;
		whole += rng_unit(&s->rng_chunks) < q - whole;
	}
	return (struct chunk_mix){ (enum chunk_tag)a, (enum chunk_tag)b, whole };
}

/* Chunk x with the share f of it, taken from each class at its share, in
   class t. */
static struct chunk_mix mix_moved(struct sim *s, struct chunk_mix x, double f, enum chunk_tag t)
{
	if (f >= 1.0)
		return (struct chunk_mix){ t, CH_UNMAPPED, 0 };
	double sh[4];
	shares_of(x, sh);
	for (int i = 0; i < 4; i++)
		sh[i] *= 1.0 - f;
	sh[t] += f;
	return mix_of(s, sh);
}

/* Chunk c's bytes inside the drive (the last chunk may end past it). */
static double chunk_bytes(const struct sim *s, uint64_t c)
{
	uint64_t end = (c + 1) * s->chunk;
	return (double)(end > s->capacity ? s->capacity - c * s->chunk : s->chunk);
}

/* Valid bytes per chunk of a class, as a share of the chunk (<= 1): the
   class's bytes over the chunks' shares it holds. */
double chunks_density(const struct sim *s, enum chunk_tag t)
{
	double n, bytes;
	if (t == CH_SLC) {
		n = (double)s->eq[CH_SLC] / ONE;
		bytes = s->wp.S_st + s->wp.S_dyn;
	} else {
		n = (double)(s->eq[CH_NATIVE] + s->eq[CH_FOLDED]) / ONE;
		bytes = s->wp.T_v;
	}
	if (n <= 0)
		return 0;
	double d = bytes / (n * (double)s->chunk);
	return d > 1 ? 1 : d;
}

void chunks_count(const struct sim *s, uint64_t c0, uint64_t c1, double n[4])
{
	if (c0 == 0 && c1 + 1 == s->nchunks) {
		for (int i = 0; i < 4; i++)	/* the whole drive: counted as tagged */
			n[i] = (double)s->eq[i] / ONE;
		return;
	}
	uint64_t u[4] = { 0 };
	for (uint64_t c = c0; c <= c1; c++) {
		struct chunk_mix x = chunks_mix(s, c);
		u[x.major] += ONE - x.q;
		u[x.minor] += x.q;
	}
	for (int i = 0; i < 4; i++)
		n[i] = (double)u[i] / ONE;
}

static void overwrite_of(const struct sim *s, struct chunk_mix x, struct overwrite *ow)
{
	memset(ow, 0, sizeof *ow);
	double sh[4];
	shares_of(x, sh);
	if (sh[CH_SLC] > 0)
		ow->inv_slc = sh[CH_SLC] * chunks_density(s, CH_SLC);
	double nat = sh[CH_NATIVE] + sh[CH_FOLDED];
	if (nat > 0)
		ow->inv_nat = nat * chunks_density(s, CH_NATIVE);
	ow->folded = sh[CH_FOLDED];
}

/*
 * What a write piece starting at off overwrites.  A stream that goes on
 * inside the chunk it entered has already written part of the chunk
 * with its own first bytes, so the chunk as it was before the stream
 * entered decides for the rest of it.
 */
/* A write piece starts at off: a new one, unless it goes on where the
   last ended in the same chunk. */
static void piece_at(struct sim *s, uint64_t off)
{
	uint64_t c = off >> s->chunk_shift;
	if (off != s->piece_end || c != s->piece_chunk) {
		s->piece_chunk = c;
		s->piece_prev = chunks_mix(s, c);
		s->piece_bytes = 0;
	}
}

void chunks_overwrite(struct sim *s, uint64_t off, struct overwrite *ow)
{
	piece_at(s, off);
	overwrite_of(s, s->piece_prev, ow);
}

/*
 * The piece [off, off + n) was written to class t.  The stream's bytes in
 * a chunk so far hold t; the rest is as before the stream entered.  A
 * lone write (a random one) lands anywhere in the chunk, on each class at
 * its share; a stream's pieces follow each other and fill the chunk.  A
 * piece over several chunks (a sequential stream's step) enters each.
 */
void chunks_wrote(struct sim *s, uint64_t off, uint64_t n, enum chunk_tag t)
{
	while (n) {
		uint64_t c = off >> s->chunk_shift;
		uint64_t here = ((c + 1) << s->chunk_shift) - off;
		if (here > n)
			here = n;
		piece_at(s, off);
		struct chunk_mix pre = s->piece_prev, now = chunks_mix(s, c);
		s->piece_end = off + here;
		s->piece_bytes += here;
		if (!(pre.major == t && !pre.q && now.major == t && !now.q))
			put(s, c, now, mix_moved(s, pre, (double)s->piece_bytes / chunk_bytes(s, c), t));
		off += here;
		n -= here;
	}
}

uint64_t chunks_alike(const struct sim *s, uint64_t c, struct chunk_mix x, uint64_t max)
{
	uint64_t n = 0;
	if (x.q)
		return 0;
	while (n < max && c + 1 + n < s->nchunks && s->tags[c + 1 + n] == (uint8_t)x.major)
		n++;
	return n;
}

void chunks_trimmed(struct sim *s, uint64_t off, uint64_t n)
{
	uint64_t c = off >> s->chunk_shift;
	struct chunk_mix x = chunks_mix(s, c);
	if (x.major != CH_UNMAPPED || x.q)
		put(s, c, x, mix_moved(s, x, (double)n / chunk_bytes(s, c), CH_UNMAPPED));
}

void chunks_map_random(struct sim *s, uint64_t c0, uint64_t c1, double f, double slc)
{
	if ((!s->ntag[CH_UNMAPPED] && !s->nminor[CH_UNMAPPED]) || !(f > 0))
		return;	/* nothing unmapped anywhere (a preconditioned drive) */
	for (uint64_t c = c0; c <= c1; c++) {
		struct chunk_mix x = chunks_mix(s, c);
		if (x.major != CH_UNMAPPED && (!x.q || x.minor != CH_UNMAPPED))
			continue;
		double sh[4];
		shares_of(x, sh);
		double u = sh[CH_UNMAPPED] * f;
		sh[CH_UNMAPPED] -= u;
		sh[CH_SLC] += u * slc;
		sh[CH_NATIVE] += u * (1.0 - slc);
		put(s, c, x, mix_of(s, sh));
	}
}

/* Chunk c's share in SLC, as a part of the chunk. */
static double slc_share(const struct sim *s, uint64_t c)
{
	double sh[4];
	shares_of(chunks_mix(s, c), sh);
	return sh[CH_SLC];
}

/* Chunk c's SLC data folded. */
static void fold_chunk(struct sim *s, uint64_t c)
{
	struct chunk_mix o = chunks_mix(s, c), x = o;
	if (x.major == CH_SLC)
		x.major = CH_FOLDED;
	if (x.q && x.minor == CH_SLC)
		x.minor = CH_FOLDED;
	put(s, c, o, x);
}

/*
 * Folding moved `folded` bytes out of SLC: retag chunks' SLC data as
 * folded, in LBA order from a cursor (first written, first folded, for
 * the sequential fills that make large caches), each chunk at its share
 * of the average SLC chunk's bytes.
 */
void chunks_fold(struct sim *s, double folded)
{
	struct wpath *w = &s->wp;
	double S = w->S_st + w->S_dyn;
	if (!s->eq[CH_SLC]) {
		w->fold_carry = 0;
		return;
	}
	if (S < 1.0) {
		/* SLC is empty: every chunk's SLC data has been folded. */
		for (uint64_t c = 0; c < s->nchunks && (s->ntag[CH_SLC] || s->nminor[CH_SLC]); c++)
			if (slc_share(s, c) > 0)
				fold_chunk(s, c);
		w->fold_carry = 0;
		return;
	}
	w->fold_carry += folded;
	double per = (S + w->fold_carry) / ((double)s->eq[CH_SLC] / ONE);
	uint64_t scanned = 0;
	while (s->ntag[CH_SLC] + s->nminor[CH_SLC] > 1 && scanned < s->nchunks) {
		uint64_t c = s->fold_cursor;
		double share = slc_share(s, c);
		if (share > 0) {
			double cost = per * share;
			if (w->fold_carry < cost)
				break;
			fold_chunk(s, c);
			w->fold_carry -= cost;
			scanned = 0;
		} else {
			scanned++;
		}
		s->fold_cursor = (c + 1) % s->nchunks;
	}
}
