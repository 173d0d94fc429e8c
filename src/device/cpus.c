#include "device/cpus.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "device/sysfs.h"

int cpu_list_parse(const char *text, cpu_set_t *out, struct sb_err *e)
{
	CPU_ZERO(out);
	const char *p = text;
	while (*p && isspace((unsigned char)*p))
		p++;
	if (!*p)
		return 0;	/* a node without CPUs */
	for (;;) {
		char *end;
		errno = 0;
		unsigned long a = strtoul(p, &end, 10), b = a;
		if (end == p || errno)
			return sb_errf(e, "cpu list '%s': expected a number at '%s'", text, p);
		p = end;
		if (*p == '-') {
			b = strtoul(++p, &end, 10);
			if (end == p || errno)
				return sb_errf(e, "cpu list '%s': expected a number after '-'", text);
			p = end;
		}
		if (b < a || b >= CPU_SETSIZE)
			return sb_errf(e, "cpu list '%s': %lu-%lu is not a range of CPUs", text, a, b);
		for (unsigned long c = a; c <= b; c++)
			CPU_SET(c, out);
		if (*p == ',') {
			p++;
			continue;
		}
		while (*p && isspace((unsigned char)*p))
			p++;
		if (*p)
			return sb_errf(e, "cpu list '%s': unexpected '%c'", text, *p);
		return 0;
	}
}

const char *cpu_list_format(const cpu_set_t *s, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && k < len; c++) {
		if (!CPU_ISSET(c, s))
			continue;
		int d = c;
		while (d + 1 < CPU_SETSIZE && CPU_ISSET(d + 1, s))
			d++;
		if (d > c)
			k += (size_t)snprintf(buf + k, len - k, "%s%d-%d", k ? "," : "", c, d);
		else
			k += (size_t)snprintf(buf + k, len - k, "%s%d", k ? "," : "", c);
		c = d;
	}
	return buf;
}

/* numa_node of the disk at /sys/dev/block/M:m (a partition: its disk). */
static int block_numa_node(dev_t dev)
{
	char link[64], dir[4096], buf[32];
	snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(link, dir))
		return -1;
	if (sysfs_read(dir, "partition", buf, sizeof buf) == 0)
		*strrchr(dir, '/') = '\0';
	/* the driver's device (an NVMe controller), else its parent (PCI) */
	static const char *const attrs[] = { "device/numa_node", "device/device/numa_node" };
	for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
		if (sysfs_read(dir, attrs[i], buf, sizeof buf) == 0)
			return atoi(buf) >= 0 ? atoi(buf) : -1;
	return -1;
}

int target_numa_node(const char *target)
{
	struct stat st;
	if (!strncmp(target, "sim:", 4) || stat(target, &st))
		return -1;
	if (S_ISBLK(st.st_mode))
		return block_numa_node(st.st_rdev);
	return block_numa_node(st.st_dev);
}

int numa_node_cpus(int node, cpu_set_t *out)
{
	char dir[64], buf[4096];
	struct sb_err e;
	snprintf(dir, sizeof dir, "/sys/devices/system/node/node%d", node);
	if (node < 0 || sysfs_read(dir, "cpulist", buf, sizeof buf) ||
	    cpu_list_parse(buf, out, &e))
		return -1;
	return 0;
}

int pin_input_read(struct pin_input *in, struct sb_err *e)
{
	memset(in, 0, sizeof *in);
	if (sched_getaffinity(0, sizeof in->allowed, &in->allowed))
		return sb_errno(e, errno, "sched_getaffinity");
	for (int n = 0; n < PIN_NODES_MAX; n++)
		in->node_known[n] = numa_node_cpus(n, &in->node_cpus[n]) == 0;
	return 0;
}

/* The candidates of a target: its node's allowed CPUs, else all allowed. */
static void candidates(const struct pin_input *in, int node, cpu_set_t *out,
		       bool *on_node)
{
	*on_node = false;
	*out = in->allowed;
	if (node < 0 || node >= PIN_NODES_MAX || !in->node_known[node])
		return;
	cpu_set_t both;
	CPU_AND(&both, &in->allowed, &in->node_cpus[node]);
	if (CPU_COUNT(&both) == 0)
		return;
	*out = both;
	*on_node = true;
}

void pin_plan(const struct pin_input *in, const int *nodes, uint32_t n,
	      struct pin_choice *out)
{
	for (uint32_t i = 0; i < n; i++) {
		cpu_set_t cand;
		bool on_node;
		candidates(in, nodes[i], &cand, &on_node);
		/* the targets sharing these candidates, and this one's place */
		uint32_t k = 0, place = 0;
		for (uint32_t j = 0; j < n; j++) {
			cpu_set_t other;
			bool o;
			candidates(in, nodes[j], &other, &o);
			if (CPU_EQUAL(&other, &cand)) {
				if (j < i)
					place++;
				k++;
			}
		}
		int cpus[CPU_SETSIZE], m = 0;
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &cand))
				cpus[m++] = c;
		struct pin_choice *p = &out[i];
		memset(p, 0, sizeof *p);
		p->node = nodes[i];
		p->on_node = on_node;
		CPU_ZERO(&p->cpus);
		if (m == 0) {		/* nothing allowed: leave it to the kernel */
			p->cpus = in->allowed;
			continue;
		}
		if ((uint32_t)m < k) {
			p->shared = true;
			CPU_SET(cpus[place % (uint32_t)m], &p->cpus);
			continue;
		}
		uint32_t lo = place * (uint32_t)m / k, hi = (place + 1) * (uint32_t)m / k;
		for (uint32_t c = lo; c < hi; c++)
			CPU_SET(cpus[c], &p->cpus);
	}
}
