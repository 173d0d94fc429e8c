#!/usr/bin/env bash
# The `full` preset at full scale on simulated drives, one after the other:
# wall time and CPU seconds (user + sys, both threads) per drive, the wall
# time of each step, and the figures that say whether the analysis saw
# the profile's truth.
#
#   bench/suite_sim.sh                    every built-in drive
#   bench/suite_sim.sh sn8100-2tb p1-1tb  those drives
#   OUT=dir bench/suite_sim.sh            keep the databases in dir
#   BIN=path bench/suite_sim.sh           measure that binary (another
#                                         revision's build) instead
#   OPTS=k=v,... bench/suite_sim.sh       target options (sim:DRIVE,OPTS), e.g.
#                                         OPTS=sampled_mix=1
#   PERF=1 bench/suite_sim.sh             also the CPU seconds of each step
#                                         (perf record, cpu-clock samples;
#                                         the recordings stay in the dir for
#                                         perf report: where the CPU went)
set -eu
cd "$(dirname "$0")/.."
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
# A copy, so a rebuild during the runs does not change what is measured.
bin=$out/ssdbench
if [ -n "${BIN:-}" ]; then
	cp "$BIN" "$bin"
else
	make -s -j2 build/ssdbench
	cp build/ssdbench "$bin"
fi
if [ $# -gt 0 ]; then
	drives=("$@")
else
	# every built-in drive
	mapfile -t drives < <("$bin" sim list | awk '{ print $1 }')
fi

figures='fill.pass1.slc_cache_gb|fill.pass1.slc_speed_mbps|reclaim.rate_gbps|'
figures+='seq_precond.steady_reached|rnd_precond.steady_reached|'
figures+='rnd_precond.bursts.period_s|boot.score_iops|boot.score_readers|boot.pass|boot.trials'

printf '%-16s %9s %9s %9s %9s  %s\n' drive wall_s user_s sys_s cpu_s result
for d in "${drives[@]}"; do
	db=$out/$d.db
	rm -f "$db" "$db-wal" "$db-shm"
	start=$(date +%s.%N)
	# The shell's `time` counts the process's children: the suite's
	# driver and collector threads are in it.
	TIMEFORMAT='%U %S'
	wrap=()
	if [ "${PERF:-0}" != 0 ]; then
		# 199 Hz: about 1 % of a core; the totals below then include
		# perf's own CPU, the per-step sums do not.
		wrap=(perf record -q -e cpu-clock -F 199 -g -k CLOCK_REALTIME -o "$out/$d.perf")
	fi
	t=$( { time "${wrap[@]}" "$bin" suite --target "sim:$d${OPTS:+,$OPTS}" --preset full --db "$db" \
		>"$out/$d.out" 2>&1; } 2>&1 ) && rc=ok || rc="failed ($?)"
	end=$(date +%s.%N)
	read -r user sys <<<"$t"
	awk -v d="$d" -v w="$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" \
		-v u="$user" -v s="$sys" -v rc="$rc" \
		'BEGIN { printf "%-16s %9.1f %9.1f %9.1f %9.1f  %s\n", d, w, u, s, u + s, rc }'
	if [ "${PERF:-0}" != 0 ]; then
		bench/step_cpu.py "$db" "$out/$d.perf" || true
	else
		sqlite3 "$db" "SELECT '    ' || name || ' ' || status || ' ' ||
			printf('%.1f', (julianday(finished_at) - julianday(started_at)) * 86400) || ' s'
			FROM steps ORDER BY id" 2>/dev/null || true
	fi
	"$bin" analyze 1 --db "$db" --json 2>/dev/null |
		grep -E "\"($figures)\"" | sed 's/^ */    /' || true
done
echo "databases and logs in $out"
