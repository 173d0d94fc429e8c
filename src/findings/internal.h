/* What the per-step figure files share (findings.c). */
#ifndef SSDBENCH_FINDINGS_INTERNAL_H
#define SSDBENCH_FINDINGS_INTERNAL_H

#include <stdbool.h>

#include "analysis/trace.h"
#include "findings/findings.h"

struct fctx {
	struct store *s;
	int64_t run_id;
	const struct plan *p;
	const struct plan_step *st;
	const struct step_row *row;
	uint64_t size;
	struct workload_row *wl;	/* the step's workloads, in order */
	size_t nwl;
	struct figures *out;
};

/* A "key=value" token of a workload name: a number or a word. */
bool name_u64(const char *name, const char *key, uint64_t *out);
bool name_word(const char *name, const char *key, char *buf, size_t len);

/*
 * The measured (non-ramp) samples of a workload as a trace; dirs is a mask
 * of 1 << DIR_READ / DIR_WRITE / DIR_TRIM to count.  *t is malloc'd.
 */
int load_trace(struct fctx *c, int64_t wid, unsigned dirs,
	       struct trace_pt **t, size_t *n, struct sb_err *e);

/* Bytes/s and IOPS from a workload's totals (read + write). */
double wl_bps(const struct workload_row *w);
double wl_iops(const struct workload_row *w);

/*
 * The plan's suite.scale: 1 for a full-size review, 0.1 when the plan's
 * capacity-bound sizes and times are a tenth of it (full-scaled).  The
 * analysis' own time windows (burst level and merge gap, Intel's 1 s
 * consistency, the 30 s averages at drive-writes) are multiplied by it.
 */
double run_scale(const struct fctx *c);

/* Figure with the step's name in front: "<step>.<rest>". */
int fig(struct fctx *c, const char *unit, double v, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The latency and consistency figures of one workload under `prefix`. */
int fig_workload_latency(struct fctx *c, const struct workload_row *w,
			 const char *prefix, struct sb_err *e);
int fig_consistency(struct fctx *c, const struct workload_row *w, bool iops,
		    const char *prefix, struct sb_err *e);

int fig_peak(struct fctx *c, struct sb_err *e);
int fig_fill(struct fctx *c, struct sb_err *e);
int fig_active_range(struct fctx *c, struct sb_err *e);
int fig_sync_write(struct fctx *c, struct sb_err *e);
int fig_rw_ratio(struct fctx *c, struct sb_err *e);
int fig_reclaim(struct fctx *c, struct sb_err *e);
int fig_ss_precond(struct fctx *c, struct sb_err *e);
int fig_sweep(struct fctx *c, struct sb_err *e);
int fig_boot(struct fctx *c, struct sb_err *e);
int fig_load_sweep(struct fctx *c, struct sb_err *e);
int fig_profiles(struct fctx *c, struct sb_err *e);

#endif
