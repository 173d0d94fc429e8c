#!/usr/bin/env bash
# fio-JSON import speed: `ssdbench analyze --fio-json` of this tree against
# the same command built from another revision (default: main), on one
# large fio document (a real fio 3.x job, written by fio here, repeated
# JOBS times), in alternation (the order reverses every other round).
# Prints the median CPU time (user + system of the command: the machine is
# shared, wall time is noise) of each and the median of the per-round
# ratios new / old.
#   bench/fio_json_speed.sh [REV] [ROUNDS] [JOBS]
set -eu
cd "$(dirname "$0")/.."
rev=${1:-main} rounds=${2:-11} jobs=${3:-4000}
command -v fio >/dev/null || { echo "needs fio" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -j2 build/ssdbench >/dev/null
mkdir -p "$tmp/old"
git archive "$rev" | tar -x -C "$tmp/old"
make -C "$tmp/old" -j2 build/ssdbench >/dev/null
fio --name=bench --filename="$tmp/f" --size=8M --rw=randrw --bs=4k \
    --ioengine=psync --runtime=1s --time_based --lat_percentiles=1 \
    --output-format=json --output="$tmp/one.json" >/dev/null
python3 - "$tmp/one.json" "$tmp/big.json" "$jobs" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]
d["jobs"] = [dict(j, jobname="job%d" % i) for i in range(int(sys.argv[3]))]
json.dump(d, open(sys.argv[2], "w"), indent=2)
PY
python3 - "$rounds" "$tmp/big.json" "$tmp/old/build/ssdbench" build/ssdbench <<'PY'
import os, resource, statistics, subprocess, sys
rounds, big, old, new = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
print("input: %.1f MB" % (os.path.getsize(big) / 1e6))
t = {"old": [], "new": []}
for r in range(rounds):
    order = [("old", old), ("new", new)]
    for name, exe in (order if r % 2 == 0 else order[::-1]):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([exe, "analyze", "--fio-json", big, "--json"], check=True,
                       stdout=subprocess.DEVNULL)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t[name].append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
ratios = [n / o for n, o in zip(t["new"], t["old"])]
for k in ("old", "new"):
    print("%s: median %.3f s CPU (%.3f-%.3f)" % (k, statistics.median(t[k]), min(t[k]), max(t[k])))
print("new/old: median %.2f (%.2f-%.2f) over %d rounds" %
      (statistics.median(ratios), min(ratios), max(ratios), rounds))
PY
