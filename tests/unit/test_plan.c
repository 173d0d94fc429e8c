/* Plans: presets carry the methodology's numbers, settings and plan files
   change them, bad input is refused with where and why, the canonical text
   rebuilds the same plan, and estimates follow from the parameters. */
#include "check.h"

#include <stdio.h>
#include <unistd.h>

#include "suite/plan.h"

#define GiB (1024ull * 1024 * 1024)
#define MiB (1024ull * 1024)
#define NS 1000000000ull

static struct plan plan;	/* large: keep it off the stack */
static struct plan other;

static const struct plan_target big = { .size = 2000ull * 1000 * 1000 * 1000, .logical_block = 512,
					.is_block_device = true, .assumed_rate = 1ull << 30 };
static const struct plan_target small = { .size = 256 * MiB, .logical_block = 512,
					  .is_block_device = true, .assumed_rate = 1ull << 30 };

static bool contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle)) {
		fprintf(stderr, "  message \"%s\" lacks \"%s\"\n", hay, needle);
		return false;
	}
	return true;
}

TEST(presets_have_the_methodology_steps)
{
	struct sb_err e;
	CHECK(plan_init(&plan, "full", &e) == 0);
	CHECK_EQ_U64(plan.nsteps, 19);
	CHECK_EQ_STR(plan.steps[0].name, "purge");
	CHECK_EQ_STR(plan.steps[2].name, "fill");
	CHECK_EQ_STR(plan.steps[7].name, "reclaim");
	CHECK_EQ_STR(plan.steps[8].name, "essd_purge");
	/* beyond the reviewer's stack, and off unless asked for */
	CHECK_EQ_STR(plan.steps[16].name, "load_sweep");
	CHECK(!step_enabled(&plan.steps[16]));
	CHECK_EQ_STR(plan.steps[17].name, "profiles");
	CHECK(!step_enabled(&plan.steps[17]));
	CHECK_EQ_STR(plan.steps[18].name, "boot");
	CHECK(plan_init(&plan, "cssd", &e) == 0);
	CHECK_EQ_U64(plan.nsteps, 8);
	CHECK(plan_init(&plan, "essd", &e) == 0);
	CHECK_EQ_U64(plan.nsteps, 11);
	CHECK_EQ_STR(plan.steps[0].name, "essd_purge");
	CHECK(plan_init(&plan, "quick", &e) == 0);
	CHECK_EQ_U64(plan.nsteps, 19);
	CHECK(plan_init(&plan, "fast", &e) == -1);
	CHECK(contains(e.msg, "unknown preset 'fast'"));
	CHECK(contains(e.msg, "cssd, essd, full, full-scaled, quick"));
}

/*
 * full-scaled is full at a tenth: every setting a drive's capacity bounds
 * (a size, or the time of what a capacity bounds: rests, idles, the sample
 * interval, the steady-state rule's spacing and window) is full's x 0.1,
 * within the rounding to a whole MiB; the measurement times of steady
 * rates (sweep points, load levels, named workloads, boot trials) full's
 * x 0.01; tail latency 10 s;
 * the reclaim idles full's x 0.1 and a longer one; everything else
 * (shares, QDs, block sizes, rates, counts, tolerances, the boot search's
 * latency limits) is full's.
 */
