#!/usr/bin/env bash
# Named workloads as a suite step: a plan file turns the `profiles` step
# on, each profile runs for its time as a workload of its own, and each is
# the same workload `run --profile NAME` runs (one table for both): rw,
# read share, block size or mix, offsets' distribution and queue depth of
# the stored specs agree with run's.
source "$(dirname "$0")/lib.sh"
S=$SSDBENCH
T=sim:sn8100-2tb,scale=0.002
db=$TEST_TMP/p.db
cat >"$TEST_TMP/plan.ini" <<'INI'
[profiles]
enabled=yes profiles=jesd219,oltp,vdi,cdn ramp=0 time=300ms
INI
$S plan --target "$T" --preset quick --plan "$TEST_TMP/plan.ini" --only profiles >"$TEST_TMP/plan.out" ||
	fail "plan"
grep -q "profiles.*named workloads" "$TEST_TMP/plan.out" || fail "plan lacks the step: $(cat "$TEST_TMP/plan.out")"
grep -q "time 1s" "$TEST_TMP/plan.out" || fail "4 x 300 ms is not estimated as 1 s: $(cat "$TEST_TMP/plan.out")"
run=$($S suite --target "$T" --preset quick --plan "$TEST_TMP/plan.ini" --only profiles --db "$db" 2>"$TEST_TMP/err") ||
	fail "suite: $(cat "$TEST_TMP/err")"
names=$(sqlite3 "$db" "SELECT name FROM workloads WHERE run_id = $run ORDER BY id" | tr '\n' ' ')
[ "$names" = "profile=jesd219 profile=oltp profile=vdi profile=cdn " ] || fail "workloads: $names"
keys='[.rw, .read_pct, .bs, .qd, .random_distribution, (.bssplit // "")] | @tsv'
for p in jesd219 oltp vdi cdn; do
	step=$(sqlite3 "$db" "SELECT spec_json FROM workloads WHERE run_id = $run AND name = 'profile=$p'" | jq -r "$keys")
	$S run --target "$T" --profile "$p" --time 100ms --no-db --json >"$TEST_TMP/r.json" || fail "run --profile $p"
	alone=$(jq -r ".workloads[0] | $keys" "$TEST_TMP/r.json")
	[ "$step" = "$alone" ] || fail "$p: the step ran '$step', run --profile '$alone'"
	ios=$(sqlite3 "$db" "SELECT read_ios + write_ios FROM workloads WHERE run_id = $run AND name = 'profile=$p'")
	[ "$ios" -gt 0 ] || fail "$p: nothing measured"
	echo "$p: $step"
done
# each profile's figures, under its name, agree with its workload's totals
for p in jesd219 oltp vdi cdn; do
	fig=$(sqlite3 "$db" "SELECT value FROM metrics WHERE run_id = $run AND key = 'profiles.$p.iops'")
	tot=$(sqlite3 "$db" "SELECT (read_ios + write_ios) * 1e9 / measured_ns FROM workloads WHERE run_id = $run AND name = 'profile=$p'")
	python3 -c "import sys; f, t = float(sys.argv[1] or 0), float(sys.argv[2]); sys.exit(not (t > 0 and abs(f - t) <= 1e-6 * t))" "$fig" "$tot" ||
		fail "profiles.$p.iops is '$fig', the workload's totals give $tot"
	[ -n "$(sqlite3 "$db" "SELECT value FROM metrics WHERE run_id = $run AND key LIKE 'profiles.$p.%lat_p99%' LIMIT 1")" ] ||
		fail "no p99 latency figure for $p: $(sqlite3 "$db" "SELECT key FROM metrics WHERE run_id = $run AND key LIKE 'profiles.$p.%'" | tr '\n' ' ')"
done
# the shares the step measured are the profile's: VDI writes 80 % of its I/Os
w=$(sqlite3 "$db" "SELECT round(100.0 * write_ios / (read_ios + write_ios)) FROM workloads WHERE run_id = $run AND name = 'profile=vdi'")
[ "${w%.*}" -ge 78 ] && [ "${w%.*}" -le 82 ] || fail "vdi wrote $w % of its I/Os, not 80"
echo "suite profiles: ok"
