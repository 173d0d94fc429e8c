#include "cli/commands.h"

#include <stdio.h>

int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("ssdbench %s\n", SSDBENCH_VERSION);
	return 0;
}
