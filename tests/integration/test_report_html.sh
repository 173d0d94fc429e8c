#!/usr/bin/env bash
# The report end to end: real runs on files and a full synthetic review
# (the databases the report unit test writes) go through `ssdbench report`
# with comparison runs from the same and from another database; the pages
# are opened in headless Chromium, which must log no console error and load
# every chart image.  Screenshots are kept in tests/artefacts/.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/report_lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
FIXTURE=$(cd "$(dirname "$SSDBENCH")" && pwd)/tests/test_report
cd "$TEST_TMP"

# 1. Plain runs on files: a DUT and a comparison in one database, another
#    in a second database.
$SSDBENCH run --target a.img --size 64m --rw randread --bs 4k --qd 4 --time 1s --db a.db >/dev/null
$SSDBENCH run --target a.img --rw randrw --rwmixread 70 --bs 4k --qd 2 --time 1s --db a.db >/dev/null
$SSDBENCH run --target b.img --size 64m --rw randread --bs 4k --qd 4 --time 1s --db b.db >/dev/null
out=$($SSDBENCH report 1 --compare 2 --compare-db b.db:1 --db a.db --out "$TEST_TMP/runs")
echo "$out"
[[ $out == report:* ]] || fail "no summary line"
grep -q 'b.img' runs/index.html || fail "comparison from b.db not on the page"
grep -q 'a.img #2' runs/index.html || fail "same-target comparison not told apart"
check_report "$TEST_TMP/runs" runs
$SSDBENCH report last --db a.db --mib --out "$TEST_TMP/mib" >/dev/null
grep -q 'MiB/s' mib/index.html || fail "--mib: no MiB/s on the page"

# 2. Bad input: a clear message and a non-zero exit.
expect_fail "no --out" $SSDBENCH report 1 --db a.db
grep -q -- '--out DIR is required' <<<"$LAST_ERR" || fail "no --out: $LAST_ERR"
expect_fail "bad id" $SSDBENCH report abc --db a.db --out x
grep -q 'expected a run id' <<<"$LAST_ERR" || fail "bad id: $LAST_ERR"
expect_fail "missing run" $SSDBENCH report 99 --db a.db --out x
grep -q '99' <<<"$LAST_ERR" || fail "missing run: $LAST_ERR"
expect_fail "missing db" $SSDBENCH report 1 --db nope.db --out x
grep -q 'nope.db' <<<"$LAST_ERR" || fail "missing db: $LAST_ERR"
expect_fail "compare-db without run" $SSDBENCH report 1 --db a.db --compare-db b.db --out x
grep -q 'FILE:RUN' <<<"$LAST_ERR" || fail "compare-db: $LAST_ERR"
expect_fail "opacity" $SSDBENCH report 1 --db a.db --opacity 2 --out x
grep -q 'opacity' <<<"$LAST_ERR" || fail "opacity: $LAST_ERR"
expect_fail "out is a file" $SSDBENCH report 1 --db a.db --out a.db
grep -q 'not a directory' <<<"$LAST_ERR" || fail "out file: $LAST_ERR"
SSDBENCH_GNUPLOT=/nonexistent/gnuplot expect_fail "no gnuplot" \
	$SSDBENCH report 1 --db a.db --out "$TEST_TMP/nognuplot"
grep -q 'cannot run' <<<"$LAST_ERR" || fail "no gnuplot: $LAST_ERR"

# 3. A simulated review (the quick preset: every step, scaled) of three
#    drives, one of them in another database.
$SSDBENCH suite --target sim:sn8100-2tb --preset quick --db sim.db >/dev/null 2>&1 ||
	fail "suite on sim:sn8100-2tb"
$SSDBENCH suite --target sim:p1-1tb --preset quick --db sim.db >/dev/null 2>&1 ||
	fail "suite on sim:p1-1tb"
$SSDBENCH suite --target sim:micron1300-1tb --preset quick --db sim2.db >/dev/null 2>&1 ||
	fail "suite on sim:micron1300-1tb"
$SSDBENCH report 1 --compare 2 --compare-db sim2.db:1 --db sim.db --out "$TEST_TMP/sim"
for step in peak fill active_range cssd_precond sync_write rw_ratio reclaim \
	    seq_precond seq_sweeps rnd_precond rnd_sweeps ai_sweep tail_latency boot; do
	grep -q "id=\"$step\"" sim/index.html || fail "sim: no section $step"
done
grep -q 'Pass 1: SLC cache' sim/index.html || fail "sim: no SLC cache headline"
# Devices named by the model they stand for, and no stored JSON as text.
grep -q '<th>WD_BLACK SN8100 2TB (simulated)</th>' sim/index.html || fail "sim: DUT not named by its model"
grep -q '&quot;' sim/index.html && fail "sim: raw JSON on the page: $(grep -o '.\{40\}&quot;.\{40\}' sim/index.html | head -3)"
# The page's text reads as words and numbers: no stored keys
# ("mix=70 qd=1", "logical_block"), no nan, no exponents; the findings
# are a linked JSON file per device.
python3 - sim/index.html <<'PY' || fail "sim: page text"
import html, re, sys
s = open(sys.argv[1]).read()
t = html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style).*?</\1>", "", s, flags=re.S)))
bad = {"internal key": r"\b[a-z_]+=\S+|\b[a-z]+_[a-z_]+\b",
       "nan": r"\b(nan|inf)\b", "exponent": r"\b[0-9.]+e[+-]?[0-9]+\b"}
