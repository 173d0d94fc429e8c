/*
 * Peak numbers (METHODOLOGY §3.1), CrystalDiskMark-like: each test writes,
 * then reads, the region at the start of the drive `passes` times for
 * `pass_time` each; the best pass is the figure.  Writing first means the
 * reads find mapped data, as CrystalDiskMark's test file guarantees.
 */
#include <stdio.h>
#include <string.h>

#include "suite/step.h"

struct cdm_test {
	const char *name;
	enum access_pattern pattern;
	uint32_t bs, qd, jobs;
};

static const struct cdm_test default_tests[] = {
	{ "SEQ1M-Q8T1", PATTERN_SEQ, 1u << 20, 8, 1 },
	{ "SEQ1M-Q1T1", PATTERN_SEQ, 1u << 20, 1, 1 },
	{ "RND4K-Q32T1", PATTERN_RAND, 4096, 32, 1 },
	{ "RND4K-Q1T1", PATTERN_RAND, 4096, 1, 1 },
};

static const struct cdm_test nvme_tests[] = {
	{ "SEQ1M-Q8T1", PATTERN_SEQ, 1u << 20, 8, 1 },
	{ "SEQ128K-Q32T1", PATTERN_SEQ, 128u << 10, 32, 1 },
	{ "RND4K-Q32T16", PATTERN_RAND, 4096, 32, 16 },
	{ "RND4K-Q1T1", PATTERN_RAND, 4096, 1, 1 },
};

int step_run_peak(struct step_ctx *c, struct sb_err *e)
{
	const struct param_value *profiles = step_param(c->step, "profiles");
	uint64_t region = step_u64(c->step, "region");
	uint64_t passes = step_u64(c->step, "passes");
	c->units_total = (double)profiles->n * 4 * 2 * (double)passes;
	char list[sizeof profiles->s];
	snprintf(list, sizeof list, "%s", profiles->s);
	char *save = NULL;
	for (char *prof = strtok_r(list, ",", &save); prof;
	     prof = strtok_r(NULL, ",", &save)) {
		const struct cdm_test *t = strcmp(prof, "nvme") ? default_tests : nvme_tests;
		for (int i = 0; i < 4; i++) {
			if (t[i].bs % c->lb || t[i].bs > region)
				continue;
			for (int rd = 0; rd < 2; rd++)
				for (uint64_t k = 1; k <= passes; k++) {
					struct workload w;
					step_workload(c, &w, "prof=%s test=%s dir=%s pass=%llu",
						      prof, t[i].name, rd ? "read" : "write",
						      (unsigned long long)k);
					w.pattern = t[i].pattern;
					w.bs = t[i].bs;
					w.qd = t[i].qd;
					w.jobs = t[i].jobs;
					w.read_pct = rd ? 100 : 0;
					w.span_len = region;
					w.stop_time_ns = step_u64(c->step, "pass_time");
					if (step_run1(c, &w, e))
						return -1;
					if (c->stopped)
						return 0;
				}
		}
	}
	return 0;
}
