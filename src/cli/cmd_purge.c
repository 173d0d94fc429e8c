/*
 * ssdbench purge TARGET --destroy-data [--method M] [--lbaf N]
 *                [--timeout DURATION] [--json]
 */
#include "cli/commands.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/json.h"
#include "common/units.h"
#include "device/purge.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ssdbench purge TARGET --destroy-data [--method M] "
		"[--lbaf N]\n"
		"                      [--timeout DURATION] [--json]\n\n"
		"Returns TARGET to fresh-out-of-box.  Destroys all its data.\n"
		"  --method M    auto (default: the strongest the device "
		"supports), format,\n"
		"                format-crypto, sanitize-block, "
		"sanitize-crypto,\n"
		"                ata-secure-erase, discard\n"
		"  --lbaf N      NVMe: format into LBA format N (see "
		"'ssdbench info')\n"
		"  --timeout D   give up waiting after D (default 4h)\n"
		"  --json        print the result as JSON\n"
		"A regular file is deleted and recreated at its size.\n");
}

struct progress_state {
	bool warned;		/* told the user Ctrl-C cannot stop it */
	bool open_line;		/* a progress line awaits its newline */
};

/* Purges cannot be stopped midway; say so instead of going quiet. */
static void progress(void *ctx, const char *what, double fraction)
{
	struct progress_state *ps = ctx;
	if (cli_interrupted && !ps->warned) {
		fprintf(stderr, "%sssdbench purge: the %s cannot be stopped "
			"safely; waiting for it to finish\n",
			ps->open_line ? "\n" : "", what);
		ps->warned = true;
	}
	fprintf(stderr, "\r%s: %5.1f%%", what, fraction * 100);
	ps->open_line = true;
}

static int bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "ssdbench purge: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return 2;
}

int cmd_purge(int argc, char **argv)
{
	struct purge_request r = { .method = PURGE_AUTO, .lbaf = -1 };
	bool json = false;
	struct progress_state ps = { false, false };
	struct sb_err e;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--destroy-data")) {
			r.destroy_data = true;
		} else if (!strcmp(a, "--json")) {
			json = true;
		} else if (!strcmp(a, "--method") || !strcmp(a, "--lbaf") ||
			   !strcmp(a, "--timeout")) {
			if (!val)
				return bad_usage("%s needs a value", a);
			i++;
			uint64_t v;
			if (!strcmp(a, "--method")
			    ? purge_method_parse(val, &r.method, &e)
			    : !strcmp(a, "--lbaf")
			    ? parse_uint_range("--lbaf", val, 0,
					       NVME_MAX_LBAF - 1, &v, &e)
			    : parse_duration_ns(val, &r.timeout_ns, &e))
				return bad_usage("%s", e.msg);
			if (!strcmp(a, "--lbaf"))
				r.lbaf = (int)v;
		} else if (a[0] == '-' && a[1]) {
			usage(stderr);
			return bad_usage("unknown option '%s'", a);
		} else if (r.path) {
			return bad_usage("one target only (also got '%s')", a);
		} else {
			r.path = a;
		}
	}
	if (!r.path) {
		usage(stderr);
		return 2;
	}
	if (!r.destroy_data)
		return bad_usage("a purge destroys every byte on %s; add "
				 "--destroy-data to confirm", r.path);

	cli_install_signal_handlers();
	r.progress = progress;
	r.ctx = &ps;
	struct purge_result res;
	int rc = purge_run(&r, &res, &e);
	if (ps.open_line)
		fputc('\n', stderr);
	if (rc) {
		fprintf(stderr, "ssdbench purge: %s\n", e.msg);
		return 1;
	}
	if (json) {
		struct json_writer w;
		json_init(&w, stdout, true);
		purge_result_json(&w, NULL, &res);
		json_finish(&w);
	} else {
		char t[32];
		printf("purged %s by %s in %s\n  %s\n  afterwards: %s\n",
		       r.path, purge_method_name(res.method),
		       fmt_ns(res.duration_ns, t, sizeof t), res.detail,
		       res.verify);
	}
	return 0;
}
