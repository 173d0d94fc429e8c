/*
 * What the report's sections share: the context they write into, the
 * figures they collect for the summary, units, and small helpers over the
 * model.  One section per kind of methodology step lives in sec_*.c.
 */
#ifndef SSDBENCH_REPORT_REPORT_INT_H
#define SSDBENCH_REPORT_REPORT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/chart.h"
#include "report/model.h"
#include "report/page.h"
#include "report/report.h"

#define RPT_MAX_RUNS 16

struct rctx {
	const struct rpt_run *runs;	/* runs[0] is the DUT */
	size_t nruns;
	const struct report_opts *o;
	struct page pg;
	double bw_div;		/* bytes/s per displayed rate unit */
	const char *bw_unit;	/* "MB/s" or "MiB/s" */
	double size_div;	/* bytes per displayed size unit */
	const char *size_unit;	/* "GB" or "GiB" */
	FILE *heads;		/* headline list items */
	char *heads_buf;
	size_t heads_len;
	int nchart;		/* for unique chart names */
	struct sb_err *e;
};

/* The same workload (step and name) in every run; NULL where missing. */
/* Run r's workload that matches the DUT's w (w itself for r = 0), or NULL. */
const struct rpt_workload *match_run(const struct rctx *x, size_t r,
				     const struct rpt_workload *w);
void match_runs(const struct rctx *x, const struct rpt_workload *w,
		const struct rpt_workload *out[RPT_MAX_RUNS]);

/*
 * snprintf that returns what it actually wrote (never more than len - 1),
 * so `used += bufprintf(buf + used, len - used, ...)` stays in bounds.
 * Names and labels from the store are bounded but long; a cut title is
 * fine, an overflow is not.
 */
size_t bufprintf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The kind of a step: as its parameters say, else from its name
   ("seq_sweeps" -> "sweep"). */
const char *step_kind(const struct rpt_run *r, const char *step);
/* A readable title for a step. */
const char *step_title(const char *step);

/* Formatting for text and tables. */
const char *fmt_rate(const struct rctx *x, double bytes_per_s, char *buf,
		     size_t len);
const char *fmt_iops(double iops, char *buf, size_t len);
/* How long the samples the charts draw are: "100 ms" when every device
   sampled so, "10 ms" for a miniature's, "10 ms (DUT), 100 ms" when the
   devices differ (the DUT's first). */
const char *sample_words(const struct rctx *x, char *buf, size_t len);
/* The same for one run alone ("10 ms"). */
const char *run_sample_words(const struct rpt_run *r, char *buf, size_t len);
const char *fmt_lat(double us, char *buf, size_t len);
const char *fmt_size(const struct rctx *x, double bytes, char *buf,
		     size_t len);
/* "SEQ 128 KiB read", "RND 4 KiB 70:30" from a spec. */
const char *spec_label(const struct rpt_spec *s, char *buf, size_t len);

/* The workloads of `step` in run r, in order; returns how many (<= max). */
size_t step_workloads(const struct rpt_run *r, const char *step,
		      const struct rpt_workload **out, size_t max);

/* Per-sample rates. */
double pt_bw(const struct rpt_point *p);
double pt_iops(const struct rpt_point *p);

/* Measured (non-ramp) per-sample values of a workload: bw or IOPS. */
double *sample_values(const struct rpt_workload *w, bool iops, size_t *n);
/* The points that are samples, [*first, *end) of w->pts: the analysis'
   trace_whole (a run's cut-short first or last interval is not one). */
void whole_points(const struct rpt_workload *w, size_t *first, size_t *end);

