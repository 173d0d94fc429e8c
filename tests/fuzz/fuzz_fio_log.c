/* fio's bw/iops/lat logs, parsed and turned into a trace. */
#include "fuzz_common.h"

#include "analysis/fio_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = fuzz_text(data, size);
	if (!t)
		return 0;
	struct sb_err e;
	struct fio_log_entry *l = NULL;
	size_t n = 0;
	if (!fio_log_parse(t, size, &l, &n, &e) && n) {
		struct trace_pt *tr = NULL;
		size_t nt = 0;
		unsigned dir = fio_log_main_dir(l, n);
		if (!fio_log_to_trace(l, n, FIO_LOG_BW, dir, 1000, &tr, &nt, &e))
			free(tr);
	}
	free(l);
	free(t);
	return 0;
}
