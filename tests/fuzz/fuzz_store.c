/*
 * The database readers on a damaged file: the input is an ssdbench
 * database with bytes changed (the seeds are real ones), opened read-only
 * and read the way show, report and export read it.
 */
#include "fuzz_common.h"

#include "common/hist.h"
#include "store/store.h"

static void read_run(struct store *s, int64_t id)
{
	struct sb_err e;
	struct run_row r;
	if (!store_get_run(s, id, &r, &e))
		store_run_row_free(&r);
	struct step_row *st;
	size_t n;
	if (!store_list_steps(s, id, &st, &n, &e))
		store_step_rows_free(st, n);
	struct workload_row *w;
	if (store_list_workloads(s, id, 0, &w, &n, &e))
		return;
	for (size_t i = 0; i < n; i++) {
		struct interval_sample *smp;
		size_t ns;
		if (!store_load_samples(s, w[i].id, &smp, &ns, &e))
			free(smp);
		for (int d = 0; d < DIR_COUNT; d++) {
			struct lat_hist *h = hist_new();
			if (h)
				store_load_histogram(s, w[i].id, (enum io_dir)d, h, &e);
			hist_free(h);
		}
	}
	store_workload_rows_free(w, n);
	struct metric_row *m;
	if (!store_list_metrics(s, id, &m, &n, &e))
		free(m);
	struct device_reading *dr;
	if (!store_list_device_readings(s, id, &dr, &n, &e))
		free(dr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	if (fuzz_file(data, size, path))
		return 0;
	struct store *s;
	struct sb_err e;
	if (!store_open_readonly(path, &s, &e)) {
		struct run_row *runs;
		size_t n;
		if (!store_list_runs(s, &runs, &n, &e)) {
			for (size_t i = 0; i < n && i < 4; i++)
				read_run(s, runs[i].id);
			store_run_rows_free(runs, n);
		}
		store_close(s);
	}
	unlink(path);
	return 0;
}
