#include "cli/suite_cli.h"

#include <getopt.h>
#include <math.h>
#include <string.h>

#include "common/units.h"
#include "suite/target.h"

static void usage(FILE *out, const char *cmd)
{
	if (!strcmp(cmd, "plan"))
		fprintf(out, "usage: ssdbench plan --preset P --target T [--plan FILE] [--set STEP.KEY=VALUE]...\n"
			     "                     [--only STEP,...] [--size SIZE] [--assume-rate RATE] [--settings]\n"
			     "       ssdbench plan --describe\n");
	else
		fprintf(out, "usage: ssdbench suite --target T [--target T2 ...] --preset P [--plan FILE]\n"
			     "                      [--set STEP.KEY=VALUE]... [--only STEP,...] [--size SIZE]\n"
			     "                      [--destroy-data] [--db FILE] [--no-pin]\n");
	fprintf(out, "\n"
		"  --preset P        %s\n"
		"  --target T        a block device, a file, or sim:PROFILE\n"
		"  --plan FILE       settings per step, INI: [fill] passes=2 share=90%%\n"
		"  --set S.K=V       one setting, after the plan file (repeatable)\n"
		"  --only S,...      run only these steps, in the methodology's order\n"
		"  --size SIZE       file targets: create or extend to SIZE\n",
		plan_preset_names());
	if (!strcmp(cmd, "plan"))
		fprintf(out,
			"  --assume-rate R   rate for estimating byte-bound steps (default: a simulated\n"
			"                    drive's sustained write rate, else 1GiB/s)\n"
			"  --settings        print every setting (a complete plan file) instead\n"
			"  --describe        every step and setting: type, default, the quick preset's\n"
			"                    value, meaning (nothing else may be given with it)\n");
	else
		fprintf(out,
			"  --destroy-data    allow writing a block device (its data is erased)\n"
			"  --db FILE         results database (default %s)\n"
			"  --no-pin          several --target (up to %d, all at once, a run each):\n"
			"                    do not pin each target's threads to CPUs of its own\n",
			"ssdbench.db", SUITE_CLI_MAX_TARGETS);
}