TEST(full_scaled_is_full_at_a_tenth)
{
	struct sb_err e;
	static struct plan full, sc;
	CHECK(plan_init(&full, "full", &e) == 0);
	CHECK(plan_init(&sc, "full-scaled", &e) == 0);
	CHECK(suite_param(&full, "scale")->d == 1);
	CHECK(suite_param(&sc, "scale")->d == 0.1);
	CHECK_EQ_U64(suite_param(&sc, "interval")->u, suite_param(&full, "interval")->u / 10);
	CHECK_EQ_U64(sc.nsteps, full.nsteps);
	int scaled = 0;
	for (uint32_t i = 0; i < full.nsteps; i++) {
		const struct plan_step *f = &full.steps[i], *s = &sc.steps[i];
		for (int k = 0; k < step_nparams(f); k++) {
			const struct param_desc *d = step_desc(f, k);
			const struct param_value *a = &f->v[k], *b = &s->v[k];
			bool tail = !strcmp(f->name, "tail_latency") && !strcmp(d->key, "time");
			bool sweep = (!strcmp(f->kind->name, "sweep") ||
				      !strcmp(f->kind->name, "load_sweep") ||
				      !strcmp(f->kind->name, "profiles")) &&
				     (!strcmp(d->key, "ramp") || !strcmp(d->key, "time"));
			bool trial = !strcmp(f->name, "boot") && strstr(d->key, "_time");
			bool limit = (!strcmp(f->name, "boot") && d->key[0] == 'p') ||
				     !strcmp(d->key, "max") || !strcmp(d->key, "limit");
			/* sizes of data a capacity bounds; block sizes and
			   queue depths are not */
			bool size = (d->type == PT_SIZE || (d->type == PT_AMOUNT && a->d < 0)) &&
				    strcmp(d->key, "bs") && strncmp(d->key + strlen(d->key) - 3, "_bs", 3);
			double by = sweep || trial ? 0.01 : 0.1;
			if (tail) {
				CHECK_EQ_U64(b->u, 10 * NS);
			} else if ((d->type == PT_DURATION && !limit) || size) {
				double want = by * (double)a->u, got = (double)b->u;
				if (fabs(got - want) > 0.005 * want)
					CHECK_FAIL("%s.%s: %s, full %s (x %g)", f->name, d->key,
						   b->text, a->text, by);
				scaled += a->u > 0;
			} else if (d->type == PT_DURATION_LIST) {
				CHECK_EQ_U64(b->n, a->n + 1);
				CHECK(b->n == a->n + 1 && b->ulist[a->n] > b->ulist[a->n - 1]);
				for (uint32_t j = 0; j < a->n && j < b->n; j++)
					if (b->ulist[j] * 10 != a->ulist[j])
						CHECK_FAIL("%s.%s[%u]: %s, full %s", f->name, d->key, j,
							   b->text, a->text);
			} else if (strcmp(a->text, b->text)) {
				CHECK_FAIL("%s.%s: %s, full %s (not a capacity-bound setting)",
					   f->name, d->key, b->text, a->text);
			}
		}
	}
	CHECK(scaled > 20);
}

