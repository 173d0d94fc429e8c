/*
 * The subcommands.  Each lives in its own cmd_NAME.c, takes the arguments
 * after its name, prints its own errors and returns the process exit code:
 * 0 success, 1 failure at run time, 2 bad usage.
 */
#ifndef SSDBENCH_CLI_COMMANDS_H
#define SSDBENCH_CLI_COMMANDS_H

struct cli_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

/* The table, ended by an entry with name NULL. */
extern const struct cli_command cli_commands[];

int cmd_version(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_suite(int argc, char **argv);
int cmd_resume(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_purge(int argc, char **argv);
int cmd_report(int argc, char **argv);

/* Set by the SIGINT/SIGTERM handler; long-running commands poll it. */
extern volatile int cli_interrupted;
void cli_install_signal_handlers(void);

#include "common/version.h"

#endif
