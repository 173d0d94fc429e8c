/*
 * `ssdbench run` on several targets at once: every target passes the
 * refusals before any I/O starts on any of them, then each runs in its own
 * process (multi.c) with the same workloads, all starting their measured
 * I/O together, and each is stored as its own run.  Output: each target's
 * summary under a heading, or with --json an array of the single-target
 * objects in --target order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/multi.h"
#include "cli/run_options.h"
#include "common/json.h"
#include "common/json_check.h"
#include "store/store.h"

struct run_multi_ctx {
	const struct run_options *o;
	int argc;
	char **argv;
};

/* The options of target i alone. */
static struct run_options *options_for(const struct run_options *o, uint32_t i)
{
	struct run_options *t = malloc(sizeof *t);
	if (!t)
		return NULL;
	*t = *o;
	snprintf(t->target, sizeof t->target, "%s", o->targets[i]);
	memcpy(t->targets[0], t->target, sizeof t->target);
	t->ntargets = 1;
	return t;
}

static int child(void *ctx, uint32_t i, struct multi_gate *gate, int64_t *run_id)
{
	const struct run_multi_ctx *x = ctx;
	struct run_options *t = options_for(x->o, i);
	if (!t) {
		fprintf(stderr, "ssdbench run: out of memory\n");
		return 1;
	}
	t->shared_db = true;
	t->start_gate = multi_gate;
	t->start_gate_ctx = gate;
	int rc = run_target(t, x->argc, x->argv, run_id);
	free(t);
	return rc;
}

/* A child that printed nothing (refused, failed before measuring): an
   object in its place, so the array keeps one entry per target. */
static void json_absent(struct json_writer *j, const struct multi_child *c)
{
	json_object_begin(j, NULL);
	json_null(j, "run_id");
	json_string(j, "status", "failed");
	json_string(j, "error", "nothing measured; see the messages on stderr");
	json_object_begin(j, "target");
	json_string(j, "path", c->target);
	json_object_end(j);
	json_object_end(j);
}

static void print_outputs(const struct run_options *o, struct multi_child *c, uint32_t n)
{
	if (!o->json) {
		for (uint32_t i = 0; i < n; i++) {
			printf("%s== target %u: %s ==\n", i ? "\n" : "", i + 1, c[i].target);
			if (c[i].out)
				fputs(c[i].out, stdout);
		}
		return;
	}
	struct json_writer j;
	json_init(&j, stdout, true);
	json_array_begin(&j, NULL);
	for (uint32_t i = 0; i < n; i++) {
		/* each child's output is one JSON document */
		while (c[i].outlen && (c[i].out[c[i].outlen - 1] == '\n'))
			c[i].out[--c[i].outlen] = '\0';
		if (c[i].out && json_valid(c[i].out))
			json_raw(&j, NULL, c[i].out);
		else
			json_absent(&j, &c[i]);
	}
	json_array_end(&j);
	json_finish(&j);
}

int run_multi(const struct run_options *o, int argc, char **argv)
{
	if (o->iolog[0]) {
		fprintf(stderr, "ssdbench run: --iolog takes one target: several would "
			"write one file at once\n");
		return 2;
	}
	cli_install_signal_handlers();
	/* Every target's refusals first: nothing starts anywhere unless all
	   pass. */
	for (uint32_t i = 0; i < o->ntargets; i++) {
		struct run_options *t = options_for(o, i);
		if (!t) {
			fprintf(stderr, "ssdbench run: out of memory\n");
			return 1;
		}
		t->check_only = true;
		int rc = run_target(t, argc, argv, NULL);
		free(t);
		if (rc) {
			fprintf(stderr, "ssdbench run: target %u (%s) refused: nothing was "
				"started on any of the %u targets\n", i + 1, o->targets[i],
				o->ntargets);
			return rc;
		}
	}
	struct multi_child c[RUN_MAX_TARGETS];
	memset(c, 0, sizeof c);
	for (uint32_t i = 0; i < o->ntargets; i++)
		c[i].target = o->targets[i];
	struct run_multi_ctx x = { o, argc, argv };
	struct multi_opts mo = { .cmd = "run", .pin = !o->no_pin, .child = child, .ctx = &x,
				 .db = o->no_db ? NULL : o->db[0] ? o->db : STORE_DEFAULT_PATH };
	if (multi_start(&mo, c, o->ntargets))
		return 1;
	print_outputs(o, c, o->ntargets);
	fflush(stdout);
	multi_print_runs("run", c, o->ntargets);
	int code = multi_exit_code(c, o->ntargets, cli_interrupted);
	multi_free(c, o->ntargets);
	return code;
}
