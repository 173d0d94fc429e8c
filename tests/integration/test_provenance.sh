#!/usr/bin/env bash
# Where a workload's I/Os come from (database.md, "Where the I/Os come
# from"), through every output: run --json, the database, show, export
# --csv --summary, export --json, analyze --json and the
# report.  References computed apart from the simulator's counting: an
# exact run's simulated count is its reported I/O count (the totals and
# the histogram's count); a bulk sequential read at QD 32 simulates its
# calibration window, 2 x 32 warm-up + 65536 measured + the 31 then in
# flight; a file measures every I/O (engine, counts null).  A database of
# schema 5 reads "not recorded", before and after its upgrade.
source "$(dirname "$0")/lib.sh"
S=$SSDBENCH
db=$TEST_TMP/p.db
sim=sim:sn8100-2tb,scale=0.001

echo "== exact: every I/O simulated"
$S run --target $sim --rw randread --qd 4 --time 1s --db "$db" --json >"$TEST_TMP/x.json" || fail "exact run"
x() { json_get "$TEST_TMP/x.json" "$1"; }
n=$(x 'd["workloads"][0]["read"]["total_ios"]')
[ "$n" -gt 1000 ] || fail "exact run: $n I/Os"
[ "$(x 'd["workloads"][0]["io_way"]')" = exact ] || fail "exact run: way $(x 'd["workloads"][0]["io_way"]')"
[ "$(x 'd["workloads"][0]["ios_simulated"]')" = "$n" ] || fail "exact run: simulated $(x 'd["workloads"][0]["ios_simulated"]') of $n"
[ "$(x 'd["workloads"][0]["ios_reported"]')" = "$n" ] || fail "exact run: reported"
[ "$(x 'd["workloads"][0]["ios_extrapolated"]')" = 0 ] || fail "exact run: extrapolated"
[ "$(x 'd["workloads"][0]["read"]["lat_ns"]["percentiles"]["50.000000"] > 0')" = True ] || fail "exact run: no latency"
xid=$(x 'd["run_id"]')
[ "$(sqlite3 "$db" "select io_way || ' ' || ios_simulated || ' ' || read_ios from workloads where run_id = $xid")" = "exact $n $n" ] ||
	fail "exact run in the database"
$S show "$xid" --db "$db" | grep -qF "I/Os: exact, every I/O simulated one by one ($n)" || fail "show: exact line"

echo "== bulk: the calibration window simulated, the rest extrapolated"
$S run --target $sim --rw read --qd 32 --time 2s --db "$db" --json >"$TEST_TMP/b.json" || fail "bulk run"
b() { json_get "$TEST_TMP/b.json" "$1"; }
window=$((2 * 32 + 65536 + 31))
n=$(b 'd["workloads"][0]["read"]["total_ios"]')
[ "$(b 'd["workloads"][0]["io_way"]')" = bulk ] || fail "bulk run: way"
[ "$(b 'd["workloads"][0]["ios_simulated"]')" = "$window" ] || fail "bulk run: simulated $(b 'd["workloads"][0]["ios_simulated"]'), window $window"
[ "$(b 'd["workloads"][0]["ios_extrapolated"]')" = $((n - window)) ] || fail "bulk run: extrapolated"
[ "$n" -gt $((4 * window)) ] || fail "bulk run: only $n I/Os"
bid=$(b 'd["run_id"]')
$S show "$bid" --db "$db" | grep -qF "I/Os: bulk: $window of $n I/Os simulated one by one" || fail "show: bulk line"
$S export "$bid" --db "$db" --csv --summary >"$TEST_TMP/s.csv" || fail "export --csv --summary"
python3 - "$TEST_TMP/s.csv" "$n" "$window" <<'EOF' || fail "summary CSV"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
n, w = int(sys.argv[2]), int(sys.argv[3])
assert len(rows) == 1, rows
r = rows[0]
assert r["io_way"] == "bulk" and int(r["ios_reported"]) == n == int(r["total_ios"]), r
assert int(r["ios_simulated"]) == w and int(r["ios_extrapolated"]) == n - w, r
EOF
$S export "$bid" --db "$db" --json --summary >"$TEST_TMP/e.json" || fail "export --json"
[ "$(json_get "$TEST_TMP/e.json" '[d["workloads"][0][k] for k in ("io_way", "ios_simulated", "ios_reported")]')" = "['bulk', $window, $n]" ] ||
	fail "export --json: $(json_get "$TEST_TMP/e.json" 'd["workloads"][0]["io_way"]')"
$S analyze "$bid" --db "$db" --json >"$TEST_TMP/a.json" || fail "analyze --json"
[ "$(json_get "$TEST_TMP/a.json" '[d["traces"][0][k] for k in ("io_way", "ios_simulated", "ios_extrapolated")]')" = "['bulk', $window, $((n - window))]" ] ||
	fail "analyze --json"

echo "== the engine I/O by I/O on a simulated drive: every I/O simulated"
$S run --target $sim,fluid=0 --rw randread --qd 32 --time 1s --db "$db" --json >"$TEST_TMP/f.json" || fail "fluid=0 run"
n=$(json_get "$TEST_TMP/f.json" 'd["workloads"][0]["read"]["total_ios"]')
[ "$(json_get "$TEST_TMP/f.json" '[d["workloads"][0][k] for k in ("io_way", "ios_simulated")]')" = "['engine', $n]" ] ||
	fail "fluid=0: $(json_get "$TEST_TMP/f.json" 'd["workloads"][0]["ios_simulated"]') of $n"

