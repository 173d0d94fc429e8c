/*
 * Peak numbers (METHODOLOGY 3.1, CrystalDiskMark-like): per profile, one
 * chart of grouped bars, read and write of every test side by side, one
 * bar per device, in MB/s as CrystalDiskMark shows them; then the table
 * of every pass.
 *
 * The bars are the suite's figures (peak.<profile>.<test>.<dir>.mbps: the
 * best pass), as the suite stored them; the report does not pick the
 * best pass again.
 */
#include "report/report_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define MAX_PEAK 32

struct peak_key {
	char profile[32];
	char test[48];
	char dir[8];
	char key[128];		/* the figure's full key */
};

/*
 * "STEP.default.seq1m_q8t1.read.mbps" -> profile, test, dir; false for any
 * other key of the step (".iops", a purge method ...).
 */
static bool parse_key(const char *step, const char *key, struct peak_key *k)
{
	size_t n = strlen(step);
	if (strncmp(key, step, n) || key[n] != '.')
		return false;
	char rest[128];
	bufprintf(rest, sizeof(rest), "%s", key + n + 1);
	char *save = NULL, *prof = strtok_r(rest, ".", &save),
	     *test = strtok_r(NULL, ".", &save), *dir = strtok_r(NULL, ".", &save),
	     *unit = strtok_r(NULL, ".", &save);
	if (!prof || !test || !dir || !unit || strtok_r(NULL, ".", &save) ||
	    strcmp(unit, "mbps") || (strcmp(dir, "read") && strcmp(dir, "write")))
		return false;
	bufprintf(k->profile, sizeof(k->profile), "%s", prof);
	bufprintf(k->test, sizeof(k->test), "%s", test);
	bufprintf(k->dir, sizeof(k->dir), "%s", dir);
	bufprintf(k->key, sizeof(k->key), "%s", key);
	return true;
}

/* "seq1m_q8t1" -> "SEQ1M Q8T1", CrystalDiskMark's spelling. */
static void test_label(const char *test, char *buf, size_t len)
{
	size_t i = 0;
	for (; test[i] && i + 1 < len; i++)
		buf[i] = test[i] == '_' ? ' '
			: (test[i] >= 'a' && test[i] <= 'z')
			? (char)(test[i] - 'a' + 'A') : test[i];
	buf[i] = '\0';
}

static size_t peak_keys(const struct rpt_run *r, const char *step,
			struct peak_key *k)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nmetrics && n < MAX_PEAK; i++)
		if (parse_key(step, r->metrics[i].key, &k[n]))
			n++;
	return n;
}

static int profile_chart(struct rctx *x, const char *step, const char *prof,
			 const struct peak_key *k, size_t nk)
{
	struct chart c;
	char name[96], what[64], title[192], ylab[64];
	bufprintf(what, sizeof(what), "%s", prof);
	chart_name(x, name, sizeof(name), step, what);
	bufprintf(title, sizeof(title), "Peak numbers, %s profile: best pass "
		  "of each test, read and write", prof);
	chart_init(&c, name, title, CHART_BARS);
	chart_axis_set(&c.x, "Test", false);
	bufprintf(ylab, sizeof(ylab), "Bandwidth (%s)", x->bw_unit);
	chart_axis_set(&c.y, ylab, false);
	int rc = 0;
	for (size_t r = 0; r < x->nruns && !rc; r++) {
		struct chart_series *s = chart_add_series(&c, x->runs[r].label,
							  x->e);
		if (!s)
			rc = -1;
		for (size_t i = 0; s && i < nk && !rc; i++) {
			if (strcmp(k[i].profile, prof))
				continue;
			const struct rpt_metric *m = rpt_metric(&x->runs[r],
								k[i].key);
			char cat[96], tl[48];
			test_label(k[i].test, tl, sizeof(tl));
			bufprintf(cat, sizeof(cat), "%s %s", tl, k[i].dir);
			/* A device without the test keeps its slot empty. */
			rc = series_add(s, (double)i,
					m ? m->value * 1e6 / x->bw_div : NAN,
					cat, x->e);
		}
	}
	if (!rc)
		rc = rpt_chart(x, &c);
	chart_free(&c);
	return rc;
}

