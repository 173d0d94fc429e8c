#!/usr/bin/env bash
# plan's estimates against what the run takes: the byte-bound steps of the
# full preset run on a simulated SN8100 (scaled, and the sequential ones at
# full size), each step's time on the drive's clock (the STEP.step_seconds
# metric the runner records), and plan's estimate of the same plan must be
# within 25 % of it.  Time-bound steps (sweeps, tail latency) are exact by
# construction and too slow to run here.
. "$(dirname "$0")/lib.sh"
cd "$TEST_TMP"

# check_estimates DB PLAN_ARGS...: every step of run 1 against `plan`.
check_estimates() {
	local db=$1; shift
	"$SSDBENCH" plan "$@" >plan.txt || fail "plan $*"
	"$SSDBENCH" suite "$@" --db "$db" >/dev/null 2>suite.err || fail "suite $*: $(tail -3 suite.err)"
	"$SSDBENCH" show 1 --db "$db" --json >run.json
	python3 - plan.txt run.json <<'PY' || fail "estimates of $*"
import json, re, sys
def secs(text):
    units = {"d": 86400, "h": 3600, "m": 60, "s": 1}
    return sum(float(v) * units[u] for v, u in re.findall(r"([0-9.]+)(d|h|m|s)\b", text))
est, step = {}, None
for line in open(sys.argv[1]):
    m = re.match(r"^ ?\d+\. (\w+) ", line)
    if m:
        step = m.group(1)
    m = re.match(r"^    time ~?([^,(]+)", line)
    if m and step:
        est[step] = secs(m.group(1))
d = json.load(open(sys.argv[2]))
names = {s["id"]: s["name"] for s in d["steps"]}
took = {names[m["step_id"]]: m["value"] for m in d["metrics"] if m["key"] == names[m["step_id"]] + ".step_seconds"}
assert set(took) == set(est), (sorted(took), sorted(est))
bad = []
for s in est:
    ratio = est[s] / took[s]
    print(f"{s:14s} estimate {est[s]:9.0f} s  took {took[s]:9.1f} s  ratio {ratio:.2f}")
    if not 0.75 <= ratio <= 1.25:
        bad.append(s)
assert not bad, f"outside 25 %: {bad}"
PY
}

check_estimates scaled.db --preset full --target sim:sn8100-2tb,scale=0.01 \
	--only purge,fill,cssd_precond,sync_write,reclaim,essd_purge,seq_precond,rnd_precond,boot \
	--set boot.n_max=16
check_estimates full.db --preset full --target sim:sn8100-2tb --only purge,fill,essd_purge,seq_precond

# How the estimate was made is said, with the drive's rates.
grep -q "at the simulated drive's rates, from its profile: SLC cache 677 GB" plan.txt ||
	fail "plan does not say how it estimates: $(sed -n 2,4p plan.txt)"
echo "plan estimates: ok"
