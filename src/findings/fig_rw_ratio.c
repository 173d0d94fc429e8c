/*
 * Performance by R/W ratio (METHODOLOGY §3.6): each point's value by the
 * repetition rule over its stored runs in order (the rule the runner used
 * to decide how often to run it), the weighted values and the ranking
 * figure.
 */
#include <math.h>

#include "analysis/lowqd.h"
#include "findings/internal.h"

int fig_rw_ratio(struct fctx *c, struct sb_err *e)
{
	const struct param_value *pcts = step_param(c->st, "read_pcts");
	const struct param_value *qds = step_param(c->st, "qds");
	const struct param_value *wts = step_param(c->st, "weights");
	struct rep_rule rule = {
		.min_runs = (unsigned)step_u64(c->st, "min_runs"),
		.max_runs = (unsigned)step_u64(c->st, "max_runs"),
		.last_k = (unsigned)step_u64(c->st, "rse_window"),
		.rse_limit = step_double(c->st, "rse") / 100.0,
	};
	double values[PARAM_LIST_MAX * PARAM_LIST_MAX];
	unsigned read_pct[PARAM_LIST_MAX];
	bool complete = true;
	for (uint32_t i = 0; i < pcts->n; i++) {
		read_pct[i] = (unsigned)pcts->ulist[i];
		for (uint32_t q = 0; q < qds->n; q++) {
			struct rep_state rs;
			if (rep_init(&rs, &rule, e))
				return -1;
			for (size_t k = 0; k < c->nwl; k++) {
				uint64_t r, d;
				if (name_u64(c->wl[k].name, "read", &r) && r == pcts->ulist[i] &&
				    name_u64(c->wl[k].name, "qd", &d) && d == qds->ulist[q] &&
				    !isnan(wl_bps(&c->wl[k])))
					rep_add(&rs, wl_bps(&c->wl[k]));
			}
			double v = rep_value(&rs);
			values[i * qds->n + q] = v / 1e6;
			complete &= isfinite(v);
			fig(c, "MB/s", v / 1e6, "read%u.qd%llu.mbps", read_pct[i],
			    (unsigned long long)qds->ulist[q]);
			fig(c, "", rs.n, "read%u.qd%llu.runs", read_pct[i],
			    (unsigned long long)qds->ulist[q]);
			fig(c, "", rep_flagged(&rs), "read%u.qd%llu.flagged", read_pct[i],
			    (unsigned long long)qds->ulist[q]);
		}
	}
	if (!complete)
		return 0;
	double weighted[PARAM_LIST_MAX];
	struct sb_err ae;
	if (lowqd_weighted(values, pcts->n, qds->n, wts->dlist, weighted, &ae))
		return 0;
	for (uint32_t i = 0; i < pcts->n; i++)
		fig(c, "MB/s", weighted[i], "read%u.weighted_mbps", read_pct[i]);
	fig(c, "MB/s", lowqd_ranking(read_pct, weighted, pcts->n), "score_mbps");
	return 0;
}