/*
 * Where a test first ran among the step's workloads ("prof=default
 * test=SEQ1M-Q8T1 dir=write pass=1"): the suite runs the tests in
 * CrystalDiskMark's order, which the figures' keys do not keep.
 */
static size_t first_run(const struct peak_key *k,
			const struct rpt_workload *const *wl, size_t n)
{
	char prof[48], test[64];
	bufprintf(prof, sizeof(prof), "prof=%s ", k->profile);
	test_label(k->test, test, sizeof(test));
	for (char *p = test; *p; p++)
		if (*p == ' ')
			*p = '-';
	for (size_t i = 0; i < n; i++) {
		const char *t = strstr(wl[i]->name, "test=");
		if (strstr(wl[i]->name, prof) && t &&
		    !strncasecmp(t + 5, test, strlen(test)) &&
		    (t[5 + strlen(test)] == ' ' || !t[5 + strlen(test)]))
			return i;
	}
	return n;
}

/* The suite's order of tests, read before write within a test (as
   CrystalDiskMark lists them). */
static void sort_keys(struct peak_key *k, size_t nk,
		      const struct rpt_workload *const *wl, size_t n)
{
	size_t rank[MAX_PEAK];
	for (size_t i = 0; i < nk; i++)
		rank[i] = 2 * first_run(&k[i], wl, n) +
			  (strcmp(k[i].dir, "read") != 0);
	for (size_t i = 1; i < nk; i++) {
		struct peak_key t = k[i];
		size_t r = rank[i], j = i;
		for (; j > 0 && rank[j - 1] > r; j--) {
			k[j] = k[j - 1];
			rank[j] = rank[j - 1];
		}
		k[j] = t;
		rank[j] = r;
	}
}

int sec_peak(struct rctx *x, const char *step)
{
	const struct rpt_workload *wl[256];
	size_t n = step_workloads(&x->runs[0], step, wl, 256);
	if (!n) {
		page_para(x->pg.body, "No peak workload was stored.");
		return 0;
	}
	struct peak_key k[MAX_PEAK];
	size_t nk = peak_keys(&x->runs[0], step, k);
	sort_keys(k, nk, wl, n);
	if (nk) {
		const struct peak_key *hr = NULL, *hw = NULL;
		double vr = 0, vw = 0;
		for (size_t i = 0; i < nk; i++) {
			double v = rpt_metric(&x->runs[0], k[i].key)->value;
			if (!strcmp(k[i].dir, "read") && v > vr) {
				vr = v;
				hr = &k[i];
			} else if (!strcmp(k[i].dir, "write") && v > vw) {
				vw = v;
				hw = &k[i];
			}
		}
		char b1[48], b2[48], t1[48], t2[48];
		if (hr)
			test_label(hr->test, t1, sizeof(t1));
		if (hw)
			test_label(hw->test, t2, sizeof(t2));
		headline(x, step, "Highest read %s (%s), highest write %s (%s).",
			 fmt_rate(x, vr * 1e6, b1, 48), hr ? t1 : "-",
			 fmt_rate(x, vw * 1e6, b2, 48), hw ? t2 : "-");
	} else {
		page_para(x->pg.body, "The run stored no peak figures "
			  "(%s.PROFILE.TEST.DIR.mbps); only its passes follow.",
			  step);
	}
	for (size_t i = 0; i < nk; i++) {
		size_t j = 0;
		while (j < i && strcmp(k[j].profile, k[i].profile))
			j++;
		if (j == i && profile_chart(x, step, k[i].profile, k, nk))
			return -1;
	}
	workload_table(x, wl, n, "Peak numbers (CrystalDiskMark-like): "
		       "every pass");
	return 0;
}
