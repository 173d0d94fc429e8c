/*
 * Block-size mixes like fio's bssplit: per direction (read, write, trim),
 * sizes with their shares of the I/Os, e.g. 4k/70:64k/30, or per direction
 * 4k/50:8k/50,64k/100.  An I/O's size is drawn when it is issued.
 */
#ifndef SSDBENCH_ENGINE_BSSPLIT_H
#define SSDBENCH_ENGINE_BSSPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/rng.h"

#define BS_SPLIT_MAX 16

struct bs_split {
	uint32_t n;			/* 0: the workload's one block size */
	uint32_t bs[BS_SPLIT_MAX];	/* bytes */
	double pct[BS_SPLIT_MAX];	/* share of the direction's I/Os, sum 100 */
};

/*
 * fio's text: SIZE/PCT:SIZE/PCT..., one group for every direction, or
 * groups for read,write[,trim] (trims take the write group when there are
 * two).  A size without a share takes an equal part of what the others
 * leave, as in fio; the shares must add up to 100.  out[] is indexed by
 * enum io_dir.
 */
int bs_split_parse(const char *text, struct bs_split out[3], struct sb_err *e);
/* The same definition back as text (sizes as fio's k/m suffixes allow). */
const char *bs_split_format(const struct bs_split s[3], char *buf, size_t len);

/* A size drawn with the split's shares. */
static inline uint32_t bs_split_next(const struct bs_split *s, struct rng *r)
{
	double u = rng_unit(r) * 100.0, cum = 0;
	for (uint32_t i = 0; i + 1 < s->n; i++) {
		cum += s->pct[i];
		if (u < cum)
			return s->bs[i];
	}
	return s->bs[s->n - 1];
}

#endif
