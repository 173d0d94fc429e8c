#!/usr/bin/env bash
# ssdbench merge: two databases built by real runs on simulated drives
# (a suite with steps and a plain run in each), merged both ways and twice.
# Every table's row count is checked against the sum of the sources, each
# run's rows against its source's, the source file is untouched, identities
# survive, a second merge adds nothing, a refused merge changes nothing, and
# one report compares runs that came from both databases.
source "$(dirname "$0")/lib.sh"
S=$SSDBENCH
a=$TEST_TMP/a.db
b=$TEST_TMP/b.db

echo "== two databases from real runs"
$S suite --target sim:p1-1tb,scale=0.002 --preset quick --db "$a" >/dev/null 2>"$TEST_TMP/err" || fail "suite a: $(cat "$TEST_TMP/err")"
$S run --target sim:sn8100-2tb,scale=0.001 --rw randread --qd 4 --bytes 4m --db "$a" >/dev/null || fail "run a"
$S run --target sim:micron1300-1tb,scale=0.001 --rw randwrite --qd 8 --bytes 4m --db "$b" >/dev/null || fail "run b"
$S suite --target sim:sn8100-2tb,scale=0.002 --preset quick --db "$b" >/dev/null 2>"$TEST_TMP/err" || fail "suite b: $(cat "$TEST_TMP/err")"
# sim targets record no device readings: give each source some, so their
# copying is checked too
sqlite3 "$a" "INSERT INTO device_readings VALUES (1, 5, 'temperature_c', 41), (2, 7, 'temperature_c', 42)" || fail "readings a"
sqlite3 "$b" "INSERT INTO device_readings VALUES (2, 9, 'media_errors', 0)" || fail "readings b"
# and device queries, which belong to a workload
sqlite3 "$a" "INSERT INTO device_queries VALUES (3, 100, 200, 'health')" || fail "queries a"
sqlite3 "$b" "INSERT INTO device_queries VALUES (1, 300, 400, 'temperature'), (5, 1, 2, 'health')" || fail "queries b"

# every table of the schema, so a table added later is counted too
# (but run_leases: a live writer's claim, made on demand, never merged)
tables=$(sqlite3 "$a" "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'run_leases' ORDER BY name")
for t in runs target_facts steps workloads samples histograms metrics device_readings; do
	grep -qx "$t" <<<"$tables" || fail "no table $t"
done
count() { sqlite3 "$1" "SELECT count(*) FROM $2"; }
for t in $tables; do
	eval "a_$t=$(count "$a" "$t")"
	eval "b_$t=$(count "$b" "$t")"
done
[ "$a_steps" -gt 0 ] && [ "$b_steps" -gt 0 ] && [ "$a_samples" -gt 0 ] && [ "$a_histograms" -gt 0 ] ||
	fail "the sources are too thin to test a merge"

# The content of every run, independent of local ids: a run is named by its
# identity, a step by (run, seq, name, started_at), a workload by (run, idx,
# name, started_at). A merged copy must give the same lines as its source.
fingerprint() {
	sqlite3 "$1" "
	SELECT 'run', r.uid, kind, target, status, started_at, finished_at, params_json, host_json FROM runs r;
	SELECT 'facts', r.uid, phase, facts_json FROM target_facts f JOIN runs r ON r.id = f.run_id;
	SELECT 'step', r.uid, seq, name, s.status, s.started_at, s.params_json FROM steps s JOIN runs r ON r.id = s.run_id;
	SELECT 'wl', r.uid, coalesce(s.seq, 0), w.idx, w.name, w.started_at, w.spec_json, w.read_ios, w.write_bytes, w.measured_ns
	  FROM workloads w JOIN runs r ON r.id = w.run_id LEFT JOIN steps s ON s.id = w.step_id;
	SELECT 'sample', r.uid, w.name, w.started_at, x.idx, x.t_end_ns, x.read_ios, x.write_ios, x.write_p99_ns
	  FROM samples x JOIN workloads w ON w.id = x.workload_id JOIN runs r ON r.id = w.run_id;
	SELECT 'hist', r.uid, w.name, w.started_at, h.direction, h.count, h.max_ns, hex(h.encoded)
	  FROM histograms h JOIN workloads w ON w.id = h.workload_id JOIN runs r ON r.id = w.run_id;
	SELECT 'metric', r.uid, coalesce(s.seq, 0), coalesce(w.name, ''), m.key, m.value, m.unit
	  FROM metrics m JOIN runs r ON r.id = m.run_id LEFT JOIN steps s ON s.id = m.step_id
	  LEFT JOIN workloads w ON w.id = m.workload_id;
	SELECT 'reading', r.uid, d.t_ns, d.key, d.value FROM device_readings d JOIN runs r ON r.id = d.run_id;
	SELECT 'query', r.uid, w.name, w.started_at, q.t_start_ns, q.t_end_ns, q.source
	  FROM device_queries q JOIN workloads w ON w.id = q.workload_id JOIN runs r ON r.id = w.run_id;
	" | sort
}
fingerprint "$a" >"$TEST_TMP/fa"
fingerprint "$b" >"$TEST_TMP/fb"
[ "$(sqlite3 "$a" "SELECT count(DISTINCT uid) FROM runs WHERE length(uid) = 32")" = 2 ] || fail "runs of a lack identities"
sum_a=$(md5sum <"$a")

