/*
 * Preconditioning (METHODOLOGY 3.4 and 4.1): every 100 ms sample as a
 * scatter, IOPS (RND) or bandwidth (SEQ) against time and against drive
 * writes, and latency against time.  Marker opacity and the clipping of
 * time and latency axes are report options (the reviewer clips x to
 * 2500 s and latency to 50 ms).  The steady-state verdict is the suite's
 * and is quoted from its findings when stored.
 */
#include "analysis/trace.h"
#include "report/report_int.h"
#include "report/timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int sec_precond(struct rctx *x, const char *step)
{
	const struct rpt_workload *wl[256];
	size_t n = step_workloads(&x->runs[0], step, wl, 256);
	if (!n) {
		page_para(x->pg.body, "No preconditioning workload was stored.");
		return 0;
	}
	double written = 0, secs = 0;
	for (size_t i = 0; i < n; i++) {
		written += (double)wl[i]->bytes[1];
		secs += wl[i]->measured_s;
	}
	char b[48], dw[64] = "";
	if (x->runs[0].capacity)
		bufprintf(dw, sizeof(dw), " (%.2f drive writes)",
			 written / (double)x->runs[0].capacity);
	const struct rpt_workload *last = wl[n - 1];
	bool iops = strcmp(last->spec.pattern, "seq") != 0;
	char endv[48];
	size_t ns = 0;
	double *v = sample_values(last, iops, &ns);
	double tailmean = NAN;
	if (v && ns) {
		/* The last 30 s of samples: where steady state is judged. */
		size_t from = ns > 300 ? ns - 300 : 0;
		tailmean = stat_mean(v + from, ns - from);
	}
	free(v);
	if (iops)
		fmt_iops(tailmean, endv, sizeof(endv));
	else
		fmt_rate(x, tailmean, endv, sizeof(endv));
	char key[160], ss[160] = "";
	bufprintf(key, sizeof(key), "%s.stopped_at_steady_state", step);
	const struct rpt_metric *m = rpt_metric(&x->runs[0], key);
	if (m)
		bufprintf(ss, sizeof(ss), " Steady state %s (suite).",
			 m->value > 0 ? "reached" : "not reached");
	headline(x, step, "Wrote %s%s in %.0f s; the last 30 s of samples "
		 "average %s.%s", fmt_size(x, written, b, sizeof(b)), dw, secs,
		 endv, ss);

	for (size_t i = 0; i < n; i++) {
		const struct rpt_workload *per[RPT_MAX_RUNS];
		match_runs(x, wl[i], per);
		bool rnd = strcmp(wl[i]->spec.pattern, "seq") != 0;
		char what[96], title[192], who[160];
		/* "RND preconditioning", or with the workload when several. */
		if (n == 1)
			bufprintf(who, sizeof(who), "%s", step_title(step));
		else
			bufprintf(who, sizeof(who), "%s, %s", step_title(step),
				  wl[i]->name);
		struct tl_spec t = { step, what, title, NULL,
				     rnd ? TL_IOPS : TL_BW, TL_TIME,
				     CHART_SCATTER, false };
		bufprintf(what, sizeof(what), "%s-time", wl[i]->name);
		bufprintf(title, sizeof(title), "%s: %s per 100 ms sample vs time",
			 who, rnd ? "IOPS" : "bandwidth");
		if (timeline_chart(x, &t, per, x->e))
			return -1;
		bufprintf(what, sizeof(what), "%s-dw", wl[i]->name);
		bufprintf(title, sizeof(title), "%s: %s per 100 ms sample vs "
			 "drive writes", who, rnd ? "IOPS" : "bandwidth");
		t.axis = TL_DRIVE_WRITES;
		if (timeline_chart(x, &t, per, x->e))
			return -1;
		bufprintf(what, sizeof(what), "%s-lat-time", wl[i]->name);
		bufprintf(title, sizeof(title), "%s: mean latency per 100 ms "
			 "sample vs time", who);
		t.axis = TL_TIME;
		t.col = TL_LAT_MEAN;
		if (timeline_chart(x, &t, per, x->e))
			return -1;
		bufprintf(what, sizeof(what), "%s-lat-dw", wl[i]->name);
		bufprintf(title, sizeof(title), "%s: mean latency per 100 ms "
			 "sample vs drive writes", who);
		t.axis = TL_DRIVE_WRITES;
		if (timeline_chart(x, &t, per, x->e))
			return -1;
	}
	return 0;
}
