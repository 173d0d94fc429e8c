#!/usr/bin/env bash
# suite's progress line on a terminal (a pseudo-terminal from script(1)),
# on a scaled simulated drive: step and workload, the newest interval's
# rate, the step's drive-writes, step and plan ETA both in the drive's
# time (never wall time beside virtual time), and a workload name either
# whole or cut at a space and marked "...", never in the middle of a word.
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null || skip "script(1) is not installed"
cd "$TEST_TMP"
script -qec "$(printf '%q ' "$SSDBENCH" suite --target sim:sn8100-2tb,scale=0.05 \
	--preset quick --db p.db)" /dev/null </dev/null | tr '\r' '\n' |
	sed 's/\x1b\[K//; s/ *$//' | { grep -a '^\[[0-9]*/[0-9]*\] ' || true; } >lines.txt
cat lines.txt
[ -s lines.txt ] || fail "no progress line"
"$SSDBENCH" show 1 --db p.db --json >run.json
python3 - lines.txt run.json <<'PY' || fail "progress lines"
import json, re, sys
lines = open(sys.argv[1]).read().splitlines()
names = {w["name"] for w in json.load(open(sys.argv[2]))["workloads"]}
rated = dw = 0
for l in lines:
    m = re.match(r"^\[(\d+)/(\d+)\] (\w+): (.*?)(?:  |$)(.*)$", l)
    assert m, l
    doing, rest = m.group(4), m.group(5)
    if doing.endswith("..."):
        pre = doing[:-3]
        assert any(n.startswith(pre + " ") for n in names), ("cut mid-word", l)
    else:
        assert doing in names, ("not a workload of the run", doing, l)
    if "ETA" in rest:
        assert rest.endswith("(drive's time)"), ("ETA without its clock", l)
    rated += bool(re.search(r"  [0-9.]+ [GM]B/s", rest))
    dw += bool(re.search(r"  [0-9]+\.[0-9]{2} DW", rest))
assert rated, "no line shows the rate"
assert dw, "no line shows the drive-writes"
PY
echo "suite progress: ok"
