/*
 * Findings: the figures of a suite run, step by step, computed from what
 * the store holds (samples, histograms, totals) with the analysis library,
 * under stable keys such as "fill.pass1.slc_cache_gb" (docs/suite.md lists
 * every key).  Nothing here measures; a run can be analysed again on
 * another machine and gives the same figures.
 */
#ifndef SSDBENCH_FINDINGS_FINDINGS_H
#define SSDBENCH_FINDINGS_FINDINGS_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/json.h"
#include "store/store.h"
#include "suite/plan.h"

struct figure {
	char key[128];
	double value;		/* NAN: could not be computed */
	char unit[16];
	int64_t step_id;
};

struct figures {
	struct figure *v;
	size_t n, cap;
};

void figures_free(struct figures *f);
/* Add one; the key is printf-formatted.  Returns -1 only out of memory. */
int figures_add(struct figures *f, int64_t step_id, const char *unit,
		double value, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
const struct figure *figures_find(const struct figures *f, const char *key);

/*
 * The figures of one finished step (its row in the store) of run_id, whose
 * plan is `p` and target `size` bytes.
 */
int findings_step(struct store *s, int64_t run_id, const struct plan *p,
		  uint64_t size, const struct step_row *row,
		  struct figures *out, struct sb_err *e);

/* findings_step and findings_save in one: the suite's step_figures hook. */
int findings_store_step(struct store *s, int64_t run_id, const struct plan *p,
			uint64_t size, const struct step_row *row,
			struct sb_err *e);

/* Every "done" step of a suite run (the last row of each step). */
int findings_run(struct store *s, int64_t run_id, struct figures *out,
		 struct sb_err *e);

/* Put the figures in the store as metrics (replacing earlier ones). */
int findings_save(struct store *s, int64_t run_id, const struct figures *f,
		  struct sb_err *e);

/* {"key": value, ...} as the member `key` (NULL at the top level). */
void findings_json(struct json_writer *w, const char *key,
		   const struct figures *f);

#endif
