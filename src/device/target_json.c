#include "device/target_json.h"

#include <stdlib.h>

#include "device/facts.h"
#include "sim/describe.h"

void target_facts_json(struct json_writer *w, const void *arg)
{
	const struct target_facts *tf = arg;
	json_object_begin(w, NULL);
	json_string(w, "path", tf->path);
	json_string(w, "kind", tf->kind);
	json_u64(w, "size", tf->size);
	json_u64(w, "logical_block", tf->logical_block);
	json_u64(w, "physical_block", tf->physical_block);
	json_bool(w, "rotational", tf->rotational);
	json_bool(w, "discard", tf->discard);
	if (tf->is_sim) {
		/* What the simulated drive stands for: the report names it by
		   this model, as it does a real device. */
		struct sim_spec *sp = malloc(sizeof *sp);
		struct sb_err e;
		if (sp && !sim_spec_parse(tf->path, NULL, sp, &e))
			sim_describe_json(w, "device", sp);
		else
			json_string(w, "device_error", sp ? e.msg : "out of memory");
		free(sp);
	} else {
		/* Large: on the heap.  A device that cannot say is a note. */
		struct device_facts *df = calloc(1, sizeof *df);
		struct sb_err e;
		if (df && !device_facts_collect(tf->path, df, &e))
			device_facts_json(w, "device", df);
		else
			json_string(w, "device_error", df ? e.msg : "out of memory");
		free(df);
	}
	json_object_end(w);
}

char *target_facts_json_string(const struct target_facts *tf)
{
	return json_to_string(target_facts_json, tf);
}
