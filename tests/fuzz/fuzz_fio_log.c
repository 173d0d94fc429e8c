/* fio's bw/iops/lat logs, parsed and turned into a trace, whole and streamed. */
#include "fuzz_common.h"

#include "analysis/fio_input.h"
#include "cli/fio_log_read.h"

static int ignore(void *ctx, const struct fio_log_trace *t, struct sb_err *e)
{
	(void)ctx;
	(void)t;
	(void)e;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = fuzz_text(data, size);
	if (!t)
		return 0;
	struct sb_err e;
	struct fio_log_entry *l = NULL;
	size_t n = 0;
	if (!fio_log_parse(t, size, &l, &n, &e)) {
		/* every run the file holds, as analyze reads them */
		for (size_t start = 0; start < n;) {
			size_t stop = fio_log_run_end(l, n, start);
			struct trace_pt *tr = NULL;
			size_t nt = 0;
			struct fio_trace_info info;
			unsigned dir = fio_log_main_dir(l + start, stop - start);
			if (!fio_log_to_trace(l + start, stop - start, FIO_LOG_BW,
					      dir, 100, &tr, &nt, &info, &e))
				free(tr);
			start = stop;
		}
	}
	free(l);
	free(t);
	/* the same as a stream: the passes and their seeks */
	char path[64];
	if (!fuzz_file(data, size, path)) {
		(void)fio_log_read(path, FIO_LOG_BW, -1, 100, ignore, NULL, &e);
		unlink(path);
	}
	return 0;
}
