#!/usr/bin/env python3
"""CPU seconds per suite step of two builds on a simulated drive, alternated.

    bench/sim_step_ab.py [options] BIN_A BIN_B

Each round runs `ssdbench suite` once with each binary (the order reverses
every other round, so a drift of the shared machine does not always favour
the same one) under `perf record -e cpu-clock -k CLOCK_REALTIME`, and
step_cpu.py adds up each step's CPU.  Printed: every run's CPU per step,
then per step the medians and the median [min-max] of the per-round ratios
B / A.  With bit-identical builds (bench/sim_identical.py) both simulate
the same I/Os, so a step's CPU ratio is its CPU-per-I/O ratio.

Options:
  --target T     default sim:sn8100-2tb (full size)
  --target-b T   B's target, when it differs (one binary, two options:
                 e.g. sim:sn8100-2tb,sampled_mix=1)
  --only S,...   the steps to run (default seq_precond,seq_sweeps,boot)
  --set S.K=V    passed to the suite (repeatable)
  --rounds N     default 3
  --preset P     default full
  --out DIR      keep databases and recordings there

What bench/README.md reports (the exact streams of the boot search and of
the sequential 95:5 mix, at the reviewer's settings):
    bench/sim_step_ab.py --rounds 3 main/ssdbench build/ssdbench
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(binary, args, out, name, target):
    db = os.path.join(out, name + ".db")
    data = os.path.join(out, name + ".perf")
    for f in (db, db + "-wal", db + "-shm", data):
        if os.path.exists(f):
            os.remove(f)
    cmd = ["perf", "record", "-q", "-e", "cpu-clock", "-F", "199", "-k", "CLOCK_REALTIME",
           "-o", data, binary, "suite", "--target", target, "--preset", args.preset,
           "--only", args.only, "--db", db]
    for s in args.set:
        cmd += ["--set", s]
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    rep = subprocess.run([os.path.join(HERE, "step_cpu.py"), db, data],
                         capture_output=True, text=True, check=True).stdout
    cpu = {}
    for line in rep.splitlines():
        f = line.split()
        if len(f) >= 3 and f[-1] == "CPU" and f[-2] == "s":
            cpu[f[0]] = float(f[-3])
    return cpu


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("--target", default="sim:sn8100-2tb")
    ap.add_argument("--target-b")
    ap.add_argument("--only", default="seq_precond,seq_sweeps,boot")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--preset", default="full")
    ap.add_argument("--out")
    ap.add_argument("bin_a")
    ap.add_argument("bin_b")
    args = ap.parse_args()
    out = args.out or tempfile.mkdtemp(prefix="sim_step_ab.")
    os.makedirs(out, exist_ok=True)
    bins = {}
    for n, b in (("A", args.bin_a), ("B", args.bin_b)):
        bins[n] = os.path.join(out, "ssdbench." + n)
        shutil.copy(b, bins[n])
    print(f"A = {args.bin_a}, B = {args.bin_b}; {args.target}"
          f"{' (B: ' + args.target_b + ')' if args.target_b else ''} --only {args.only}; in {out}")
    res = {"A": [], "B": []}
    for r in range(args.rounds):
        for n in ("A", "B") if r % 2 == 0 else ("B", "A"):
            target = args.target_b if n == "B" and args.target_b else args.target
            cpu = run(bins[n], args, out, f"r{r}.{n}", target)
            res[n].append(cpu)
            print(f"r{r} {n}: " + "  ".join(f"{k} {v:.1f}" for k, v in cpu.items()), flush=True)
    print("step            A CPU s   B CPU s   B/A median [min-max]")
    for k in res["A"][0]:
        a = [x[k] for x in res["A"]]
        b = [x[k] for x in res["B"]]
        rat = [y / x for x, y in zip(a, b) if x > 0]
        if not rat:
            continue
        print(f"{k:<14} {statistics.median(a):8.2f} {statistics.median(b):9.2f}   "
              f"{statistics.median(rat):.3f} [{min(rat):.3f}-{max(rat):.3f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
