/*
 * Purge (METHODOLOGY §2): back to fresh-out-of-box.  On a block device the
 * weakest method the methodology allows, a whole-device discard, is what
 * this build does for every method name until the device layer's format,
 * sanitize and secure erase are wired in; it says so.  A file is deleted
 * and created again (its blocks go back to the filesystem), and a
 * simulated drive is opened afresh: the model's format.
 * The method used is recorded as the metric STEP.purge_method, its name in
 * the unit column.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <stdio.h>

#include "suite/step.h"

/* Close the target, delete it if it is a file, and open it again. */
static int reopen(struct step_ctx *c, bool unlink_file, struct sb_err *e)
{
	engine_close(c->eng);
	c->eng = NULL;
	if (unlink_file && unlink(c->eopts->target) && errno != ENOENT)
		return sb_errno(e, errno, "purge: deleting %s", c->eopts->target);
	struct engine_opts o = *c->eopts;
	o.file_size = c->size;
	if (engine_open(&o, &c->eng, e))
		return sb_err_wrap(e, "purge: creating %s again", c->eopts->target);
	return 0;
}

int step_purge(struct step_ctx *c, const char *method, struct sb_err *e)
{
	const char *used;
	if (c->is_file) {
		step_note(c, "%s: the target is a file, so purge deletes and recreates it",
			  c->step->name);
		if (reopen(c, true, e))
			return -1;
		used = "recreate";
	} else if (c->is_sim) {
		/* The model's format: a fresh drive, as an NVMe format leaves
		   it.  (A whole-range discard leaves the model's folded and
		   garbage-collection state behind, which a format does not.) */
		if (reopen(c, false, e))
			return -1;
		used = "sim-format";
	} else {
		if (strcmp(method, "auto") && strcmp(method, "discard"))
			step_note(c, "%s: purge method %s is not available in this build; using a whole-device discard",
				  c->step->name, method);
		if (engine_discard(c->eng, 0, c->size, e))
			return sb_err_wrap(e, "purge (discard)");
		used = "discard";
	}
	char key[96];
	snprintf(key, sizeof key, "%s.purge_method", c->step->name);
	return step_metric(c, key, 1, used, e);
}

int step_run_purge(struct step_ctx *c, struct sb_err *e)
{
	c->units_total = 1;
	return step_purge(c, step_param(c->step, "method")->s, e);
}
