/*
 * fio logs read as a stream (cli/fio_log_read.c) give the traces the whole
 * file in memory gives (the file read at once, parsed into one array of
 * entries, split into runs, each run made a trace: how `analyze --fio-log`
 * read logs before it streamed them): every slice, for every log of
 * ../shared/external/fio and for generated logs built to cross the
 * stream's buffer at every kind of place (a line, a run, a blank line, a
 * CRLF), from a file and from a pipe; a bad line gives the same message.
 */
#include "check.h"
#include "tmp_files.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/fio_log_read.h"
#include "common/file_read.h"
#include "common/stream.h"

#define MAX_RUNS 64

struct got_run {
	unsigned dir;
	bool only;
	size_t first_line, last_line;
	struct trace_pt *t;
	size_t n;
	struct fio_trace_info info;
};

struct got {
	struct got_run r[MAX_RUNS];
	size_t n;
};

static void got_free(struct got *g)
{
	for (size_t i = 0; i < g->n; i++)
		free(g->r[i].t);
	g->n = 0;
}

static int keep(void *ctx, const struct fio_log_trace *t, struct sb_err *e)
{
	struct got *g = ctx;
	if (g->n == MAX_RUNS)
		return sb_errf(e, "more runs than the test keeps");
	struct got_run *r = &g->r[g->n++];
	*r = (struct got_run){ t->dir, t->only, t->first_line, t->last_line, NULL, t->n, t->info };
	r->t = malloc(t->n * sizeof *r->t);
	memcpy(r->t, t->t, t->n * sizeof *r->t);
	return 0;
}

/* The whole-file reading: the reference. */
static int reference(const char *path, enum fio_log_kind kind, unsigned slice_ms,
		     struct got *g, struct sb_err *e)
{
	char *text;
	size_t len;
	if (file_read_text(path, "fio log", FILE_LIMIT_LOG, &text, &len, e))
		return -1;
	struct fio_log_entry *l;
	size_t n;
	int rc = fio_log_parse(text, len, &l, &n, e);
	free(text);
	if (rc)
		return sb_err_wrap(e, "%s", path);
	for (size_t start = 0; start < n && !rc;) {
		size_t stop = fio_log_run_end(l, n, start);
		struct got_run *r = &g->r[g->n++];
		r->dir = fio_log_main_dir(l + start, stop - start);
		r->only = start == 0 && stop == n;
		r->first_line = l[start].line;
		r->last_line = l[stop - 1].line;
		rc = fio_log_to_trace(l + start, stop - start, kind, r->dir, slice_ms, &r->t,
				      &r->n, &r->info, e);
		if (rc)
			sb_err_wrap(e, "%s", path);
		start = stop;
	}
	free(l);
	return rc;
}

static void compare(const char *what, const struct got *a, const struct got *b)
{
	if (a->n != b->n) {
		CHECK_FAIL("%s: %zu runs streamed, %zu read whole", what, a->n, b->n);
		return;
	}
	for (size_t i = 0; i < a->n; i++) {
		const struct got_run *x = &a->r[i], *y = &b->r[i];
		if (x->dir != y->dir || x->only != y->only || x->first_line != y->first_line ||
		    x->last_line != y->last_line || x->n != y->n) {
			CHECK_FAIL("%s run %zu: dir %u/%u only %d/%d lines %zu-%zu/%zu-%zu n %zu/%zu",
				   what, i, x->dir, y->dir, x->only, y->only, x->first_line,
				   x->last_line, y->first_line, y->last_line, x->n, y->n);
			continue;
		}
		if (memcmp(x->t, y->t, x->n * sizeof *x->t))
			CHECK_FAIL("%s run %zu: the slices differ", what, i);
		if (x->info.has_bytes != y->info.has_bytes || x->info.has_ios != y->info.has_ios ||
		    x->info.averaged != y->info.averaged || x->info.window_ms != y->info.window_ms ||
		    x->info.gaps != y->info.gaps || x->info.gap_s != y->info.gap_s)
			CHECK_FAIL("%s run %zu: the trace's info differs", what, i);
	}
}

static void same_as_whole(const char *path, enum fio_log_kind kind, unsigned slice_ms)
{
	struct got *s = calloc(1, sizeof *s), *w = calloc(1, sizeof *w);
	struct sb_err es, ew;
	int rs = fio_log_read(path, kind, -1, slice_ms, keep, s, &es);
	int rw = reference(path, kind, slice_ms, w, &ew);
	if (rs != rw)
		CHECK_FAIL("%s: streamed %s, whole %s", path, rs ? es.msg : "ok", rw ? ew.msg : "ok");
	else if (rs && strcmp(es.msg, ew.msg))
		CHECK_FAIL("%s: streamed '%s', whole '%s'", path, es.msg, ew.msg);
	else if (!rs)
		compare(path, s, w);
	got_free(s);
	got_free(w);
	free(s);
	free(w);
}

