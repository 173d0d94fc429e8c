/*
 * Putting a report together: one section per step of the DUT's run, in the
 * order it ran, each drawn by the section for its kind (sec_*.c), then the
 * summary on top (headlines, figures, devices) and the analysis' findings
 * and the datasheet check at the end.
 */
#include "report/report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/report_int.h"

void report_opts_defaults(struct report_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->opacity = 0.35;
	o->tool_version = "";
}

struct section {
	const char *kind;
	int (*draw)(struct rctx *x, const char *step);
};

static const struct section sections[] = {
	{ "fill", sec_fill },
	{ "sweep", sec_sweep },
	{ "tail", sec_tail },
	{ "rw_ratio", sec_rwratio },
	{ "reclaim", sec_reclaim },
	{ "ss_precond", sec_precond },
	{ "cssd_precond", sec_precond },
	{ "active_range", sec_active_range },
	{ "sync_write", sec_sync },
	{ "boot", sec_boot },
	{ "peak", sec_peak },
	{ "load_sweep", sec_load },
	{ "purge", sec_purge },
};

static int draw_step(struct rctx *x, const char *step)
{
	const char *kind = step_kind(&x->runs[0], step);
	page_h2(&x->pg, step[0] ? step : "workloads", step_title(step));
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		if (!strcmp(sections[i].kind, kind))
			return sections[i].draw(x, step);
	return sec_generic(x, step);
}

static int make_dir(const char *dir, struct sb_err *e)
{
	if (mkdir(dir, 0755) && errno != EEXIST)
		return sb_errno(e, errno, "cannot create %s", dir);
	struct stat st;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return sb_errf(e, "%s is not a directory", dir);
	return 0;
}

static void nav(struct rctx *x)
{
	const struct rpt_run *dut = &x->runs[0];
	FILE *f = x->pg.top;
	fputs("<nav><a href=\"#summary\">Summary</a>", f);
	if (dut->nsteps)
		fputs("<a href=\"#figures\">Figures</a>", f);
	fputs("<a href=\"#devices\">Devices</a>", f);
	for (size_t i = 0; i < dut->nsteps; i++) {
		fputs("<a href=\"#", f);
		page_esc(f, dut->steps[i].name);
		fputs("\">", f);
		page_esc(f, step_title(dut->steps[i].name));
		fputs("</a>", f);
	}
	fputs("</nav>\n", f);
}

static bool has_plain_workloads(const struct rpt_run *r)
{
	for (size_t i = 0; i < r->nwl; i++)
		if (!r->wl[i].step[0])
			return true;
	return false;
}

static int build(struct rctx *x)
{
	const struct rpt_run *dut = &x->runs[0];
	if (has_plain_workloads(dut) && draw_step(x, ""))
		return -1;
	for (size_t i = 0; i < dut->nsteps; i++)
		if (draw_step(x, dut->steps[i].name))
			return sb_err_wrap(x->e, "step %s", dut->steps[i].name);
	sec_metrics(x);
	if (x->o->datasheet && sec_datasheet(x, x->o->datasheet, x->e))
		return -1;

	fflush(x->heads);
	nav(x);
	fputs("<h2 id=\"summary\">Summary</h2>\n", x->pg.top);
	sec_scale_notes(x);
	sec_provenance(x);
	fputs("<ul>\n", x->pg.top);
	fwrite(x->heads_buf, 1, x->heads_len, x->pg.top);
	fputs("</ul>\n", x->pg.top);
	/* The reviews' figures are a suite run's; a plain run's are in its
	   section. */
	if (dut->nsteps)
		figures_table(x);
	sec_devices(x);
	return sec_device_calc(x, x->e);
}

int report_build(const struct rpt_run *runs, size_t nruns,
		 const struct report_opts *o, struct report_stats *st,
		 struct sb_err *e)
{
	if (nruns == 0)
		return sb_errf(e, "no run to report");
	if (nruns > RPT_MAX_RUNS)
		return sb_errf(e, "%zu runs: a report compares at most %d",
			       nruns, RPT_MAX_RUNS);
	if (make_dir(o->out_dir, e))
		return -1;
	struct rctx x = {
		.runs = runs, .nruns = nruns, .o = o,
		.bw_div = o->mib ? 1048576.0 : 1e6,
		.bw_unit = o->mib ? "MiB/s" : "MB/s",
		.size_div = o->mib ? 1073741824.0 : 1e9,
		.size_unit = o->mib ? "GiB" : "GB",
		.e = e,
	};
	if (page_open(&x.pg, o->out_dir, e))
		return -1;
	x.heads = open_memstream(&x.heads_buf, &x.heads_len);
	int rc = x.heads ? build(&x) : sb_errno(e, errno, "headline buffer");
	if (!rc) {
		char title[256], sub[1200];
		bufprintf(title, sizeof(title), "ssdbench report: %s",
			 runs[0].label);
		bufprintf(sub, sizeof(sub), "Run %lld of %s, %s to %s%s%s. "
			 "Rates in %s (%s). Report by ssdbench %s.",
			 (long long)runs[0].id,
			 runs[0].target, runs[0].started_at,
			 runs[0].finished_at,
			 nruns > 1 ? "; compared with " : "",
			 nruns > 1 ? "the devices below" : "",
			 x.bw_unit, o->mib ? "2^20 bytes per second"
					   : "10^6 bytes per second",
			 o->tool_version && *o->tool_version ? o->tool_version
							     : "(unknown version)");
		rc = page_finish(&x.pg, title, sub, e);
	}
	if (st && !rc) {
		st->charts = x.pg.ncharts;
		st->tables = x.pg.ntables;
	}
	if (x.heads)
		fclose(x.heads);
	free(x.heads_buf);
	page_close(&x.pg);
	return rc;
}