/* The step's headline: a paragraph in the body and an item on top. */
void headline(struct rctx *x, const char *step, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A unique chart file name: "STEP-WHAT". */
void chart_name(struct rctx *x, char *buf, size_t len, const char *step,
		const char *what);

/* Sections: each draws one step of the DUT with the comparisons. */
int sec_generic(struct rctx *x, const char *step);
int sec_fill(struct rctx *x, const char *step);
int sec_sweep(struct rctx *x, const char *step);
int sec_tail(struct rctx *x, const char *step);
int sec_rwratio(struct rctx *x, const char *step);
int sec_reclaim(struct rctx *x, const char *step);
int sec_precond(struct rctx *x, const char *step);
int sec_active_range(struct rctx *x, const char *step);
int sec_sync(struct rctx *x, const char *step);
int sec_boot(struct rctx *x, const char *step);
int sec_peak(struct rctx *x, const char *step);
int sec_load(struct rctx *x, const char *step);

/* A table with one column per device: its caption, then the header row
   `first` and every device's label (the caller's rows follow, each begun
   with page_tr; page_table_end closes it).  `cls` may be NULL. */
void device_table_begin(struct rctx *x, FILE *f, const char *cls,
			const char *caption, const char *first);

/* Throughput and latency of workloads, one row per workload and run. */
void workload_table(struct rctx *x, const struct rpt_workload *const *wl,
		    size_t n, const char *caption);

/* Tables outside the steps. */
void sec_devices(struct rctx *x);
void sec_metrics(struct rctx *x);
/* page_chart() with the device colours, the DUT emphasised, and a note
   naming a device with no point (chart_style.c). */
int rpt_chart(struct rctx *x, struct chart *c);
/* The same; `every_device` false for a chart meant for the DUT alone
   (nothing to note about the others). */
int rpt_chart_of(struct rctx *x, struct chart *c, bool every_device);
int sec_purge(struct rctx *x, const char *step);
/* The reviews' headline figures, from the stored findings
   (sec_headline.c), and the note on what a scaled run scaled. */
void figures_table(struct rctx *x);
void sec_scale_notes(struct rctx *x);
/* Which steps' figures come from I/Os simulated one by one and which are
   extrapolated, and the share simulated (sec_provenance.c). */
void sec_provenance(struct rctx *x);
int sec_datasheet(struct rctx *x, const char *ini_path, struct sb_err *e);

/*
 * What a datasheet file says about the hardware, for the reviews' small
 * calculations (METHODOLOGY §6): NaN where it says nothing.
 */
struct drive_sheet {
	double raw_nand_gb;	/* raw_nand_gb: NAND fitted, GB (10^9 B) */
	double dram_mib;	/* dram_mib: DRAM fitted, MiB */
	double plp_capacitors;	/* plp_capacitors: how many */
	double plp_capacitor_uf;	/* plp_capacitor_uf: each, µF */
	double plp_capacitor_v;	/* plp_capacitor_v: charged to, V */
	double power_w;		/* power_w: the draw to hold up, W */
};
int datasheet_drive(const char *ini_path, struct drive_sheet *d,
		    struct sb_err *e);
/* The device summary's calculations (sec_devcalc.c), under the device
   table: the DUT from its datasheet file (if any) and facts, comparison
   devices from their facts. */
int sec_device_calc(struct rctx *x, struct sb_err *e);

/*
 * A ranking: one bar per device with v[r] (NaN = none), largest first,
 * values printed on the bars; `hline` > 0 draws a pass line there.
 */
int rank_bars(struct rctx *x, const char *step, const char *what,
	      const char *title, const char *ylabel, const double *v,
	      double hline, const char *hline_title);

/*
 * The QoS percentiles (50, 90, 99 ... 99.9999 %) and the max as table
 * cells; a percentile the I/O count cannot support (fewer than one I/O
 * beyond it) is shown as "-".
 */
#define QOS_HEADERS "p50", "p90", "p99", "p99.9", "p99.99", "p99.999", \
		    "p99.9999", "Max"
/* Returns whether a cell was marked PCT_UNSUPPORTED (pct_cell). */
bool qos_cells(FILE *f, const struct rpt_lat *l);
/* A table cell for percentile p of l: its latency, or PCT_UNSUPPORTED
   where fewer than one I/O lies beyond it (returns true then); pct_note
   explains the mark under a table that has one. */
#define PCT_UNSUPPORTED "= max"
bool pct_cell(FILE *f, const struct rpt_lat *l, double p);
void pct_note(FILE *f, bool marked);
/* Does the I/O count support percentile p: at least one I/O beyond it? */
bool qos_supported(const struct rpt_lat *l, double p);

/*
 * The nines chart of a workload: x latency 1 µs - 10 ms (log), y the
 * percentile on a nines scale, one curve per device and direction with
 * its IOPS in the legend.
 */
int nines_chart(struct rctx *x, const char *step,
		const struct rpt_workload *w, const char *title);

/*
 * QoS per QD of one sweep (workloads of one kind, ascending QD): the
 * DUT's latency at 99, 99.9, 99.99, 99.999 and 99.9999 % vs QD (log y),
 * and with comparison runs, every device's 99.99 % vs QD.  Mixed
 * workloads use the read latency, as the 2-in-1 chart does.
 */
int qos_qd_charts(struct rctx *x, const char *step, const char *label,
		  const struct rpt_workload *const *w, size_t n);

/* A nines chart series from a latency grid. */
int nines_series(struct chart *c, const char *title, const struct rpt_lat *l,
		 struct sb_err *e);

#endif
