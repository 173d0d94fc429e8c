#!/usr/bin/env python3
"""Does one target's work slow another's?  `ssdbench run` on two targets.

usage (as root):  bench/multi_interference.py [--rounds N] [--secs S]
                  [--limit R] [--pair loop,loop|zram,loop] [--out FILE]

Each round measures, in an order that rotates every round, target A alone,
target B alone, both at once pinned (the default: CPUs split between them)
and both at once with --no-pin; each run is the same workload (4 KiB
random reads, QD16, 0.5 s ramp, S s measured).  The interference ratio of a
target is its IOPS together divided by its IOPS alone in the same round;
the report is the median over the rounds with the range, per target, for
the pinned and the unpinned pair, and whether the median keeps at least
LIMIT (default 0.90: one target may cost the other at most 10 %).

Targets: two loop devices over 256 MiB files of random data in /dev/shm
(memory: no disk under test, so the ratio is what the host -- CPUs, memory
bandwidth, the block layer -- allows two targets; a real pair of drives
adds nothing the host takes), or zram0 (when free) and one such loop
device.  Everything made is removed afterwards.
"""
import argparse, json, os, statistics, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SSDBENCH = os.path.join(ROOT, "build", "ssdbench")


def sh(*args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout.strip()


def make_loop(made, dirpath, n):
    img = os.path.join(dirpath, f"img{n}")
    with open(img, "wb") as f:
        for _ in range(256):
            f.write(os.urandom(1 << 20))
    dev = sh("losetup", "-f", "--show", img)
    made.append(("loop", dev))
    return dev


def make_zram(made):
    with open("/sys/block/zram0/disksize") as f:
        if f.read().strip() != "0":
            sys.exit("zram0 is in use: use --pair loop,loop")
    with open("/sys/block/zram0/disksize", "w") as f:
        f.write("256M")
    made.append(("zram", "/dev/zram0"))
    with open("/dev/zram0", "wb") as f:
        for _ in range(256):
            f.write(os.urandom(1 << 20))
    return "/dev/zram0"


def iops(w):
    return sum(w[k]["iops"] for k in ("read", "write") if k in w)


def run(targets, secs, extra):
    cmd = [SSDBENCH, "run"]
    for t in targets:
        cmd += ["--target", t]
    cmd += ["--rw", "randread", "--bs", "4k", "--qd", "16", "--ramp", "500ms",
            "--time", f"{secs}s", "--no-db", "--json"] + extra
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    d = json.loads(out)
    runs = d if isinstance(d, list) else [d]
    return [iops(r["workloads"][0]) for r in runs]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--secs", type=int, default=3)
    ap.add_argument("--limit", type=float, default=0.90)
    ap.add_argument("--pair", default="loop,loop")
    ap.add_argument("--out")
    a = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("needs root (loop devices)")
    made = []
    tmp = tempfile.mkdtemp(dir="/dev/shm")
    try:
        kinds = a.pair.split(",")
        targets = [make_zram(made) if k == "zram" else make_loop(made, tmp, i)
                   for i, k in enumerate(kinds)]
        names = ["A alone", "B alone", "both pinned", "both unpinned"]
        res = {n: [] for n in names}
        raw = []
        for r in range(a.rounds):
            order = names[r % 4:] + names[:r % 4]
            for n in order:
                if n == "A alone":
                    v = run(targets[:1], a.secs, [])
                elif n == "B alone":
                    v = run(targets[1:], a.secs, [])
                else:
                    v = run(targets, a.secs, ["--no-pin"] if "unpinned" in n else [])
                res[n].append(v)
                raw.append({"round": r, "what": n, "iops": v})
                print(f"r{r} {n:14s} " + " ".join(f"{x:9.0f}" for x in v), flush=True)
        if a.out:
            with open(a.out, "w") as f:
                for x in raw:
                    f.write(json.dumps(x) + "\n")
        print(f"\ntargets: A={targets[0]} B={targets[1]}; {a.rounds} rounds of {a.secs} s, "
              f"4 KiB random reads QD16; limit {a.limit:.2f}")
        ok = True
        for t, label in ((0, "A"), (1, "B")):
            alone = [v[0] for v in res[f"{label} alone"]]
            print(f"{label} alone: median {statistics.median(alone):9.0f} IOPS")
            for n in ("both pinned", "both unpinned"):
                ratio = [v[t] / al for v, al in zip(res[n], alone)]
                m = statistics.median(ratio)
                verdict = "ok" if m >= a.limit else "BEYOND THE LIMIT"
                if n == "both pinned":
                    ok &= m >= a.limit
                print(f"  {n:14s} ratio {m:.2f} [{min(ratio):.2f}-{max(ratio):.2f}]  {verdict}")
        return 0 if ok else 1
    finally:
        for kind, dev in reversed(made):
            if kind == "loop":
                subprocess.run(["losetup", "-d", dev])
            else:
                with open("/sys/block/zram0/reset", "w") as f:
                    f.write("1")
        for f in os.listdir(tmp):
            os.unlink(os.path.join(tmp, f))
        os.rmdir(tmp)


if __name__ == "__main__":
    sys.exit(main())