TEST(full_preset_has_the_reviewers_numbers)
{
	struct sb_err e;
	CHECK(plan_init(&plan, "full", &e) == 0);
	const struct plan_step *f = plan_find(&plan, "fill");
	CHECK_EQ_U64(step_u64(f, "passes"), 2);
	CHECK_EQ_U64(step_u64(f, "bs"), 128 * 1024);
	CHECK_EQ_U64(step_u64(f, "qd"), 256);
	CHECK_EQ_U64(step_amount(f, "share", 1000000, 1), 1000000);
	CHECK_EQ_U64(step_u64(f, "rest"), 300 * NS);

	const struct plan_step *r = plan_find(&plan, "rw_ratio");
	const struct param_value *pcts = step_param(r, "read_pcts");
	CHECK_EQ_U64(pcts->n, 11);
	CHECK_EQ_U64(pcts->ulist[10], 100);
	CHECK_NEAR(step_param(r, "weights")->dlist[0], 0.80, 1e-12);
	CHECK_NEAR(step_param(r, "weights")->dlist[2], 0.05, 1e-12);
	CHECK_EQ_U64(step_u64(r, "min_runs"), 5);
	CHECK_EQ_U64(step_u64(r, "max_runs"), 10);
	CHECK_NEAR(step_double(r, "rse"), 5.0, 1e-12);
	CHECK_EQ_U64(step_amount(r, "span", 1ull << 40, 1), 8 * GiB);

	const struct param_value *idles = step_param(plan_find(&plan, "reclaim"), "idles");
	CHECK_EQ_U64(idles->n, 7);
	CHECK_EQ_U64(idles->ulist[0], 5 * NS);
	CHECK_EQ_U64(idles->ulist[6], 240 * NS);

	const struct plan_step *s = plan_find(&plan, "seq_precond");
	CHECK_NEAR(step_double(s, "min_writes"), 2, 0);
	CHECK_NEAR(step_double(s, "max_writes"), 23, 0);
	CHECK_EQ_U64(step_u64(s, "window"), 30 * NS);
	CHECK_NEAR(step_double(s, "slope_tol"), 10, 0);
	CHECK_EQ_U64(step_u64(s, "rest"), 0);	/* eSSD: no rest */

	const struct plan_step *sw = plan_find(&plan, "rnd_sweeps");
	CHECK_EQ_U64(step_param(sw, "qds")->n, 9);
	CHECK_EQ_U64(step_param(sw, "qds")->ulist[8], 256);
	CHECK_EQ_U64(step_u64(sw, "ramp"), 30 * NS);
	CHECK_EQ_U64(step_u64(sw, "time"), 300 * NS);

	const struct plan_step *b = plan_find(&plan, "boot");
	CHECK_EQ_U64(step_u64(b, "pass_iops"), 60000);
	CHECK_EQ_U64(step_u64(b, "p99"), 10 * 1000000ull);
	CHECK_EQ_U64(step_u64(b, "writer_rate"), 15 * MiB);
	CHECK_EQ_U64(step_u64(b, "n_max"), 256);
	CHECK(!step_enabled(plan_find(&plan, "iu_sweeps")));
	CHECK_EQ_U64(suite_param(&plan, "interval")->u, 100000000ull);
	CHECK(plan_check(&plan, &big, &e) == 0);
}

/* A step's code asking for a key its kind lacks (a bug) does not end the
   process: the lookup answers zero, and plan_step_bug and plan_check
   return an error naming the step and the key. */
TEST(unknown_parameter_key_is_an_error_not_an_abort)
{
	struct sb_err e = { 0 };
	CHECK(plan_init(&plan, "full", &e) == 0);
	struct plan_step *st = plan_find_mut(&plan, "seq_precond");
	CHECK(st != NULL);
	if (!st)
		return;
	CHECK(plan_step_bug(st, &e) == 0);
	CHECK(step_u64(st, "no_such_key") == 0);
	CHECK(step_param(st, "no_such_key")->text[0] == '\0');
	CHECK(step_double(st, "another_missing") == 0.0);
	CHECK(plan_step_bug(st, &e) == -1);
	CHECK(strstr(e.msg, "seq_precond") != NULL);
	CHECK(strstr(e.msg, "no_such_key") != NULL);	/* the first one */
	struct plan_target t = { .size = 64ull << 30, .logical_block = 4096,
				 .is_file = true };
	memset(&e, 0, sizeof e);
	CHECK(plan_check(&plan, &t, &e) == -1);
	CHECK(strstr(e.msg, "no_such_key") != NULL);
}

