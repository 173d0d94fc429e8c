#!/usr/bin/env bash
# The suite's seed on a simulated drive: by default a fixed one, recorded
# with the run, so two runs of the same plan on the same drive store the
# same measurements; seed=random draws one and records the number drawn;
# an explicit seed is kept.
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || skip "needs the sqlite3 shell"

target=sim:sn8100-2tb,scale=0.0005
# Steps that take each of the simulator's paths: bulk (rw_ratio at any
# depth, peak's 16 jobs as one stream, the sweeps' sequential mix), every
# I/O in the model's own loop (tail_latency at QD1) and I/O by I/O through
# the engine (boot: several workloads at once).
steps=purge,peak,rw_ratio,seq_precond,seq_sweeps,tail_latency,boot
db=$TEST_TMP/r.db
run_suite() {
	$SSDBENCH suite --target "$target" --preset quick --only "$steps" --db "$db" "$@" \
		>"$TEST_TMP/id" 2>"$TEST_TMP/err" || fail "suite failed: $(cat "$TEST_TMP/err")"
	cat "$TEST_TMP/id"
}
# The seed the run recorded with its plan.
seed_of() {
	sqlite3 "$db" "select params_json from runs where id=$1" |
		python3 -c 'import json,sys,re; p=json.load(sys.stdin)["plan"]; print(re.search(r"^suite\.seed=(.*)$", p, re.M).group(1))'
}
# Every stored interval of a run, in order, as text.
samples_of() {
	sqlite3 "$db" "select w.name, s.idx, s.read_ios, s.write_ios, s.read_p99_ns, s.write_p99_ns from samples s join workloads w on w.id=s.workload_id join steps t on t.id=w.step_id where t.run_id=$1 order by w.id, s.idx"
}

# The figures the steps stored (boot score, ...) and every workload's totals.
figures_of() {
	sqlite3 "$db" "select key, value from metrics where run_id=$1 order by key, id"
	sqlite3 "$db" "select w.name, w.read_bytes, w.write_bytes, w.trim_bytes, w.measured_ns from workloads w join steps t on t.id=w.step_id where t.run_id=$1 order by w.id"
}

a=$(run_suite)
b=$(run_suite)
[ "$(seed_of "$a")" = 1 ] || fail "default seed on a simulated drive is '$(seed_of "$a")', not the fixed 1"
[ "$(seed_of "$b")" = 1 ] || fail "second run's seed is '$(seed_of "$b")'"
[ -n "$(samples_of "$a")" ] || fail "run $a stored no samples"
[ "$(samples_of "$a")" = "$(samples_of "$b")" ] || fail "two runs with the default seed differ"
[ -n "$(figures_of "$a")" ] || fail "run $a stored no figures"
[ "$(figures_of "$a")" = "$(figures_of "$b")" ] || fail "two runs with the default seed stored different figures"

r=$(run_suite --set suite.seed=random)
rs=$(seed_of "$r")
[[ $rs =~ ^[0-9]+$ ]] && [ "$rs" != 1 ] || fail "seed=random recorded '$rs'"
e=$(run_suite --set suite.seed=77)
[ "$(seed_of "$e")" = 77 ] || fail "an explicit seed is recorded as '$(seed_of "$e")'"
[ "$(samples_of "$e")" != "$(samples_of "$a")" ] || fail "another seed gave the same samples"
echo ok
