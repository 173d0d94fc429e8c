#include "suite/boot_search.h"

#include <string.h>

int boot_search_parse(const char *s)
{
	if (!strcmp(s, "bootbench"))
		return BOOT_SEARCH_BOOTBENCH;
	if (!strcmp(s, "confirm"))
		return BOOT_SEARCH_CONFIRM;
	return -1;
}

struct search {
	boot_trial_fn fn;
	void *ctx;
	struct boot_score *out;
	struct sb_err *e;
};

static int trial(struct search *s, uint32_t n, const char *phase, unsigned k,
		 uint64_t ns, struct boot_trial *t)
{
	*t = (struct boot_trial){ 0 };
	s->out->trials++;
	return s->fn(s->ctx, n, phase, k, ns, t, s->e);
}

/* Doubling, then bisection; leaves the bounds and the last trial. */
static int double_and_bisect(struct search *s, const struct boot_search_params *p,
			     uint32_t *low, uint32_t *high, uint32_t *last_n,
			     struct boot_trial *t)
{
	uint32_t n = p->n_start;
	*low = *high = n;
	int rc = trial(s, n, "double", 1, p->double_ns, t);
	while (rc == 0 && t->pass && *high < p->n_max) {
		*low = *high;
		*high = *high > p->n_max / 2 ? p->n_max : *high * 2;
		n = *high;
		rc = trial(s, n, "double", 1, p->double_ns, t);
	}
	if (rc == 0 && p->search == BOOT_SEARCH_CONFIRM) {
		if (t->pass)		/* n_max passed: nothing to bisect */
			*low = *high;
		else if (*low == *high)	/* n_start failed: bisect below it */
			*low = 0;
	}
	while (rc == 0 && *high - *low > 1) {
		n = *low + (*high - *low) / 2;
		rc = trial(s, n, "bisect", 1, p->bisect_ns, t);
		if (t->pass)
			*low = n;
		else
			*high = n;
	}
	*last_n = n;
	return rc;
}

/* run.py: one reader fewer at a time, single runs, while the last failed. */
static int step_down_bootbench(struct search *s, const struct boot_search_params *p,
			       uint32_t n, struct boot_trial *t)
{
	int rc = 0;
	while (rc == 0 && !t->pass) {
		if (--n == 0)
			return 0;
		rc = trial(s, n, "confirm", 1, p->confirm_ns, t);
	}
	if (rc == 0) {
		s->out->met = true;
		s->out->readers = n;
		s->out->iops = t->iops;
	}
	return rc;
}

/* From the best passing N down, confirm_runs runs each until all pass. */
static int step_down_confirm(struct search *s, const struct boot_search_params *p,
			     uint32_t low)
{
	for (uint32_t n = low; n >= 1; n--) {
		double min_iops = 0;
		bool all = true;
		for (unsigned k = 1; k <= p->confirm_runs && all; k++) {
			struct boot_trial t;
			int rc = trial(s, n, "confirm", k, p->confirm_ns, &t);
			if (rc)
				return rc;
			all = t.pass;
			if (k == 1 || t.iops < min_iops)
				min_iops = t.iops;
		}
		if (all) {
			s->out->met = true;
			s->out->readers = n;
			s->out->iops = min_iops;
			return 0;
		}
	}
	return 0;
}

int boot_search_run(const struct boot_search_params *p, boot_trial_fn fn,
		    void *ctx, struct boot_score *out, struct sb_err *e)
{
	memset(out, 0, sizeof *out);
	if (p->n_start < 1 || p->n_start > p->n_max)
		return sb_errf(e, "boot: n_start %u is not in 1..n_max (%u)",
			       p->n_start, p->n_max);
	struct search s = { fn, ctx, out, e };
	uint32_t low, high, last;
	struct boot_trial t;
	int rc = double_and_bisect(&s, p, &low, &high, &last, &t);
	if (rc)
		return rc;
	if (p->search == BOOT_SEARCH_BOOTBENCH) {
		if (t.pass) {
			out->met = true;
			out->readers = last;
			out->iops = t.iops;
			return 0;
		}
		return step_down_bootbench(&s, p, last, &t);
	}
	return step_down_confirm(&s, p, low);
}