int suite_cli_parse(const char *cmd, int argc, char **argv,
		    struct suite_cli *o)
{
	static const struct option longopts[] = {
		{ "target", required_argument, NULL, 't' },
		{ "preset", required_argument, NULL, 'p' },
		{ "plan", required_argument, NULL, 'f' },
		{ "set", required_argument, NULL, 's' },
		{ "only", required_argument, NULL, 'o' },
		{ "size", required_argument, NULL, 'z' },
		{ "db", required_argument, NULL, 'd' },
		{ "destroy-data", no_argument, NULL, 'D' },
		{ "assume-rate", required_argument, NULL, 'r' },
		{ "settings", no_argument, NULL, 'S' },
		{ "no-pin", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sb_err e;
	memset(o, 0, sizeof *o);
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (o->ntargets == SUITE_CLI_MAX_TARGETS ||
			    (o->ntargets && strcmp(cmd, "suite"))) {
				if (strcmp(cmd, "suite"))
					fprintf(stderr, "ssdbench %s: --target is given once here\n", cmd);
				else
					fprintf(stderr, "ssdbench suite: more than %d targets at once\n",
						SUITE_CLI_MAX_TARGETS);
				return 2;
			}
			for (int i = 0; i < o->ntargets; i++)
				if (!strcmp(o->targets[i], optarg)) {
					fprintf(stderr, "ssdbench %s: --target %s is given twice\n",
						cmd, optarg);
					return 2;
				}
			o->targets[o->ntargets++] = optarg;
			o->target = o->targets[0];
			break;
		case 'P': o->no_pin = true; break;
		case 'p': o->preset = optarg; break;
		case 'f': o->plan_file = optarg; break;
		case 'o': o->only = optarg; break;
		case 'd': o->db = optarg; break;
		case 'D': o->destroy_data = true; break;
		case 'S': o->settings = true; break;
		case 's':
			if (o->nsets == SUITE_CLI_MAX_SETS) {
				fprintf(stderr, "ssdbench %s: more than %d --set options\n",
					cmd, SUITE_CLI_MAX_SETS);
				return 2;
			}
			o->sets[o->nsets++] = optarg;
			break;
		case 'z':
			if (parse_size(optarg, &o->file_size, &e)) {
				fprintf(stderr, "ssdbench %s: --size: %s\n", cmd, e.msg);
				return 2;
			}
			break;
		case 'r':
			if (parse_rate(optarg, &o->assumed_rate, &e) || !o->assumed_rate) {
				fprintf(stderr, "ssdbench %s: --assume-rate: '%s' is not a rate above 0\n",
					cmd, optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout, cmd);
			return -1;
		default:
			fprintf(stderr, "ssdbench %s: unknown or incomplete option '%s'\n",
				cmd, argv[optind - 1]);
			usage(stderr, cmd);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "ssdbench %s: unexpected argument '%s'\n", cmd, argv[optind]);
		return 2;
	}
	if (!o->target || !o->preset) {
		fprintf(stderr, "ssdbench %s: %s is required (presets: %s)\n", cmd,
			!o->target ? "--target" : "--preset", plan_preset_names());
		usage(stderr, cmd);
		return 2;
	}
	return 0;
}

int suite_cli_build(const struct suite_cli *o, struct plan *p,
		    struct plan_target *t, struct sb_err *e)
{
	if (plan_init(p, o->preset, e))
		return -1;
	if (o->plan_file && plan_read_file(p, o->plan_file, e))
		return -1;
	for (int i = 0; i < o->nsets; i++)
		if (plan_set(p, o->sets[i], "--set", e))
			return sb_err_wrap(e, "--set %s", o->sets[i]);
	if (o->only && plan_only(p, o->only, e))
		return -1;
	if (plan_target_probe(o->target, o->file_size, t, e))
		return -1;
	if (o->assumed_rate)
		plan_rates_assume(t, o->assumed_rate);
	return plan_check(p, t, e);
}

const char *fmt_duration_s(double s, char *buf, unsigned len)
{
	if (!isfinite(s) || s < 0)
		s = 0;
	uint64_t v = (uint64_t)llround(s);
	if (v >= 86400)
		snprintf(buf, len, "%llud %02lluh", (unsigned long long)(v / 86400),
			 (unsigned long long)(v % 86400 / 3600));
	else if (v >= 3600)
		snprintf(buf, len, "%lluh %02llum", (unsigned long long)(v / 3600),
			 (unsigned long long)(v % 3600 / 60));
	else if (v >= 60)
		snprintf(buf, len, "%llum %02llus", (unsigned long long)(v / 60),
			 (unsigned long long)(v % 60));
	else if (s >= 1 || s == 0)
		snprintf(buf, len, "%llus", (unsigned long long)v);
	else
		snprintf(buf, len, "%.1fs", s);
	return buf;
}

/* Drive-writes, short: "2.0 DW". */
static double dw(uint64_t bytes, const struct plan_target *t)
{
	return t->size ? (double)bytes / (double)t->size : 0;
}

/* How the estimates were made: the simulated drive's rates, or one
   assumed rate. */
static void print_estimate_basis(FILE *out, const struct plan_target *t,
				 bool assumed_by_user)
{
	const struct plan_rates *r = &t->rates;
	char a[32], b[32];
	fprintf(out, "estimates: time-bound steps exactly; '~' where a step is bound by bytes,\n");
	if (!r->from_profile || assumed_by_user) {
		fprintf(out, "  at %s/s for every write (%s)\n\n",
			fmt_bytes(t->assumed_rate, a, sizeof a),
			assumed_by_user ? "--assume-rate"
					: "an assumption: no rates are known for this target; "
					  "--assume-rate sets one");
		return;
	}
	fprintf(out, "  at the simulated drive's rates, from its profile:");
	if (r->cache_empty > 0)
		fprintf(out, " SLC cache %s\n  (%s when full) at %.2f GB/s, then sequential %.2f GB/s"
			" (folding what the\n  cache took costs its size again)",
			fmt_bytes_si((uint64_t)r->cache_empty, a, sizeof a),
			fmt_bytes_si((uint64_t)r->cache_full, b, sizeof b), r->cache_bps / 1e9,
			r->seq_bps / 1e9);
	else
		fprintf(out, " sequential\n  %.2f GB/s", r->seq_bps / 1e9);
	fprintf(out, "; 4 KiB random writes %.0f MB/s (%.1fk IOPS, full drive)",
		r->rnd_bps / 1e6, r->rnd_bps / 4096 / 1e3);
	if (r->sync_write_s > 0)
		fprintf(out, ";\n  an O_SYNC write %.0f us", r->sync_write_s * 1e6);
	fprintf(out, ".  Steady state at its minimum drive-writes, the boot search\n"
		"  passing at every N; \"up to\": steady state at the maximum, every bisection.\n\n");
}

void suite_cli_print_plan(FILE *out, const struct plan *p,
			  const struct plan_target *t, const char *target,
			  bool assumed_by_user)
{
	char b1[32], b2[32], b3[32];
	fprintf(out, "plan: preset %s on %s (%s, %u B logical blocks, %s)\n",
		p->preset, target, fmt_bytes_si(t->size, b1, sizeof b1),
		t->logical_block,
		t->is_sim ? "simulated drive" : t->is_file ? "file" : "block device");
	print_estimate_basis(out, t, assumed_by_user);
	double total_s = 0, total_smax = 0;
	uint64_t total_w = 0, total_wmax = 0;
	int n = 0;
	for (uint32_t i = 0; i < p->nsteps; i++) {
		const struct plan_step *st = &p->steps[i];
		if (!step_enabled(st))
			continue;
		struct step_estimate est;
		plan_estimate_step(st, t, &est);
		char why[160];
		const char *skip = plan_step_skip_reason(st, t, why, sizeof why);
		fprintf(out, "%2d. %-13s %s\n", ++n, st->name, st->summary);
		if (skip) {
			fprintf(out, "    skipped: %s\n", skip);
			continue;
		}
		fprintf(out, "    time %s%s", est.exact ? "" : "~",
			fmt_duration_s(est.seconds, b2, sizeof b2));
		if (est.seconds_max > est.seconds * 1.005)
			fprintf(out, " (up to %s)", fmt_duration_s(est.seconds_max, b2, sizeof b2));
		fprintf(out, ", writes %s (%.2f DW)",
			fmt_bytes(est.bytes_written, b3, sizeof b3),
			dw(est.bytes_written, t));
		if (est.bytes_written_max > est.bytes_written)
			fprintf(out, ", up to %s (%.2f DW)",
				fmt_bytes(est.bytes_written_max, b3, sizeof b3),
				dw(est.bytes_written_max, t));
		fputc('\n', out);
		/* The settings, wrapped to the terminal's usual width. */
		int col = 0;
		for (int k = 0; k < step_nparams(st); k++) {
			const char *key = step_desc(st, k)->key;
			if (!strcmp(key, "enabled"))
				continue;	/* implied */
			char word[256];
			int len = snprintf(word, sizeof word, "%s=%s", key, st->v[k].text);
			if (col && col + len + 1 > 76) {
				fputc('\n', out);
				col = 0;
			}
			fprintf(out, "%s%s", col ? " " : "    ", word);
			col += len + (col ? 1 : 4);
		}
		fputc('\n', out);
		total_s += est.seconds;
		total_smax += est.seconds_max;
		total_w += est.bytes_written;
		total_wmax += est.bytes_written_max;
	}
	fprintf(out, "\ntotal: %d steps, ~%s", n, fmt_duration_s(total_s, b1, sizeof b1));
	if (total_smax > total_s * 1.005)
		fprintf(out, " (up to %s)", fmt_duration_s(total_smax, b1, sizeof b1));
	fprintf(out, ", writes %s (%.1f drive-writes)",
		fmt_bytes(total_w, b2, sizeof b2), dw(total_w, t));
	if (total_wmax > total_w)
		fprintf(out, ", up to %s (%.1f DW) if steady state comes late",
			fmt_bytes(total_wmax, b3, sizeof b3), dw(total_wmax, t));
	fputc('\n', out);
}
