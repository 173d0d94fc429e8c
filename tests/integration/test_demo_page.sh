#!/usr/bin/env bash
# The main job's page, as a reader gets it: scripts/demo.sh (the
# full-scaled review of a simulated SN8100 beside a Micron 1300 and a P4800X,
# every drive at 10 % of its capacity), rendered in headless Chromium.
#   - every image loads, no console error (check_report), screenshots in
#     tests/artefacts/ (report-demo.png, the whole page);
#   - the page's text has no nan, no exponent, no internal key;
#   - every section has something in it;
#   - the headline table has a row for each of the reviews' headline
#     figures, and the DUT has a value in each;
#   - every device has one colour on every chart (read from the SVGs);
#   - the note says what was scaled, from what the runs stored;
#   - the SN8100's figures match the review (SIMULATOR.md §10) within the
#     simulator's acceptance tolerances, sizes and times of what the
#     capacity bounds converted back to full size (divided by the scale).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/report_lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

out=$TEST_TMP/demo
SSDBENCH=$SSDBENCH DEMO_DIR=$out "$ROOT/scripts/demo.sh" >"$TEST_TMP/demo.out" 2>"$TEST_TMP/demo.err" ||
	{ tail "$TEST_TMP/demo.err"; fail "demo.sh failed"; }
page=$out/report
db=$out/ssdbench.db
check_report "$page" demo
# the summary and the headline table as a reader first sees them
chrome --screenshot="$ART/report-demo-top.png" --window-size=1280,2400 \
	"file://$page/index.html" >/dev/null 2>&1 || fail "screenshot of the top"

# The page's text and structure, from the DOM Chromium built.
python3 - "$TEST_TMP/demo.dom" <<'PY' || fail "page text or structure"
import html, re, sys
dom = open(sys.argv[1]).read()
body = re.sub(r"(?s)<(style|script)[^>]*>.*?</\1>", "", dom)
text = html.unescape(re.sub(r"<[^>]+>", " ", body))
bad = []
for word in re.findall(r"\b(?:nan|NaN|inf)\b", text):
    bad.append("not-a-number: " + word)
for m in re.finditer(r"\b\d+(?:\.\d+)?[eE][+-]?\d+\b", text):
    bad.append("exponent: " + text[max(0, m.start() - 40):m.end() + 20].strip())
# internal keys: stored figure keys and workload names
for m in re.finditer(r"\b[a-z_]+\.(?:pass\d|mix\d+|default|nvme|steady|bursts|rate|score)[a-z0-9_.]*\b"
                     r"|\b(?:mix|qd|prof|test|dir|pass|idle|phase|read|run)=\S+", text):
    bad.append("internal key: " + text[max(0, m.start() - 30):m.end() + 10].strip())
# a dash standing for a number inside a sentence
for m in re.finditer(r"[a-z,:] - [a-z,.;]", text):
    bad.append("dash for a figure: " + text[max(0, m.start() - 40):m.end() + 20].strip())
# every section says something: text or an image between its h2 and the next
parts = re.split(r"<h2[^>]*>", body)[1:]
for p in parts:
    title = html.unescape(re.sub(r"<[^>]+>", "", p.split("</h2>")[0]))
    rest = p.split("</h2>", 1)[1] if "</h2>" in p else ""
    if not re.search(r"<img|<td|<li", rest) and len(re.sub(r"<[^>]+>|\s", "", rest)) < 20:
        bad.append("empty section: " + title)
if len(parts) < 10:
    bad.append("only %d sections" % len(parts))
# the headline table: a row per figure of the reviews' headline, the DUT's
# cell (the third) a value, not a reason
t = re.search(r'(?s)<table class="headline">(.*?)</table>', body)
if not t:
    bad.append("no headline table")
else:
    rows = []
    for tr in re.findall(r"(?s)<tr>(.*?)(?=<tr>|$)", t.group(1)):
        cells = re.findall(r'(?s)<td(?: class="([a-z]+)")?>(.*?)</td>', tr)
        if len(cells) >= 3:
            rows.append(([html.unescape(re.sub(r"<[^>]+>", "", c[1])) for c in cells],
                         cells[2][0]))
    want = [
        r"Pass 1: SLC cache size", r"Pass 1: SLC cache write speed",
        r"Pass 1: levels after the cache",
        r"Pass 2: SLC cache size", r"Pass 2: SLC cache write speed",
        r"SEQ preconditioning.*Steady state", r"RND preconditioning.*Steady state",
        r"Bursts: period, length, height",
        r"Peak numbers.*SEQ1M Q8T1 read / write", r"Peak numbers.*SEQ1M Q1T1",
        r"Peak numbers.*RND4K Q32T1", r"Peak numbers.*RND4K Q1T1",
        r"Consistency.*SEQ 128 KiB read", r"Consistency.*SEQ 128 KiB write",
        r"Consistency.*RND 4 KiB read", r"Consistency.*RND 4 KiB write",
        r"Sync write", r"Weighted low-QD score", r"Recovery rate",
        r"Time to full recovery", r"BootBench score, pass or fail",
        r"QD1 RND 4 KiB read: p99, p99.99, p99.999",
        r"QD1 RND 4 KiB write: p99, p99.99, p99.999",
    ]
    for w in want:
        hit = [r for r in rows if re.search(w, " ".join(r[0][:2]))]
        if not hit:
            bad.append("headline table: no row " + w)
        elif hit[0][1] == "absent":
            bad.append("headline table: the DUT has no value for %s: %s" % (w, hit[0][0][2]))
    for cells, cls in rows:
        for c in cells[2:]:
            if not c.strip() or c.strip() == "-":
                bad.append("headline table: empty cell in " + cells[1])
