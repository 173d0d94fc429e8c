#include "cli/commands.h"

#include <stddef.h>

/* One line per subcommand; keep the order of `ssdbench help`. */
const struct cli_command cli_commands[] = {
	{ "run", cmd_run, "run workloads on a file or block device" },
	{ "version", cmd_version, "print the version" },
	{ "sim", cmd_sim, "simulated drives: list the profiles, show one" },
	{ NULL, NULL, NULL },
};