echo "== a file: every I/O measured, nothing simulated"
$S run --target "$TEST_TMP/t.img" --size 16m --rw randread --qd 4 --time 1s --db "$db" --json >"$TEST_TMP/d.json" || fail "file run"
[ "$(json_get "$TEST_TMP/d.json" '[d["workloads"][0][k] for k in ("io_way", "ios_simulated", "ios_extrapolated")]')" = "['engine', None, None]" ] ||
	fail "file run: $(json_get "$TEST_TMP/d.json" 'd["workloads"][0]')"
did=$(json_get "$TEST_TMP/d.json" 'd["run_id"]')
[ "$(sqlite3 "$db" "select io_way || ' ' || ifnull(ios_simulated, 'NULL') from workloads where run_id = $did")" = "engine NULL" ] ||
	fail "file run in the database"
$S show "$did" --db "$db" | grep -qF "I/Os: engine, each I/O measured on the device" || fail "show: device line"
$S export "$did" --db "$db" --csv --summary | python3 -c '
import csv, sys
r = list(csv.DictReader(sys.stdin))[0]
assert (r["io_way"], r["ios_simulated"], r["ios_extrapolated"]) == ("engine", "", ""), r' || fail "file run CSV"

echo "== the report: the simulated run's share, the device's none"
$S report "$bid" --db "$db" --out "$TEST_TMP/rep" >/dev/null || fail "report"
python3 - "$TEST_TMP/rep/index.html" "$window" <<'EOF' || fail "report note"
import re, sys
page = open(sys.argv[1]).read()
i = page.find('class="note provenance"')
assert i >= 0, "no provenance note"
note = page[i:page.find("</div>", i)]
assert "extrapolated in part" in note and "(simulated, scale 0.001)" in note, note[:400]
cells = re.findall(r"<td[^>]*>([^<]*)</td>", note)
assert sys.argv[2] in cells, cells
EOF
$S report "$did" --db "$db" --out "$TEST_TMP/rep2" >/dev/null || fail "device report"
! grep -q 'class="note provenance"' "$TEST_TMP/rep2/index.html" || fail "a device's report has the note"

echo "== a suite: analyze --json names every workload's provenance beside the figures"
$S suite --target $sim --preset full-scaled --only purge,fill --db "$db" >"$TEST_TMP/sid" 2>/dev/null || fail "suite"
sid=$(cat "$TEST_TMP/sid")
$S analyze "$sid" --db "$db" --json >"$TEST_TMP/sa.json" || fail "analyze of a suite"
python3 - "$TEST_TMP/sa.json" "$db" "$sid" <<'EOF' || fail "suite io_provenance"
import json, sqlite3, sys
p = json.load(open(sys.argv[1]))["io_provenance"]
db = sqlite3.connect(sys.argv[2])
rows = db.execute("select s.name, w.name, w.write_ios from workloads w join steps s "
                  "on s.id = w.step_id where w.run_id = ? order by w.id", (sys.argv[3],)).fetchall()
assert [(x["step"], x["workload"]) for x in p] == [r[:2] for r in rows], (p, rows)
# the fill's passes: bulk write streams, the write path integrated, none simulated
fills = [(x, r) for x, r in zip(p, rows) if r[0] == "fill"]
assert len(fills) >= 2, fills
for x, r in fills:
    assert x["io_way"] == "bulk" and x["ios_simulated"] == 0, x
    assert x["ios_reported"] == r[2] == x["ios_extrapolated"] > 0, (x, r)
EOF

echo "== a schema 5 database: not recorded, before and after the upgrade"
old=$TEST_TMP/v5.db
cp "$db" "$old"
sqlite3 "$old" "ALTER TABLE workloads DROP COLUMN io_way; ALTER TABLE workloads DROP COLUMN ios_simulated; PRAGMA user_version = 5" ||
	fail "making a schema 5 file"
$S show "$bid" --db "$old" | grep -qF "I/Os: not recorded" || fail "show of a schema 5 file"
[ "$(sqlite3 "$old" 'PRAGMA user_version')" = 5 ] || fail "show upgraded the file"
$S export "$bid" --db "$old" --json --summary >"$TEST_TMP/o.json" || fail "export of a schema 5 file"
[ "$(json_get "$TEST_TMP/o.json" '[d["workloads"][0][k] for k in ("io_way", "ios_simulated")]')" = "[None, None]" ] ||
	fail "export of a schema 5 file"
$S run --target $sim --rw randread --qd 4 --time 1s --db "$old" --json >"$TEST_TMP/n.json" || fail "run into a schema 5 file"
[ "$(sqlite3 "$old" 'PRAGMA user_version')" -ge 6 ] || fail "not upgraded"
$S show "$bid" --db "$old" | grep -qF "I/Os: not recorded" || fail "an old workload after the upgrade"
nid=$(json_get "$TEST_TMP/n.json" 'd["run_id"]')
$S show "$nid" --db "$old" | grep -qF "I/Os: exact, every I/O simulated" || fail "a new workload after the upgrade"
echo ok
