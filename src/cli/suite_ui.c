#include "cli/suite_ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/suite_cli.h"
#include "store/store.h"

/* The coarse clock (the kernel's last tick, a few milliseconds): enough
   to repaint four times a second, and cheaper at every sample. */
static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void clear(struct suite_term *t)
{
	if (t->shown) {
		fputs("\r\033[K", stderr);
		t->shown = false;
	}
}

/*
 * `text` in at most `max` characters, cut at a space and marked with
 * "..." when it does not fit, so no word is cut in half.
 */
static const char *shorten(const char *text, size_t max, char *buf, size_t len)
{
	size_t n = strlen(text);
	if (n <= max || max < 8) {
		snprintf(buf, len, "%s", text);
		return buf;
	}
	size_t cut = max - 3;
	while (cut > 0 && text[cut] != ' ')
		cut--;
	if (cut == 0)
		cut = max - 3;
	snprintf(buf, len, "%.*s...", (int)cut, text);
	return buf;
}

/* "3.95 GB/s", "512 MB/s"; IOPS beside it for small blocks. */
static void rate_text(const struct suite_progress *p, char *buf, size_t len)
{
	double b = p->rate_bps;
	if (b >= 1e9)
		snprintf(buf, len, "%.2f GB/s", b / 1e9);
	else
		snprintf(buf, len, "%.0f MB/s", b / 1e6);
	/* Below 64 KiB per I/O the IOPS say more than the bytes. */
	if (p->rate_iops > 0 && b / p->rate_iops < 65536) {
		size_t used = strlen(buf);
		if (p->rate_iops >= 1e6)
			snprintf(buf + used, len - used, ", %.2fM IOPS", p->rate_iops / 1e6);
		else
			snprintf(buf + used, len - used, ", %.1fk IOPS", p->rate_iops / 1e3);
	}
}

void suite_progress_line(const struct suite_progress *p, char *buf, size_t len)
{
	char doing[64], rate[48] = "", a[32], b[32];
	size_t used = (size_t)snprintf(buf, len, "[%u/%u] %s: %s", p->step_no,
				       p->nsteps, p->step,
				       shorten(p->doing, 40, doing, sizeof doing));
#define ADD(...) do { if (used < len) \
	used += (size_t)snprintf(buf + used, len - used, __VA_ARGS__); } while (0)
	if (p->step_fraction >= 0)
		ADD("  %3.0f%%", p->step_fraction * 100);
	if (p->rate_bps > 0) {
		rate_text(p, rate, sizeof rate);
		ADD("  %s", rate);
	}
	if (p->step_drive_writes >= 0.005)
		ADD("  %.2f DW", p->step_drive_writes);
	if (p->step_eta_s >= 0)
		ADD("  step ETA %s", fmt_duration_s(p->step_eta_s, a, sizeof a));
	if (p->plan_eta_s >= 0)
		ADD("  plan ETA ~%s", fmt_duration_s(p->plan_eta_s, b, sizeof b));
	if (p->virtual_clock && (p->step_eta_s >= 0 || p->plan_eta_s >= 0))
		ADD(" (drive's time)");
#undef ADD
}

static void progress(void *ctx, const struct suite_progress *p)
{
	struct suite_term *t = ctx;
	/* called at every sample: no terminal, no clock read */
	if (!t->tty)
		return;
	double now = now_s();
	if (now - t->last < 0.25)
		return;
	t->last = now;
	char line[256];
	suite_progress_line(p, line, sizeof line);
	fprintf(stderr, "\r\033[K%s", line);
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
