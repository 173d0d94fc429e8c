/*
 * ssdbench run: one workload from the command line, or several from a job
 * file, on one target.  Checks safety, prepares file targets, runs the
 * engine with the database and progress attached, and prints the summary
 * or JSON of what was measured, also when the run fails or is interrupted.
 * Several targets at once: run_multi.c, each through run_target.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/multi.h"
#include "cli/run_options.h"
#include "cli/run_output.h"
#include "cli/run_sink.h"
#include "common/rng.h"
#include "device/file_mark.h"
#include "device/file_space.h"
#include "device/host.h"
#include "device/safety.h"
#include "device/target_json.h"
#include "engine/engine.h"
#include "store/store.h"
#include "suite/totals.h"

/* Whether a file target must be written before it is read: it is new,
   grows, or has holes. */
static bool file_needs_fill(const char *path, uint64_t size)
{
	struct stat st;
	if (stat(path, &st))
		return true;
	if (!S_ISREG(st.st_mode))
		return false;
	uint64_t want = size > (uint64_t)st.st_size ? size : (uint64_t)st.st_size;
	return (uint64_t)st.st_blocks * 512 < want;
}

/* Write the whole file once, sequentially, so reads never hit holes. */
static int fill_file(struct engine *eng, struct run_sink *sink, struct sb_err *e)
{
	const struct target_facts *f = engine_facts(eng);
	struct workload w;
	workload_defaults(&w);
	snprintf(w.name, sizeof w.name, "prepare");
	w.read_pct = 0;
	w.qd = 4;
	w.bs = 1u << 20;
	while (w.bs > f->logical_block && f->size % w.bs)
		w.bs /= 2;
	w.stop_bytes = f->size;
	struct engine_hooks h;
	struct run_sink quiet = { .progress = sink->progress, .label = "preparing file" };
	run_sink_hooks(&quiet, &h);
	struct engine_result res;
	int rc = engine_run(eng, &w, 1, &h, &res, e);
	run_sink_clear(&quiet);
	engine_result_free(&res);
	if (rc)
		return sb_err_wrap(e, "writing %s before reading it", f->path);
	return 0;
}

