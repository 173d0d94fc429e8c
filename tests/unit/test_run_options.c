/* `ssdbench run` options: fio aliases, job files, values that need the
   target's size, and the refusals of bad input. */
#include "check.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/run_options.h"
#include "engine/profiles.h"
#include "common/sample.h"

static int parse(struct run_options *o, struct sb_err *e, const char **args)
{
	char *argv[64];
	int argc = 0;
	argv[argc++] = (char *)"run";
	for (; *args; args++)
		argv[argc++] = (char *)*args;
	return run_options_parse(argc, argv, o, e);
}

TEST(options_fio_aliases_and_values)
{
	static struct run_options o;
	struct sb_err e;
	const char *a[] = { "--filename=/dev/x", "--readwrite", "randrw", "--rwmixread=70",
			    "--blocksize=128k", "--iodepth", "32", "--numjobs=4", "--runtime=2m",
			    "--ramp_time=5s", "--rate=15MiB/s", "--sync", "--direct=0",
			    "--hipri", "--seed=9", NULL };
	CHECK(parse(&o, &e, a) == 0);
	CHECK_EQ_STR(o.target, "/dev/x");
	CHECK(run_options_resolve(&o, 1ull << 30, &e) == 0);
	const struct workload *w = &o.wl[0].w;
	CHECK_EQ_U64(o.nwl, 1);
	CHECK(w->pattern == PATTERN_RAND);
	CHECK_EQ_U64(w->read_pct, 70);
	CHECK_EQ_U64(w->bs, 131072);
	CHECK_EQ_U64(w->qd, 32);
	CHECK_EQ_U64(w->jobs, 4);
	CHECK_EQ_U64(w->stop_time_ns, 120000000000ull);
	CHECK_EQ_U64(w->ramp_ns, 5000000000ull);
	CHECK_EQ_U64(w->rate, 15u << 20);
	CHECK(w->sync && w->buffered && o.iopoll);
	CHECK_EQ_U64(w->seed, 9);
	CHECK_EQ_U64(w->stop_bytes, 0);
	CHECK(run_options_write(&o));
}

TEST(options_bytes_percent_of_span_and_default_one_pass)
{
	static struct run_options o;
	struct sb_err e;
	const char *a[] = { "--target", "f", "--rw", "write", "--bs", "4k", "--span", "1m:10m",
			    "--bytes", "50%", NULL };
	CHECK(parse(&o, &e, a) == 0);
	CHECK(run_options_resolve(&o, 1ull << 30, &e) == 0);
	CHECK_EQ_U64(o.wl[0].w.span_offset, 1 << 20);
	CHECK_EQ_U64(o.wl[0].w.span_len, 10 << 20);
	CHECK_EQ_U64(o.wl[0].w.stop_bytes, 5 << 20);
	const char *b[] = { "--target", "f", "--rw", "read", "--bs", "4k", "--span", "25%", NULL };
	CHECK(parse(&o, &e, b) == 0);
	CHECK(run_options_resolve(&o, 1ull << 30, &e) == 0);
	/* neither time nor amount: the span once */
	CHECK_EQ_U64(o.wl[0].w.stop_bytes, 256 << 20);
	CHECK(!run_options_write(&o));
	const char *c[] = { "--target", "f", "--rw", "trim", NULL };
	CHECK(parse(&o, &e, c) == 0);
	CHECK(run_options_resolve(&o, 1ull << 20, &e) == 0);
	CHECK_EQ_U64(o.wl[0].w.trim_pct, 100);
	CHECK(run_options_write(&o));
}

TEST(options_refusals)
{
	static struct run_options o;
	struct sb_err e;
	const char *a[] = { "--target", "f", "--bogus", NULL };
	CHECK(parse(&o, &e, a) == -1 && strstr(e.msg, "unknown option '--bogus'"));
	const char *b[] = { "--target", "f", "--qd", NULL };
	CHECK(parse(&o, &e, b) == -1 && strstr(e.msg, "needs a value"));
	const char *c[] = { "--rw", "read", NULL };
	CHECK(parse(&o, &e, c) == -1 && strstr(e.msg, "no target"));
	const char *d[] = { "--target", "f", "--jobs", "0", NULL };
	CHECK(parse(&o, &e, d) == -1 && strstr(e.msg, "out of range"));
	const char *f[] = { "--target", "f", "--rw", "read", "--rwmixread", "30", NULL };
	CHECK(parse(&o, &e, f) == 0);
	CHECK(run_options_resolve(&o, 1 << 30, &e) == -1 && strstr(e.msg, "rwmixread applies"));
	const char *g[] = { "--target", "f", "positional", NULL };
	CHECK(parse(&o, &e, g) == -1 && strstr(e.msg, "unexpected argument"));
}

