/*
 * Running gnuplot on a chart script.  The child runs in the output
 * directory, because the script names its files without a directory (so a
 * user can move the folder and re-run it); its stderr goes to NAME.log,
 * which stays behind only when something went wrong.
 */
#include "report/chart.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *gnuplot_program(void)
{
	const char *p = getenv("SSDBENCH_GNUPLOT");
	return p && *p ? p : "gnuplot";
}

/* The last lines of gnuplot's log, for the error message. */
static void log_tail(const char *path, char *buf, size_t len)
{
	buf[0] = '\0';
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char all[8192];
	size_t n = fread(all, 1, sizeof(all) - 1, f);
	fclose(f);
	all[n] = '\0';
	while (n && (all[n - 1] == '\n' || all[n - 1] == ' '))
		all[--n] = '\0';
	const char *start = all;
	if (n > len - 1)
		start = all + n - (len - 1);
	size_t keep = strlen(start);
	memcpy(buf, start, keep + 1);
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = ' ';
}

static int check_output(const char *dir, const char *name, const char *ext,
			struct sb_err *e)
{
	char path[4096];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s.%s", dir, name, ext);
	if (stat(path, &st))
		return sb_errno(e, errno, "gnuplot made no %s", path);
	if (st.st_size == 0)
		return sb_errf(e, "gnuplot made an empty %s", path);
	return 0;
}

/* Start gnuplot on DIR/NAME.gp; its stderr goes to DIR/NAME.log. */
static pid_t spawn(const char *dir, const char *name, struct sb_err *e)
{
	char script[256], logpath[4096];
	snprintf(script, sizeof(script), "%s.gp", name);
	snprintf(logpath, sizeof(logpath), "%s/%s.log", dir, name);
	const char *prog = gnuplot_program();
	pid_t pid = fork();
	if (pid < 0) {
		sb_errno(e, errno, "cannot start %s", prog);
		return -1;
	}
	if (pid == 0) {
		int log = open(logpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int null = open("/dev/null", O_RDWR);
		if (log < 0 || null < 0 || chdir(dir))
			_exit(126);
		dup2(null, 0);
		dup2(null, 1);
		dup2(log, 2);
		execlp(prog, prog, script, (char *)NULL);
		dprintf(2, "cannot run %s: %s\n", prog, strerror(errno));
		_exit(127);
	}
	return pid;
}

/* How a finished gnuplot went: its status, the files it had to make. */
static int finish(const char *dir, const char *name, int status,
		  struct sb_err *e)
{
	char logpath[4096];
	snprintf(logpath, sizeof(logpath), "%s/%s.log", dir, name);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		char tail[600];
		log_tail(logpath, tail, sizeof(tail));
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			return sb_errf(e, "chart %s: cannot run '%s' (install "
				       "gnuplot, or set SSDBENCH_GNUPLOT): %s",
				       name, gnuplot_program(), tail);
		return sb_errf(e, "chart %s: gnuplot failed (%s %d): %s",
			       name, WIFEXITED(status) ? "exit" : "signal",
			       WIFEXITED(status) ? WEXITSTATUS(status)
						 : WTERMSIG(status), tail);
	}
	if (check_output(dir, name, "svg", e) ||
	    check_output(dir, name, "png", e))
		return -1;
	unlink(logpath);
	return 0;
}

static int wait_child(pid_t pid, int *status, struct sb_err *e)
{
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return sb_errno(e, errno, "waiting for gnuplot");
	return 0;
}

int chart_render(const char *dir, const char *name, struct sb_err *e)
{
	int status;
	pid_t pid = spawn(dir, name, e);
	if (pid < 0 || wait_child(pid, &status, e))
		return -1;
	return finish(dir, name, status, e);
}

int chart_render_all(const char *dir, const char (*names)[96], size_t n,
		     unsigned jobs, struct sb_err *e)
{
	pid_t pid[CHART_MAX_JOBS];
	size_t which[CHART_MAX_JOBS];
	unsigned running = 0;
	size_t next = 0;
	int rc = 0;
	if (jobs < 1)
		jobs = 1;
	if (jobs > CHART_MAX_JOBS)
		jobs = CHART_MAX_JOBS;
	/* Start while there is room and no failure; always reap every
	   child, so no gnuplot outlives the report. */
	while (running || (next < n && !rc)) {
		while (!rc && next < n && running < jobs) {
			pid_t p = spawn(dir, names[next], e);
			if (p < 0) {
				rc = -1;
				break;
			}
			pid[running] = p;
			which[running++] = next++;
		}
		if (!running)
			break;
		int status;
		struct sb_err e2;
		if (wait_child(pid[0], &status, &e2)) {
			if (!rc)
				*e = e2;
			rc = -1;
		} else if (finish(dir, names[which[0]], status, &e2) && !rc) {
			*e = e2;
			rc = -1;
		}
		/* Oldest first keeps the error of the first failing chart. */
		running--;
		memmove(pid, pid + 1, running * sizeof(pid[0]));
		memmove(which, which + 1, running * sizeof(which[0]));
	}
	return rc;
}
