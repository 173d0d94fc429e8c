#!/usr/bin/env python3
"""Two builds of bench/sim_exact_speed, alternated: CPU per exact-stream I/O.

    bench/sim_exact_ab.py ROUNDS HARNESS_A HARNESS_B [HARNESS ARGS ...]

Each round runs both harnesses (built by bench/sim_exact_speed.sh, one
with LIB= another revision's library), the order reversed every other
round, with the same arguments (e.g. -t 10 sn8100-2tb).  Prints, per
drive and stream, the median ns per I/O of each, the median [min-max] of
the per-round ratios B / A, and whether every run's checksum of what the
streams reported was the same (the builds must simulate the same I/Os).
Exit status 1 when a checksum differs.
"""
import statistics
import subprocess
import sys


def run(harness, args):
    out = subprocess.run([harness] + args, capture_output=True, text=True, check=True).stdout
    res = {}
    for line in out.splitlines():
        f = line.split()
        # DRIVE STREAM N I/Os NS ns/I/O S s sum HEX
        res[(f[0], f[1])] = (float(f[4]), f[-1])
    return res


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    rounds, a, b, args = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
    runs = {"A": [], "B": []}
    for r in range(rounds):
        for n in ("A", "B") if r % 2 == 0 else ("B", "A"):
            runs[n].append(run(a if n == "A" else b, args))
    same = True
    print(f"{'drive':<16} {'stream':<8} {'A ns/I/O':>9} {'B ns/I/O':>9}  B/A median [min-max]  sums")
    for key in runs["A"][0]:
        if key[1] == "fill":
            continue
        na = [x[key][0] for x in runs["A"]]
        nb = [x[key][0] for x in runs["B"]]
        sums = {x[key][1] for x in runs["A"] + runs["B"]}
        same &= len(sums) == 1
        rat = [y / x for x, y in zip(na, nb)]
        print(f"{key[0]:<16} {key[1]:<8} {statistics.median(na):9.1f} {statistics.median(nb):9.1f}  "
              f"{statistics.median(rat):.2f} [{min(rat):.2f}-{max(rat):.2f}]"
              f"{'':9}{'same' if len(sums) == 1 else 'DIFFERENT'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
