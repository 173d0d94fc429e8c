#!/usr/bin/env bash
# The quick preset on a loop device: refused without --destroy-data, then
# every step runs, and every step's figures are in the database, checked
# against what the plan makes true (bytes written, spans, run counts).
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || skip "needs the sqlite3 shell"

dev=$(make_loop 256)
db=$TEST_TMP/r.db
q() { sqlite3 "$db" "$1"; }
metric() { q "select value from metrics where key='$1'"; }

expect_fail "block device without --destroy-data" $SSDBENCH suite --target "$dev" --preset quick --db "$db"
grep -q -- "--destroy-data" <<<"$LAST_ERR" || fail "refusal does not name --destroy-data: $LAST_ERR"
[ ! -e "$db" ] || fail "a database was created before the refusal"

$SSDBENCH suite --target "$dev" --preset quick --destroy-data --db "$db" >"$TEST_TMP/id" 2>"$TEST_TMP/err" ||
	fail "quick suite failed: $(cat "$TEST_TMP/err")"
grep -q "every byte of its 256 MiB is erased" "$TEST_TMP/err" || fail "no erase warning: $(cat "$TEST_TMP/err")"
run=$(cat "$TEST_TMP/id")
[ "$(q "select status from runs where id=$run")" = done ] || fail "run not done"
steps="purge peak fill active_range cssd_precond sync_write rw_ratio reclaim essd_purge seq_precond seq_sweeps rnd_precond rnd_sweeps ai_sweep tail_latency boot"
for s in $steps; do
	[ "$(q "select status from steps where name='$s'")" = done ] || fail "step $s not done"
	n=$(q "select count(*) from metrics m join steps t on t.id=m.step_id where t.name='$s' and m.value is not null")
	[ "$n" -gt 0 ] || fail "step $s has no figures"
done

# Known truth from the plan: quick fills 50 % of 256 MiB per pass.
half_gb=$(python3 -c 'print(128*2**20/1e9)')
for k in fill.pass1.written_gb fill.pass2.written_gb; do
	python3 -c "import sys; sys.exit(abs($(metric $k) - $half_gb) > 1e-9)" || fail "$k = $(metric $k), want $half_gb"
done
# Active range ends at the whole device: 0.25 GiB.
last=$(q "select value from metrics where key like 'active_range.span%.gib' order by value desc limit 1")
python3 -c "import sys; sys.exit(abs($last - 0.25) > 1e-12)" || fail "last active range span $last GiB"
# The repetition rule ran each point between min_runs (3) and max_runs (4) times.
for k in $(q "select key from metrics where key like 'rw_ratio.%.runs'"); do
	v=$(metric "$k"); python3 -c "import sys; sys.exit(not 3 <= $v <= 4)" || fail "$k = $v"
done
python3 -c "import sys; sys.exit(not $(metric rw_ratio.score_mbps) > 0)" || fail "no R/W ratio score"
# Every sweep point has IOPS and a p99 latency; QD sweeps cover 1, 8, 32.
for k in seq_sweeps.mix100.qd32.mbps rnd_sweeps.mix0.qd8.iops rnd_sweeps.mix50.qd1.lat_p99_us \
	 ai_sweep.mix100.qd32.iops tail_latency.mix70.qd1.lat_p99_9_us peak.default.seq1m_q8t1.read.mbps \
	 peak.nvme.rnd4k_q32t16.write.iops sync_write.mbps reclaim.idle_1s.written_gb \
	 seq_precond.drive_writes rnd_precond.steady_reached; do
	v=$(metric "$k"); [ -n "$v" ] || fail "figure $k missing"
done
readers=$(metric boot.score_readers)
python3 -c "import sys; sys.exit(not 0 <= $readers <= 4)" || fail "boot readers $readers outside 0..4"
# The writer's and trimmer's rate_min check is recorded (quick trials are
# shorter than fio's 2 s settle period plus a cycle: none judged, none failed).
python3 -c "import sys; sys.exit($(metric boot.rate_failed_trials) != 0)" || fail "boot.rate_failed_trials: '$(metric boot.rate_failed_trials)'"
# The device layer's facts before and after; purges by the device layer
# (a loop device supports only a whole-device discard).
for ph in before after; do
	q "select facts_json from target_facts where phase='$ph'" | grep -q '"device"' || fail "no device facts $ph"
done
[ "$(q "select unit from metrics where key='purge.purge_method'")" = discard ] || fail "purge method: $(q "select unit from metrics where key='purge.purge_method'")"
# analyze RUN --json prints every figure of the run.
$SSDBENCH analyze "$run" --db "$db" --json >"$TEST_TMP/a.json" || fail "analyze failed"
n=$(json_get "$TEST_TMP/a.json" 'len(d["figures"])')
[ "$n" -ge "$(q "select count(*) from metrics")" ] || fail "analyze has $n figures, the database more"
json_get "$TEST_TMP/a.json" 'd["figures"]["fill.pass1.slc_cache_gb"]' >/dev/null || fail "analyze lacks fill.pass1.slc_cache_gb"
# Histograms were kept for the QoS tables.
[ "$(q "select count(*) from histograms")" -gt 0 ] || fail "no histograms stored"
echo ok
