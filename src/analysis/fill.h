/*
 * Fill Drive analysis (METHODOLOGY §3.2): one sequential write pass over the
 * drive, sampled every 100 ms, read as the reviewer reads it.
 *
 * The SLC cache is the fast phase, wherever it is: the pass is cut into
 * stages (below), the cache level is the fastest stage's true average,
 * and the cache is the first run of stages within `drop_frac` of it that
 * ends in a *sustained* drop: at least `drop_share` of the samples in a
 * window from the drop lie below `drop_frac` x the run's speed.  A dip of
 * a few samples (a journal flush, a thermal blip) is not the end of the
 * cache; a pass that starts slow (still folding the last pass) has its
 * cache where it comes; a fast run lasting to the end is no cache.  The
 * exact end is placed where the fewest samples disagree with "high
 * before, low after".  Each later sustained return to the cache speed
 * that a drop ends counts as another cache phase and is a stage.  A fast
 * run shorter than a stage (a full drive's static SLC: 0.8 s of a 520 s
 * pass) is a stage of its own when a drop ends it inside its stage and
 * the pass holds its speed nowhere else; a level that recurs is part of
 * an alternation, not a cache.
 *
 * Windows scale with the drive: `drop_window_s` and `stage_block_s` are
 * capped at `window_share` of the pass (5 s is 0.5 % of a 2 TB pass; a
 * 1 % scaled drive's whole cache is one second), the drop window at no
 * fewer than 5 samples.
 *
 * After the cache, the pass is cut into stages by binary segmentation of
 * block means: a cut is kept when the two sides differ by at least
 * `stage_min_change` and the difference is `stage_min_t` standard errors
 * wide, so that a phase that alternates quickly between several levels
 * (foreground folding rounds) stays one stage while a 3.75 -> 3.89 GB/s
 * step is found.  Cuts are refined to the sample.
 *
 * Levels are the modes of the post-cache throughput distribution: a
 * Gaussian kernel density over log(rate), so that the kernel is as wide in
 * relative terms at 684 MB/s as at 3980 MB/s, with peaks kept when they
 * hold at least `level_min_share` of the time.
 *
 * All rates are bytes per second; all sizes are bytes; times seconds.
 */
#ifndef SSDBENCH_ANALYSIS_FILL_H
#define SSDBENCH_ANALYSIS_FILL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/trace.h"
#include "common/error.h"

struct fill_params {
	double drop_frac;	/* a drop is below this x cache speed: 0.70 */
	double drop_window_s;	/* "sustained": judged over this long: 5 s */
	double drop_share;	/* share of that window below: 0.80 */
	double window_share;	/* windows are at most this share of the
				   pass (so they scale with the drive): 0.005 */
	double ref_speed;	/* known cache speed (B/s); 0 = estimate it from
				   the first samples */
	double stage_block_s;	/* block length for stage cuts: 5 s */
	unsigned stage_min_blocks; /* shortest stage, in blocks: 3 */
	double stage_min_change; /* smallest relative step: 0.025 */
	double stage_min_t;	/* significance of a step: 6 */
	double level_bandwidth;	/* kernel sd in log(rate): 0.03 (3 %) */
	double level_min_share;	/* a level holds at least this time: 0.03 */
};

/* The defaults above. */
void fill_params_default(struct fill_params *p);

#define FILL_MAX_STAGES 16
#define FILL_MAX_LEVELS 8

struct fill_stage {
	size_t first, end;	/* samples [first, end) */
	double start_bytes;	/* written before the stage began */
	double bytes;		/* written in it */
	double seconds;
	double mean;		/* bytes / seconds of the stage (true average) */
	double median, p10;	/* of its samples */
};

struct fill_level {
	double rate;		/* B/s at the density peak */
	double time_share;	/* of post-cache time in this peak's basin */
};

struct fill_result {
	size_t n;			/* samples */
	double total_bytes, total_s;
	double true_avg;		/* total bytes / total time, exact */
	double mean_of_samples;		/* mean of the per-sample rates (whole slices) */
	double p1, min, max;		/* of per-sample rates (whole slices) */
	double below_half_share;	/* share of time below 0.5 x true_avg */
	/* The average a dirty-test tool shows (speed vs position written,
	   averaged over the position): the sample rates weighted by the
	   bytes each wrote, every slice.  >= true_avg; far above it when
	   the speed alternates between fast and slow (a QLC drive's tool
	   average hid a true 117.7 MB/s). */
	double position_avg;

	bool has_cache;
	double cache_speed;		/* true average of the cache stage */
	double cache_start_bytes;	/* written before the cache began */
	double cache_bytes;		/* written into it, up to the sustained drop */
	double cache_s;
	unsigned cache_phases;		/* fast runs that a drop ends: > 1 when
					   the cache recurs (the first counts) */

	/* Stages cover the pass in order; stages[cache_stage] is the cache
	   when has_cache (0 unless the pass began slower). */
	size_t cache_stage;
	size_t nstages;
	struct fill_stage stages[FILL_MAX_STAGES];

	/* Everything after the cache (the whole pass when there is none). */
	struct fill_stage post;
	size_t nlevels;			/* by rate, highest first */
	struct fill_level levels[FILL_MAX_LEVELS];
};

/*
 * Analyse one pass.  Fails on an empty trace, a zero-length slice, or
 * parameters out of range.  Allocates only temporary memory.
 */
int fill_analyze(const struct trace_pt *t, size_t n,
		 const struct fill_params *p, struct fill_result *out,
		 struct sb_err *e);

/*
 * Only the cache: index of the first sample after the cache (0 when there
 * is none) and the bytes written before it.  Used on its own for the
 * reclaim minute, where `p->ref_speed` is the cache speed of the fill.
 */
int fill_find_cache(const struct trace_pt *t, size_t n,
		    const struct fill_params *p, size_t *end,
		    double *cache_bytes, struct sb_err *e);

/*
 * The modes of rates v[n] (weights w[n], e.g. durations; NULL = equal), by
 * the kernel density described above; stalled samples (rate 0) make a
 * level at 0.  Shares are of the whole weight.  Returns how many were
 * found (<= max), highest rate first.
 */
size_t fill_levels(const double *v, const double *w, size_t n,
		   double bandwidth, double min_share,
		   struct fill_level *levels, size_t max);

#endif
