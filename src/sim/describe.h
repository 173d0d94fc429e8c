/*
 * A simulated drive as a reader names and describes it: the model it
 * stands for ("WD_BLACK SN8100 2TB (simulated)"), and for `info` and
 * `sim show` the figures its parameters should produce.
 */
#ifndef SSDBENCH_SIM_DESCRIBE_H
#define SSDBENCH_SIM_DESCRIBE_H

#include <stddef.h>
#include <stdio.h>

#include "common/json.h"
#include "sim/spec.h"

/* The description's model (the text before ':') and "(simulated)", with
   the scale when it is not 1. */
void sim_model_name(const struct sim_spec *sp, char *buf, size_t len);

/* The "device" object of a simulated target's facts (key may be NULL). */
void sim_describe_json(struct json_writer *w, const char *key,
		       const struct sim_spec *sp);

/* The identity lines of `info` ("  model   ..."), aligned like a real
   device's. */
void sim_describe_print(FILE *out, const struct sim_spec *sp);

/* "#   SLC cache: ..." lines: the headline figures of the parameters. */
void sim_headline_print(FILE *out, const struct sim_profile *p);

#endif