TEST(options_job_file)
{
	static struct run_options o;
	struct sb_err e;
	char path[] = "/tmp/ssdbench-jobfile-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	fputs("; comment\n[global]\nbs=8k\nruntime=10s\n\n[fg]\nrw=randread\niodepth=16\n"
	      "# another\n[bg]\nrw=write\nbs=1m\nrate=5m\nsync\n", f);
	fclose(f);
	const char *a[] = { "--target", "/dev/x", "--qd", "2", "--job", path, NULL };
	CHECK(parse(&o, &e, a) == 0);
	CHECK(run_options_resolve(&o, 1ull << 30, &e) == 0);
	CHECK_EQ_U64(o.nwl, 2);
	CHECK_EQ_STR(o.wl[0].w.name, "fg");
	CHECK_EQ_U64(o.wl[0].w.bs, 8192);
	CHECK_EQ_U64(o.wl[0].w.qd, 16);
	CHECK_EQ_U64(o.wl[0].w.stop_time_ns, 10000000000ull);
	CHECK_EQ_STR(o.wl[1].w.name, "bg");
	CHECK_EQ_U64(o.wl[1].w.bs, 1 << 20);
	CHECK_EQ_U64(o.wl[1].w.qd, 2);	/* from the command line */
	CHECK_EQ_U64(o.wl[1].w.rate, 5 << 20);
	CHECK(o.wl[1].w.sync && !o.wl[0].w.sync);
	f = fopen(path, "w");
	fputs("[global]\nbs=4k\n", f);
	fclose(f);
	CHECK(parse(&o, &e, a) == -1 && strstr(e.msg, "no workload section"));
	f = fopen(path, "w");
	fputs("[a]\niodepth\n", f);
	fclose(f);
	CHECK(parse(&o, &e, a) == -1 && strstr(e.msg, ":2: 'iodepth' needs a value"));
	unlink(path);
}

/* JEDEC JESD219's enterprise endurance workload, transcribed from the
   standard's table: transfer size in bytes and share of the accesses in %. */
static const struct { uint32_t bs; double pct; } jesd219_table[] = {
	{ 512, 4 }, { 1024, 1 }, { 1536, 1 }, { 2048, 1 }, { 2560, 1 }, { 3072, 1 },
	{ 3584, 1 }, { 4096, 67 }, { 8192, 10 }, { 16384, 7 }, { 32768, 3 }, { 65536, 3 },
};

TEST(profile_jesd219_is_its_table)
{
	static struct run_options o;
	struct sb_err e;
	const char *a[] = { "--target=x", "--profile", "jesd219", NULL };
	CHECK(parse(&o, &e, a) == 0);
	CHECK(run_options_resolve(&o, 1ull << 30, &e) == 0);
	const struct workload *w = &o.wl[0].w;
	CHECK(w->pattern == PATTERN_RAND && w->read_pct == 0 && w->trim_pct == 0);
	const struct bs_split *s = &w->bssplit[DIR_WRITE];
	CHECK_EQ_U64(s->n, 12);
	for (uint32_t i = 0; i < 12 && i < s->n; i++) {
		CHECK_EQ_U64(s->bs[i], jesd219_table[i].bs);
		CHECK(s->pct[i] == jesd219_table[i].pct);
	}
	/* the sizes drawn: each share within 1 % of the table */
	uint64_t n[12] = { 0 };
	struct rng r;
	rng_seed(&r, 219);
	const int draws = 20000000;
	for (int i = 0; i < draws; i++) {
		uint32_t bs = bs_split_next(s, &r);
		int k = 0;
		while (k < 12 && jesd219_table[k].bs != bs)
			k++;
		if (k < 12)
			n[k]++;
		else
			CHECK_FAIL("size %u is not in the table", bs);
	}
	for (int k = 0; k < 12; k++)
		CHECK_REL(100.0 * (double)n[k] / draws, jesd219_table[k].pct, 0.01);
	/* 50/30/20 % of the accesses to the first 5/15/80 % of the span */
	CHECK(w->dist.kind == DIST_ZONED && w->dist.nzones == 3);
	CHECK(w->dist.zones[0].access_pct == 50 && w->dist.zones[0].span_pct == 5);
	CHECK(w->dist.zones[1].access_pct == 30 && w->dist.zones[1].span_pct == 15);
	CHECK(w->dist.zones[2].access_pct == 20 && w->dist.zones[2].span_pct == 80);
}

