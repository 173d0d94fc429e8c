/*
 * Purge (METHODOLOGY §2): back to fresh-out-of-box.  A block device is
 * purged by the device layer (format, sanitize, ATA secure erase or a
 * whole-device discard; "auto" takes the strongest it supports).  A file is deleted
 * and created again (its blocks go back to the filesystem), and a
 * simulated drive is opened afresh: the model's format.
 * The method used is recorded as the metric STEP.purge_method, its name in
 * the unit column.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stdio.h>

#include "suite/step.h"

/* Close the target, delete it if it is a file, and open it again. */
static int reopen(struct step_ctx *c, bool unlink_file, struct sb_err *e)
{
	/* A simulated drive's clock starts again with it: keep the time. */
	if (c->is_sim)
		c->clock_base_s = step_clock_s(c);
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

int step_purge(struct step_ctx *c, const char *method, int lbaf, struct sb_err *e)
{
	const char *used;
	char used_buf[32];
	double t0 = step_clock_s(c);
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
		/* The device layer opens the device itself: close it here. */
		engine_close(c->eng);
		c->eng = NULL;
		int rc = suite_purge_device(c->eopts->target, method, lbaf, used_buf,
					    sizeof used_buf, e);
		/* Open it again either way; a failed purge's error comes first. */
		struct sb_err oe;
		if (engine_open(c->eopts, &c->eng, &oe) && !rc) {
			*e = oe;
			return sb_err_wrap(e, "opening %s after the purge", c->eopts->target);
		}
		if (rc)
			return sb_err_wrap(e, "purge");
		used = used_buf;
	}
	char key[96];
	snprintf(key, sizeof key, "%s.purge_method", c->step->name);
	if (step_metric(c, key, 1, used, e))
		return -1;
	/* How long the purge itself took, on the target's clock (a
	   simulated format is instant). */
	snprintf(key, sizeof key, "%s.purge_seconds", c->step->name);
	return step_metric(c, key, step_clock_s(c) - t0, "s", e);
}

int step_run_purge(struct step_ctx *c, struct sb_err *e)
{
	c->units_total = 1;
	const char *lbaf = step_param(c->step, "lbaf")->s;
	return step_purge(c, step_param(c->step, "method")->s,
			  strcmp(lbaf, "keep") ? atoi(lbaf) : -1, e);
}
