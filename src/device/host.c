#include "device/host.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/version.h"
#include "device/cpus.h"

/* "model name : AMD EPYC ..." from /proc/cpuinfo; "" where it has none. */
static void cpu_model(char *out, size_t len)
{
	out[0] = '\0';
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	char line[512];
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');
		if (strncmp(line, "model name", 10) || !colon)
			continue;
		char *v = colon + 1;
		while (*v == ' ' || *v == '\t')
			v++;
		v[strcspn(v, "\n")] = '\0';
		snprintf(out, len, "%s", v);
		break;
	}
	fclose(f);
}

void host_facts_json(struct json_writer *w, const void *arg)
{
	(void)arg;
	struct utsname u;
	char host[256] = "", cpu[256];
	json_object_begin(w, NULL);
	json_string(w, "tool_version", SSDBENCH_VERSION);
	if (!uname(&u)) {
		json_string(w, "kernel", u.release);
		json_string(w, "machine", u.machine);
	}
	if (!gethostname(host, sizeof host - 1))
		json_string(w, "hostname", host);
	json_i64(w, "cpus", sysconf(_SC_NPROCESSORS_ONLN));
	/* The CPUs this run's threads may use: all of them, or the ones
	   several targets at once were pinned to (docs/run.md). */
	cpu_set_t allowed;
	char list[1024];
	if (!sched_getaffinity(0, sizeof allowed, &allowed))
		json_string(w, "cpus_allowed", cpu_list_format(&allowed, list, sizeof list));
	cpu_model(cpu, sizeof cpu);
	if (cpu[0])
		json_string(w, "cpu_model", cpu);
	json_object_end(w);
}

char *host_facts_json_string(void)
{
	return json_to_string(host_facts_json, NULL);
}