TEST(external_logs_as_read_whole)
{
	glob_t g;
	int n = 0;
	if (glob("../shared/external/fio/*.log", 0, NULL, &g)) {
		SKIP("no ../shared/external/fio");
		return;
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *p = g.gl_pathv[i];
		if (strstr(p, "_bw") || strstr(p, "_iops") || strstr(p, "hist")) {
			same_as_whole(p, strstr(p, "_iops") ? FIO_LOG_IOPS : FIO_LOG_BW, 100);
			n++;
		}
	}
	globfree(&g);
	CHECK(n >= 8);
}

/*
 * A log of `runs` runs of about `lines` lines each: per-I/O (repeating
 * times, 4 KiB) or averaged (bs 0, a 500 ms window with a stall in each
 * run); CRLF line ends and blank lines now and then, so that lines,
 * blank lines and run starts fall across the stream's buffer.
 */
static void gen_log(FILE *f, int runs, int lines, bool averaged)
{
	unsigned x = 12345;
	for (int r = 0; r < runs; r++) {
		uint64_t t = 0;
		for (int i = 0; i < lines; i++) {
			x = x * 1103515245u + 12345u;
			unsigned dir = (x >> 16) % 7 == 0 ? 0 : 1;
			if (averaged)
				t += (i % 97 == 50) ? 2500 : 500 + (x >> 20) % 3;
			else
				t += (x >> 18) % 3;
			fprintf(f, "%llu, %u, %u, %u%s", (unsigned long long)t,
				averaged ? 100000 + (x >> 12) % 5000 : 4096 * (1 + dir),
				dir, averaged ? 0 : 4096, i % 13 == 0 ? "\r\n" : "\n");
			if (i % 101 == 0)
				fputs(i % 2 ? "\n" : "   \r\n", f);
		}
	}
}

TEST(generated_logs_from_a_file)
{
	const struct { const char *name; int runs, lines; bool averaged; } c[] = {
		{ "per-io.log", 5, 40000, false },	/* ~4 MB: many buffers */
		{ "averaged.log", 7, 3000, true },
		{ "one-run.log", 1, 60000, false },
		{ "short-runs.log", 40, 3, true },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		const char *p = tmp_path(c[i].name);
		FILE *f = fopen(p, "w");
		if (!f) {
			CHECK_FAIL("%s", p);
			continue;
		}
		gen_log(f, c[i].runs, c[i].lines, c[i].averaged);
		fclose(f);
		same_as_whole(p, FIO_LOG_BW, 100);
		same_as_whole(p, FIO_LOG_IOPS, 7);
	}
}

TEST(generated_log_from_a_pipe)
{
	const char *p = tmp_path("piped.log");
	FILE *f = fopen(p, "w");
	if (!f) {
		CHECK_FAIL("%s", p);
		return;
	}
	gen_log(f, 3, 30000, false);
	fclose(f);
	int fds[2];
	if (pipe(fds)) {
		CHECK_FAIL("pipe");
		return;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		FILE *out = fdopen(fds[1], "w");
		gen_log(out, 3, 30000, false);
		fclose(out);
		_exit(0);
	}
	close(fds[1]);
	char fdpath[64];
	snprintf(fdpath, sizeof fdpath, "/dev/fd/%d", fds[0]);
	struct got *s = calloc(1, sizeof *s), *w = calloc(1, sizeof *w);
	struct sb_err e;
	if (fio_log_read(fdpath, FIO_LOG_BW, -1, 100, keep, s, &e))
		CHECK_FAIL("pipe: %s", e.msg);
	else if (reference(p, FIO_LOG_BW, 100, w, &e))
		CHECK_FAIL("%s", e.msg);
	else
		compare("pipe", s, w);
	close(fds[0]);
	waitpid(pid, NULL, 0);
	got_free(s);
	got_free(w);
	free(s);
	free(w);
}

TEST(bad_lines_said_as_before)
{
	const char *bad[] = {
		"0, 100, 0, 4096\n1, 100, 0, 4096\nx, 1, 0, 4096\n",
		"0, 100, 0, 4096\n1, 100, 7, 4096\n",
		"\n\n",
		"0, 100, 0, 4096\n0, 100, 0, 4096\n",
		"0, 1, 0, 0, 1, 2, 3, 4, 5\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char name[32];
		snprintf(name, sizeof name, "bad%zu.log", i);
		const char *p = tmp_path(name);
		FILE *f = fopen(p, "w");
		fputs(bad[i], f);
		fclose(f);
		same_as_whole(p, FIO_LOG_BW, 100);
	}
	/* a line too long to be a log line is refused, by line number */
	const char *p = tmp_path("long.log");
	FILE *f = fopen(p, "w");
	fputs("0, 100, 0, 4096\n", f);
	for (int i = 0; i < 200000; i++)
		fputc('1', f);
	fputc('\n', f);
	fclose(f);
	struct got g = { 0 };
	struct sb_err e;
	CHECK(fio_log_read(p, FIO_LOG_BW, -1, 100, keep, &g, &e) == -1);
	CHECK(strstr(e.msg, "long.log:2: a line longer than") != NULL);
	got_free(&g);
}

TEST(cleanup)
{
	tmp_files_remove();
}

CHECK_MAIN("fio_log_stream")
