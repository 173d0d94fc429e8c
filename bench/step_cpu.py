#!/usr/bin/env python3
"""CPU seconds per suite step, from a perf recording of one suite run.

    bench/step_cpu.py DB PERF_DATA

The recording must sample the cpu-clock event on the realtime clock
(perf record -e cpu-clock -k CLOCK_REALTIME, as suite_sim.sh does with
PERF=1): a cpu-clock sample's period is the nanoseconds of CPU it stands
for, and realtime stamps can be compared with the steps' start and end
in the database.  Wall times on a shared machine say little; the CPU a
step took is what this prints, one line per step and one for the time
outside any step (opening the target, the analysis at the end).
"""
import datetime
import sqlite3
import subprocess
import sys


def epoch(iso):
    t = datetime.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ")
    return t.replace(tzinfo=datetime.timezone.utc).timestamp()


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: step_cpu.py DB PERF_DATA")
    db, data = sys.argv[1:]
    rows = sqlite3.connect(db).execute(
        "SELECT name, started_at, IFNULL(finished_at, '') FROM steps "
        "WHERE finished_at IS NOT NULL ORDER BY id").fetchall()
    steps = [(n, epoch(a), epoch(b)) for n, a, b in rows if b]
    out = subprocess.run(["perf", "script", "-i", data, "-F", "time,period", "--ns"],
                         capture_output=True, text=True, check=True).stdout
    cpu = [0.0] * len(steps)
    outside = 0.0
    for line in out.splitlines():
        f = line.replace(":", " ").split()
        if len(f) < 2:
            continue
        try:
            t, ns = float(f[0]), float(f[1])
        except ValueError:
            continue
        for i, (_, a, b) in enumerate(steps):
            if a <= t < b:
                cpu[i] += ns / 1e9
                break
        else:
            outside += ns / 1e9
    for (n, a, b), c in zip(steps, cpu):
        print(f"    {n:<14} {b - a:8.1f} s wall {c:8.1f} s CPU")
    print(f"    {'(outside)':<14} {'':8} {'':6} {outside:8.1f} s CPU")
    print(f"    {'(sampled)':<14} {'':8} {'':6} {sum(cpu) + outside:8.1f} s CPU")


main()
