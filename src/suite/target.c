/*
 * What a plan needs to know about a target before anything opens it for
 * I/O: its size and logical block.  Block devices answer through ioctls,
 * files through stat (or the size they will be created with), simulated
 * drives through their profile.
 */
#include "suite/target.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device/file_space.h"
#include "sim/headline.h"
#include "sim/profile.h"
#include "sim/spec.h"

/* The simulator's logical block; its backend reports the same. */
#define SIM_LOGICAL_BLOCK 512

static int probe_sim(const char *spec, struct plan_target *t, struct sb_err *e)
{
	/* The whole spec, options included: a scaled drive (",scale=0.01")
	   is smaller, and the plan's shares and checks must see that. */
	struct sim_spec sp;
	if (sim_spec_parse(spec, NULL, &sp, e))
		return sb_err_wrap(e, "target %s", spec);
	const struct sim_profile prof = sp.profile;
	t->is_sim = true;
	t->logical_block = SIM_LOGICAL_BLOCK;
	t->size = (uint64_t)(prof.user_gb * 1e9);
	t->size -= t->size % 4096;
	/* Estimates at the drive's own rates, from its parameters. */
	struct sim_headline h;
	sim_headline(&prof, &h);
	double rate = h.direct_gbs > 0 ? h.direct_gbs : prof.link_wr_gbs;
	if (rate > 0)
		plan_rates_assume(t, (uint64_t)(rate * 1e9));
	struct plan_rates *r = &t->rates;
	r->from_profile = true;
	if (h.cache_empty_gb > 0 && h.slc_gbs > 0) {
		r->cache_empty = h.cache_empty_gb * 1e9;
		r->cache_full = h.cache_full_gb * 1e9;
		r->cache_bps = h.slc_gbs * 1e9;
	}
	double rnd = prof.rho_eff > 0 ? h.rnd_write_avg_kiops : h.rnd_write_kiops;
	if (rnd > 0)
		r->rnd_bps = rnd * 1e3 * 4096;
	/* O_SYNC: into the buffer, then the commit to media. */
	r->sync_write_s = (h.qd1_write_us + prof.t_commit_us) * 1e-6;
	return 0;
}

void plan_rates_assume(struct plan_target *t, uint64_t rate)
{
	t->assumed_rate = rate;
	t->rates = (struct plan_rates){
		.cache_bps = (double)rate, .seq_bps = (double)rate,
		.rnd_bps = (double)rate,
	};
}

int plan_target_probe(const char *spec, uint64_t file_size,
		      struct plan_target *t, struct sb_err *e)
{
	memset(t, 0, sizeof *t);
	plan_rates_assume(t, 1ull << 30);
	if (!strncmp(spec, "sim:", 4))
		return probe_sim(spec, t, e);
	struct stat st;
	if (stat(spec, &st)) {
		if (errno == ENOENT && file_size) {
			/* A file the run will create. */
			t->is_file = true;
			t->size = file_size;
			t->logical_block = 512;
			return file_space_check(spec, t->size, e);
		}
		return sb_errno(e, errno, "target %s", spec);
	}
	if (S_ISBLK(st.st_mode)) {
		int fd = open(spec, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return sb_errno(e, errno, "target %s", spec);
		uint64_t size = 0;
		int lb = 0;
		int rc = ioctl(fd, BLKGETSIZE64, &size);
		if (rc == 0)
			rc = ioctl(fd, BLKSSZGET, &lb);
		int err = errno;
		close(fd);
		if (rc)
			return sb_errno(e, err, "target %s: size", spec);
		t->is_block_device = true;
		t->size = size;
		t->logical_block = (uint32_t)lb;
		return 0;
	}
	if (S_ISREG(st.st_mode)) {
		t->is_file = true;
		t->size = (uint64_t)st.st_size > file_size ? (uint64_t)st.st_size
							   : file_size;
		t->logical_block = 512;
		if (t->size == 0)
			return sb_errf(e, "target %s is an empty file: give --size", spec);
		return file_size ? file_space_check(spec, t->size, e) : 0;
	}
	return sb_errf(e, "target %s is neither a block device, a regular file nor sim:PROFILE",
		       spec);
}
