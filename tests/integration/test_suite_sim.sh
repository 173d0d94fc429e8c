#!/usr/bin/env bash
# The full preset's truth-bearing steps at full scale on a simulated
# SN8100 2 TB: the figures must match the drive's known truth
# (SIMULATOR.md §10 and the review): a 677 GB SLC cache at 14.1 GB/s in
# fill pass 1 and 11 GB in pass 2, 1.46 GB/s of cache regained per second
# of idle, steady state reached in SEQ and RND preconditioning, and the
# RND bursts of ~1 M IOPS for ~0.4 s every 19-22 s, ~1.5 GB each.
. "$(dirname "$0")/lib.sh"
$SSDBENCH plan --preset full --target sim:sn8100-2tb >/dev/null 2>&1 || skip "no simulator in this build"

db=$TEST_TMP/r.db
$SSDBENCH suite --target sim:sn8100-2tb --preset full --db "$db" \
	--only purge,fill,reclaim,essd_purge,seq_precond,rnd_precond >"$TEST_TMP/id" 2>"$TEST_TMP/err" ||
	fail "suite failed: $(cat "$TEST_TMP/err")"
run=$(cat "$TEST_TMP/id")
$SSDBENCH analyze "$run" --db "$db" --json >"$TEST_TMP/a.json" || fail "analyze failed"

# near KEY TRUTH REL: |figure - truth| <= REL * truth
near() {
	local v
	v=$(json_get "$TEST_TMP/a.json" "d['figures']['$1']") || fail "figure $1 missing"
	python3 -c "import sys; v=$v; sys.exit(not (v is not None and abs(v - $2) <= $3 * $2))" ||
		fail "$1 = $v, truth $2 (within $3)"
	echo "$1 = $v (truth $2)"
}
near fill.pass1.slc_cache_gb 677 0.10
near fill.pass1.slc_speed_mbps 14100 0.10
near fill.pass1.mean_mbps 3291 0.10
near fill.pass2.slc_cache_gb 11 0.10
near reclaim.rate_gbps 1.46 0.10
near seq_precond.steady_reached 1 0
near rnd_precond.steady_reached 1 0
near seq_precond.steady_mbps 3850 0.10
# the verdicts name what they were judged by: fio's slope rule on 1 s
# samples (made of the 100 ms ones) over 30 s, limit 10 %
near seq_precond.steady_interval_s 1 0
near seq_precond.steady_window_s 30 0
near seq_precond.steady_limit_pct 10 0
near rnd_precond.steady_metric_iops 1 0
near rnd_precond.bursts.period_s 20.5 0.10
near rnd_precond.bursts.gb 1.5 0.15
near rnd_precond.bursts.height_iops 950000 0.10
# The purge of a simulated drive is the model's format, and says so.
command -v sqlite3 >/dev/null && { [ "$(sqlite3 "$db" "select unit from metrics where key='purge.purge_method'")" = sim-format ] || fail "purge method"; }
echo ok
