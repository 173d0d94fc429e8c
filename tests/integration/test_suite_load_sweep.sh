#!/usr/bin/env bash
# load_sweep on a simulated drive (docs/suite.md): the closed loop's
# maximum, then open-loop levels at 10 ... 100 % of it.  Each level must
# achieve its arrival rate below saturation, the response-latency curve
# must rise with the load and bend up at the end (the hockey stick), and
# the finding must be the first level whose p99.99 exceeds the limit, as
# computed here from the levels' own figures, or none when the limit is
# above every level.  The report draws the curve.
source "$(dirname "$0")/lib.sh"
S=$SSDBENCH
T=sim:micron1300-1tb,scale=0.01
$S plan --preset quick --target $T >/dev/null 2>&1 || skip "no simulator in this build"

sweep() {	# sweep DB LIMIT
	$S suite --target $T --preset quick --only load_sweep --db "$1" \
		--set load_sweep.enabled=yes --set load_sweep.mixes=100 \
		--set load_sweep.qd=4 --set load_sweep.process=poisson \
		--set load_sweep.time=1s --set load_sweep.limit="$2" \
		>"$TEST_TMP/id" 2>"$TEST_TMP/err" || fail "suite: $(cat "$TEST_TMP/err")"
	$S analyze "$(cat "$TEST_TMP/id")" --db "$1" --json >"$TEST_TMP/a.json" ||
		fail "analyze"
}

echo "== a limit above every level: never crossed"
sweep "$TEST_TMP/hi.db" 1000s
python3 - "$TEST_TMP/a.json" >"$TEST_TMP/limit" <<'PY' || fail "the curve"
import json, math, sys
f = json.load(open(sys.argv[1]))["figures"]
k = lambda r: f.get("load_sweep.mix100." + r)
mx = k("max_iops")
assert mx and mx > 1000, mx
loads = list(range(10, 101, 10))
p99 = [k("load%d.resp_p99_us" % l) for l in loads]
p9999 = [k("load%d.resp_p99_99_us" % l) for l in loads]
for l in loads:
    t, a = k("load%d.target_iops" % l), k("load%d.iops" % l)
    assert abs(t - round(mx * l / 100)) <= 1, (l, t, mx)
    # below saturation the open loop does what arrives
    if l <= 80:
        assert abs(a - t) <= 0.05 * t, (l, a, t)
    # response latency is never below service latency
    assert k("load%d.resp_p99_99_us" % l) >= k("load%d.svc_p99_99_us" % l) * 0.999, l
print("p99 by load:", [round(v, 1) for v in p99], file=sys.stderr)
print("p99.99 by load:", [round(v, 1) for v in p9999], file=sys.stderr)
# monotone: each level's p99 at least the one before (2 % of noise)
for i in range(1, len(loads)):
    assert p99[i] >= 0.98 * p99[i - 1], ("not monotone", loads[i], p99)
# the hockey stick: flat at low load, steep at the end
assert p99[-1] > 3 * p99[0], p99
assert p99[-1] - p99[-2] > p99[1] - p99[0], p99
assert k("limit_crossed") == 0 and k("limit_crossed_load_pct") is None
assert k("limit_ok_iops") == max(k("load%d.iops" % l) for l in loads)
# a limit between the lightest and the heaviest level's p99.99
print("%.0fus" % math.sqrt(p9999[0] * p9999[-1]))
PY
limit=$(cat "$TEST_TMP/limit")

echo "== a limit of $limit: crossed at the first level above it"
sweep "$TEST_TMP/lo.db" "$limit"
python3 - "$TEST_TMP/a.json" "${limit%us}" <<'PY' || fail "the finding"
import json, sys
f = json.load(open(sys.argv[1]))["figures"]
limit = float(sys.argv[2])
k = lambda r: f.get("load_sweep.mix100." + r)
loads = list(range(10, 101, 10))
over = [l for l in loads if k("load%d.resp_p99_99_us" % l) > limit]
assert over, "no level over the limit"
first = over[0]
assert k("limit_crossed") == 1
assert k("limit_us") == limit
assert k("limit_crossed_load_pct") == first, (k("limit_crossed_load_pct"), first)
assert k("limit_crossed_iops") == k("load%d.iops" % first)
ok = [k("load%d.iops" % l) for l in loads if l < first]
assert k("limit_ok_iops") == (max(ok) if ok else None), (k("limit_ok_iops"), ok)
PY

if command -v gnuplot >/dev/null; then
	echo "== the report draws the curve"
	$S report "$(cat "$TEST_TMP/id")" --db "$TEST_TMP/lo.db" --out "$TEST_TMP/rep" \
		>/dev/null 2>"$TEST_TMP/err" || fail "report: $(cat "$TEST_TMP/err")"
	grep -q "Response latency vs load" "$TEST_TMP/rep/index.html" || fail "no load chart"
	grep -q "p99.99 response latency exceeds" "$TEST_TMP/rep/index.html" || fail "no finding in the report"
	ls "$TEST_TMP/rep"/*load_sweep*mix100*.svg >/dev/null 2>&1 || fail "no chart file"
else
	echo "gnuplot is not installed: the report is not drawn"
fi
echo ok
