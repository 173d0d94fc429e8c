/*
 * Step templates (the methodology's steps, in order, with the reviewer's
 * defaults) and the presets built from them.
 */
#ifndef SSDBENCH_SUITE_PRESETS_H
#define SSDBENCH_SUITE_PRESETS_H

#include <stdbool.h>

#include "suite/plan.h"

struct step_template {
	const char *name;
	const char *kind;
	enum plan_half half;
	const char *summary;
	const char *needs;	/* a step that must come before, or NULL */
	const char *defaults;	/* "key=value key=value ..." */
};

extern const struct step_template step_templates[];	/* name NULL ends */
extern const char suite_defaults[];

struct preset {
	const char *name;
	const char *summary;
	bool cssd, essd;	/* which halves */
	const char *settings;	/* "step.key=value ..." applied on top */
	/* What a reader of its results must know (stored with the run, shown
	   by the report): "" when the reviewer's numbers are kept. */
	const char *note;
};

extern const struct preset presets[];	/* name NULL ends */
const struct preset *preset_find(const char *name);

#endif
