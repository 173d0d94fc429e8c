#include "cli/multi.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/commands.h"
#include "common/error.h"
#include "store/store.h"

static void say_pinning(const struct multi_opts *mo, const struct multi_child *c,
			uint32_t n)
{
	if (!mo->pin) {
		fprintf(stderr, "ssdbench %s: --no-pin: the %u targets' threads run on any CPU\n",
			mo->cmd, n);
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		char list[256], where[64];
		const struct pin_choice *p = &c[i].pin;
		if (p->node >= 0)
			snprintf(where, sizeof where, "NUMA node %d (sysfs)%s", p->node,
				 p->on_node ? "" : ", no allowed CPU there");
		else
			snprintf(where, sizeof where, "NUMA node unknown");
		fprintf(stderr, "ssdbench %s: %s: threads pinned to CPUs %s (%s%s)\n",
			mo->cmd, c[i].target, cpu_list_format(&p->cpus, list, sizeof list),
			where, p->shared ? "; fewer CPUs than targets, shared" : "");
	}
}

/* false (and said) when the CPUs cannot be known: then nothing is pinned */
static bool plan_pins(const struct multi_opts *mo, struct multi_child *c, uint32_t n)
{
	struct pin_input *in = malloc(sizeof *in);
	struct sb_err e;
	int nodes[64];
	if (!in || pin_input_read(in, &e)) {
		fprintf(stderr, "ssdbench %s: CPUs not known (%s): threads not pinned\n",
			mo->cmd, in ? e.msg : "out of memory");
		free(in);
		for (uint32_t i = 0; i < n; i++)
			CPU_ZERO(&c[i].pin.cpus);
		return false;
	}
	for (uint32_t i = 0; i < n && i < 64; i++)
		nodes[i] = target_numa_node(c[i].target);
	struct pin_choice pins[64];
	pin_plan(in, nodes, n, pins);
	for (uint32_t i = 0; i < n; i++)
		c[i].pin = pins[i];
	free(in);
	return true;
}

/* The parent's ends of one child's pipes; -1 once closed. */
struct child_io {
	pid_t pid;
	int out, err, rep, go;
	char line[1024];	/* a stderr line being gathered */
	size_t linelen;
	char rep_buf[64];
	size_t replen;
	bool ready;
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void child_main(const struct multi_opts *mo, struct multi_child *c, uint32_t i,
		       const int pipes[4][2], struct child_io *io, uint32_t nio)
{
	int out = pipes[0][1], err = pipes[1][1], rep = pipes[2][1], go = pipes[3][0];
	/* the parent's ends: of this child's pipes, and of every earlier one */
	for (int k = 0; k < 3; k++)
		close(pipes[k][0]);
	close(pipes[3][1]);
	for (uint32_t k = 0; k < nio; k++) {
		close_fd(&io[k].out);
		close_fd(&io[k].err);
		close_fd(&io[k].rep);
		close_fd(&io[k].go);
	}
	signal(SIGPIPE, SIG_DFL);
	fflush(stdout);
	if (dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0)
		_exit(1);
	close(out);
	close(err);
	if (mo->pin && CPU_COUNT(&c[i].pin.cpus) &&
	    sched_setaffinity(0, sizeof c[i].pin.cpus, &c[i].pin.cpus))
		fprintf(stderr, "ssdbench %s: pinning to CPUs failed (%s); running unpinned\n",
			mo->cmd, strerror(errno));
	struct multi_gate gate = { rep, go };
	int64_t run_id = 0;
	int code = mo->child(mo->ctx, i, &gate, &run_id);
	char msg[64];
	int len = snprintf(msg, sizeof msg, "ID %" PRId64 "\n", run_id);
	if (write(rep, msg, (size_t)len) != len)
		code = code ? code : 1;
	fflush(stdout);
	fflush(stderr);
	_exit(code);
}

void multi_gate(void *arg)
{
	struct multi_gate *g = arg;
	char b;
	if (write(g->ready_fd, "R\n", 2) != 2)
		return;
	/* A 'G', or the parent gone: either way, go.  Ctrl-C: go, and let the
	   engine see the flag. */
	while (read(g->go_fd, &b, 1) < 0 && errno == EINTR && !cli_interrupted)
		;
}

static void pass_stderr(struct child_io *io, const char *target, const char *buf,
			size_t n, bool flush)
{
	for (size_t i = 0; i < n; i++) {
		if (io->linelen < sizeof io->line - 1)
			io->line[io->linelen++] = buf[i];
		if (buf[i] == '\n' || io->linelen == sizeof io->line - 1) {
			fprintf(stderr, "[%s] %.*s%s", target, (int)io->linelen, io->line,
				buf[i] == '\n' ? "" : "\n");
			io->linelen = 0;
		}
	}
	if (flush && io->linelen) {
		fprintf(stderr, "[%s] %.*s\n", target, (int)io->linelen, io->line);
		io->linelen = 0;
	}
}

static void take_report(struct child_io *io, struct multi_child *c, const char *buf,
			size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (io->replen < sizeof io->rep_buf - 1)
			io->rep_buf[io->replen++] = buf[i];
		if (buf[i] != '\n')
			continue;
		io->rep_buf[io->replen] = '\0';
		if (io->rep_buf[0] == 'R')
			io->ready = true;
		else if (!strncmp(io->rep_buf, "ID ", 3))
			c->run_id = strtoll(io->rep_buf + 3, NULL, 10);
		io->replen = 0;
	}
}

