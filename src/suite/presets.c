/*
 * The presets.  `full` is the methodology with the reviewer's numbers:
 * the cSSD half, then the eSSD half.  `cssd` and `essd` are the halves.
 * `quick` is `full` scaled down so a target of a few hundred MiB goes
 * through every step in minutes: shorter ramps and measurements, fewer
 * queue depths and points, smaller shares and regions.
 *
 * Defaults are written as the settings a user would type, so they go
 * through the same parser and checks as a plan file.
 */
#include "suite/presets.h"

#include <string.h>

#define REST_CSSD "rest=5m "	/* "5 minutes of rest between benchmarks" */

const struct step_template step_templates[] = {
	/* cSSD half, METHODOLOGY §2-3 */
	{ "purge", "purge", HALF_CSSD, "purge to fresh-out-of-box", NULL,
	  "method=auto lbaf=keep " REST_CSSD },
	{ "peak", "peak", HALF_CSSD, "peak numbers (CrystalDiskMark-like) at FOB", NULL,
	  "profiles=default,nvme region=1GiB passes=5 pass_time=5s " REST_CSSD },
	{ "fill", "fill", HALF_CSSD, "fill drive: SEQ 128 KiB QD256, two passes", NULL,
	  "passes=2 share=100% bs=128KiB qd=256 pass_rest=15m " REST_CSSD },
	{ "active_range", "active_range", HALF_CSSD, "active range: RND 4 KiB QD256 reads over growing spans", "fill",
	  "bs=4KiB qd=256 amount=1GiB span_start=1GiB span_factor=2 " REST_CSSD },
	{ "cssd_precond", "cssd_precond", HALF_CSSD, "cSSD preconditioning: purge, 2 x SEQ, RND over 8 GiB, TRIM 25 %", NULL,
	  "method=auto purge_rest=0 seq_passes=2 seq_bs=128KiB seq_qd=256 rnd_span=8GiB "
	  "rnd_bs=4KiB rnd_qd=32 rnd_writes=1 trim_share=25% " REST_CSSD },
	{ "sync_write", "sync_write", HALF_CSSD, "sync write: RND 4 KiB QD1 O_SYNC in the first 8 GiB", "cssd_precond",
	  "bs=4KiB span=8GiB amount=500MiB time=2m " REST_CSSD },
	{ "rw_ratio", "rw_ratio", HALF_CSSD, "performance by R/W ratio at QD 1, 2, 4 with the repetition rule", "cssd_precond",
	  "bs=4KiB span=8GiB read_pcts=0,10,20,30,40,50,60,70,80,90,100 qds=1,2,4 "
	  "weights=0.80,0.15,0.05 amount=1GiB time=30s point_rest=10s "
	  "min_runs=5 max_runs=10 rse_window=3 rse=5% " REST_CSSD },
	{ "reclaim", "reclaim", HALF_CSSD, "SLC cache reclaim: purge, fill 50 %, idle T, write 1 min", NULL,
	  "idles=5s,10s,15s,30s,60s,120s,240s method=auto purge_rest=0 fill_share=50% bs=128KiB "
	  "qd=256 write_time=1m " REST_CSSD },
	/* eSSD half, METHODOLOGY §4: no rest except after a purge */
	{ "essd_purge", "purge", HALF_ESSD, "purge to fresh-out-of-box", NULL,
	  "method=auto lbaf=keep rest=5m" },
	{ "seq_precond", "ss_precond", HALF_ESSD, "SEQ preconditioning to steady state", NULL,
	  "pattern=seq bs=128KiB qd=256 track=bw rule=slope ss_interval=1s window=30s slope_tol=10% "
	  "excursion_tol=20% min_writes=2 max_writes=23 rest=0" },
	{ "seq_sweeps", "sweep", HALF_ESSD, "SEQ 128 KiB read, write, 95:5 QD sweeps", "seq_precond",
	  "pattern=seq bs=128KiB mixes=100,0,95 qds=1,2,4,8,16,32,64,128,256 "
	  "ramp=30s time=5m span=100% rest=0" },
	{ "rnd_precond", "ss_precond", HALF_ESSD, "RND preconditioning to steady state", "seq_precond",
	  "pattern=rand bs=4KiB qd=256 track=iops rule=slope ss_interval=1s window=30s slope_tol=10% "
	  "excursion_tol=20% min_writes=2 max_writes=23 rest=0" },
	{ "rnd_sweeps", "sweep", HALF_ESSD, "RND 4 KiB read, write, 70:30, 50:50 QD sweeps", "rnd_precond",
	  "pattern=rand bs=4KiB mixes=100,0,70,50 qds=1,2,4,8,16,32,64,128,256 "
	  "ramp=30s time=5m span=100% rest=0" },
	{ "ai_sweep", "sweep", HALF_ESSD, "RND 512 B read QD sweep (AI)", "rnd_precond",
	  "pattern=rand bs=512 mixes=100 qds=1,2,4,8,16,32,64,128,256 "
	  "ramp=30s time=5m span=100% rest=0" },
	{ "iu_sweeps", "sweep", HALF_ESSD, "RND read/write QD sweeps at the indirection unit (IU > 4 KiB)", "rnd_precond",
	  "enabled=no pattern=rand bs=16KiB mixes=100,0 qds=1,2,4,8,16,32,64,128,256 "
	  "ramp=30s time=5m span=100% rest=0" },
	{ "tail_latency", "tail", HALF_ESSD, "tail latency: RND 4 KiB QD1 read, write, 70:30, 50:50", "rnd_precond",
	  "bs=4KiB qd=1 mixes=100,0,70,50 ramp=0 time=5m span=100% rest=0" },
	{ "load_sweep", "load_sweep", HALF_ESSD, "latency at a given load: RND 4 KiB 70:30 and read, the maximum then 10 ... 100 % of it (off by default)", "rnd_precond",
	  "enabled=no mixes=70,100 bs=4KiB qd=32 levels=10,20,30,40,50,60,70,80,90,100 "
	  "process=uniform ramp=5s time=30s limit=1ms span=100% rest=0" },
	/* Not the reviewer's: named mixes (docs/run.md) at steady state, on
	   request (enabled=yes in a plan file); before boot, which discards */
	{ "profiles", "profiles", HALF_ESSD, "named workloads (JESD219, OLTP, VDI, CDN) at steady state", "rnd_precond",
	  "enabled=no profiles=jesd219,oltp,vdi,cdn qd=0 ramp=30s time=5m span=100% rest=0" },
	{ "boot", "boot", HALF_ESSD, "boot workload (OCP BootBench): numjobs search", NULL,
	  "pass_iops=60000 prefill_bs=128KiB prefill_qd=16 prefill_writes=2 "
	  "read_bs=32KiB writer_bs=128KiB writer_rate=15MiB/s fsync_every=256MiB "
	  "trim_bs=128KiB trim_rate=5MiB/s writer_rate_min=5MiB/s trim_rate_min=2MiB/s "
	  "rate_cycle=5s p99=10ms p999=50ms max=500ms search=bootbench "
	  "n_start=4 n_max=256 double_time=30s bisect_time=60s confirm_time=120s "
	  "confirm_runs=3 rest=0" },
	{ NULL, NULL, HALF_CSSD, NULL, NULL, NULL },
};

