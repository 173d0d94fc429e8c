/*
 * Where a simulated drive's figures come from (docs/report.md): per step,
 * how its workloads' I/Os were produced and how many of those reported
 * were simulated one by one; the rest were extrapolated (a bulk stream
 * past its calibration window, a sampled stream's repeated slices), so a
 * step whose share is below 100 % has figures that no single simulated
 * I/O stands behind.  A device's run measures every I/O: nothing to say.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report_int.h"

/* One step of one run, its workloads summed. */
struct step_from {
	unsigned ways;		/* bit per enum io_way seen */
	size_t nwl, unknown;	/* workloads; of them, recorded before */
	uint64_t reported, simulated;	/* of the sim_known ones */
	bool any_sim;
};

static void step_sum(const struct rpt_run *run, const char *step, struct step_from *s)
{
	memset(s, 0, sizeof *s);
	for (size_t i = 0; i < run->nwl; i++) {
		const struct rpt_workload *w = &run->wl[i];
		if (strcmp(w->step, step))
			continue;
		s->nwl++;
		s->ways |= 1u << w->way;
		if (w->way == IO_WAY_UNKNOWN)
			s->unknown++;
		if (!w->sim_known)
			continue;
		s->any_sim = true;
		s->reported += w->ios_reported;
		s->simulated += w->ios_simulated;
	}
}

/* A simulated drive's run (its target a sim: profile): the only one
   whose unrecorded provenance is worth a word. */
static bool simulated_target(const struct rpt_run *run)
{
	return !strncmp(run->target, "sim:", 4);
}

static bool worth_a_row(const struct rpt_run *run, const struct step_from *s)
{
	return s->any_sim || (s->unknown && simulated_target(run));
}

/* "bulk, exact": the ways seen, in enum order. */
static void ways_text(unsigned ways, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int w = IO_WAY_ENGINE; w <= IO_WAY_SAMPLED; w++)
		if (ways & (1u << w)) {
			size_t n = strlen(buf);
			snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
				 io_way_name((enum io_way)w));
		}
	if (ways & 1u) {
		size_t n = strlen(buf);
		snprintf(buf + n, len - n, "%snot recorded", n ? ", " : "");
	}
}

/* The steps of a run, a plain run's workloads ("") first. */
static size_t step_names(const struct rpt_run *run, const char **names, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < run->nwl && n < cap; i++)
		if (!run->wl[i].step[0]) {
			names[n++] = "";
			break;
		}
	for (size_t i = 0; i < run->nsteps && n < cap; i++)
		names[n++] = run->steps[i].name;
	return n;
}

#define MAX_STEPS 256

static void rows_of(FILE *f, const struct rpt_run *run)
{
	const char *names[MAX_STEPS];
	size_t n = step_names(run, names, MAX_STEPS);
	for (size_t k = 0; k < n; k++) {
		struct step_from s;
		step_sum(run, names[k], &s);
		if (!worth_a_row(run, &s))
			continue;
		char ways[96];
		ways_text(s.ways, ways, sizeof ways);
		page_tr(f);
		page_td(f, "%s", run->label);
		page_td(f, "%s", names[k][0] ? step_title(names[k]) : "run");
		page_td(f, "%s", ways);
		if (!s.any_sim) {
			page_td(f, "%s", "not recorded");
			page_td(f, "%s", "-");
			page_td(f, "%s", "-");
			page_td(f, "%s", "-");
			continue;
		}
		page_td_class(f, "num", "%llu", (unsigned long long)s.reported);
		page_td_class(f, "num", "%llu", (unsigned long long)s.simulated);
		page_td_num(f, s.reported ? 100.0 * (double)s.simulated / (double)s.reported : NAN,
			    2, "no I/O");
		page_td_class(f, "num", "%llu", (unsigned long long)
			      (s.reported > s.simulated ? s.reported - s.simulated : 0));
	}
}

/* The DUT's steps whose figures are partly extrapolated, in a sentence. */
static void extrapolated_sentence(FILE *f, const struct rpt_run *run)
{
	const char *names[MAX_STEPS];
	size_t n = step_names(run, names, MAX_STEPS), said = 0;
	bool sim = false;
	for (size_t k = 0; k < n; k++) {
		struct step_from s;
		step_sum(run, names[k], &s);
		sim |= s.any_sim;
		if (!s.any_sim || s.simulated >= s.reported)
			continue;
		char share[32];
		if (!said++) {
			fputs("<p><b>", f);
			page_esc(f, run->label);
			fputs("</b>: extrapolated in part, with the share of their I/Os "
			      "simulated one by one: ", f);
		} else {
			fputs("; ", f);
		}
		page_esc(f, names[k][0] ? step_title(names[k]) : "the run");
		fprintf(f, " (%s %%)", page_num(100.0 * (double)s.simulated /
						(double)s.reported, 2, share, sizeof share));
	}
	if (said) {
		fputs(".</p>\n", f);
	} else if (sim) {
		fputs("<p><b>", f);
		page_esc(f, run->label);
		fputs("</b>: every figure comes from I/Os simulated one by one.</p>\n", f);
	}
}

void sec_provenance(struct rctx *x)
{
	bool any = false;
	for (size_t r = 0; r < x->nruns && !any; r++) {
		const struct rpt_run *run = &x->runs[r];
		const char *names[MAX_STEPS];
		size_t n = step_names(run, names, MAX_STEPS);
		for (size_t k = 0; k < n && !any; k++) {
			struct step_from s;
			step_sum(run, names[k], &s);
			any = worth_a_row(run, &s);
		}
	}
	if (!any)
		return;
	FILE *f = x->pg.top;
	fputs("<div class=\"note provenance\"><h3>Where the simulated figures come "
	      "from</h3>\n<p>A simulated drive's I/Os are produced in one of four "
	      "ways: <i>engine</i> and <i>exact</i> simulate every I/O; <i>bulk</i> "
	      "simulates a calibration window of real I/Os (a write stream: none) "
	      "and extrapolates the rest from it or integrates it as rates; "
	      "<i>sampled</i> simulates the reads in recurring windows and repeats "
	      "them between, every write and trim beside them simulated.  Where "
	      "the share simulated is below 100 %, rates and latencies past what "
	      "the simulated I/Os show (the far tail above all) are the "
	      "extrapolation's, not a measurement's.</p>\n", f);
	if (x->runs[0].nwl)
		extrapolated_sentence(f, &x->runs[0]);
	page_table_begin(f, &x->pg, "How each step's I/Os were produced", "", "Device",
			 "Step", "Ways", "I/Os reported", "Simulated one by one",
			 "Share simulated (%)", "Extrapolated", (const char *)NULL);
	for (size_t r = 0; r < x->nruns; r++)
		rows_of(f, &x->runs[r]);
	page_table_end(f);
	fputs("</div>\n", f);
}
