#!/usr/bin/env bash
# The report's acceptance check: a report of a simulated full run with two
# comparison runs, where every chart the methodology lists exists, is not
# empty and has labelled axes, and the page renders in headless Chromium.
#
# Every step of the `full` preset runs, with the reviewer's sizes, queue
# depths, mixes and shares; only time-based settings are shortened (rests,
# idles, ramps, measurement and trial times, steady-state windows), and the
# drives are simulated at 1 % of their capacity (`scale=0.01`), so the
# whole test takes about a minute and a half on two loaded cores.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/report_lib.sh"
cd "$TEST_TMP"

SETS=(
	purge.rest=0 peak.rest=0 peak.pass_time=100ms
	fill.rest=0 fill.pass_rest=1s active_range.rest=0 cssd_precond.rest=0
	sync_write.rest=0 sync_write.time=500ms
	rw_ratio.rest=0 rw_ratio.time=50ms rw_ratio.point_rest=0
	reclaim.rest=0 reclaim.idles=0s,2s,10s reclaim.write_time=2s
	essd_purge.rest=0 seq_precond.window=1s rnd_precond.window=1s
	# a 1 s window judged on 100 ms samples (the preset: 1 s samples, 30 s)
	seq_precond.ss_interval=100ms rnd_precond.ss_interval=100ms
	# 2 s per point: two 1 s samples for Intel's consistency.
	seq_sweeps.ramp=0 seq_sweeps.time=2s rnd_sweeps.ramp=0 rnd_sweeps.time=2s
	ai_sweep.ramp=0 ai_sweep.time=2s tail_latency.time=1s
	boot.double_time=100ms boot.bisect_time=100ms boot.confirm_time=100ms
)
args=()
for s in "${SETS[@]}"; do args+=(--set "$s"); done

suite() {	# suite PROFILE DB
	$SSDBENCH suite --target "sim:$1,scale=0.01" --preset full --db "$2" \
		"${args[@]}" >"$1.out" 2>"$1.err" || { tail "$1.err"; fail "suite on $1"; }
}
suite sn8100-2tb full.db
suite p1-1tb full.db
suite micron1300-1tb other.db

# Every step of the preset ran to the end (iu_sweeps is off in `full`).
steps="purge peak fill active_range cssd_precond sync_write rw_ratio reclaim
       essd_purge seq_precond seq_sweeps rnd_precond rnd_sweeps ai_sweep
       tail_latency boot"
$SSDBENCH show 1 --db full.db >show.txt
for step in $steps; do
	grep -qE "^ +[0-9]+ +$step +done " show.txt || fail "DUT: step $step not done"
done

$SSDBENCH report 1 --compare 2 --compare-db other.db:1 --db full.db --out "$TEST_TMP/rep"
for step in $steps; do
	grep -q "id=\"$step\"" rep/index.html || fail "no section $step"
done

# chart PART...: each names exactly one chart of the report, which must be
# complete and labelled.
chart() {
	local part stems
	for part in "$@"; do
		stems=$(cd rep && ls | sed -n "s/^\\([0-9]*-$part\\)\\.gp\$/\\1/p")
		[ "$(wc -w <<<"$stems")" = 1 ] || fail "chart $part: found '${stems}'"
		check_chart "$TEST_TMP/rep" "$stems" full
	done
}
# blocks PART N: the chart overlays N data blocks (devices or lines).
blocks() {
	local n
	n=$(grep -c '^# index ' rep/[0-9]*-"$1".dat)
	[ "$n" = "$2" ] || fail "chart $1: $n data blocks, expected $2"
}
# columns PART N: a bar chart with N series (devices).
columns() {
	local n
	n=$(sed -n 's/^# category//p' rep/[0-9]*-"$1".dat | awk -F'\t' '{print NF - 1}')
	[ "$n" = "$2" ] || fail "chart $1: $n bar series, expected $2"
}

chart peak-default peak-nvme
columns peak-default 3
columns peak-nvme 3
for p in 1 2; do
	chart fill-pass$p-bw-written fill-pass$p-bw-time fill-pass$p-lat-time fill-pass$p-mean
	blocks fill-pass$p-bw-written 3
done
chart fill-pass1-p1 active_range-iops-span sync_write-sync
blocks active_range-iops-span 3
for w in seq_pass_1 seq_pass_2 rnd; do
	chart cssd_precond-$w-time cssd_precond-$w-dw cssd_precond-$w-lat-time cssd_precond-$w-lat-dw
done
chart rw_ratio-per-qd-0 rw_ratio-per-qd-1 rw_ratio-per-qd-2 rw_ratio-weighted rw_ratio-score
blocks rw_ratio-weighted 3
chart reclaim-written-per-idle reclaim-written-time-per-idle \
	reclaim-written-time-compare reclaim-bw-per-idle
columns reclaim-written-per-idle 3
blocks reclaim-written-time-per-idle 3	# one line per idle
blocks reclaim-written-time-compare 3	# one line per device
blocks reclaim-bw-per-idle 3
for s in seq_precond rnd_precond; do
	chart $s-precond-time $s-precond-dw $s-precond-lat-time $s-precond-lat-dw
done
for g in seq_sweeps-SEQ_128_KiB_read seq_sweeps-SEQ_128_KiB_write \
	 seq_sweeps-SEQ_128_KiB_95_5 rnd_sweeps-RND_4_KiB_read \
	 rnd_sweeps-RND_4_KiB_write rnd_sweeps-RND_4_KiB_70_30 \
	 rnd_sweeps-RND_4_KiB_50_50 ai_sweep-RND_512_B_read; do
	chart $g-2in1 $g-2in1-all $g-consistency $g-consistency-1s $g-qos $g-qos-p9999
	blocks $g-consistency-1s 3
	blocks $g-qos 5		# one line per percentile, 99 ... 99.9999 %
	blocks $g-qos-p9999 3
	grep -q 'set yrange \[0:110\]' rep/[0-9]*-$g-consistency-1s.gp ||
		fail "$g: 1 s consistency not on 0-110 %"
	grep -q '1 s interval' rep/[0-9]*-$g-consistency-1s.gp ||
		fail "$g: 1 s consistency does not say its interval"
	grep -q '100 ms interval' rep/[0-9]*-$g-consistency.gp ||
		fail "$g: consistency does not say its interval"
	grep -q 'set logscale y 10' rep/[0-9]*-$g-qos.gp || fail "$g: QoS y not log"
done
for m in 100 0 70 50; do
	chart tail_latency-mix_${m}_qd_1-nines
done
chart boot-score
columns boot-score 1	# one ranked series, a bar per device

# Every chart on the page, and nothing drawn that the page lacks.
ncharts=$(ls rep/*.gp | wc -l)
nimg=$(grep -o '<img src="[^"]*"' rep/index.html | wc -l)
[ "$ncharts" = "$nimg" ] || fail "$ncharts charts written, $nimg on the page"

# The platform table: the host facts the suite stored, CPU and version.
for key in tool_version kernel cpu_model cpus; do
	grep -q "<td>$key</td>" rep/index.html || fail "platform: no $key row"
done
cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -1 | sed 's/[[:space:]]*$//')
if [ -n "$cpu" ]; then
	grep -qF "<td>$cpu</td>" rep/index.html || fail "platform: CPU '$cpu' not shown"
fi
version=$($SSDBENCH version | awk '{print $2}')
grep -qF "<td>$version</td>" rep/index.html || fail "platform: version $version not shown"

check_report "$TEST_TMP/rep" full-sim