const char suite_defaults[] = "interval=100ms seed=auto scale=1";

/*
 * `quick`: every step, scaled.  Shares instead of absolute regions so a
 * small target fits; seconds instead of minutes.
 */
static const char quick_settings[] =
	"purge.rest=1s peak.rest=1s fill.rest=1s active_range.rest=1s "
	"cssd_precond.rest=1s sync_write.rest=1s rw_ratio.rest=1s reclaim.rest=1s "
	"essd_purge.rest=1s "
	"peak.region=16MiB peak.passes=2 peak.pass_time=300ms "
	"fill.share=50% fill.pass_rest=1s "
	"active_range.amount=8MiB active_range.span_start=8MiB active_range.span_factor=4 "
	"cssd_precond.seq_passes=1 cssd_precond.rnd_span=10% "
	"sync_write.span=10% sync_write.amount=2MiB sync_write.time=1s "
	"rw_ratio.span=10% rw_ratio.read_pcts=0,30,70,100 rw_ratio.amount=16MiB "
	"rw_ratio.time=200ms rw_ratio.point_rest=0 rw_ratio.min_runs=3 "
	"rw_ratio.max_runs=4 rw_ratio.rse_window=3 "
	"reclaim.idles=0s,1s,2s reclaim.fill_share=25% reclaim.write_time=1s "
	/* a 1 s window of 100 ms samples: a toy drive's steady state, not fio's */
	"seq_precond.window=1s seq_precond.ss_interval=100ms seq_precond.min_writes=0.5 "
	"seq_precond.max_writes=2 "
	"rnd_precond.window=1s rnd_precond.ss_interval=100ms rnd_precond.min_writes=0.25 "
	"rnd_precond.max_writes=1 "
	"seq_sweeps.qds=1,8,32 seq_sweeps.ramp=100ms seq_sweeps.time=500ms "
	"rnd_sweeps.qds=1,8,32 rnd_sweeps.ramp=100ms rnd_sweeps.time=500ms "
	"ai_sweep.qds=1,32 ai_sweep.ramp=100ms ai_sweep.time=500ms "
	"iu_sweeps.qds=1,32 iu_sweeps.ramp=100ms iu_sweeps.time=500ms "
	"tail_latency.time=1s profiles.ramp=100ms profiles.time=500ms "
	"load_sweep.ramp=100ms load_sweep.time=500ms "
	"boot.prefill_writes=0.25 boot.n_start=1 boot.n_max=4 boot.double_time=500ms "
	"boot.bisect_time=500ms boot.confirm_time=500ms boot.confirm_runs=2 "
	"boot.fsync_every=8MiB boot.pass_iops=100";

