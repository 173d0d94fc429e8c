/*
 * The device summary's small calculations (METHODOLOGY §6), as the
 * reviews do them by hand: over-provisioning (raw NAND / user - 1), the
 * DRAM to capacity ratio, and the power-loss-protection hold-up time
 * (n x 1/2 C V^2 over the power draw) where the datasheet gives the
 * capacitors.  The arithmetic is the analysis library's (drive_calc.h);
 * this only finds the inputs and says which one is missing when a figure
 * cannot be given.
 *
 * Inputs: the user capacity from the target facts; raw NAND from the
 * datasheet file (raw_nand_gb) or a simulated drive's facts (its
 * profile's NAND, device.nand_gb); DRAM and the capacitors from the
 * datasheet file; the power draw from the datasheet (power_w), else the
 * device's power state 0 (NVMe Identify).  The datasheet file is the
 * DUT's: comparison devices take their facts only.
 */
#include "analysis/drive_calc.h"
#include "report/report_int.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

struct calc_inputs {
	double user_bytes, raw_bytes, dram_bytes;
	const char *raw_from, *power_from;
	double caps, cap_f, cap_v, power_w;
};

/* device.nand_gb of a simulated drive, device.nvme.power_states[0]. */
static void from_facts(const char *facts, struct calc_inputs *in)
{
	json_t *root = facts ? json_loads(facts, 0, NULL) : NULL;
	json_t *dev = json_object_get(root, "device");
	json_t *nand = json_object_get(dev, "nand_gb");
	if (json_is_number(nand) && json_number_value(nand) > 0) {
		in->raw_bytes = json_number_value(nand) * 1e9;
		in->raw_from = "the simulated drive's profile";
	}
	json_t *ps = json_array_get(json_object_get(json_object_get(dev, "nvme"),
						    "power_states"), 0);
	json_t *w = json_object_get(ps, "max_power_w");
	if (json_is_number(w) && json_number_value(w) > 0) {
		in->power_w = json_number_value(w);
		in->power_from = "power state 0";
	}
	json_decref(root);
}

static void inputs(const struct rctx *x, size_t r, const struct drive_sheet *ds,
		   struct calc_inputs *in)
{
	memset(in, 0, sizeof(*in));
	in->raw_bytes = in->dram_bytes = in->power_w = NAN;
	in->caps = in->cap_f = in->cap_v = NAN;
	in->user_bytes = x->runs[r].capacity ? (double)x->runs[r].capacity : NAN;
	from_facts(x->runs[r].facts_json, in);
	if (r != 0 || !ds)
		return;
	if (ds->raw_nand_gb > 0) {
		in->raw_bytes = ds->raw_nand_gb * 1e9;
		in->raw_from = "the datasheet file";
	}
	if (ds->dram_mib > 0)
		in->dram_bytes = ds->dram_mib * 1048576.0;
	if (ds->power_w > 0) {
		in->power_w = ds->power_w;
		in->power_from = "the datasheet file";
	}
	in->caps = ds->plp_capacitors;
	in->cap_f = ds->plp_capacitor_uf * 1e-6;
	in->cap_v = ds->plp_capacitor_v;
}

/* Why a datasheet figure is absent, for device r (docs/report.md names
   the keys that give it; the page uses words, not keys). */
static void no_sheet(const struct rctx *x, size_t r, char *buf, size_t len)
{
	if (r)
		bufprintf(buf, len, "not known (the datasheet file is the DUT's)");
	else if (!x->o->datasheet)
		bufprintf(buf, len, "not known (no datasheet file given)");
	else
		bufprintf(buf, len, "not in the datasheet file");
}

enum calc_row { ROW_USER, ROW_RAW, ROW_OP, ROW_DRAM, ROW_RATIO, ROW_ENERGY,
		ROW_POWER, ROW_HOLDUP, NROWS };

static const char *const row_names[NROWS] = {
	"User capacity", "Raw NAND", "Over-provisioning (raw / user - 1)",
	"DRAM", "DRAM : capacity", "PLP energy (n x 1/2 C V^2)",
	"Power draw", "PLP hold-up time (energy / power)",
};

