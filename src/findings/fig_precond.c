/*
 * Preconditioning to steady state (METHODOLOGY §4.1): the verdict of the
 * same detector the runner stopped on, over the stored trace; what it took
 * to get there; bursts and the average at 0.2, 1.0 and 1.5 drive-writes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/bursts.h"
#include "analysis/steady.h"
#include "findings/internal.h"
#include "suite/step.h"

/*
 * The averages at 0.2, 1.0 and 1.5 drive-writes are over this window: long
 * enough to hold a burst cycle (SN8100: one every 19-22 s), so a window that
 * happens to catch a burst does not read as a 20-fold level.
 */
#define AVG_WINDOW_S 30.0

int fig_ss_precond(struct fctx *c, struct sb_err *e)
{
	if (c->nwl == 0)
		return 0;
	const struct workload_row *w = &c->wl[c->nwl - 1];
	struct trace_pt *t;
	size_t n;
	if (load_trace(c, w->id, 1u << DIR_WRITE, &t, &n, e))
		return -1;
	if (n == 0) {
		free(t);
		return 0;
	}
	struct ss_params sp;
	ss_params_of_step(c->st, c->size, suite_param(c->p, "interval")->u, &sp);
	bool iops = sp.metric == TRACE_IOPS;
	const char *unit = iops ? "IOPS" : "MB/s";
	double scale = iops ? 1 : 1e6;
	struct ss_result r;
	struct sb_err ae;
	bool ss_ok = !ss_analyze(t, n, &sp, &r, &ae);
	if (ss_ok) {
		fig(c, "", r.reached, "steady_reached");
		/* what the verdict was judged by: rule, metric, spacing,
		   window and limit */
		fig(c, "", sp.rule == SS_SNIA, "rule_snia");
		fig(c, "", sp.rule == SS_FIO_DEVIATION, "rule_fio_deviation");
		fig(c, "", sp.metric == TRACE_IOPS, "steady_metric_iops");
		fig(c, "s", r.interval_s, "steady_interval_s");
		fig(c, "s", r.window_s, "steady_window_s");
		fig(c, "%", r.limit_pct, "steady_limit_pct");
		if (sp.rule == SS_SNIA)
			fig(c, "%", sp.excursion_limit_pct, "steady_excursion_limit_pct");
		fig(c, "%", r.at.full ? r.at.criterion_pct : NAN, "steady_criterion_pct");
		fig(c, "s", r.reached ? r.seconds : NAN, "steady_s");
		fig(c, "DW", r.reached ? r.drive_writes : NAN, "steady_drive_writes");
		fig(c, unit, r.reached ? r.value / scale : NAN, "steady_%s", iops ? "iops" : "mbps");
	}
	double bytes = (double)w->totals.bytes[DIR_WRITE];
	fig(c, "GB", bytes / 1e9, "written_gb");
	fig(c, "DW", c->size ? bytes / (double)c->size : NAN, "drive_writes");
	fig(c, "s", (double)w->totals.measured_ns / 1e9, "seconds");

	struct burst_params bp;
	burst_params_default(&bp);
	bp.level_window_s *= run_scale(c);
	bp.merge_gap_s *= run_scale(c);
	struct burst_result br;
	if (!burst_analyze(t, n, sp.metric, &bp, &br, NULL, &ae)) {
		fig(c, "", (double)br.count, "bursts.count");
		fig(c, unit, br.base / scale, "bursts.base_%s", iops ? "iops" : "mbps");
		if (br.count) {
			fig(c, unit, br.height.median / scale, "bursts.height_%s", iops ? "iops" : "mbps");
			fig(c, "s", br.duration_s.median, "bursts.duration_s");
			fig(c, "GB", br.bytes.median / 1e9, "bursts.gb");
		}
		if (br.count >= 2)
			fig(c, "s", br.period_s.median, "bursts.period_s");
		/* the steady value over whole burst periods ending where the
		   steady window ends: the window's own mean is the phase of
		   the bursts it caught (one or two of a 20 s cycle in 30 s) */
		if (br.count >= 2 && ss_ok && r.reached)
			fig(c, unit, level_over_periods(t, n, sp.metric, r.index, br.period_s.median,
							r.window_s) / scale,
			    "steady_periods_%s", iops ? "iops" : "mbps");
	}
	static const double dw[] = { 0.2, 1.0, 1.5 };
	static const char *const dwl[] = { "0_2", "1_0", "1_5" };
	double at[3];
	if (c->size && !level_at_drive_writes(t, n, sp.metric, c->size, dw, 3,
						    AVG_WINDOW_S * run_scale(c), at, &ae))
		for (int i = 0; i < 3; i++)
			fig(c, unit, at[i] / scale, "avg_%s_at_dw_%s", iops ? "iops" : "mbps", dwl[i]);
	free(t);
	return 0;
}