static void append_out(struct multi_child *c, const char *buf, size_t n)
{
	char *p = realloc(c->out, c->outlen + n + 1);
	if (!p)
		return;	/* the run is in the database; only its printout is short */
	memcpy(p + c->outlen, buf, n);
	c->outlen += n;
	p[c->outlen] = '\0';
	c->out = p;
}

/* Read whatever the children say until every pipe is closed. */
static void gather(struct multi_child *c, struct child_io *io, uint32_t n)
{
	bool went = false;
	for (;;) {
		struct pollfd pf[3 * 64];
		uint32_t who[3 * 64], np = 0;
		for (uint32_t i = 0; i < n; i++) {
			int fds[3] = { io[i].out, io[i].err, io[i].rep };
			for (int k = 0; k < 3; k++)
				if (fds[k] >= 0) {
					pf[np] = (struct pollfd){ .fd = fds[k], .events = POLLIN };
					who[np++] = i;
				}
		}
		if (!went) {
			bool all = true;
			for (uint32_t i = 0; i < n; i++)
				all &= io[i].ready || io[i].rep < 0;
			if (all) {
				for (uint32_t i = 0; i < n; i++) {
					/* a child that is gone has nothing to start */
					if (io[i].go >= 0) {
						ssize_t w = write(io[i].go, "G", 1);
						(void)w;
					}
					close_fd(&io[i].go);
				}
				went = true;
			}
		}
		if (!np)
			return;
		if (poll(pf, np, -1) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		for (uint32_t k = 0; k < np; k++) {
			if (!(pf[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			struct child_io *ci = &io[who[k]];
			char buf[4096];
			ssize_t got = read(pf[k].fd, buf, sizeof buf);
			if (got < 0 && errno == EINTR)
				continue;
			bool eof = got <= 0;
			if (pf[k].fd == ci->out) {
				if (eof)
					close_fd(&ci->out);
				else
					append_out(&c[who[k]], buf, (size_t)got);
			} else if (pf[k].fd == ci->err) {
				pass_stderr(ci, c[who[k]].target, buf, eof ? 0 : (size_t)got, eof);
				if (eof)
					close_fd(&ci->err);
			} else {
				if (eof)
					close_fd(&ci->rep);
				else
					take_report(ci, &c[who[k]], buf, (size_t)got);
			}
		}
	}
}

int multi_start(const struct multi_opts *mo, struct multi_child *c, uint32_t n)
{
	struct child_io io[64];
	if (n > 64)
		n = 64;
	for (uint32_t i = 0; i < n; i++) {
		c[i].exit_code = 1;
		c[i].run_id = 0;
	}
	if (mo->db) {
		struct store *s;
		struct sb_err e;
		if (store_open(mo->db, &s, &e)) {
			fprintf(stderr, "ssdbench %s: %s; nothing was started\n", mo->cmd, e.msg);
			return -1;
		}
		store_close(s);
	}
	if (!mo->pin || plan_pins(mo, c, n))
		say_pinning(mo, c, n);
	signal(SIGPIPE, SIG_IGN);
	fflush(stdout);
	fflush(stderr);
	uint32_t started = 0;
	for (uint32_t i = 0; i < n; i++) {
		io[i] = (struct child_io){ .pid = -1, .out = -1, .err = -1, .rep = -1, .go = -1 };
		/* stdout, stderr, reports (child to parent); go (parent to child) */
		int p[4][2];
		int made = 0;
		while (made < 4 && !pipe(p[made]))
			made++;
		pid_t pid = made == 4 ? fork() : -1;
		if (pid == 0)
			child_main(mo, c, i, (const int (*)[2])p, io, i);
		if (pid < 0) {
			fprintf(stderr, "ssdbench %s: %s: cannot start: %s\n", mo->cmd,
				c[i].target, strerror(errno));
			for (int k = 0; k < made; k++) {
				close(p[k][0]);
				close(p[k][1]);
			}
			break;	/* those not started count as failed */
		}
		for (int k = 0; k < 3; k++)
			close(p[k][1]);
		close(p[3][0]);
		io[i] = (struct child_io){ .pid = pid, .out = p[0][0], .err = p[1][0],
					   .rep = p[2][0], .go = p[3][1] };
		started++;
	}
	gather(c, io, started);
	for (uint32_t i = 0; i < started; i++) {
		int st;
		while (waitpid(io[i].pid, &st, 0) < 0 && errno == EINTR)
			;
		c[i].exit_code = WIFEXITED(st) ? WEXITSTATUS(st) :
				 WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
	}
	signal(SIGPIPE, SIG_DFL);
	return started ? 0 : -1;
}

void multi_print_runs(const char *cmd, const struct multi_child *c, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		char run[32] = "no run stored";
		if (c[i].run_id)
			snprintf(run, sizeof run, "run %" PRId64, c[i].run_id);
		const char *how = c[i].exit_code == 0 ? "done" :
				  c[i].exit_code == 130 ? "interrupted" : "FAILED";
		fprintf(stderr, "ssdbench %s: target %u %s: %s, %s (exit %d)\n", cmd, i + 1,
			c[i].target, run, how, c[i].exit_code);
	}
}

int multi_exit_code(const struct multi_child *c, uint32_t n, bool interrupted)
{
	int mask = 0;
	for (uint32_t i = 0; i < n && i < 6; i++)
		if (c[i].exit_code)
			mask |= 1 << i;
	if (interrupted)
		return 130;
	return mask ? 64 + mask : 0;
}

void multi_free(struct multi_child *c, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		free(c[i].out);
		c[i].out = NULL;
	}
}