TEST(settings_change_values_and_refuse_bad_ones)
{
	struct sb_err e;
	CHECK(plan_init(&plan, "full", &e) == 0);
	CHECK(plan_set(&plan, "fill.share=25%", "--set", &e) == 0);
	CHECK_EQ_U64(step_amount(plan_find(&plan, "fill"), "share", 1000, 1), 250);
	CHECK(plan_set(&plan, "reclaim.idles=1m,2m", "--set", &e) == 0);
	CHECK_EQ_U64(step_param(plan_find(&plan, "reclaim"), "idles")->ulist[1], 120 * NS);

	CHECK(plan_set(&plan, "fil.share=25%", "--set", &e) == -1);
	CHECK(contains(e.msg, "unknown step 'fil'"));
	CHECK(plan_set(&plan, "fill.shares=25%", "--set", &e) == -1);
	CHECK(contains(e.msg, "no parameter 'shares'"));
	CHECK(contains(e.msg, "share"));
	CHECK(plan_set(&plan, "fill.share=125%", "--set", &e) == -1);
	CHECK(contains(e.msg, "125%"));
	CHECK(plan_set(&plan, "fill.qd=0", "--set", &e) == -1);
	CHECK(contains(e.msg, "out of range"));
	CHECK(plan_set(&plan, "fill.bs=huge", "--set", &e) == -1);
	CHECK(contains(e.msg, "not a size"));
	CHECK(plan_set(&plan, "seq_precond.rule=magic", "--set", &e) == -1);
	CHECK(contains(e.msg, "slope|deviation|snia"));
	CHECK(plan_set(&plan, "rw_ratio.read_pcts=0,10,101", "--set", &e) == -1);
	CHECK(contains(e.msg, "101"));
	CHECK(plan_set(&plan, "fill.enabled=maybe", "--set", &e) == -1);
	CHECK(plan_set(&plan, "fill", "--set", &e) == -1);
	CHECK(contains(e.msg, "STEP.KEY=VALUE"));
	CHECK(plan_set(&plan, "suite.speed=3", "--set", &e) == -1);
	/* A failed setting leaves the old value. */
	CHECK_EQ_U64(step_u64(plan_find(&plan, "fill"), "qd"), 256);
	/* A step of the other half is known but not in this preset. */
	CHECK(plan_init(&plan, "cssd", &e) == 0);
	CHECK(plan_set(&plan, "boot.n_max=8", "--set", &e) == -1);
	CHECK(contains(e.msg, "not in preset cssd"));
}

TEST(plan_file_errors_name_file_line_and_reason)
{
	struct sb_err e;
	CHECK(plan_init(&plan, "full", &e) == 0);
	CHECK(plan_read_text(&plan, "p.ini",
			     "# 90 % variant\n[fill]\npasses=2 share=90%  ; comment\n\n"
			     "[suite] interval=200ms\n[reclaim]\nidles=10s,1m\n", &e) == 0);
	CHECK_NEAR(step_param(plan_find(&plan, "fill"), "share")->d, 90, 0);
	CHECK_EQ_U64(suite_param(&plan, "interval")->u, 200000000ull);
	CHECK_EQ_STR(step_param(plan_find(&plan, "fill"), "share")->origin, "p.ini:3");

	CHECK(plan_read_text(&plan, "p.ini", "[fill]\npasses=2\n[bogus]\n", &e) == -1);
	CHECK(contains(e.msg, "p.ini:3"));
	CHECK(contains(e.msg, "unknown step 'bogus'"));
	CHECK(plan_read_text(&plan, "p.ini", "[fill]\n\npases=2\n", &e) == -1);
	CHECK(contains(e.msg, "p.ini:3"));
	CHECK(contains(e.msg, "no parameter 'pases'"));
	CHECK(plan_read_text(&plan, "p.ini", "[fill]\nqd=lots\n", &e) == -1);
	CHECK(contains(e.msg, "p.ini:2"));
	CHECK(contains(e.msg, "lots"));
	CHECK(plan_read_text(&plan, "p.ini", "qd=1\n", &e) == -1);
	CHECK(contains(e.msg, "before any [section]"));
	CHECK(plan_read_text(&plan, "p.ini", "[fill\n", &e) == -1);
	CHECK(contains(e.msg, "p.ini:1"));
	CHECK(plan_read_text(&plan, "p.ini", "[fill]\nqd\n", &e) == -1);
	CHECK(contains(e.msg, "not key=value"));

	/* From a real file too. */
	char path[] = "/tmp/ssdbench-plan-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("[rw_ratio]\nqds=1,2\n", f);
	fclose(f);
	CHECK(plan_read_file(&plan, path, &e) == 0);
	/* Two queue depths, three weights: refused by the check, at the line. */
	CHECK(plan_check(&plan, &big, &e) == -1);
	CHECK(contains(e.msg, ":2"));
	CHECK(contains(e.msg, path));
	CHECK(contains(e.msg, "one weight per queue depth"));
	unlink(path);
	CHECK(plan_read_file(&plan, path, &e) == -1);
	CHECK(contains(e.msg, path));
}

