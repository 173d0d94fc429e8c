/*
 * The name a reader sees for a workload.  Steps name their workloads with
 * machine keys ("mix=70 qd=1", "prof=default test=SEQ1M-Q8T1 dir=write
 * pass=1", "idle=5000 phase=write") that the findings parse and the
 * comparison matches on; the page says the same in words: "RND 4 KiB
 * 70:30 QD1", "SEQ1M Q8T1 write, pass 1 (default profile)", "write after
 * 5 s idle".  Only a step's workload has such a name: a plain run's
 * workload carries the name its user gave (--name, a job file's section),
 * which the page shows as it is, whatever it holds ("a=b" is a name there,
 * not a setting), beside what the workload did.
 */
#include "report/report_int.h"

#include <stdlib.h>
#include <string.h>

#include "common/units.h"

/* The value of `key=` in a name of space-separated key=value words. */
static bool name_value(const char *name, const char *key, char *buf, size_t len)
{
	size_t k = strlen(key);
	for (const char *p = name; p && *p;) {
		while (*p == ' ')
			p++;
		const char *end = strchr(p, ' ');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (n > k && !strncmp(p, key, k) && p[k] == '=') {
			bufprintf(buf, len, "%.*s", (int)(n - k - 1), p + k + 1);
			return true;
		}
		p = end;
	}
	return false;
}

/* "5000" ms -> "5 s", "500" -> "0.5 s", "120000" -> "2 min". */
static void idle_words(const char *ms, char *buf, size_t len)
{
	double s = strtod(ms, NULL) / 1000;
	if (s >= 60 && (long long)s % 60 == 0)
		bufprintf(buf, len, "%g min", s / 60);
	else
		bufprintf(buf, len, "%g s", s);
}

const char *workload_label(const struct rpt_workload *w, char *buf, size_t len)
{
	/* the keys to read: none in a user's name */
	const char *n = w->step[0] ? w->name : "";
	char v1[64], v2[64], v3[64], lab[64];
	if (name_value(n, "test", v1, sizeof v1)) {
		/* Peak numbers: "SEQ1M-Q8T1" is the test's own name. */
		char *dash = strchr(v1, '-');
		if (dash)
			*dash = ' ';
		size_t used = bufprintf(buf, len, "%s", v1);
		if (name_value(n, "dir", v2, sizeof v2))
			used += bufprintf(buf + used, len - used, " %s", v2);
		if (name_value(n, "pass", v2, sizeof v2))
			used += bufprintf(buf + used, len - used, ", pass %s", v2);
		if (name_value(n, "prof", v3, sizeof v3))
			bufprintf(buf + used, len - used, " (%s profile)", v3);
		return buf;
	}
	if (name_value(n, "idle", v1, sizeof v1) && name_value(n, "phase", v2, sizeof v2)) {
		char idle[32];
		idle_words(v1, idle, sizeof idle);
		if (!strcmp(v2, "fill"))
			bufprintf(buf, len, "fill before %s idle", idle);
		else
			bufprintf(buf, len, "%s after %s idle", v2, idle);
		return buf;
	}
	spec_label(&w->spec, lab, sizeof lab);
	if (!lab[0]) {
		bufprintf(buf, len, "%s", w->name);
		return buf;
	}
	size_t used = bufprintf(buf, len, "%s", lab);
	/* A sweep point or an R/W ratio run: its QD and repetition. */
	if (name_value(n, "qd", v1, sizeof v1))
		used += bufprintf(buf + used, len - used, " QD%s", v1);
	else if (w->spec.qd > 0 && strstr(n, "="))
		used += bufprintf(buf + used, len - used, " QD%d", w->spec.qd);
	if (w->spec.jobs > 1)
		used += bufprintf(buf + used, len - used, " x%d jobs", w->spec.jobs);
	if (name_value(n, "pass", v1, sizeof v1))
		used += bufprintf(buf + used, len - used, ", pass %s", v1);
	if (name_value(n, "run", v1, sizeof v1))
		used += bufprintf(buf + used, len - used, ", run %s", v1);
	if (name_value(n, "span", v1, sizeof v1)) {
		char b[32];
		bufprintf(buf + used, len - used, " over %s",
			  fmt_bytes((uint64_t)strtoull(v1, NULL, 10), b, sizeof b));
	} else if (!strstr(n, "=")) {
		/* A name the user gave (a plain run), or a step's without keys:
		   keep it beside. */
		bufprintf(buf + used, len - used, " (%s)", w->name);
	}
	return buf;
}
