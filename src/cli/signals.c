#include "cli/commands.h"

#include <signal.h>
#include <string.h>

/* The one piece of global mutable state: a signal can only set a flag. */
volatile int cli_interrupted;

static void on_signal(int sig)
{
	(void)sig;
	cli_interrupted = 1;
}

void cli_install_signal_handlers(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
