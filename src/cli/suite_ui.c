#include "cli/suite_ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/suite_cli.h"
#include "store/store.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void clear(struct suite_term *t)
{
	if (t->shown) {
		fputs("\r\033[K", stderr);
		t->shown = false;
	}
}

static void progress(void *ctx, const struct suite_progress *p)
{
	struct suite_term *t = ctx;
	double now = now_s();
	if (!t->tty || now - t->last < 0.25)
		return;
	t->last = now;
	char a[32], b[32], pct[16] = "";
	if (p->step_fraction >= 0)
		snprintf(pct, sizeof pct, " %3.0f%%", p->step_fraction * 100);
	fprintf(stderr, "\r\033[K[%u/%u] %s: %.40s%s", p->step_no, p->nsteps,
		p->step, p->doing, pct);
	if (p->step_eta_s >= 0)
		fprintf(stderr, "  step ETA %s", fmt_duration_s(p->step_eta_s, a, sizeof a));
	if (p->plan_eta_s >= 0)
		fprintf(stderr, "  plan ETA ~%s", fmt_duration_s(p->plan_eta_s, b, sizeof b));
	fflush(stderr);
	t->shown = true;
}

static void note(void *ctx, const char *msg)
{
	struct suite_term *t = ctx;
	clear(t);
	fprintf(stderr, "ssdbench: %s\n", msg);
}

static void started(void *ctx, int64_t run_id)
{
	struct suite_term *t = ctx;
	clear(t);
	/* stdout carries the run id alone, at once, for scripts. */
	printf("%lld\n", (long long)run_id);
	fflush(stdout);
	fprintf(stderr, "ssdbench: suite run %lld started in %s\n", (long long)run_id, t->db);
}

void suite_term_init(struct suite_term *t, const char *db, struct suite_ui *ui)
{
	memset(t, 0, sizeof *t);
	t->tty = isatty(STDERR_FILENO);
	t->db = db;
	ui->ctx = t;
	ui->progress = progress;
	ui->note = note;
	ui->started = started;
}

int suite_term_finish(struct suite_term *t, int64_t run_id,
		      enum suite_outcome out, const struct sb_err *e)
{
	clear(t);
	switch (out) {
	case SUITE_DONE:
		fprintf(stderr, "ssdbench: suite run %lld complete\n", (long long)run_id);
		return 0;
	case SUITE_INTERRUPTED:
		fprintf(stderr, "ssdbench: interrupted; everything measured is kept.\n"
			"resume with: ssdbench resume %lld --db %s\n", (long long)run_id, t->db);
		return 130;
	case SUITE_FAILED:
		break;
	}
	fprintf(stderr, "ssdbench: suite run %lld failed: %s\n", (long long)run_id, e->msg);
	fprintf(stderr, "after fixing the cause, resume with: ssdbench resume %lld --db %s\n",
		(long long)run_id, t->db);
	return 1;
}

char *suite_term_command_line(int argc, char **argv, const char *prog)
{
	size_t len = strlen(prog) + 1;
	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	char *s = malloc(len + 1);
	if (!s)
		return NULL;
	strcpy(s, prog);
	for (int i = 0; i < argc; i++) {
		strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}