TEST(profile_oltp_and_later_options_win)
{
	static struct run_options o;
	struct sb_err e;
	const char *a[] = { "--target=x", "--profile=oltp", "--qd=2", NULL };
	CHECK(parse(&o, &e, a) == 0);
	CHECK(run_options_resolve(&o, 1ull << 30, &e) == 0);
	const struct workload *w = &o.wl[0].w;
	CHECK(w->pattern == PATTERN_RAND);
	CHECK_EQ_U64(w->read_pct, 70);
	CHECK_EQ_U64(w->bs, 8192);
	CHECK_EQ_U64(w->qd, 2);
	static struct run_options o2;
	const char *b[] = { "--target=x", "--profile=tpcc", NULL };
	CHECK(parse(&o2, &e, b) != 0);
	CHECK(strstr(e.msg, "no profile 'tpcc' (there are jesd219, oltp, vdi, cdn)") != NULL);
}

/* VDI-like as docs/run.md gives it from its sources: small random I/O,
   80 % of it writes (20 % reads), QD16. */
TEST(profile_vdi_is_small_write_heavy)
{
	static struct run_options o;
	struct sb_err e;
	const char *a[] = { "--target=x", "--profile=vdi", NULL };
	CHECK(parse(&o, &e, a) == 0);
	CHECK(run_options_resolve(&o, 1ull << 30, &e) == 0);
	const struct workload *w = &o.wl[0].w;
	CHECK(w->pattern == PATTERN_RAND);
	CHECK_EQ_U64(w->read_pct, 20);
	CHECK_EQ_U64(w->bs, 4096);
	CHECK_EQ_U64(w->qd, 16);
	CHECK(!workload_has_bssplit(w) && w->dist.kind == DIST_UNIFORM);
	CHECK(strcmp(workload_rw(w), "randrw") == 0);
}

/* CDN-like: 95 % reads of 128 KiB (50 %), 256 KiB (25 %) and 1 MiB (25 %)
   blocks in both directions, Zipf 1.1 offsets, QD16. */
TEST(profile_cdn_is_read_mostly_large_blocks)
{
	static struct run_options o;
	struct sb_err e;
	const char *a[] = { "--target=x", "--profile", "cdn", "--qd", "4", NULL };
	CHECK(parse(&o, &e, a) == 0);
	CHECK(run_options_resolve(&o, 1ull << 30, &e) == 0);
	const struct workload *w = &o.wl[0].w;
	CHECK(w->pattern == PATTERN_RAND);
	CHECK_EQ_U64(w->read_pct, 95);
	CHECK_EQ_U64(w->qd, 4);	/* the option after the profile */
	static const uint32_t bs[] = { 131072, 262144, 1048576 };
	static const double pct[] = { 50, 25, 25 };
	for (int d = DIR_READ; d <= DIR_WRITE; d++) {
		CHECK_EQ_U64(w->bssplit[d].n, 3);
		for (uint32_t i = 0; i < 3 && i < w->bssplit[d].n; i++) {
			CHECK_EQ_U64(w->bssplit[d].bs[i], bs[i]);
			CHECK(w->bssplit[d].pct[i] == pct[i]);
		}
	}
	CHECK(w->dist.kind == DIST_ZIPF && w->dist.param == 1.1);
}

/* The plan parameter's choices and the table name the same profiles. */
TEST(profile_choices_are_the_table)
{
	char names[256];
	workload_profile_names(names, sizeof names);
	char choices[256];
	snprintf(choices, sizeof choices, "%s", WORKLOAD_PROFILE_CHOICES);
	for (char *c = choices; *c; c++)
		if (*c == '|')
			*c = ',';
	char listed[256] = "";
	for (size_t i = 0; workload_profile_at(i); i++) {
		size_t n = strlen(listed);
		snprintf(listed + n, sizeof listed - n, "%s%s", i ? "," : "",
			 workload_profile_at(i)->name);
		CHECK(workload_profile_find(workload_profile_at(i)->name) == workload_profile_at(i));
	}
	CHECK(strcmp(listed, choices) == 0);
	CHECK(strcmp(names, "jesd219, oltp, vdi, cdn") == 0);
}

CHECK_MAIN("run_options")
