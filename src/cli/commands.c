#include "cli/commands.h"

#include <stddef.h>

/* One line per subcommand; keep the order of `ssdbench help`. */
const struct cli_command cli_commands[] = {
	{ "run", cmd_run, "run workloads on a file or block device" },
	{ "plan", cmd_plan, "print a review plan: steps, settings, time, writes" },
	{ "report", cmd_report, "write the HTML report and charts of stored runs" },
	{ "version", cmd_version, "print the version" },
	{ NULL, NULL, NULL },
};
