#!/usr/bin/env bash
# Steady state as fio judges it.  `analyze --fio-json` reads fio's own
# steady-state verdict (ss=, ss_dur=) and judges fio's window again with
# ssdbench's detector; the criteria are checked against a transcription of
# fio's steadystate.c in python over the window data of the file (slope over
# the integer-truncated mean for fio's figure, over the exact mean for
# ours; max |y - mean| / mean for the deviation rule).  A hand-made window
# shows the truncation flipping a verdict.  Then the rule names: bw_slope
# judges bandwidth on a 4 KiB trace, and a contradicting --metric is an
# error.
source "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "fio is not installed"
command -v python3 >/dev/null || skip "no python3"
cd "$TEST_TMP"

check() {  # check FILE: ssdbench's re-judging of every steadystate in FILE
	"$SSDBENCH" analyze --fio-json "$1" --json > "$1.out" || fail "$1 refused"
	"$SSDBENCH" analyze --fio-json "$1" > "$1.txt" || fail "$1 text refused"
	grep -q "fio ss=" "$1.txt" && grep -q "ssdbench (fio-" "$1.txt" || fail "$1: text lacks the two verdicts"
	python3 - "$1" "$1.out" <<'PY' || fail "$1: criteria differ"
import json, sys
src = json.load(open(sys.argv[1]))["jobs"]
got = json.load(open(sys.argv[2]))["fio_jobs"]
for j, g in zip(src, got):
    ss = j["steadystate"]
    name, lim = ss["ss"].split(":")
    metric = "iops" if name.startswith("iops") else "bw"
    y = ss["data"][metric]
    n = len(y)
    mean = sum(y) / n
    trunc = sum(y) // n
    x = range(n)
    sx, sxx = sum(x), sum(i * i for i in x)
    sxy = sum(i * v for i, v in zip(x, y))
    slope = (sxy - sx * sum(y) / n) / (sxx - sx * sx / n)
    g = g["steadystate"]
    ours, fio = g["ssdbench"], g["fio"]
    assert fio["attained"] == bool(ss["attained"]) and fio["ss"] == ss["ss"]
    assert fio["criterion"] == float(ss["criterion"].rstrip("%"))
    assert ours["metric"] == metric and ours["window_s"] == ss["duration"]
    pct = lim.endswith("%")
    if name.endswith("_slope"):
        assert ours["rule"] == "fio-slope"
        exact, fio_way = (100 * slope / mean, 100 * slope / trunc) if pct else (slope, slope)
        # fio's own figure, printed with 6 decimals, is the truncated-mean one
        assert abs(fio_way - fio["criterion"]) <= 1e-6 + 1e-6 * abs(fio_way), (fio_way, fio["criterion"])
        assert g["reproduces_fio_criterion"]
    else:
        assert ours["rule"] == "fio-deviation"
        dev = max(abs(v - mean) for v in y)
        exact = fio_way = 100 * dev / mean if pct else dev
    assert abs(ours["criterion"] - exact) <= 1e-9 * max(1, abs(exact)), (ours["criterion"], exact)
    assert abs(ours["criterion_over_fio_mean"] - fio_way) <= 1e-9 * max(1, abs(fio_way))
    assert abs(g["exact_mean_difference"] - (exact - fio_way)) <= 1e-9 * max(1, abs(exact))
    limit = float(lim.rstrip("%"))
    assert ours["steady"] == (abs(exact) < limit)
    if pct:
        assert ours["limit_pct"] == limit
print("ok", len(got))
PY
}

# fio's slope and mean-deviation rules on a rate-limited write (steady)
fio --name=slope --filename=f1 --size=32M --rw=randwrite --bs=4k --ioengine=psync \
    --rate_iops=2000 --time_based --runtime=8s --ss=iops_slope:2% --ss_dur=3s \
    --output-format=json --output=slope.json >/dev/null 2>&1 || fail "fio slope run"
fio --name=dev --filename=f2 --size=32M --rw=write --bs=64k --ioengine=psync \
    --rate=20m --time_based --runtime=8s --ss=bw:20% --ss_dur=3s \
    --output-format=json --output=dev.json >/dev/null 2>&1 || fail "fio deviation run"
check slope.json
check dev.json

