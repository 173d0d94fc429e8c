/* Pinning several targets: Linux's cpulist text both ways, and the split
   of CPUs among targets by NUMA node, checked against hand-made layouts. */
#include "check.h"

#include <string.h>

#include "device/cpus.h"

static void set_of(const char *list, cpu_set_t *s)
{
	struct sb_err e;
	if (cpu_list_parse(list, s, &e))
		CHECK_FAIL("cpu_list_parse(%s): %s", list, e.msg);
}

static const char *fmt(const cpu_set_t *s)
{
	static char buf[256];	/* test only: one at a time */
	return cpu_list_format(s, buf, sizeof buf);
}

TEST(cpulist_round_trip)
{
	cpu_set_t s;
	set_of("0-3,8,10-11\n", &s);
	CHECK_EQ_U64(CPU_COUNT(&s), 7);
	CHECK(CPU_ISSET(0, &s) && CPU_ISSET(3, &s) && !CPU_ISSET(4, &s) && CPU_ISSET(8, &s));
	CHECK_EQ_STR(fmt(&s), "0-3,8,10-11");
	set_of("", &s);
	CHECK_EQ_U64(CPU_COUNT(&s), 0);
	CHECK_EQ_STR(fmt(&s), "");
	struct sb_err e;
	CHECK(cpu_list_parse("3-1", &s, &e) == -1 && strstr(e.msg, "not a range"));
	CHECK(cpu_list_parse("1,x", &s, &e) == -1 && strstr(e.msg, "expected a number"));
	CHECK(cpu_list_parse("0-99999", &s, &e) == -1);
}

/* Two nodes of 4 CPUs each (0-3, 4-7), all allowed. */
static void two_nodes(struct pin_input *in)
{
	memset(in, 0, sizeof *in);
	set_of("0-7", &in->allowed);
	set_of("0-3", &in->node_cpus[0]);
	set_of("4-7", &in->node_cpus[1]);
	in->node_known[0] = in->node_known[1] = true;
}

TEST(pin_by_node)
{
	struct pin_input in;
	two_nodes(&in);
	/* one target per node: each gets its whole node */
	int nodes[] = { 1, 0 };
	struct pin_choice p[4];
	pin_plan(&in, nodes, 2, p);
	CHECK_EQ_STR(fmt(&p[0].cpus), "4-7");
	CHECK_EQ_STR(fmt(&p[1].cpus), "0-3");
	CHECK(p[0].on_node && p[1].on_node && !p[0].shared);
	/* two on node 0, one on node 1, one unknown: node 0 split in halves,
	   the unknown one gets every allowed CPU (nothing else shares that) */
	int nodes2[] = { 0, 1, 0, -1 };
	pin_plan(&in, nodes2, 4, p);
	CHECK_EQ_STR(fmt(&p[0].cpus), "0-1");
	CHECK_EQ_STR(fmt(&p[1].cpus), "4-7");
	CHECK_EQ_STR(fmt(&p[2].cpus), "2-3");
	CHECK_EQ_STR(fmt(&p[3].cpus), "0-7");
	CHECK(!p[3].on_node && p[3].node == -1);
}

TEST(pin_without_nodes)
{
	struct pin_input in;
	memset(&in, 0, sizeof in);
	set_of("0-1", &in.allowed);
	/* two targets, no NUMA: a CPU each */
	int nodes[] = { -1, -1, -1 };
	struct pin_choice p[3];
	pin_plan(&in, nodes, 2, p);
	CHECK_EQ_STR(fmt(&p[0].cpus), "0");
	CHECK_EQ_STR(fmt(&p[1].cpus), "1");
	/* three targets on two CPUs: shared, round robin, and said so */
	pin_plan(&in, nodes, 3, p);
	CHECK_EQ_STR(fmt(&p[0].cpus), "0");
	CHECK_EQ_STR(fmt(&p[1].cpus), "1");
	CHECK_EQ_STR(fmt(&p[2].cpus), "0");
	CHECK(p[0].shared && p[2].shared);
	/* five CPUs over two targets: 2 and 3, none lost */
	set_of("0-4", &in.allowed);
	pin_plan(&in, nodes, 2, p);
	CHECK_EQ_STR(fmt(&p[0].cpus), "0-1");
	CHECK_EQ_STR(fmt(&p[1].cpus), "2-4");
}

TEST(pin_node_outside_the_allowed_cpus)
{
	struct pin_input in;
	two_nodes(&in);
	set_of("0-3", &in.allowed);	/* taskset to node 0 */
	int nodes[] = { 1, 0 };
	struct pin_choice p[2];
	pin_plan(&in, nodes, 2, p);
	/* node 1 has no allowed CPU: its target's candidates are all allowed
	   ones, not "on node" -- the same CPUs as node 0's target, so the two
	   share them out */
	CHECK(!p[0].on_node && p[0].node == 1);
	CHECK_EQ_STR(fmt(&p[0].cpus), "0-1");
	CHECK(p[1].on_node);
	CHECK_EQ_STR(fmt(&p[1].cpus), "2-3");
}

CHECK_MAIN("cpus")