static void cell(struct rctx *x, size_t r, enum calc_row row,
		 const struct calc_inputs *in, char *buf, size_t len)
{
	char b[48];
	double op = overprovisioning(in->raw_bytes, in->user_bytes);
	double ratio = dram_ratio(in->user_bytes, in->dram_bytes);
	double j = plp_energy_j(in->caps, in->cap_f, in->cap_v);
	double hold = plp_holdup_s(j, in->power_w);
	switch (row) {
	case ROW_USER:
		if (isfinite(in->user_bytes))
			bufprintf(buf, len, "%s", fmt_size(x, in->user_bytes, b, 48));
		else
			bufprintf(buf, len, "not known (the target facts have no size)");
		return;
	case ROW_RAW:
		if (isfinite(in->raw_bytes))
			bufprintf(buf, len, "%s (from %s)",
				  fmt_size(x, in->raw_bytes, b, 48), in->raw_from);
		else
			no_sheet(x, r, buf, len);
		return;
	case ROW_OP:
		if (isfinite(op))
			bufprintf(buf, len, "%s %%", page_num(100 * op, 1, b, 48));
		else
			bufprintf(buf, len, "not known (needs raw NAND and user "
				  "capacity)");
		return;
	case ROW_DRAM:
		if (isfinite(in->dram_bytes))
			bufprintf(buf, len, "%s MiB",
				  page_num(in->dram_bytes / 1048576, 0, b, 48));
		else
			no_sheet(x, r, buf, len);
		return;
	case ROW_RATIO:
		if (isfinite(ratio))
			bufprintf(buf, len, "1 : %s (1 : 1000 fits a 4 KiB map "
				  "unit)", page_num(ratio, 0, b, 48));
		else
			bufprintf(buf, len, "not known (needs DRAM and capacity)");
		return;
	case ROW_ENERGY:
		if (isfinite(j)) {
			char n[32], c[32], v[32];
			bufprintf(buf, len, "%s J (%s x %s µF at %s V)",
				  page_num(j, 3, b, 48),
				  chart_number(in->caps, n, sizeof(n)),
				  chart_number(in->cap_f * 1e6, c, sizeof(c)),
				  chart_number(in->cap_v, v, sizeof(v)));
		} else {
			no_sheet(x, r, buf, len);
		}
		return;
	case ROW_POWER:
		if (isfinite(in->power_w))
			bufprintf(buf, len, "%s W (from %s)",
				  chart_number(in->power_w, b, 48), in->power_from);
		else
			bufprintf(buf, len, "not known (no power state in the "
				  "facts, none in a datasheet file)");
		return;
	case ROW_HOLDUP:
		if (isfinite(hold))
			bufprintf(buf, len, "%s ms", page_num(hold * 1000, 1, b, 48));
		else
			bufprintf(buf, len, "not known (needs the PLP energy and "
				  "the power draw)");
		return;
	case NROWS:
		break;
	}
	buf[0] = '\0';
}

int sec_device_calc(struct rctx *x, struct sb_err *e)
{
	struct drive_sheet ds;
	bool have = x->o->datasheet != NULL;
	if (have && datasheet_drive(x->o->datasheet, &ds, e))
		return -1;
	struct calc_inputs in[RPT_MAX_RUNS];
	for (size_t r = 0; r < x->nruns; r++)
		inputs(x, r, have ? &ds : NULL, &in[r]);
	FILE *f = x->pg.top;
	device_table_begin(x, f, "calc", "Small calculations (as the reviews "
			   "do them by hand)", "");
	for (int row = 0; row < NROWS; row++) {
		page_tr(f);
		page_td(f, "%s", row_names[row]);
		for (size_t r = 0; r < x->nruns; r++) {
			char buf[256];
			cell(x, r, (enum calc_row)row, &in[r], buf, sizeof(buf));
			page_td(f, "%s", buf);
		}
	}
	page_table_end(f);
	return 0;
}
