/*
 * The tables that are not about one step: the devices and platform (what
 * ran where, how: kernel, CPU, tool version, engine mode, polling), the
 * target facts, the headline figures of every test side by side, and the
 * analysis' stored findings.
 */
#include "report/report_int.h"

#include "common/units.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Polling is on when the engine mode says so; "virtual" is the simulator. */
static const char *polling(const char *mode)
{
	if (!mode[0])
		return "unknown";
	if (strstr(mode, "poll"))
		return "yes";
	if (!strcmp(mode, "virtual"))
		return "n/a (simulated)";
	return "no";
}

/*
 * A stored JSON document flattened for a table: one (label, text) pair per
 * leaf, nested objects as "device model", arrays of values as "a, b, c",
 * arrays of objects as "k v, k v; k v, k v" (LBA formats, power states).
 */
#define KV_MAX 128

struct kv_flat {
	size_t n;
	char key[KV_MAX][96];
	char val[KV_MAX][512];
};

static void kv_text(const json_t *v, char *buf, size_t len);

static void kv_object_text(const json_t *o, char *buf, size_t len)
{
	const char *k;
	json_t *m;
	size_t used = 0;
	buf[0] = '\0';
	json_object_foreach((json_t *)o, k, m) {
		char t[256];
		kv_text(m, t, sizeof t);
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0,
					 "%s%s %s", used ? ", " : "", k, t);
		if (used >= len)
			return;
	}
}

static void kv_text(const json_t *v, char *buf, size_t len)
{
	size_t i, used = 0;
	json_t *x;
	switch (json_typeof(v)) {
	case JSON_STRING: bufprintf(buf, len, "%s", json_string_value(v)); break;
	case JSON_INTEGER: bufprintf(buf, len, "%lld", (long long)json_integer_value(v)); break;
	case JSON_REAL: bufprintf(buf, len, "%.6g", json_real_value(v)); break;
	case JSON_TRUE: bufprintf(buf, len, "yes"); break;
	case JSON_FALSE: bufprintf(buf, len, "no"); break;
	case JSON_NULL: bufprintf(buf, len, "-"); break;
	case JSON_OBJECT: kv_object_text(v, buf, len); break;
	case JSON_ARRAY:
		buf[0] = '\0';
		json_array_foreach(v, i, x) {
			char t[256];
			kv_text(x, t, sizeof t);
			used += (size_t)snprintf(buf + used, used < len ? len - used : 0,
						 "%s%s", i ? (json_is_object(x) ? "; " : ", ")
							   : "", t);
			if (used >= len)
				return;
		}
		break;
	}
}

/* The words a reader knows for the stored keys; others lose their
   underscores. */
static void kv_label(const char *key, char *buf, size_t len)
{
	static const char *const names[][2] = {
		{ "tool_version", "Tool version" }, { "kernel", "Kernel" },
		{ "machine", "Architecture" }, { "hostname", "Host" },
		{ "cpus", "CPUs" }, { "cpu_model", "CPU" }, { "path", "Target" },
		{ "kind", "Kind" }, { "size", "Capacity" },
		{ "logical_block", "Logical block (bytes)" },
		{ "physical_block", "Physical block (bytes)" },
		{ "rotational", "Rotational" }, { "discard", "Discard (TRIM)" },
		{ "device model", "Model" }, { "device simulated", "Simulated" },
		{ "device profile", "Simulator profile" },
		{ "device description", "Description" },
		{ "device scale", "Simulator scale" }, { "device seed", "Simulator seed" },
		{ "device nand_gb", "NAND of the simulated profile (GB)" },
		{ "device serial", "Serial" }, { "device firmware", "Firmware" },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(key, names[i][0])) {
			bufprintf(buf, len, "%s", names[i][1]);
			return;
		}
	bufprintf(buf, len, "%s", key);
	for (char *p = buf; *p; p++)
		if (*p == '_')
			*p = ' ';
	if (buf[0] >= 'a' && buf[0] <= 'z')
		buf[0] = (char)(buf[0] - 'a' + 'A');
}

static void kv_flatten(const json_t *o, const char *prefix, struct kv_flat *fl)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)o, k, v) {
		if (fl->n >= KV_MAX)
			return;
		char key[96];
		bufprintf(key, sizeof key, "%s%s%s", prefix, prefix[0] ? " " : "", k);
		if (json_is_object(v)) {
			kv_flatten(v, key, fl);
			continue;
		}
		kv_label(key, fl->key[fl->n], sizeof fl->key[0]);
		if (!strcmp(key, "size") && json_is_integer(v)) {
			char b[32];
			uint64_t bytes = (uint64_t)json_integer_value(v);
			bufprintf(fl->val[fl->n], sizeof fl->val[0], "%s (%llu bytes)",
				  fmt_bytes_si(bytes, b, sizeof b), (unsigned long long)bytes);
		} else {
			kv_text(v, fl->val[fl->n], sizeof fl->val[0]);
		}
		fl->n++;
	}
}

static const char *kv_find(const struct kv_flat *fl, const char *key)
{
	for (size_t i = 0; i < fl->n; i++)
		if (!strcmp(fl->key[i], key))
			return fl->val[i];
	return NULL;
}

/*
 * One row per key: the DUT's keys in its order, then keys only the
 * comparison runs have; "-" where a run lacks the key.
 */