/*
 * `full-scaled`: `full` for a simulated drive at a tenth of its capacity
 * (sim:NAME,scale=0.1), as a faithful miniature.  What a capacity bounds
 * takes a tenth of the time at the same rates, so every size and time that
 * lives with it shrinks by the same factor: absolute regions and amounts,
 * rests and idles (the drive folds and collects garbage while idle), the
 * steady-state rule's spacing and window, and the sample interval
 * (100 ms -> 10 ms, so a 0.5 s burst of the real drive is still 5
 * samples, and a 128 KiB stream at 1.3 GB/s still 1 % per I/O).  The
 * measurement times of steady rates (sweep points, boot trials) are cut
 * to 1 % of the reviewer's, 300 samples a point, for the CPU the
 * I/O-by-I/O parts cost; tail latency keeps 10 s a workload, enough I/Os
 * for the 99.999th percentile at QD1.  `suite.scale` tells the analysis
 * (burst and consistency windows) and the report (figures at full size)
 * what the run is.
 */
static const char full_scaled_settings[] =
	"suite.scale=0.1 suite.interval=10ms "
	"purge.rest=30s peak.rest=30s fill.rest=30s active_range.rest=30s "
	"cssd_precond.rest=30s sync_write.rest=30s rw_ratio.rest=30s reclaim.rest=30s "
	"essd_purge.rest=30s "
	"peak.region=102MiB peak.pass_time=500ms "
	"fill.pass_rest=90s "
	"active_range.amount=102MiB active_range.span_start=102MiB "
	"cssd_precond.rnd_span=819MiB "
	"sync_write.span=819MiB sync_write.amount=50MiB sync_write.time=12s "
	"rw_ratio.span=819MiB rw_ratio.amount=102MiB rw_ratio.time=3s "
	"rw_ratio.point_rest=1s "
	/* the reviewer's idles, and a longer one (12 min at full size, as
	   one review's minutes) by which the cache is back in full; the rate
	   is fitted on the points before it */
	"reclaim.idles=500ms,1s,1500ms,3s,6s,12s,24s,72s "
	"reclaim.write_time=6s "
	"seq_precond.ss_interval=100ms seq_precond.window=3s "
	"rnd_precond.ss_interval=100ms rnd_precond.window=3s "
	/* measurement times: 1 % */
	"seq_sweeps.ramp=300ms seq_sweeps.time=3s "
	"rnd_sweeps.ramp=300ms rnd_sweeps.time=3s "
	"ai_sweep.ramp=300ms ai_sweep.time=3s "
	"iu_sweeps.ramp=300ms iu_sweeps.time=3s "
	"tail_latency.time=10s "
	"load_sweep.ramp=50ms load_sweep.time=300ms "
	"profiles.ramp=300ms profiles.time=3s "
	"boot.fsync_every=26214KiB boot.rate_cycle=500ms boot.double_time=300ms "
	"boot.bisect_time=600ms boot.confirm_time=1200ms";

const struct preset presets[] = {
	{ "cssd", "the cSSD half with the reviewer's numbers", true, false, "", "" },
	{ "essd", "the eSSD half with the reviewer's numbers", false, true, "", "" },
	{ "full", "both halves with the reviewer's numbers", true, true, "", "" },
	{ "full-scaled", "full for a simulated drive at scale=0.1: every "
	  "capacity-bound size and time at 10 %", true, true, full_scaled_settings,
	  "The full methodology as a miniature of the review, for a drive "
	  "simulated at 10 % of its capacity: regions, amounts, rests, idles, "
	  "the steady-state rule's spacing and window and the sample interval "
	  "are 10 % of the reviewer's; sweep points and boot trials "
	  "run 1 % of the reviewer's time (300 samples a point), tail latency "
	  "10 s per workload.  Sizes and times of what the capacity bounds are "
	  "shown as measured and at full size (divided by the scale); rates, "
	  "I/O rates and latencies are the drive's own." },
	{ "quick", "every step, scaled so a small target finishes in minutes",
	  true, true, quick_settings,
	  "A smoke test: every step at toy sizes and times (fractions of a "
	  "second, a fraction of a drive-write of preconditioning), so its "
	  "figures are not steady-state figures and do not compare with a "
	  "review." },
	{ NULL, NULL, false, false, NULL, NULL },
};

const struct preset *preset_find(const char *name)
{
	for (const struct preset *p = presets; p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}
