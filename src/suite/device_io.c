#include "suite/device_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/health.h"
#include "device/purge.h"

int suite_purge_device(const char *path, const char *method, int lbaf,
		       char *used, size_t used_len, struct sb_err *e)
{
	struct purge_request r = { .path = path, .lbaf = lbaf, .destroy_data = true };
	if (purge_method_parse(method, &r.method, e))
		return -1;
	struct purge_result res;
	if (purge_run(&r, &res, e))
		return -1;
	snprintf(used, used_len, "%s", purge_method_name(res.method));
	return 0;
}

struct suite_monitor {
	struct device_monitor *m;
	struct device_reading r[DEVICE_MAX_READINGS];
};

int suite_monitor_open(const struct target_facts *tf, struct suite_monitor **out,
		       struct sb_err *e)
{
	*out = NULL;
	if (tf->is_sim)
		return 0;
	struct suite_monitor *m = calloc(1, sizeof *m);
	if (!m)
		return sb_errf(e, "out of memory");
	if (device_monitor_open(tf->path, &m->m, e)) {
		free(m);
		return -1;
	}
	*out = m;
	return 0;
}

size_t suite_monitor_sample(struct suite_monitor *m, const char **keys,
			    double *values, size_t max)
{
	struct device_health h;
	struct sb_err e;
	if (!m || device_monitor_sample(m->m, &h, &e))
		return 0;
	size_t n = device_health_readings(&h, m->r);
	if (n > max)
		n = max;
	for (size_t i = 0; i < n; i++) {
		keys[i] = m->r[i].key;
		values[i] = m->r[i].value;
	}
	return n;
}

const char *suite_monitor_source(const struct suite_monitor *m)
{
	return m ? device_monitor_source(m->m) : "none";
}

void suite_monitor_close(struct suite_monitor *m)
{
	if (!m)
		return;
	device_monitor_close(m->m);
	free(m);
}