TEST(impossible_orders_are_refused)
{
	struct sb_err e;
	CHECK(plan_init(&plan, "full", &e) == 0);
	CHECK(plan_read_text(&plan, "o.ini", "[suite]\nsteps=purge,active_range,fill\n", &e) == 0);
	CHECK(plan_check(&plan, &big, &e) == -1);
	CHECK(contains(e.msg, "o.ini:2"));
	CHECK(contains(e.msg, "impossible order: active_range needs fill"));

	CHECK(plan_init(&plan, "full", &e) == 0);
	CHECK(plan_set(&plan, "suite.steps=fill,cssd_precond,active_range", "--set", &e) == 0);
	CHECK(plan_check(&plan, &big, &e) == -1);
	CHECK(contains(e.msg, "cssd_precond erases the drive"));

	CHECK(plan_init(&plan, "full", &e) == 0);
	CHECK(plan_set(&plan, "suite.steps=fill,fill", "--set", &e) == -1);
	CHECK(contains(e.msg, "listed twice"));
	CHECK(plan_set(&plan, "suite.steps=fill,nope", "--set", &e) == -1);
	CHECK(contains(e.msg, "unknown step 'nope'"));

	/* A reorder that keeps what each step needs is fine. */
	CHECK(plan_init(&plan, "full", &e) == 0);
	CHECK(plan_set(&plan, "suite.steps=essd_purge,seq_precond,rnd_precond,rnd_sweeps,seq_sweeps", "--set", &e) == 0);
	CHECK(plan_check(&plan, &big, &e) == 0);
	CHECK_EQ_STR(plan.steps[4].name, "seq_sweeps");
	CHECK(!step_enabled(plan_find(&plan, "fill")));
}

TEST(only_keeps_the_listed_steps)
{
	struct sb_err e;
	CHECK(plan_init(&plan, "full", &e) == 0);
	CHECK(plan_only(&plan, "reclaim,fill", &e) == 0);
	uint32_t on = 0;
	for (uint32_t i = 0; i < plan.nsteps; i++)
		on += step_enabled(&plan.steps[i]);
	CHECK_EQ_U64(on, 2);
	CHECK(step_enabled(plan_find(&plan, "fill")));
	/* --only keeps the methodology's order. */
	CHECK_EQ_STR(plan.steps[2].name, "fill");
	/* active_range alone: its fill was run before, by the user's choice. */
	CHECK(plan_init(&plan, "full", &e) == 0);
	CHECK(plan_only(&plan, "active_range", &e) == 0);
	CHECK(plan_check(&plan, &big, &e) == 0);
	CHECK(plan_only(&plan, "fil", &e) == -1);
	CHECK(contains(e.msg, "--only"));
}

TEST(target_checks)
{
	struct sb_err e;
	/* The reviewer's 8 GiB region does not fit a 256 MiB target. */
	CHECK(plan_init(&plan, "full", &e) == 0);
	CHECK(plan_check(&plan, &small, &e) == -1);
	CHECK(contains(e.msg, "larger than the target"));
	/* quick fits it. */
	CHECK(plan_init(&plan, "quick", &e) == 0);
	CHECK(plan_check(&plan, &small, &e) == 0);
	/* A block size the target cannot do. */
	struct plan_target t4k = small;
	t4k.logical_block = 4096;
	CHECK(plan_set(&plan, "fill.bs=6KiB", "--set", &e) == 0);
	CHECK(plan_check(&plan, &t4k, &e) == -1);
	CHECK(contains(e.msg, "4096 B logical block"));
	/* 512 B reads are skipped, not refused, on a 4 KiB target. */
	CHECK(plan_set(&plan, "fill.bs=8KiB", "--set", &e) == 0);
	CHECK(plan_check(&plan, &t4k, &e) == 0);
	char why[128];
	CHECK(plan_step_skip_reason(plan_find(&plan, "ai_sweep"), &t4k, why, sizeof why) != NULL);
	CHECK(plan_step_skip_reason(plan_find(&plan, "rnd_sweeps"), &t4k, why, sizeof why) == NULL);
	/* Formatting into another LBA format needs a block device. */
	struct plan_target file = small;
	file.is_block_device = false;
	file.is_file = true;
	CHECK(plan_set(&plan, "purge.lbaf=1", "--set", &e) == 0);
	CHECK(plan_check(&plan, &t4k, &e) == 0);
	CHECK(plan_check(&plan, &file, &e) == -1);
	CHECK(contains(e.msg, "lbaf=1 needs an NVMe block device"));
	CHECK(plan_set(&plan, "purge.lbaf=keep", "--set", &e) == 0);
	CHECK(plan_set(&plan, "purge.lbaf=99", "--set", &e) == -1);
	CHECK(plan_set(&plan, "rnd_precond.min_writes=5", "--set", &e) == 0);
	CHECK(plan_check(&plan, &small, &e) == -1);
	CHECK(contains(e.msg, "min_writes"));
}

