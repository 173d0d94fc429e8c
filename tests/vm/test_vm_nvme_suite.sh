#!/usr/bin/env bash
# `suite --preset quick` on the NVMe namespace behind the kernel's nvme
# driver, every step: each ends done with its findings stored, the boot
# step's trim stream included (trims by BLKDISCARD on this 6.1 kernel).
# vm-timeout: 400
source "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || skip "needs the sqlite3 shell"
db=$TEST_TMP/suite.db
start=$(date +%s)
# The rests between steps (1 s each) only cost time here.
rests=()
for s in purge peak fill active_range cssd_precond sync_write rw_ratio reclaim essd_purge; do
	rests+=(--set "$s.rest=0")
done
"$SSDBENCH" suite --target "$NVME" --destroy-data --preset quick --db "$db" "${rests[@]}" \
	>"$TEST_TMP/id" 2>"$TEST_TMP/err" || { tail -20 "$TEST_TMP/err"; fail "suite quick on $NVME"; }
echo "suite quick on $NVME: $(( $(date +%s) - start )) s"
run=$(head -1 "$TEST_TMP/id")
keep suite-quick.err "$TEST_TMP/err"
q() { sqlite3 "$db" "$1"; }
[ "$(q "select status from runs where id=$run")" = done ] || fail "run not done"
[ "$(q "select count(*) from steps where run_id=$run and status <> 'done'")" = 0 ] \
	|| fail "steps not done: $(q "select name || ' ' || status from steps where status <> 'done'")"
q "select s.name, count(m.key) from steps s left join metrics m on m.step_id = s.id group by s.id order by s.seq" | tee "$TEST_TMP/figs"
! grep -q '|0$' "$TEST_TMP/figs" || fail "a step without figures"
# The boot step's trimmer trimmed.
[ "$(q "select coalesce(sum(w.trim_ios),0) from workloads w join steps s on s.id = w.step_id where s.name = 'boot'")" -gt 0 ] \
	|| fail "the boot step's trim stream trimmed nothing"
"$SSDBENCH" analyze "$run" --db "$db" --json >"$TEST_TMP/a.json" || fail "analyze"
keep suite-quick-analyze.json "$TEST_TMP/a.json"
json_get "$TEST_TMP/a.json" 'd["figures"]["boot.score_iops"]' >/dev/null || fail "no boot score"
echo ok
