#!/usr/bin/env python3
"""Alternating A/B runs of any commands on one device, with compare.py's CPU count.

usage (as root):  bench/ab.py ROUNDS SECS NAME=COMMAND [NAME=COMMAND ...]

Each round runs every command once (the order reverses every other round,
so a drift does not always favour the same one); each command must run
for SECS after a 1 s ramp and print fio's, ssdbench's or uring_min's JSON.
Prints one line per run, then for each command the medians and the median
(with range) of its per-round ratios to the first command.
"""
import json, os, shlex, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def iops(out):
    d = json.loads(out)
    if "jobs" in d:
        return d["jobs"][0]["read"]["iops"] + d["jobs"][0]["write"]["iops"]
    if "workloads" in d:
        w = d["workloads"][0]
        return sum(w[k]["iops"] for k in ("read", "write") if k in w)
    return d["iops"]


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    rounds, secs = int(sys.argv[1]), int(sys.argv[2])
    variants = [a.split("=", 1) for a in sys.argv[3:]]
    res = {n: [] for n, _ in variants}
    for r in range(rounds):
        for n, cmd in (variants if r % 2 == 0 else variants[::-1]):
            out, cpu, win, noise = compare.run(shlex.split(cmd), secs, 1)
            i = iops(out)
            us = cpu / (i * win) * 1e6
            res[n].append((i, us, noise))
            print(f"r{r} {n:12s} iops {i:9.0f} cpu/io {us:7.2f} noise {noise:.2f}", flush=True)
    base = res[variants[0][0]]
    for n, _ in variants:
        v = res[n]
        ri = [a[0] / b[0] for a, b in zip(v, base)]
        rc = [a[1] / b[1] for a, b in zip(v, base)]
        print(f"{n:12s} iops {statistics.median(x[0] for x in v):9.0f} "
              f"cpu/io {statistics.median(x[1] for x in v):6.2f}  vs {variants[0][0]}: "
              f"iops x{statistics.median(ri):.2f} [{min(ri):.2f}-{max(ri):.2f}] "
              f"cpu x{statistics.median(rc):.2f} [{min(rc):.2f}-{max(rc):.2f}] "
              f"noise {statistics.median(x[2] for x in v):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
