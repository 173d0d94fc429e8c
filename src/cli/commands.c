#include "cli/commands.h"

#include <stddef.h>

/* One line per subcommand; keep the order of `ssdbench help`. */
const struct cli_command cli_commands[] = {
	{ "run", cmd_run, "run workloads on a file, block device or simulated drive" },
	{ "plan", cmd_plan, "print a review plan: steps, settings, time, writes" },
	{ "suite", cmd_suite, "run a review plan (the methodology) on a target" },
	{ "resume", cmd_resume, "continue an interrupted suite run" },
	{ "report", cmd_report, "write the HTML report and charts of stored runs" },
	{ "analyze", cmd_analyze, "analyse a stored run or fio logs: cache, steady state, consistency, bursts" },
	{ "show", cmd_show, "list the stored runs, or show one" },
	{ "merge", cmd_merge, "copy the runs of another results database into this one" },
	{ "export", cmd_export, "write a stored run as CSV or JSON" },
	{ "info", cmd_info, "what a device or file is: identity, formats, health" },
	{ "purge", cmd_purge, "return a device to fresh-out-of-box (destroys data)" },
	{ "sim", cmd_sim, "simulated drives: list the profiles, show one" },
	{ "version", cmd_version, "print the version" },
	{ NULL, NULL, NULL },
};