TEST(canonical_text_rebuilds_the_same_plan)
{
	struct sb_err e;
	CHECK(plan_init(&plan, "quick", &e) == 0);
	CHECK(plan_set(&plan, "fill.share=33%", "--set", &e) == 0);
	CHECK(plan_set(&plan, "suite.steps=purge,fill,active_range", "--set", &e) == 0);
	char *a = plan_canonical(&plan);
	CHECK(plan_from_canonical(&other, a, &e) == 0);
	char *b = plan_canonical(&other);
	CHECK_EQ_STR(a, b);
	CHECK(strstr(a, "fill.share=33%\n") != NULL);
	CHECK_EQ_STR(other.preset, "quick");
	CHECK(!step_enabled(plan_find(&other, "reclaim")));
	CHECK_NEAR(step_param(plan_find(&other, "fill"), "share")->d, 33, 0);
	free(a);
	free(b);
	CHECK(plan_from_canonical(&other, "fill.qd=1\n", &e) == -1);
	CHECK(plan_from_canonical(&other, "preset=full\nfill.qd=zero\n", &e) == -1);
	CHECK(contains(e.msg, "stored plan, line 2"));
}

TEST(estimates_follow_the_parameters)
{
	struct sb_err e;
	struct step_estimate est;
	/* No rates of its own: everything at the assumed one. */
	struct plan_target t = { .size = 100ull * GiB, .logical_block = 512,
				 .is_block_device = true, .assumed_rate = 1ull * GiB };
	CHECK(plan_init(&plan, "full", &e) == 0);
	/* Fill: 2 x 100 GiB at 1 GiB/s, 15 min between passes, 5 min after. */
	plan_estimate_step(plan_find(&plan, "fill"), &t, &est);
	CHECK_EQ_U64(est.bytes_written, 200 * GiB);
	CHECK_NEAR(est.seconds, 200 + 900 + 300, 1e-6);
	/* SEQ sweeps: 3 mixes x 9 QDs x (30 s + 5 min); time-bound, exact. */
	plan_estimate_step(plan_find(&plan, "seq_sweeps"), &t, &est);
	CHECK_NEAR(est.seconds, 3 * 9 * 330, 1e-6);
	CHECK(est.exact);
	/* Steady state: 2 to 23 drive-writes. */
	plan_estimate_step(plan_find(&plan, "rnd_precond"), &t, &est);
	CHECK_EQ_U64(est.bytes_written, 200 * GiB);
	CHECK_EQ_U64(est.bytes_written_max, 2300 * GiB);
	/* Reclaim: 7 cycles of purge, 50 GiB, idle, 1 min. */
	plan_estimate_step(plan_find(&plan, "reclaim"), &t, &est);
	CHECK_NEAR(est.seconds, 7 * (10 + 50 + 60) + (5 + 10 + 15 + 30 + 60 + 120 + 240) + 300, 1e-6);
	CHECK_EQ_U64(est.bytes_written, 7 * (50 * GiB + 60 * GiB));
}

