/*
 * Block-size mixes (fio's bssplit): the text read and written back, blank
 * shares filled as fio fills them, the drawn sizes' shares within 1 % of
 * the definition, offsets of a mixed workload aligned to its smallest size
 * and every I/O inside the span, and bad mixes refused.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "engine/offsets.h"
#include "engine/workload.h"

TEST(bssplit_text_round_trips_and_fills_blanks)
{
	struct bs_split s[3];
	struct sb_err e;
	char buf[512];
	CHECK(bs_split_parse("4k/70:64k/30", s, &e) == 0);
	CHECK_EQ_STR(bs_split_format(s, buf, sizeof buf), "4k/70:64k/30");
	CHECK(s[2].n == 2 && s[2].bs[1] == 65536);	/* one group: every direction */
	CHECK(bs_split_parse("2k/50:4k/50,4k/90:8k/10", s, &e) == 0);
	CHECK_EQ_STR(bs_split_format(s, buf, sizeof buf),
		     "2k/50:4k/50,4k/90:8k/10,4k/90:8k/10");
	/* fio: sizes without a share split what is left evenly */
	CHECK(bs_split_parse("4k/40:8k:16k", s, &e) == 0);
	CHECK(fabs(s[0].pct[1] - 30) < 1e-12 && fabs(s[0].pct[2] - 30) < 1e-12);
	CHECK(bs_split_parse("512/4:1m/96", s, &e) == 0);
	CHECK_EQ_STR(bs_split_format(s, buf, sizeof buf), "512/4:1m/96");
	const char *bad[] = { "4k/70:64k/20", "4k/70:64k/40", "x/100", "4k/1o0",
			      "", "4k/50,,4k/100", "4k/100,4k/100,4k/100,4k/100" };
	for (int i = 0; i < 7; i++)
		if (bs_split_parse(bad[i], s, &e) == 0)
			CHECK_FAIL("'%s' was accepted", bad[i]);
}

TEST(bssplit_shares_match_the_definition)
{
	struct bs_split s[3];
	struct sb_err e;
	struct rng r;
	CHECK(bs_split_parse("512/4:4k/67:8k/10:16k/7:64k/12", s, &e) == 0);
	const uint32_t sizes[] = { 512, 4096, 8192, 16384, 65536 };
	const double want[] = { 4, 67, 10, 7, 12 };
	uint64_t n[5] = { 0 };
	rng_seed(&r, 42);
	for (int i = 0; i < 2000000; i++) {
		uint32_t bs = bs_split_next(&s[0], &r);
		int k = 0;
		while (k < 5 && sizes[k] != bs)
			k++;
		if (k == 5)
			CHECK_FAIL("size %u is not in the mix", bs);
		else
			n[k]++;
	}
	for (int k = 0; k < 5; k++)
		CHECK_REL(n[k] / 2e6 * 100, want[k], 0.01);
}

TEST(mixed_sizes_align_to_the_smallest_and_stay_inside)
{
	struct workload w;
	struct sb_err e;
	workload_defaults(&w);
	w.pattern = PATTERN_RAND;
	w.span_offset = 1 << 20;
	w.span_len = 10 * 65536 + 1536;
	CHECK(bs_split_parse("1536/50:64k/50", w.bssplit, &e) == 0);
	CHECK(workload_validate(&w, 64 << 20, 512, &e) == 0);
	CHECK_EQ_U64(workload_bs_min(&w), 1536);
	CHECK_EQ_U64(workload_bs_max(&w), 65536);
	struct offset_gen g;
	offset_gen_init(&g, &w, 0, 5);
	uint64_t end = w.span_offset + w.span_len;
	for (int i = 0; i < 100000; i++) {
		uint32_t len = i % 2 ? 65536 : 1536;
		uint64_t off = offset_fit(&g, offset_next(&g), len);
		if ((off - w.span_offset) % 1536 || off < w.span_offset || off + len > end)
			CHECK_FAIL("I/O %d: %u bytes at %" PRIu64 " (span %" PRIu64 "..%" PRIu64 ")",
				   i, len, off, w.span_offset, end);
	}
	/* refusals: sequential, sizes off the logical block, a span too small */
	w.pattern = PATTERN_SEQ;
	CHECK(workload_validate(&w, 64 << 20, 512, &e) == -1);
	CHECK(strstr(e.msg, "bssplit applies to random I/O") != NULL);
	w.pattern = PATTERN_RAND;
	CHECK(workload_validate(&w, 64 << 20, 4096, &e) == -1);
	CHECK(strstr(e.msg, "1536 B is not a multiple") != NULL);
	w.span_len = 65536;
	CHECK(bs_split_parse("4k/50:128k/50", w.bssplit, &e) == 0);
	CHECK(workload_validate(&w, 64 << 20, 512, &e) == -1);
	CHECK(strstr(e.msg, "too small") != NULL);
}

CHECK_MAIN("bssplit")