check_merged() { # DB FIRST SECOND: DB holds exactly FIRST's and SECOND's rows
	local t n want
	for t in $tables; do
		n=$(count "$1" "$t")
		want=$(( $(eval echo "\$${2}_$t") + $(eval echo "\$${3}_$t") ))
		[ "$n" = "$want" ] || fail "$1: $t has $n rows, want $want"
	done
	fingerprint "$1" >"$TEST_TMP/fm"
	sort -m "$TEST_TMP/f$2" "$TEST_TMP/f$3" | cmp -s - "$TEST_TMP/fm" ||
		fail "$1: merged rows differ from the sources': $(sort -m "$TEST_TMP/f$2" "$TEST_TMP/f$3" | diff - "$TEST_TMP/fm" | head -5)"
	# every reference points into the run it belongs to
	[ "$(sqlite3 "$1" "SELECT count(*) FROM workloads w JOIN steps s ON s.id = w.step_id WHERE s.run_id <> w.run_id")" = 0 ] ||
		fail "$1: a workload's step belongs to another run"
	[ "$(sqlite3 "$1" "SELECT count(*) FROM metrics m JOIN workloads w ON w.id = m.workload_id WHERE w.run_id <> m.run_id")" = 0 ] ||
		fail "$1: a metric's workload belongs to another run"
	[ "$(sqlite3 "$1" "PRAGMA foreign_key_check")" = "" ] || fail "$1: foreign keys broken"
}

echo "== merge b into a copy of a, twice"
cp "$a" "$TEST_TMP/ab.db"
$S merge "$b" --db "$TEST_TMP/ab.db" >"$TEST_TMP/out" || fail "merge b into a"
grep -q "2 runs merged" "$TEST_TMP/out" || fail "merge output: $(cat "$TEST_TMP/out")"
check_merged "$TEST_TMP/ab.db" a b
$S merge "$b" --db "$TEST_TMP/ab.db" >"$TEST_TMP/out" || fail "second merge"
grep -q "0 runs merged, 2 already present" "$TEST_TMP/out" || fail "second merge output: $(cat "$TEST_TMP/out")"
check_merged "$TEST_TMP/ab.db" a b

echo "== the other way"
cp "$b" "$TEST_TMP/ba.db"
$S merge "$a" --db "$TEST_TMP/ba.db" >/dev/null || fail "merge a into b"
check_merged "$TEST_TMP/ba.db" b a
[ "$(md5sum <"$a")" = "$sum_a" ] || fail "the source was changed by the merge"
echo "== merging the merged databases into each other adds nothing"
$S merge "$TEST_TMP/ab.db" --db "$TEST_TMP/ba.db" >"$TEST_TMP/out" || fail "merge ab into ba"
grep -q "0 runs merged, 4 already present" "$TEST_TMP/out" || fail "output: $(cat "$TEST_TMP/out")"
check_merged "$TEST_TMP/ba.db" b a

echo "== into a new database: created, holds the source"
$S merge "$a" --db "$TEST_TMP/new.db" >/dev/null || fail "merge into a new file"
for t in $tables; do
	[ "$(count "$TEST_TMP/new.db" "$t")" = "$(eval echo "\$a_$t")" ] || fail "new.db: $t"
done

echo "== file names SQLite would read as URI syntax name the file they name"
odd="$TEST_TMP/we?ird #%41 file:.db"
cp "$b" "$odd"
$S merge "$odd" --db "$TEST_TMP/odd target?.db" >/dev/null || fail "merge from an odd name"
[ "$(count "$TEST_TMP/odd target?.db" runs)" = "$b_runs" ] || fail "odd names: runs"
[ ! -e "$TEST_TMP/we" ] && [ ! -e "$TEST_TMP/odd target" ] || fail "a name was cut at '?'"