/*
 * The named workloads as a step: off unless asked for (the reviewer's
 * methodology has no such step), its profile names checked when set, its
 * time what the estimate says, its writes each profile's write share.
 */
TEST(profiles_step)
{
	struct sb_err e;
	struct step_estimate est;
	CHECK(plan_init(&plan, "full", &e) == 0);
	const struct plan_step *st = plan_find(&plan, "profiles");
	CHECK(st && !step_enabled(st));
	CHECK(plan_read_text(&plan, "p.ini", "[profiles]\nenabled=yes profiles=vdi,cdn time=1m ramp=0\n",
			     &e) == 0);
	CHECK(step_enabled(st));
	CHECK_EQ_U64(step_param(st, "profiles")->n, 2);
	if (plan_check(&plan, &big, &e))
		CHECK_FAIL("plan_check: %s", e.msg);
	struct plan_target t = { .size = 100ull * GiB, .logical_block = 512,
				 .is_block_device = true, .assumed_rate = 1ull * GiB };
	plan_estimate_step(st, &t, &est);
	CHECK(est.exact);
	CHECK_NEAR(est.seconds, 2 * 60, 1e-6);
	/* VDI writes 80 % of its minute, CDN 5 % */
	CHECK_EQ_U64(est.bytes_written, (uint64_t)(60.0 * GiB * 0.80) + (uint64_t)(60.0 * GiB * 0.05));
	CHECK(plan_set(&plan, "profiles.profiles=vdi,tpcc", "--set", &e) == -1);
	CHECK(contains(e.msg, "'tpcc' is not one of jesd219|oltp|vdi|cdn"));
	CHECK(plan_set(&plan, "profiles.time=0", "--set", &e) == 0);
	CHECK(plan_check(&plan, &big, &e) == -1);
	CHECK(contains(e.msg, "time must be longer than 0"));
}

/*
 * Device queries (health, temperature) during a step: none by default in
 * any step of any preset; a fill or a preconditioning may ask (monitor=);
 * a step that measures latency may not, with the reason.
 */
TEST(no_device_queries_while_latency_is_measured)
{
	struct sb_err e;
	static const char *const presets[] = { "full", "cssd", "essd", "quick", "full-scaled" };
	for (size_t k = 0; k < sizeof presets / sizeof presets[0]; k++) {
		CHECK(plan_init(&plan, presets[k], &e) == 0);
		for (uint32_t i = 0; i < plan.nsteps; i++)
			if (step_u64(&plan.steps[i], "monitor"))
				CHECK_FAIL("%s: step %s monitors by default", presets[k],
					   plan.steps[i].name);
	}
	CHECK(plan_init(&plan, "full", &e) == 0);
	CHECK(plan_set(&plan, "fill.monitor=30s", "--set", &e) == 0);
	CHECK(plan_set(&plan, "seq_precond.monitor=1m", "--set", &e) == 0);
	CHECK(plan_set(&plan, "cssd_precond.monitor=10s", "--set", &e) == 0);
	CHECK_EQ_U64(step_u64(plan_find(&plan, "fill"), "monitor"), 30 * NS);
	CHECK(plan_check(&plan, &big, &e) == 0);
	static const char *const measured[] = { "tail_latency", "rnd_sweeps", "peak", "boot",
						"rw_ratio", "sync_write", "reclaim", "active_range" };
	for (size_t k = 0; k < sizeof measured / sizeof measured[0]; k++) {
		char set[64];
		snprintf(set, sizeof set, "%s.monitor=5s", measured[k]);
		CHECK(plan_init(&plan, "full", &e) == 0);
		CHECK(plan_set(&plan, set, "--set", &e) == 0);
		CHECK(plan_check(&plan, &big, &e) == -1);
		if (!contains(e.msg, "measures latency"))
			CHECK_FAIL("%s: %s", measured[k], e.msg);
	}
}

CHECK_MAIN("plan")