static void kv_table(struct rctx *x, const char *caption,
		     const char *const *json)
{
	FILE *f = x->pg.top;
	struct kv_flat *fl = calloc(x->nruns ? x->nruns : 1, sizeof *fl);
	if (!fl)
		return;
	for (size_t r = 0; r < x->nruns; r++) {
		json_t *root = json[r] ? json_loads(json[r], 0, NULL) : NULL;
		if (json_is_object(root))
			kv_flatten(root, "", &fl[r]);
		json_decref(root);
	}
	device_table_begin(x, f, NULL, caption, "");
	for (size_t from = 0; from < x->nruns; from++)
		for (size_t i = 0; i < fl[from].n; i++) {
			const char *key = fl[from].key[i];
			bool seen = false;
			for (size_t q = 0; q < from && !seen; q++)
				seen = kv_find(&fl[q], key) != NULL;
			if (seen)
				continue;
			page_tr(f);
			page_td(f, "%s", key);
			for (size_t r = 0; r < x->nruns; r++) {
				const char *v = kv_find(&fl[r], key);
				page_td(f, "%s", v ? v : "-");
			}
		}
	page_table_end(f);
	free(fl);
}

void sec_devices(struct rctx *x)
{
	FILE *f = x->pg.top;
	fputs("<h2 id=\"devices\">Devices and platform</h2>\n", f);
	page_table_begin(f, &x->pg, "Runs in this report", "", "Device",
			 "Target", "Run", "Database", "Kind", "Status",
			 "Started (UTC)", "Finished (UTC)", "Engine mode",
			 "Polling", "Driver stalls", (const char *)NULL);
	for (size_t r = 0; r < x->nruns; r++) {
		const struct rpt_run *run = &x->runs[r];
		page_tr(f);
		page_td(f, "%s", r ? "comparison" : "DUT");
		page_td(f, "%s", run->label);
		page_td(f, "%s", run->target);
		page_td_class(f, "num", "%lld", (long long)run->id);
		page_td(f, "%s", run->source);
		page_td(f, "%s", run->kind);
		page_td(f, "%s", run->status);
		page_td(f, "%s", run->started_at);
		page_td(f, "%s", run->finished_at);
		page_td(f, "%s", run->engine_mode[0] ? run->engine_mode : "-");
		page_td(f, "%s", polling(run->engine_mode));
		/* Waits of the I/O threads for the store: nothing was submitted
		   meanwhile, so a non-zero count says the run was disturbed. */
		if (run->stalls_known)
			page_td_class(f, "num", "%llu (%.3f s)", (unsigned long long)run->driver_stalls,
				      (double)run->driver_stall_ns / 1e9);
		else
			page_td(f, "%s", "not recorded");
	}
	page_table_end(f);

	const char *json[RPT_MAX_RUNS];
	for (size_t r = 0; r < x->nruns; r++)
		json[r] = x->runs[r].host_json;
	kv_table(x, "Platform (kernel, CPU, tool version)", json);
	for (size_t r = 0; r < x->nruns; r++)
		json[r] = x->runs[r].facts_json;
	kv_table(x, "Device summary (target facts after the run)", json);
}

/* Every stored figure of run r as JSON, for machines: findings-N.json. */
static int write_findings_json(const struct rctx *x, size_t r, const char *file)
{
	const struct rpt_run *run = &x->runs[r];
	json_t *arr = json_array();
	for (size_t i = 0; arr && i < run->nmetrics; i++) {
		const struct rpt_metric *m = &run->metrics[i];
		json_array_append_new(arr, json_pack("{s:s?, s:s, s:f, s:s}",
			"step", m->step[0] ? m->step : NULL, "key", m->key,
			"value", m->value, "unit", m->unit));
	}
	json_t *doc = json_pack("{s:s, s:i, s:s, s:o}", "format", "ssdbench-findings",
				"format_version", 1, "device", run->label,
				"findings", arr ? arr : json_null());
	char path[1024];
	bufprintf(path, sizeof path, "%s/%s", x->pg.dir, file);
	int rc = doc ? json_dump_file(doc, path, JSON_INDENT(1)) : -1;
	json_decref(doc);
	return rc;
}

/*
 * The analysis' stored figures: too many for the page (a thousand rows of
 * internal keys), so they go to a JSON file per device, linked, and the
 * page says how many each step has.
 */
void sec_metrics(struct rctx *x)
{
	const struct rpt_run *r = &x->runs[0];
	if (!r->nmetrics)
		return;
	FILE *f = x->pg.body;
	page_h2(&x->pg, "findings", "Findings of the analysis");
	fputs("<p>Every figure the analysis stored, as JSON (step, key, value, unit): ", f);
	for (size_t k = 0; k < x->nruns; k++) {
		char file[64];
		bufprintf(file, sizeof file, "findings-%zu.json", k + 1);
		if (write_findings_json(x, k, file))
			continue;
		fprintf(f, "%s<a href=\"%s\">", k ? ", " : "", file);
		page_esc(f, x->runs[k].label);
		fputs("</a>", f);
	}
	fputs(".  The figures the sections above use are in their text, charts and tables.</p>\n", f);
	page_table_begin(f, &x->pg, "Stored figures per step", "Step", "Figures",
			 (const char *)NULL);
	for (size_t i = 0; i < r->nmetrics;) {
		size_t j = i;
		while (j < r->nmetrics && !strcmp(r->metrics[j].step, r->metrics[i].step))
			j++;
		page_tr(f);
		page_td(f, "%s", r->metrics[i].step[0] ? step_title(r->metrics[i].step) : "the run");
		page_td_class(f, "num", "%zu", j - i);
		i = j;
	}
	page_table_end(f);
}
