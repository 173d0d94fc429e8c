#include "cli/commands.h"

#include <stddef.h>

/* One line per subcommand; keep the order of `ssdbench help`. */
const struct cli_command cli_commands[] = {
	{ "version", cmd_version, "print the version" },
	{ "info", cmd_info, "what a device or file is: identity, formats, health" },
	{ "purge", cmd_purge, "return a device to fresh-out-of-box (destroys data)" },
	{ NULL, NULL, NULL },
};
