/*
 * How long the analyses take on a 1-million-sample trace (27.8 hours of
 * 100 ms samples: a long preconditioning run).  Not a test: it prints the
 * times, for comparison across changes.  Built by bench/analysis_speed.sh.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <time.h>

#include "analysis/bursts.h"
#include "analysis/consistency.h"
#include "analysis/fill.h"
#include "analysis/steady.h"
#include "synth.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#define TIMED(label, call)                                                 \
	do {                                                               \
		double t0 = now_s();                                       \
		if (call) {                                                \
			fprintf(stderr, "%s: %s\n", label, e.msg);         \
			return 1;                                          \
		}                                                          \
		printf("%-28s %8.3f s\n", label, now_s() - t0);            \
	} while (0)

int main(void)
{
	/* cache, a direct stage, then folding levels with bursts on top */
	struct synth s = { 0 };
	synth_add(&s, 14.1e9, 4800);
	synth_add(&s, 3.94e9, 12000);
	while (s.nsegs < 80000) {
		synth_add(&s, 2.12e9, 1.8);
		synth_add(&s, 1.33e9, 1.6);
		synth_add(&s, 0.684e9, 0.6);
		synth_add(&s, 3.98e9, 0.6);
	}
	size_t n;
	struct trace_pt *t = synth_trace(&s, 0.1, 0.02, 0.04, 0.8, 1, 0, &n);
	if (n > 1000000)
		n = 1000000;
	printf("trace: %zu samples\n", n);
	struct sb_err e;
	double t0 = now_s();
	struct fill_params fp;
	fill_params_default(&fp);
	struct fill_result fr;
	TIMED("fill (cache, stages, levels)", fill_analyze(t, n, &fp, &fr, &e));
	struct ss_params sp;
	ss_params_default(&sp);
	struct ss_result sr;
	TIMED("steady state, fio slope", ss_analyze(t, n, &sp, &sr, &e));
	sp.rule = SS_SNIA;
	TIMED("steady state, SNIA", ss_analyze(t, n, &sp, &sr, &e));
	struct consistency_result cr;
	TIMED("consistency", consistency_analyze(t, n, TRACE_BW, 0, &cr, &e));
	struct burst_params bp;
	burst_params_default(&bp);
	struct burst_result br;
	TIMED("bursts", burst_analyze(t, n, TRACE_BW, &bp, &br, NULL, &e));
	printf("%-28s %8.3f s\n", "all", now_s() - t0);
	printf("(cache %.0f GB at %.0f MB/s, %zu stages, %zu levels)\n",
	       fr.cache_bytes / 1e9, fr.cache_speed / 1e6, fr.nstages, fr.nlevels);
	free(t);
	free(s.segs);
	return 0;
}
