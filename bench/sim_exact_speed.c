/*
 * CPU per I/O of the simulator's exact streams (every I/O through the
 * discrete engine: sim_submit, timing, sim_reap), without the engine or
 * the store around them.  Not a test: it prints, per drive and stream, the
 * I/Os simulated, the CPU ns per I/O and a checksum of every slice the
 * stream reported (I/O and byte counts, latency histograms bucket by
 * bucket), so two builds can be compared for speed and for identical
 * results in seconds.  Built and run by bench/sim_exact_speed.sh.
 *
 * Each drive is opened at full size (or `-s SCALE`), filled sequentially
 * once (the bulk write path: its line is the fill's CPU), then runs:
 *   boot    256 random 32 KiB readers beside a 15 MiB/s 128 KiB writer
 *           (a flush every 256 MiB) and a 5 MiB/s 128 KiB trimmer, the
 *           boot search's trial;
 *   seqmix  128 KiB sequential 95:5 read/write mix at QD 32 (seq_sweeps);
 *   qd1     4 KiB random reads at QD 1 (the tail step).
 * `-w NAMES` runs only those (after the fill), `-t` sets their virtual
 * seconds (default 5).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/profile.h"
#include "sim/sim.h"

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct tally {
	uint64_t ios, sum;	/* sum: FNV-1a over what the slices said */
};

static void mix(uint64_t *h, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		*h ^= (v >> (8 * i)) & 0xff;
		*h *= 0x100000001b3ull;
	}
}

static void mix_hist(uint64_t *h, const struct lat_hist *l)
{
	mix(h, l->count);
	if (!l->count)
		return;
	mix(h, l->sum);
	mix(h, l->min);
	mix(h, l->max);
	for (uint32_t i = l->lo; i <= l->hi; i++)
		if (l->buckets[i]) {
			mix(h, i);
			mix(h, l->buckets[i]);
		}
}

static int on_slice(void *ctx, const struct sim_slice *sl, struct sb_err *e)
{
	(void)e;
	struct tally *t = ctx;
	t->ios += sl->ios + sl->wios;
	mix(&t->sum, sl->t_end_ns);
	mix(&t->sum, sl->ios);
	mix(&t->sum, sl->bytes);
	mix(&t->sum, sl->wios);
	mix(&t->sum, sl->wbytes);
	mix(&t->sum, sl->next_off);
	mix_hist(&t->sum, sl->lat);
	mix_hist(&t->sum, sl->wlat);
	for (int i = 0; i < SIM_MAX_SIDE; i++) {
		t->ios += sl->side[i].ios;
		mix(&t->sum, sl->side[i].ios);
		if (sl->side[i].lat)
			mix_hist(&t->sum, sl->side[i].lat);
	}
	return 0;
}

/* Streams to run (-w): NULL for all. */
static const char *only;

static int stream(struct sim *s, const char *drive, const char *name,
		  const struct sim_stream *st, uint64_t max_bytes, uint64_t max_ns)
{
	if (only && st->exact && !strstr(only, name))
		return 0;
	struct tally t = { 0, 0xcbf29ce484222325ull };
	struct sb_err e = { 0 };
	double c0 = cpu_s();
	if (sim_run_fluid(s, st, max_bytes, max_ns, 100000000, on_slice, &t, &e)) {
		fprintf(stderr, "%s %s: %s\n", drive, name, e.msg);
		return -1;
	}
	double c = cpu_s() - c0;
	printf("%-16s %-8s %10llu I/Os %8.1f ns/I/O  %6.2f s  sum %016llx\n", drive, name,
		       (unsigned long long)t.ios, t.ios ? c / (double)t.ios * 1e9 : 0, c,
		       (unsigned long long)t.sum);
	return 0;
}

static int drive(const char *name, double scale, double secs)
{
	struct sim_profile p;
	struct sb_err e = { 0 };
	struct sim *s;
	if (profile_lookup(name, &p, &e)) {
		fprintf(stderr, "%s\n", e.msg);
		return -1;
	}
	if (scale < 1)
		profile_scale(&p, scale);
	if (sim_open(&p, 1, &s, &e)) {
		fprintf(stderr, "%s\n", e.msg);
		return -1;
	}
	uint64_t cap = sim_capacity(s), ns = (uint64_t)(secs * 1e9);
	struct sim_stream fill = { .write = true, .bs = 131072, .qd = 32, .span_len = cap };
	struct sim_side side[2] = {
		{ SIM_WRITE, 131072, 0, cap, 15u << 20, 256u << 20, 11 },
		{ SIM_TRIM, 131072, 0, cap, 5u << 20, 0, 12 },
	};
	struct sim_stream boot = { .random = true, .bs = 32768, .qd = 256, .span_len = cap,
				   .seed = 13, .exact = true, .side = side, .nside = 2 };
	struct sim_stream seqmix = { .bs = 131072, .qd = 32, .span_len = cap, .read_pct = 95,
				     .exact = true };
	struct sim_stream qd1 = { .random = true, .bs = 4096, .qd = 1, .span_len = cap,
				  .seed = 14, .exact = true };
	int rc = stream(s, name, "fill", &fill, cap, 0) ||
		 stream(s, name, "boot", &boot, 0, ns) ||
		 stream(s, name, "seqmix", &seqmix, 0, ns) ||
		 stream(s, name, "qd1", &qd1, 0, ns) ? -1 : 0;
	sim_close(s);
	return rc;
}

int main(int argc, char **argv)
{
	double scale = 1, secs = 5;
	int i = 1;
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "-s"))
			scale = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "-t"))
			secs = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "-w"))
			only = argv[i + 1];
		else
			break;
	}
	if (i < argc && argv[i][0] == '-') {
		fprintf(stderr, "usage: sim_exact_speed [-s SCALE] [-t SECONDS] [-w boot,seqmix,qd1] [DRIVE ...]\n");
		return 2;
	}
	int rc = 0;
	if (i == argc)
		for (unsigned k = 0; k < profile_builtin_count(); k++)
			rc |= drive(profile_builtin_name(k), scale, secs);
	for (; i < argc; i++)
		rc |= drive(argv[i], scale, secs);
	return rc ? 1 : 0;
}