for what, rx in bad.items():
    found = [t[max(0, m.start() - 40):m.end() + 20] for m in re.finditer(rx, t)
             if m.group(0) not in ("O_SYNC", "x86_64")]
    assert not found, (what, found[:5])
assert 'href="findings-1.json"' in s and 'href="findings-2.json"' in s, "findings not linked"
PY
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["format"]=="ssdbench-findings" and len(d["findings"])>100' sim/findings-1.json ||
	fail "sim: findings JSON"
# Purge sections say method, time and verification; quick's lowered boot
# pass mark is stated.
grep -q '<caption>Purge: method, time and verification</caption>' sim/index.html || fail "sim: no purge table"
grep -q '<td>sim-format</td>' sim/index.html || fail "sim: purge method not shown"
grep -q 'This plan lowers the pass mark to 100 IOPS (OCP BootBench: 60 k IOPS)' sim/index.html ||
	fail "sim: quick's lowered boot pass mark not stated"
for part in fill-pass1-bw-written fill-pass1-lat-time fill-pass1-mean fill-pass1-p1 \
	    active_range-iops-span sync_write-sync rw_ratio-weighted rw_ratio-score \
	    reclaim-written-per-idle reclaim-bw-per-idle seq_precond-precond-dw \
	    rnd_precond-precond-lat-time RND_4_KiB_read-2in1 RND_4_KiB_write-consistency \
	    SEQ_128_KiB_read-2in1-all tail_latency-mix_100_qd_1-nines boot-score; do
	ls sim/*"$part"*.svg >/dev/null 2>&1 || fail "sim: no chart $part"
done
check_report "$TEST_TMP/sim" sim
# One colour per device on every chart, read from the SVGs; the DUT on top.
python3 "$HERE/svg_colours.py" "$TEST_TMP/sim" "WD_BLACK SN8100 2TB (simulated)" \
	"Crucial P1 1TB (simulated)" "$($SSDBENCH info sim:micron1300-1tb | sed -n 's/^  model *//p')" ||
	fail "sim: device colours"
grep -q 'no point on this chart' sim/index.html || fail "sim: a device without a point is not named"
# The headline table holds the reviews' figures, absent ones saying why.
for fig in "Pass 1: SLC cache size" "Pass 1: SLC cache write speed" "Pass 2: SLC cache size" \
	   "QD1 RND 4 KiB read: p99, p99.99, p99.999" "BootBench score" "RND 4 KiB QD1 with O_SYNC"; do
	grep -q "<td>$fig" sim/index.html || fail "sim: headline table lacks '$fig'"
done
grep -q 'too few I/Os' sim/index.html || fail "sim: an absent figure does not say why"
# quick says on its page that its figures are not steady-state.
grep -q 'not steady-state figures' sim/index.html || fail "sim: quick does not say it is a smoke test"
# Latency of a fast and a slow drive together spans decades: log axis.
grep -q '^set logscale y' sim/*cssd_precond-rnd-lat-dw.gp || fail "sim: latency scatter on a linear axis"

# 4. The synthetic review of the unit test, with a datasheet and options.
#    Without the fixture program this half cannot run, and the whole test
#    is then a skip, not a pass.
[ -x "$FIXTURE" ] || skip "no $FIXTURE: the full review cannot be checked (build with make san)"
{
	SSDBENCH_REPORT_FIXTURE="$TEST_TMP/fx" "$FIXTURE" >/dev/null ||
		fail "fixture program failed"
	$SSDBENCH report 1 --compare 2 --compare-db fx/other.db:1 --db fx/main.db \
		--datasheet fx/datasheet.ini --clip-time 30s --clip-latency 50ms \
		--opacity 0.5 \
		--out "$TEST_TMP/full"
	for step in fill active_range sync_write rw_ratio reclaim seq_precond \
		    rnd_sweeps tail_latency boot datasheet; do
		grep -q "id=\"$step\"" full/index.html || fail "full: no section $step"
	done
	grep -q 'set xrange \[0:30\]' full/*seq_precond-precond-time.gp ||
		fail "full: --clip-time not applied"
	grep -q 'set yrange \[0:50\]' full/*seq_precond-precond-lat-time.gp ||
		fail "full: --clip-latency not applied"
	grep -q '#80' full/*seq_precond-precond-time.gp ||
		fail "full: --opacity not applied"
	check_report "$TEST_TMP/full" full
	# Long database paths wrap: the runs table still fits the page.
	long="$TEST_TMP/databases-of-a-review-kept-in-a-folder-with-a-long-descriptive-name"
	mkdir -p "$long" && cp fx/main.db fx/other.db "$long/"
	$SSDBENCH report 1 --compare 2 --compare-db "$long/other.db:1" \
		--db "$long/main.db" --out "$TEST_TMP/long" >/dev/null ||
		fail "report of databases with long paths"
	check_fits "$TEST_TMP/long" long
	check_fits "$TEST_TMP/sim" sim
}
