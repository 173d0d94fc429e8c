#!/usr/bin/env bash
# The main job: a review of a simulated WD_BLACK SN8100 2 TB beside a
# simulated Micron 1300 (SATA) and Intel Optane P4800X, drawn into
# demo/report/index.html.  Every step of the
# `full` methodology runs, as a miniature: the drives are simulated at 10 %
# of their capacity (scale=0.1: caches, watermarks and burst sizes with
# it, rates and latencies kept) and the `full-scaled` preset shrinks every
# capacity-bound size and time by the same factor, so the cache and its
# end, the fold levels, steady state after two drive-writes, the bursts
# and the reclaim knee all happen as in the review, in about a minute.
# The page says what was scaled.
# SSDBENCH names the binary (default build/ssdbench; the package test runs
# the installed one), DEMO_DIR the folder (default demo).
set -euo pipefail
cd "$(dirname "$0")/.."
ssdbench=${SSDBENCH:-build/ssdbench}
out=${DEMO_DIR:-demo}
mkdir -p "$out"
db=$out/ssdbench.db
rm -f "$db" "$db-wal" "$db-shm"
# suite PROFILE [--set ...]: the run id on stdout.  The quiet time before a
# drive starts its idle work (50 ms) is a time of the miniature too: 5 ms,
# else the shortest reclaim idle (5 s of the review, 0.5 s here) loses a
# tenth of its folding and the recovery rate's fit its floor.
suite() {
	local p=$1
	shift
	"$ssdbench" suite --target "sim:$p,scale=0.1,t_idle_enter_ms=5" \
		--preset full-scaled --db "$db" "$@"
}
dut=$(suite sn8100-2tb)
# The comparison drives are sampled every 100 ms instead of 10 ms: a tenth
# of the samples (the Micron's random preconditioning alone is 280 000 at
# 10 ms), and neither has bursts for a finer interval to resolve.  The
# page says so.
cmp1=$(suite micron1300-1tb --set suite.interval=100ms)
cmp2=$(suite p4800x-375gb --set suite.interval=100ms)
"$ssdbench" report "$dut" --compare "$cmp1" --compare "$cmp2" --db "$db" --out "$out/report"
echo "demo: open $out/report/index.html (runs $dut, $cmp1, $cmp2 in $db)"