# what was scaled, said on the page
if "How these runs were made" not in text or "10 % of the real drive" not in text:
    bad.append("no note on what was scaled")
# the charts name the samples they draw: the DUT's are 10 ms long here,
# the comparison drives' 100 ms
if "IOPS per 10 ms (DUT), 100 ms sample" not in text:
    bad.append("preconditioning charts do not say the samples are 10 ms (DUT), 100 ms")
if "per 100 ms sample" in text:
    bad.append("a chart says 100 ms samples of a miniature sampled every 10 ms")
# the sweeps' tables and consistency say so too: the DUT's table is of its
# 10 ms samples, the device table names both lengths
for wrong in ("from the 100 ms samples", "Std dev (100 ms)",
              "Consistency % (100 ms)", "deviation of the 100 ms samples"):
    if wrong in text:
        bad.append("a sweep table says 100 ms samples of a miniature: " + wrong)
if "from the 10 ms samples" not in text or "Consistency % (10 ms)" not in text:
    bad.append("the sweep tables do not say the DUT's samples are 10 ms")
if "deviation of the 10 ms (DUT), 100 ms samples" not in text:
    bad.append("the sweeps' device table does not name both sample lengths")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY

# The sweeps' consistency charts name each device's sample length.
for gp in "$page"/*-consistency.gp; do
	[ -e "$gp" ] || fail "no consistency chart"
	grep -q "10 ms (DUT), 100 ms interval" "$gp" ||
		fail "$(basename "$gp"): does not say the samples are 10 ms (DUT), 100 ms"
	grep -q "Consistency, 10 ms (DUT), 100 ms samples" "$gp" ||
		fail "$(basename "$gp"): its axis does not name the sample lengths"
done

# One colour per device on every chart, the DUT on top.
labels=()
for p in sn8100-2tb micron1300-1tb p4800x-375gb; do
	labels+=("$($SSDBENCH info "sim:$p,scale=0.1" | sed -n 's/^  model *//p')")
done
python3 "$HERE/svg_colours.py" "$page" "${labels[@]}" >/dev/null || fail "device colours"

# The SN8100 against its review, in full-size terms.
$SSDBENCH analyze 1 --db "$db" --json >"$TEST_TMP/a.json" || fail "analyze"
# near KEY TRUTH REL [DIVISOR]: |figure / DIVISOR - truth| <= REL * truth
near() {
	local v
	v=$(json_get "$TEST_TMP/a.json" "d['figures']['$1']") || fail "figure $1 missing"
	python3 -c "import sys; v=$v; sys.exit(not (v is not None and abs(v / ${4:-1} - $2) <= $3 * $2))" ||
		fail "$1 = $v (/ ${4:-1}), review $2 (within $3)"
	echo "$1 = $v (review $2)"
}
# range KEY LO HI REL [DIVISOR]: the figure / DIVISOR within REL of the
# review's range [LO, HI] (bench/sim_accept.c's range cells)
range() {
	local v
	v=$(json_get "$TEST_TMP/a.json" "d['figures']['$1']") || fail "figure $1 missing"
	python3 -c "import sys; v=$v / ${5:-1}; sys.exit(not ($2 * (1 - $4) <= v <= $3 * (1 + $4)))" ||
		fail "$1 = $v (/ ${5:-1}), review $2-$3 (within $4)"
	echo "$1 = $v (review $2-$3)"
}
s=0.1
near fill.pass1.slc_cache_gb 677 0.10 $s
near fill.pass1.slc_speed_mbps 14100 0.10
near fill.pass1.mean_mbps 3291 0.10
near fill.pass1.level1.mbps 3980 0.10
near fill.pass1.level2.mbps 2120 0.10
near fill.pass1.level3.mbps 1330 0.10
near fill.pass1.level4.mbps 684 0.10
# pass 2 on the full drive: the static SLC alone (slc_static_gb, some 8
# samples of the pass), at the cache's speed
near fill.pass2.slc_cache_gb 11 0.10 $s
near fill.pass2.slc_speed_mbps 14100 0.10
near reclaim.rate_gbps 1.46 0.10
near seq_precond.steady_reached 1 0
near rnd_precond.steady_reached 1 0
near seq_precond.steady_mbps 3850 0.10
python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['figures']; sys.exit(not d['rnd_precond.steady_drive_writes'] >= 2)" \
	"$TEST_TMP/a.json" || fail "RND steady state before 2 drive-writes"
# the random preconditioning's average with its bursts: 38-40k (review)
avg=$(json_get "$TEST_TMP/a.json" "d['figures']['rnd_precond.written_gb'] * 1e9 / 4096 / d['figures']['rnd_precond.seconds']")
python3 -c "import sys; sys.exit(not abs($avg - 39000) <= 0.10 * 39000)" || fail "RND average $avg IOPS, review 38-40k"
# the cache is back in full after idle: the knee, about 7 min at full size
near reclaim.saturated 1 0
near reclaim.full_recovery_s 420 0.5 $s
range rnd_precond.bursts.period_s 19 22 0.10 $s
# the steady value over whole burst periods: the review's 38-40k (the
# window's own mean is one or two bursts' phase)
near rnd_precond.steady_periods_iops 39000 0.10
near rnd_precond.bursts.gb 1.5 0.15 $s
near rnd_precond.bursts.height_iops 950000 0.10
near sync_write.mbps 43 0.10
near boot.pass 1 0
echo ok