static char *join_args(int argc, char **argv)
{
	size_t len = strlen("ssdbench") + 1;
	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	char *s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, "ssdbench");
	for (int i = 0; i < argc; i++) {
		strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/* Record the run's start in the database; sink->st stays NULL without one. */
static int store_begin(const struct run_options *o, struct engine *eng,
		       const struct workload *w, int argc, char **argv,
		       struct run_sink *sink, struct sb_err *e)
{
	if (o->no_db)
		return 0;
	if (store_open(o->db[0] ? o->db : STORE_DEFAULT_PATH, &sink->st, e))
		return -1;
	/* Tests only: a store made slow on purpose (docs/run.md, stalls). */
	const char *delay = getenv("SSDBENCH_TEST_COMMIT_DELAY_MS");
	if (delay && *delay)
		store_set_commit_delay(sink->st, strtoull(delay, NULL, 10) * 1000000ull);
	if (o->shared_db)
		store_set_commit_every(sink->st, 0);
	char *cmd = join_args(argc, argv), *host = host_facts_json_string();
	char *facts = target_facts_json_string(engine_facts(eng));
	struct run_begin b = { .kind = "run", .target = o->target, .command_line = cmd,
			       .params_json = NULL, .host_json = host };
	int rc = store_run_begin(sink->st, &b, &sink->run_id, e);
	if (!rc)
		rc = store_run_target_facts(sink->st, sink->run_id, "before", facts, e);
	free(cmd);
	free(host);
	free(facts);
	for (uint32_t i = 0; !rc && i < o->nwl; i++) {
		char *spec = workload_json_string(&w[i]);
		rc = store_workload_begin(sink->st, sink->run_id, 0, i, w[i].name, spec,
					  &sink->wl_id[i], e);
		free(spec);
	}
	if (!rc)
		rc = store_tick(sink->st, true, e);
	return rc;
}

static int store_end(struct run_sink *sink, const struct engine_result *res,
		     const char *status, const char *error, struct sb_err *e)
{
	if (!sink->st)
		return 0;
	int rc = 0;
	for (uint32_t i = 0; !rc && i < res->nworkloads; i++) {
		const struct workload_result *r = &res->wl[i];
		struct store_totals t;
		store_totals_of(r, &t);
		rc = store_workload_totals(sink->st, sink->wl_id[i], &t, r->hist, true, e);
		if (!rc)
			rc = store_workload_finish(sink->st, sink->wl_id[i], status, res->mode, e);
	}
	char *facts = target_facts_json_string(&res->facts);
	if (!rc && facts)
		rc = store_run_target_facts(sink->st, sink->run_id, "after", facts, e);
	free(facts);
	if (!rc)
		rc = store_run_finish(sink->st, sink->run_id, status, error, e);
	if (!rc)
		rc = store_tick(sink->st, true, e);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run_options *o = calloc(1, sizeof *o);
	struct sb_err e;
	if (!o) {
		fprintf(stderr, "ssdbench run: out of memory\n");
		return 1;
	}
	if (run_options_parse(argc, argv, o, &e)) {
		fprintf(stderr, "ssdbench run: %s\n", e.msg);
		free(o);
		return 2;
	}
	if (o->help) {
		run_options_usage();
		free(o);
		return 0;
	}
	int rc = o->ntargets > 1 ? run_multi(o, argc, argv) : run_target(o, argc, argv, NULL);
	free(o);
	return rc;
}

int run_target(const struct run_options *o_in, int argc, char **argv, int64_t *run_id)
{
	struct run_options *o = malloc(sizeof *o);
	struct sb_err e;
	int exit_code = 1;
	struct engine *eng = NULL;
	struct run_sink sink = { .progress = isatty(2), .label = "" };
	struct engine_result res = { 0 };
	bool have_res = false, store_failed = false;
	if (!o) {
		fprintf(stderr, "ssdbench run: out of memory\n");
		return 1;
	}
	*o = *o_in;	/* resolve fills in the workloads for this target */
	sink.batch = o->batch;
	cli_install_signal_handlers();
	if (o->sqpoll && sysconf(_SC_NPROCESSORS_ONLN) <= 2)
		fprintf(stderr, "ssdbench run: --sqpoll on a machine with %ld CPUs: each ring's "
			"kernel thread spins on a CPU the I/O threads need; expect lower "
			"throughput\n", sysconf(_SC_NPROCESSORS_ONLN));

	bool write = run_options_write(o);
	/* A simulated drive ("sim:...") is neither a file to prepare nor a
	   device to protect: only paths go through preparation and safety. */
	bool is_path = backend_for(o->target) == &backend_uring;
	struct stat st;
	bool is_file = is_path && (stat(o->target, &st) ? errno == ENOENT : S_ISREG(st.st_mode));
	bool fill = is_file && file_needs_fill(o->target, o->size);
	bool created = is_file && access(o->target, F_OK) != 0;
	/* An impossible size is the first thing to say: before asking to
	   destroy a file that could not be grown anyway.  The same check
	   as the engine's open makes (holes count as not yet held), so a
	   run on several targets refuses it before any of them starts. */
	if (is_file && o->size &&
	    file_space_check(o->target, !created && (uint64_t)st.st_size > o->size ?
					    (uint64_t)st.st_size : o->size, &e))
		goto usage;
	/* Filling writes the whole file: never silently to one ssdbench did
	   not make (a sparse VM image has holes too). */
	if (fill && run_options_read(o) && !created && !file_is_ours(o->target)) {
		if (!o->destroy_data) {
			sb_errf(&e, "%s exists and has unwritten parts (holes, or "
				"--size beyond its end); reading them would measure "
				"nothing, so the whole file would first be written "
				"with random data, destroying its contents. Give "
				"--destroy-data to allow that, or a new file",
				o->target);
			goto usage;
		}
		fprintf(stderr, "ssdbench run: --destroy-data: writing all of %s "
			"with random data before reading it; its contents are "
			"lost\n", o->target);
	}
	struct safety_request sr = { .path = o->target, .write = write || fill,
				     .destroy_data = o->destroy_data };
	if (is_path && safety_check(&sr, &e))
		goto fail;
	if (o->check_only) {
		exit_code = 0;
		goto out;
	}
	struct engine_opts eo = {
		.target = o->target, .file_size = o->size, .interrupted = &cli_interrupted,
		.iopoll = o->iopoll, .sqpoll = o->sqpoll, .batch = o->batch,
		.interval_ns = o->interval_ns, .iolog_path = o->iolog[0] ? o->iolog : NULL,
		.allow_write = write || fill,
	};
	if (engine_open(&eo, &eng, &e))
		goto fail;
	if (created)
		file_mark_ours(o->target);	/* a later fill needs no flag */
	const struct target_facts *facts = engine_facts(eng);
	if (run_options_resolve(o, facts->size, &e))
		goto usage;
	struct workload w[RUN_MAX_WORKLOADS];
	uint64_t seed_base = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	for (uint32_t i = 0; i < o->nwl; i++) {
		w[i] = o->wl[i].w;
		/* Pick the seed here, so the output and the database record the
		   one that ran and a run can be repeated with --seed. */
		if (!w[i].seed) {
			uint64_t x = seed_base + i;
			w[i].seed = seed_draw(&x);
		}
		if (workload_validate(&w[i], facts->size, facts->logical_block, &e)) {
			sb_err_wrap(&e, "%s", facts->path);
			goto usage;
		}
	}
	fill = fill && run_options_read(o);
	if (fill && fill_file(eng, &sink, &e))
		goto fail;
	if (store_begin(o, eng, w, argc, argv, &sink, &e))
		goto fail;

	struct engine_hooks hooks;
	run_sink_hooks(&sink, &hooks);
	if (o->start_gate)
		o->start_gate(o->start_gate_ctx);
	int rc = engine_run(eng, w, o->nwl, &hooks, &res, &e);
	have_res = res.wl != NULL;
	run_sink_clear(&sink);
	const char *status = rc ? "failed" : cli_interrupted ? "interrupted" : "done";
	if (o->iopoll && strncmp(res.mode, "iopoll", 6) && strncmp(res.mode, "sqpoll+iopoll", 13))
		fprintf(stderr, "ssdbench run: polling was asked for but the device cannot "
			"poll; ran in mode '%s'\n", res.mode);
	struct sb_err se;
	/* "run N stored" only when it was: a database that filled up, vanished
	   or failed kept less than the run measured, and the exit says so. */
	bool stored = sink.st != NULL;
	if (store_end(&sink, &res, status, rc ? e.msg : NULL, &se)) {
		fprintf(stderr, "ssdbench run: results database: %s; run %" PRId64
			" was NOT stored completely\n", se.msg, sink.run_id);
		stored = false;
		store_failed = true;
	}
	if (have_res) {
		struct run_report rep = { .res = &res, .w = w, .run_id = stored ? sink.run_id : 0,
					  .status = status, .error = rc ? e.msg : NULL,
					  .batch = res.batch,
					  .iopoll = o->iopoll, .sqpoll = o->sqpoll, .mib = o->mib };
		if (o->json)
			run_print_json(stdout, &rep);
		else
			run_print_summary(stdout, &rep);
	}
	if (rc) {
		fprintf(stderr, "ssdbench run: %s\n", e.msg);
		exit_code = 1;
	} else {
		exit_code = store_failed ? 1 : cli_interrupted ? 130 : 0;
	}
	goto out;
usage:
	fprintf(stderr, "ssdbench run: %s\n", e.msg);
	exit_code = 2;
	goto out;
fail:
	fprintf(stderr, "ssdbench run: %s\n", e.msg);
	exit_code = 1;
out:
	if (run_id)
		*run_id = sink.st ? sink.run_id : 0;
	if (have_res)
		engine_result_free(&res);
	if (sink.st)
		store_close(sink.st);
	engine_close(eng);
	free(o);
	return exit_code;
}
