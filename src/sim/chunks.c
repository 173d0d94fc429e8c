/*
 * The chunk map: a 2-bit tag per chunk of LBA space (1 MiB, or larger so
 * the map stays under 2^21 entries: at most 512 KiB, which a core's cache
 * holds, since every read looks its chunk up).  It answers where a read
 * goes (SLC, native, nothing) and what an overwrite hits.  Byte counts
 * live in the write path; a chunk's share of them is the class average
 * ("density"), so the map never needs per-page state.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/model.h"

#define MAX_CHUNKS (1ull << 21)

int chunks_init(struct sim *s, struct sb_err *e)
{
	uint64_t c = 1ull << 20;
	while (s->capacity / c > MAX_CHUNKS)
		c <<= 1;
	s->chunk = c;
	s->nchunks = (s->capacity + c - 1) / c;
	s->tags = calloc((s->nchunks + 3) / 4, 1);	/* all CH_UNMAPPED (0) */
	if (!s->tags)
		return sb_errf(e, "sim: no memory for the chunk map");
	memset(s->ntag, 0, sizeof s->ntag);
	s->ntag[CH_UNMAPPED] = s->nchunks;
	s->fold_cursor = 0;
	return 0;
}

void chunks_set(struct sim *s, uint64_t c, enum chunk_tag t)
{
	int sh = (int)(c & 3) * 2;
	s->ntag[chunk_tag(s, c)]--;
	s->tags[c >> 2] = (uint8_t)((s->tags[c >> 2] & ~(3u << sh)) | ((unsigned)t << sh));
	s->ntag[t]++;
}

/* Valid bytes per chunk of a class, as a share of the chunk (<= 1). */
double chunks_density(const struct sim *s, enum chunk_tag t)
{
	double n, bytes;
	if (t == CH_SLC) {
		n = (double)s->ntag[CH_SLC];
		bytes = s->wp.S_st + s->wp.S_dyn;
	} else {
		n = (double)(s->ntag[CH_NATIVE] + s->ntag[CH_FOLDED]);
		bytes = s->wp.T_v;
	}
	if (n <= 0)
		return 0;
	double d = bytes / (n * (double)s->chunk);
	return d > 1 ? 1 : d;
}

static void overwrite_of(const struct sim *s, enum chunk_tag t, struct overwrite *ow)
{
	memset(ow, 0, sizeof *ow);
	switch (t) {
	case CH_UNMAPPED:
		break;
	case CH_SLC:
		ow->inv_slc = chunks_density(s, CH_SLC);
		break;
	case CH_FOLDED:
		ow->folded = 1;
		/* fall through */
	case CH_NATIVE:
		ow->inv_nat = chunks_density(s, CH_NATIVE);
		break;
	}
}

/*
 * What a write piece starting at off overwrites.  A stream
 * that goes on inside the chunk it entered has already retagged the chunk
 * with its own first bytes, so the chunk's tag from before the stream
 * entered decides for the rest of it.
 */
void chunks_overwrite(struct sim *s, uint64_t off, struct overwrite *ow)
{
	uint64_t c = off >> s->chunk_shift;
	if (off != s->piece_end || c != s->piece_chunk) {
		s->piece_chunk = c;
		s->piece_prev = (uint8_t)chunk_tag(s, c);
	}
	overwrite_of(s, (enum chunk_tag)s->piece_prev, ow);
}

/* The piece [off, off + n) was written: tag its chunk by where it went. */
void chunks_wrote(struct sim *s, uint64_t off, uint64_t n, enum chunk_tag t)
{
	s->piece_end = off + n;
	chunks_set(s, off >> s->chunk_shift, t);
}

/*
 * Folding moved `folded` bytes out of SLC: retag SLC chunks as folded, in
 * LBA order from a cursor (first written, first folded, for the sequential
 * fills that make large caches), one chunk per average SLC chunk's bytes.
 */
void chunks_fold(struct sim *s, double folded)
{
	struct wpath *w = &s->wp;
	double S = w->S_st + w->S_dyn;
	uint64_t n = s->ntag[CH_SLC];
	if (n == 0) {
		w->fold_carry = 0;
		return;
	}
	if (S < 1.0) {
		/* SLC is empty: every SLC chunk has been folded. */
		for (uint64_t c = 0; c < s->nchunks && s->ntag[CH_SLC]; c++)
			if (chunk_tag(s, c) == CH_SLC)
				chunks_set(s, c, CH_FOLDED);
		w->fold_carry = 0;
		return;
	}
	w->fold_carry += folded;
	double per = (S + w->fold_carry) / (double)n;
	uint64_t scanned = 0;
	while (w->fold_carry >= per && s->ntag[CH_SLC] > 1 && scanned < s->nchunks) {
		uint64_t c = s->fold_cursor;
		s->fold_cursor = (c + 1) % s->nchunks;
		scanned++;
		if (chunk_tag(s, c) != CH_SLC)
			continue;
		chunks_set(s, c, CH_FOLDED);
		w->fold_carry -= per;
		scanned = 0;
	}
}
