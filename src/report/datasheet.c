/*
 * The datasheet check: a small INI file per model gives the spec values,
 * the report puts the measured value beside each and says pass or fail.
 *
 *   # WD_BLACK SN8100 2TB, from the product brief
 *   [spec]
 *   model = WD_BLACK SN8100 2TB
 *   tolerance_pct = 5            ; measured may miss a spec by this much
 *   seq_read_mbps = 14900        ; best SEQ read of any step, MB/s
 *   seq_write_mbps = 14000
 *   rnd_read_iops = 2300000      ; best RND 4 KiB read of any step
 *   rnd_write_iops = 2400000
 *   qos_read_qd1_p99_us = 80     ; RND 4 KiB read at QD1, 99th percentile
 *   qos_write_qd16_p9999_us = 900 ; ... QD16, 99.99th (p99999 = 99.999th)
 *
 * Rates and IOPS pass when measured >= spec x (1 - tolerance); latencies
 * when measured <= spec x (1 + tolerance).  Datasheets quote decimal MB/s,
 * so rates are compared in MB/s whatever unit the report shows.  A key the
 * report does not know is an error, not a silently empty row.
 *
 * The hardware keys (raw_nand_gb, dram_mib, plp_capacitors,
 * plp_capacitor_uf, plp_capacitor_v, power_w) are no spec to check: they
 * feed the device summary's calculations (sec_devcalc.c).
 */
#include "report/report_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/ini.h"

struct spec_row {
	char key[64];
	double spec;
	int line;
};

/* The best throughput of the DUT's workloads of one kind. */
static double best(const struct rpt_run *r, const char *pattern, int read_pct,
		   int64_t bs, bool iops)
{
	double v = NAN;
	for (size_t i = 0; i < r->nwl; i++) {
		const struct rpt_workload *w = &r->wl[i];
		if (strcmp(w->spec.pattern, pattern) ||
		    w->spec.read_pct != read_pct || (bs && w->spec.bs != bs))
			continue;
		double x = iops ? rpt_iops(w) : rpt_bw(w) / 1e6;
		if (!isfinite(v) || x > v)
			v = x;
	}
	return v;
}

/* "9999" -> 99.99; "99" -> 99; anything else -> NaN. */
static double nines_key(const char *digits, size_t n)
{
	if (n < 2 || strncmp(digits, "99", 2))
		return NAN;
	for (size_t i = 2; i < n; i++)
		if (digits[i] != '9')
			return NAN;
	return 100.0 - pow(10.0, -(double)(n - 2)) * 1.0;
}

/* qos_<read|write>_qd<N>_p<nines>_us: the latest matching RND 4 KiB run. */
static bool qos_measured(const struct rpt_run *r, const char *key, double *v,
			 bool *known)
{
	char dir[8];
	int qd, used = 0;
	char digits[16];
	*known = false;
	if (sscanf(key, "qos_%5[a-z]_qd%d_p%15[0-9]_us%n", dir, &qd, digits,
		   &used) != 3 || key[used] != '\0')
		return false;
	double p = nines_key(digits, strlen(digits));
	if (!isfinite(p) || (strcmp(dir, "read") && strcmp(dir, "write")))
		return false;
	*known = true;
	int d = strcmp(dir, "read") ? 1 : 0;
	*v = NAN;
	for (size_t i = 0; i < r->nwl; i++) {
		const struct rpt_workload *w = &r->wl[i];
		if (!strcmp(w->spec.pattern, "rand") && w->spec.qd == qd &&
		    w->spec.read_pct == (d ? 0 : 100) &&
		    (w->spec.bs == 4096 || w->spec.bs < 0) && w->lat[d].count)
			*v = rpt_lat_at(&w->lat[d], p);
	}
	return true;
}

static bool measured(const struct rpt_run *r, const char *key, double *v,
		     bool *higher_better, const char **unit)
{
	*higher_better = true;
	if (!strcmp(key, "seq_read_mbps")) {
		*unit = "MB/s";
		*v = best(r, "seq", 100, 0, false);
	} else if (!strcmp(key, "seq_write_mbps")) {
		*unit = "MB/s";
		*v = best(r, "seq", 0, 0, false);
	} else if (!strcmp(key, "rnd_read_iops")) {
		*unit = "IOPS";
		*v = best(r, "rand", 100, 4096, true);
	} else if (!strcmp(key, "rnd_write_iops")) {
		*unit = "IOPS";
		*v = best(r, "rand", 0, 4096, true);
	} else {
		bool known;
		*higher_better = false;
		*unit = "µs";
		qos_measured(r, key, v, &known);
		return known;
	}
	return true;
}

struct sheet_reader {
	struct spec_row *rows;
	size_t n, max;
	char *model;
	size_t mlen;
	double *tol;
	const char *path;
	struct drive_sheet *drive;	/* NULL: hardware keys skipped */
};

/* A hardware key's place in d, or NULL. */
static double *drive_key(struct drive_sheet *d, const char *key)
{
	static const char *const keys[] = {
		"raw_nand_gb", "dram_mib", "plp_capacitors", "plp_capacitor_uf",
		"plp_capacitor_v", "power_w",
	};
	double *slot[] = {
		&d->raw_nand_gb, &d->dram_mib, &d->plp_capacitors,
		&d->plp_capacitor_uf, &d->plp_capacitor_v, &d->power_w,
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i]))
			return slot[i];
	return NULL;
}

