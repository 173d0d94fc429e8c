#!/usr/bin/env python3
"""The sequential read/write mix of `seq_sweeps`, sampled against every I/O
simulated, point by point, on the same drive and seed.

    bench/seqmix_agree.py [options] DRIVE...

For each drive, `ssdbench suite --only seq_precond,seq_sweeps` runs twice
on sim:DRIVE,scale=S: once as it is (every I/O of the mix simulated: the
reference A) and once with `sampled_mix=1` (the mix sampled, its gaps
warped: B).  seq_precond fills the
drive first, as in the suite.  Per sweep point of the mix, B / A - 1 in
per cent: the reads' and writes' IOPS, p50, p99 and p99.9 (the workload's
summary) and the spread of its 100 ms samples (the sample standard
deviation of each interval's IOPS, ramp left out).  A figure outside its
tolerance is marked with a `*`:

    IOPS 1 %, p50 and p99 3 %, p99.9 5 %, spread 10 %

The last line per drive says whether every point met them, and each run's
CPU seconds (user + sys of the suite).

Options:
  --bin B        ssdbench binary (default build/ssdbench)
  --scale S      default 0.01
  --mix M        the mix's read share (default 95)
  --qds Q,...    default 1,4,32,256
  --time T       each point's measurement (default 5m, the suite's)
  --ramp R       default 30s (the suite's)
  --seed N       default 1
  --b-opts O     B's target options (default sampled_mix=1; an empty one
                 and --b-seed: the model's own spread, exact against exact)
  --b-seed N     B's seed (default: --seed)
  --out DIR      keep the databases there
"""
import argparse
import csv
import io
import os
import resource
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOL = {"iops": 1.0, "p50": 3.0, "p99": 3.0, "p99.9": 5.0, "sd": 10.0}


def run_suite(args, drive, exact, db):
    seed = args.seed if exact or args.b_seed is None else args.b_seed
    for f in (db, db + "-wal", db + "-shm"):
        if os.path.exists(f):
            os.remove(f)
    target = "sim:%s,scale=%s,seed=%s%s" % (drive, args.scale, seed,
                                              "" if exact or not args.b_opts else "," + args.b_opts)
    cmd = [args.bin, "suite", "--target", target, "--preset", "full",
           "--only", "seq_precond,seq_sweeps", "--db", db,
           "--set", "seq_sweeps.mixes=%s" % args.mix,
           "--set", "seq_sweeps.qds=%s" % args.qds,
           "--set", "seq_sweeps.time=%s" % args.time,
           "--set", "seq_sweeps.ramp=%s" % args.ramp]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def export(args, db, what):
    out = subprocess.run([args.bin, "export", "last", "--db", db, "--csv", what],
                         capture_output=True, text=True, check=True).stdout
    return list(csv.DictReader(io.StringIO(out)))


def figures(args, db):
    """Per mix point (workload name): its figures by key."""
    pts = {}
    prefix = "mix=%s " % args.mix
    for r in export(args, db, "--summary"):
        name = r["workload_name"]
        if not name.startswith(prefix) or r["direction"] not in ("read", "write"):
            continue
        d = "r" if r["direction"] == "read" else "w"
        f = pts.setdefault(name, {})
        f[d + " iops"] = float(r["iops"])
        f[d + " p50"] = float(r["lat_p50_ns"])
        f[d + " p99"] = float(r["lat_p99_ns"])
        f[d + " p99.9"] = float(r["lat_p99_9_ns"])
    per = {}
    for r in export(args, db, "--samples"):
        name = r["workload_name"]
        if name not in pts or r["ramp"] != "0":
            continue
        dt = (int(r["t_end_ns"]) - int(r["t_start_ns"])) * 1e-9
        if dt <= 0:
            continue
        p = per.setdefault(name, ([], []))
        p[0].append(int(r["read_ios"]) / dt)
        p[1].append(int(r["write_ios"]) / dt)
    for name, (rd, wr) in per.items():
        # the last interval may be a partial one: left out
        rd, wr = rd[:-1], wr[:-1]
        if len(rd) > 2:
            pts[name]["r sd"] = statistics.stdev(rd)
            pts[name]["w sd"] = statistics.stdev(wr)
            pts[name]["r cv"] = 100 * pts[name]["r sd"] / statistics.mean(rd)
            pts[name]["w cv"] = 100 * pts[name]["w sd"] / statistics.mean(wr)
    return pts


def rel(b, a):
    if a is None or b is None:
        return None
    if a == 0:
        return 0.0 if b == 0 else float("inf")
    return 100.0 * (b / a - 1)


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("--bin", default=os.path.join(HERE, "..", "build", "ssdbench"))
    ap.add_argument("--scale", default="0.01")
    ap.add_argument("--mix", default="95")
    ap.add_argument("--qds", default="1,4,32,256")
    ap.add_argument("--time", default="5m")
    ap.add_argument("--ramp", default="30s")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--b-opts", default="sampled_mix=1")
    ap.add_argument("--b-seed")
    ap.add_argument("--out")
    ap.add_argument("drives", nargs="+")
    args = ap.parse_args()
    out = args.out or tempfile.mkdtemp(prefix="seqmix_agree.")
    os.makedirs(out, exist_ok=True)
    keys = ["r iops", "w iops", "r p50", "r p99", "r p99.9", "w p50", "w p99", "w p99.9",
            "r sd", "w sd"]
    all_ok = True
    for drive in args.drives:
        dba = os.path.join(out, drive + ".exact.db")
        dbb = os.path.join(out, drive + ".sampled.db")
        ca = run_suite(args, drive, True, dba)
        cb = run_suite(args, drive, False, dbb)
        fa, fb = figures(args, dba), figures(args, dbb)
        print("%s (scale %s, %s a point, seed %s; B: %s, seed %s): B / A - 1 in %%, * outside the tolerance"
              % (drive, args.scale, args.time, args.seed, args.b_opts or "exact",
                 args.b_seed or args.seed))
        print("%-16s %10s " % ("point", "r iops A") + " ".join("%8s" % k for k in keys)
              + "  (A's sd / mean: r, w)")
        ok = True
        for name in sorted(fa, key=lambda n: int(n.split("qd=")[1])):
            a, b = fa[name], fb.get(name, {})
            cells = []
            for k in keys:
                v = rel(b.get(k), a.get(k))
                if v is None:
                    cells.append("%8s" % "missing")
                    ok = False
                    continue
                bad = abs(v) > TOL[k.split()[1]]
                ok &= not bad
                cells.append("%+7.2f%s" % (v, "*" if bad else " "))
            print("%-16s %10.0f " % (name, a["r iops"]) + " ".join(cells)
                  + "  (%.2f %%, %.1f %%)" % (a.get("r cv", 0), a.get("w cv", 0)))
        print("%s: %s; CPU s exact %.1f, sampled %.1f" % (drive, "all within" if ok else "NOT within",
                                                          ca, cb))
        all_ok &= ok
        sys.stdout.flush()
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