echo "== refusals leave the target as it was"
before=$(fingerprint "$TEST_TMP/ab.db" | md5sum)
cp "$b" "$TEST_TMP/newer.db"
sqlite3 "$TEST_TMP/newer.db" "PRAGMA user_version = 99"
expect_fail "newer source" $S merge "$TEST_TMP/newer.db" --db "$TEST_TMP/ab.db"
grep -q "newer.db has schema version 99, newer than this ssdbench" <<<"$LAST_ERR" || fail "newer message: $LAST_ERR"
sqlite3 "$TEST_TMP/other.db" "CREATE TABLE t (x)"
expect_fail "not ours" $S merge "$TEST_TMP/other.db" --db "$TEST_TMP/ab.db"
grep -q "other program" <<<"$LAST_ERR" || fail "foreign db message: $LAST_ERR"
expect_fail "missing source" $S merge "$TEST_TMP/nope.db" --db "$TEST_TMP/ab.db"
[ ! -e "$TEST_TMP/nope.db" ] || fail "a missing source was created"
expect_fail "itself" $S merge "$TEST_TMP/ab.db" --db "$TEST_TMP/ab.db"
grep -q "same database" <<<"$LAST_ERR" || fail "self message: $LAST_ERR"
# a failure half-way (a row the target refuses) rolls everything back: a
# trigger in the target refuses the source's last histogram
cp "$b" "$TEST_TMP/b2.db"
sqlite3 "$TEST_TMP/b2.db" "UPDATE runs SET uid = lower(hex(randomblob(16)))"
sqlite3 "$TEST_TMP/ab.db" "CREATE TRIGGER refuse BEFORE INSERT ON device_readings BEGIN SELECT RAISE(ABORT, 'refused by test'); END"
expect_fail "failure half-way" $S merge "$TEST_TMP/b2.db" --db "$TEST_TMP/ab.db"
grep -q "refused by test" <<<"$LAST_ERR" || fail "half-way message: $LAST_ERR"
sqlite3 "$TEST_TMP/ab.db" "DROP TRIGGER refuse"
[ "$(fingerprint "$TEST_TMP/ab.db" | md5sum)" = "$before" ] || fail "a refused merge changed the target"
expect_fail "no source" $S merge --db "$TEST_TMP/ab.db"

echo "== an old (version 3) database: identities backfilled the same way on both sides"
cp "$b" "$TEST_TMP/old.db"
# (what versions 4 to 6 added taken out again)
sqlite3 "$TEST_TMP/old.db" "DROP TABLE arrival_histograms; DROP INDEX runs_by_uid; ALTER TABLE runs DROP COLUMN uid; ALTER TABLE workloads DROP COLUMN io_way; ALTER TABLE workloads DROP COLUMN ios_simulated; PRAGMA user_version = 3"
cp "$TEST_TMP/old.db" "$TEST_TMP/old_copy.db"
cp "$a" "$TEST_TMP/a3.db"
$S merge "$TEST_TMP/old.db" --db "$TEST_TMP/a3.db" >/dev/null || fail "merge a version-3 source"
[ "$(sqlite3 "$TEST_TMP/old.db" "PRAGMA user_version")" = 3 ] || fail "the old source was upgraded"
$S merge "$TEST_TMP/old.db" --db "$TEST_TMP/old_copy.db" >"$TEST_TMP/out" || fail "merge an old copy into an old file"
grep -q "0 runs merged, 2 already present" "$TEST_TMP/out" || fail "legacy identities differ: $(cat "$TEST_TMP/out")"
$S merge "$TEST_TMP/old_copy.db" --db "$TEST_TMP/a3.db" >"$TEST_TMP/out" || fail "merge the upgraded copy"
grep -q "0 runs merged, 2 already present" "$TEST_TMP/out" || fail "upgraded identities differ: $(cat "$TEST_TMP/out")"
[ "$(count "$TEST_TMP/a3.db" runs)" = 4 ] || fail "a3 runs"
[ "$(sqlite3 "$TEST_TMP/a3.db" "SELECT count(*) FROM runs WHERE uid LIKE 'legacy:%'")" = 2 ] || fail "legacy identities"

echo "== one report compares runs measured into both databases"
ra=$(sqlite3 "$TEST_TMP/ab.db" "SELECT id FROM runs WHERE kind = 'suite' AND target LIKE 'sim:p1%'")
rb=$(sqlite3 "$TEST_TMP/ab.db" "SELECT id FROM runs WHERE kind = 'suite' AND target LIKE 'sim:sn8100%'")
[ -n "$ra" ] && [ -n "$rb" ] && [ "$ra" != "$rb" ] || fail "suite runs not found: '$ra' '$rb'"
$S report "$ra" --compare "$rb" --db "$TEST_TMP/ab.db" --out "$TEST_TMP/rep" >/dev/null 2>"$TEST_TMP/err" ||
	fail "report: $(cat "$TEST_TMP/err")"
grep -q "sim:p1-1tb" "$TEST_TMP/rep/index.html" && grep -q "sim:sn8100-2tb" "$TEST_TMP/rep/index.html" ||
	fail "the report does not name both runs"
echo ok