static int sheet_entry(void *ctx, const struct ini_entry *en, struct sb_err *e)
{
	struct sheet_reader *r = ctx;
	if (!en->key)
		return 0;
	if (!en->value)
		return sb_errf(e, "datasheet %s: expected key = value", en->where);
	if (!strcmp(en->key, "model")) {
		bufprintf(r->model, r->mlen, "%s", en->value);
		return 0;
	}
	char *end;
	errno = 0;
	double v = strtod(en->value, &end);
	if (end == en->value || *end || errno || !isfinite(v) || v < 0)
		return sb_errf(e, "datasheet %s: %s: '%s' is not a "
			       "non-negative number", en->where, en->key, en->value);
	if (!strcmp(en->key, "tolerance_pct")) {
		*r->tol = v / 100;
		return 0;
	}
	struct drive_sheet scratch;
	double *hw = drive_key(r->drive ? r->drive : &scratch, en->key);
	if (hw) {
		*hw = v;
		return 0;
	}
	if (r->n == r->max)
		return sb_errf(e, "datasheet %s: more than %zu values", r->path, r->max);
	bufprintf(r->rows[r->n].key, sizeof(r->rows[r->n].key), "%s", en->key);
	r->rows[r->n].spec = v;
	r->rows[r->n].line = en->line;
	r->n++;
	return 0;
}

static int parse(const char *path, struct spec_row *rows, size_t *n,
		 size_t max, char *model, size_t mlen, double *tol,
		 struct drive_sheet *drive, struct sb_err *e)
{
	char *text;
	if (ini_read_file(path, "datasheet", &text, e))
		return -1;
	struct sheet_reader r = { rows, 0, max, model, mlen, tol, path, drive };
	int rc = ini_parse(text, path, sheet_entry, &r, e);
	free(text);
	*n = r.n;
	return rc;
}

int sec_datasheet(struct rctx *x, const char *path, struct sb_err *e)
{
	struct spec_row rows[64];
	size_t n = 0;
	char model[128] = "";
	double tol = 0.05;
	if (parse(path, rows, &n, 64, model, sizeof(model), &tol, NULL, e))
		return -1;
	const struct rpt_run *dut = &x->runs[0];
	FILE *f = x->pg.body;
	page_h2(&x->pg, "datasheet", "Datasheet vs measured");
	page_para(f, "Spec values of %s from %s; measured values of %s. "
		  "Rates and IOPS pass at or above the spec less %.0f %%, "
		  "latencies at or below the spec plus %.0f %%.",
		  model[0] ? model : "the model", path, dut->label, tol * 100,
		  tol * 100);
	page_table_begin(f, &x->pg, NULL, "Figure", "Spec", "Measured",
			 "Unit", "Verdict", (const char *)NULL);
	int pass = 0, fail = 0;
	for (size_t i = 0; i < n; i++) {
		double v;
		bool higher;
		const char *unit;
		if (!measured(dut, rows[i].key, &v, &higher, &unit)) {
			page_table_end(f);
			return sb_errf(e, "datasheet %s:%d: unknown key '%s' "
				       "(known: seq_read_mbps, seq_write_mbps, "
				       "rnd_read_iops, rnd_write_iops, "
				       "qos_<read|write>_qd<N>_p<99|999|9999..>"
				       "_us, model, tolerance_pct, raw_nand_gb, "
				       "dram_mib, plp_capacitors, plp_capacitor_uf, "
				       "plp_capacitor_v, power_w)", path,
				       rows[i].line, rows[i].key);
		}
		page_tr(f);
		page_td(f, "%s", rows[i].key);
		page_td_class(f, "num", "%.6g", rows[i].spec);
		if (!isfinite(v)) {
			page_td_class(f, "num", "-");
			page_td(f, "%s", unit);
			page_td(f, "not measured");
			continue;
		}
		page_td_class(f, "num", "%.6g", v);
		page_td(f, "%s", unit);
		struct spec_check c = { rows[i].key, unit, rows[i].spec, v,
					higher, tol, false, 0 };
		spec_judge(&c);	/* the analysis' one rule */
		bool ok = c.pass;
		page_td_class(f, ok ? "pass" : "fail", ok ? "pass" : "fail");
		ok ? pass++ : fail++;
	}
	page_table_end(f);
	headline(x, "datasheet", "%d of %d measured datasheet figures pass, "
		 "%d fail.", pass, pass + fail, fail);
	return 0;
}

int datasheet_drive(const char *path, struct drive_sheet *d, struct sb_err *e)
{
	struct spec_row rows[64];
	size_t n = 0;
	char model[128];
	double tol;
	d->raw_nand_gb = d->dram_mib = d->plp_capacitors = NAN;
	d->plp_capacitor_uf = d->plp_capacitor_v = d->power_w = NAN;
	return parse(path, rows, &n, 64, model, sizeof(model), &tol, d, e);
}