# By hand: a 3 s window of IOPS 100, 101, 103.  Slope (x = 0, 1, 2):
# (307 - 3 x 304 / 3) / (5 - 9 / 3) = 1.5.  fio divides by 304 / 3 in
# integers, 101: 1.485149 %, above a 1.483 % limit, not attained.  The
# exact mean 101.333 gives 1.480263 %: steady.
cat > hand.json <<'EOF'
{"fio version": "fio-3.33", "jobs": [{"jobname": "hand",
  "write": {"io_bytes": 1245184, "io_kbytes": 1216, "bw_bytes": 415061, "bw": 405,
            "iops": 101.33, "runtime": 3000, "total_ios": 304},
  "steadystate": {"ss": "iops_slope:1.483000%", "duration": 3, "attained": 0,
    "criterion": "1.485149%", "max_deviation": 0.0, "slope": 1.5,
    "data": {"bw_mean": 415061, "iops_mean": 101,
             "iops": [100, 101, 103], "bw": [409600, 413696, 421888]}}}]}
EOF
check hand.json
[ "$(json_get hand.json.out 'd["fio_jobs"][0]["steadystate"]["verdicts_agree"]')" = False ] || fail "hand: verdicts should differ"
[ "$(json_get hand.json.out 'd["fio_jobs"][0]["steadystate"]["ssdbench"]["steady"]')" = True ] || fail "hand: ssdbench verdict"
grep -q "truncated to an integer, 101" hand.json.txt || fail "hand: the truncated mean is not named"
grep -q "the verdicts differ" hand.json.txt || fail "hand: the differing verdicts are not said"
# the same window under limits without %: fio's absolute terms, IOPS per
# second (slope 1.5) and IOPS (max deviation 103 - 101.333 = 1.667)
sed -e 's/iops_slope:1.483000%/iops_slope:1.400000/' -e 's/"1.485149%"/"1.500000"/' \
    hand.json > abs1.json
sed -e 's/iops_slope:1.483000%/iops:2.000000/' -e 's/"1.485149%"/"1.666667"/' \
    -e 's/"attained": 0/"attained": 1/' hand.json > abs2.json
check abs1.json
check abs2.json
[ "$(json_get abs1.json.out 'd["fio_jobs"][0]["steadystate"]["ssdbench"]["steady"]')" = False ] || fail "abs1 verdict"
[ "$(json_get abs2.json.out 'd["fio_jobs"][0]["steadystate"]["ssdbench"]["steady"]')" = True ] || fail "abs2 verdict"

# rule names pick the metric: on a 4 KiB trace IOPS by default, bandwidth
# for bw_slope, and bw_slope with --metric iops is refused
"$SSDBENCH" run --target "$TEST_TMP/file" --size 16M --rw randwrite --bs 4k \
    --qd 4 --time 2s --db run.db >/dev/null || fail "run"
"$SSDBENCH" analyze last --db run.db --kind steady --window 1s --interval 200ms --json > r0.json
"$SSDBENCH" analyze last --db run.db --kind steady --window 1s --interval 200ms \
    --rule bw_slope --json > r1.json
"$SSDBENCH" analyze last --db run.db --kind steady --window 1s --interval 200ms --rule iops --json > r2.json
python3 - r0.json r1.json r2.json <<'PY' || fail "rule names"
import json, sys
s = [json.load(open(f))["traces"][0]["steady"] for f in sys.argv[1:4]]
assert s[0]["metric"] == "iops" and s[0]["rule"] == "fio-slope", s[0]
assert s[1]["metric"] == "bw" and s[1]["rule"] == "fio-slope", s[1]
assert s[2]["metric"] == "iops" and s[2]["rule"] == "fio-deviation", s[2]
# the rule's spacing is its own: 200 ms made of two 100 ms samples
assert abs(s[0]["interval_s"] - 0.2) < 1e-9 and s[0]["samples_per_interval"] == 2, s[0]
assert s[0]["window_samples"] == 5 and s[0]["limit_pct"] == 10
PY
expect_fail "conflicting metric" "$SSDBENCH" analyze last --db run.db --rule bw_slope --metric iops
grep -q "bw_slope judges bw" <<<"$LAST_ERR" || fail "conflict message: $LAST_ERR"
echo ok
