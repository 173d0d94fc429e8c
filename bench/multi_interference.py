#!/usr/bin/env python3
"""Does one target's work slow another's?  `ssdbench run` on two targets.

usage (as root):  bench/multi_interference.py [--rounds N] [--secs S]
                  [--limit R] [--pair loop,loop|zram,loop] [--out FILE]
                  [--onoff SECS]

Each round measures, in an order that rotates every round, target A alone,
target B alone, both at once pinned (the default: CPUs split between them)
and both at once with --no-pin; each run is the same workload (4 KiB
random reads, QD16, 0.5 s ramp, S s measured).  The interference ratio of a
target is its IOPS together divided by its IOPS alone in the same round;
the report is the median over the rounds with the range, per target, for
the pinned and the unpinned pair, and whether the median keeps at least
LIMIT (default 0.90: one target may cost the other at most 10 %).

--onoff SECS measures the same in one window, for a machine whose other
load changes faster than the rounds: target A runs SECS while B runs 1 s,
rests 1 s, ... (A pinned to one half of the CPUs, B to the other, as
`run --target A --target B` pins them); A's 100 ms samples while B ran are
compared with those while B rested (0.2 s at each edge left out), then the
roles swap.

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


def utc_s(iso):
    """An ISO 8601 UTC time from the database ("...T23:01:02.345Z") in s."""
    import datetime
    return datetime.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ").replace(
        tzinfo=datetime.timezone.utc).timestamp()


def onoff(victim, other, secs, cpus_v, cpus_o, tmp):
    """The victim runs `secs`; the other target runs 1 s, rests 1 s, ...
    meanwhile.  Returns the victim's median IOPS per 100 ms sample while
    the other ran and while it did not: noise slower than a second hits
    both alike, so their ratio is the interference."""
    import sqlite3, time
    vdb, odb = os.path.join(tmp, "v.db"), os.path.join(tmp, "o.db")
    for f in (vdb, odb):
        if os.path.exists(f):
            os.unlink(f)
    base = ["--rw", "randread", "--bs", "4k", "--qd", "16"]
    v = subprocess.Popen(["taskset", "-c", cpus_v, SSDBENCH, "run", "--target", victim] + base +
                         ["--time", f"{secs}s", "--db", vdb], stdout=subprocess.DEVNULL)
    time.sleep(1)
    while v.poll() is None:
        subprocess.run(["taskset", "-c", cpus_o, SSDBENCH, "run", "--target", other] + base +
                       ["--time", "1s", "--db", odb], stdout=subprocess.DEVNULL, check=True)
        time.sleep(1)
    on = [(utc_s(a), utc_s(b)) for a, b in sqlite3.connect(odb).execute(
        "SELECT started_at, finished_at FROM workloads")]
    c = sqlite3.connect(vdb)
    start = utc_s(c.execute("SELECT started_at FROM workloads").fetchone()[0])
    busy, idle = [], []
    for t0, t1, ios in c.execute("SELECT t_start_ns, t_end_ns, read_ios FROM samples WHERE ramp = 0"):
        a, b = start + t0 / 1e9, start + t1 / 1e9
        rate = ios / ((t1 - t0) / 1e9)
        if any(a >= s + 0.2 and b <= e - 0.2 for s, e in on):
            busy.append(rate)
        elif all(b <= s - 0.2 or a >= e + 0.2 for s, e in on):
            idle.append(rate)
    return statistics.median(busy), statistics.median(idle), len(busy), len(idle)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--secs", type=int, default=3)
    ap.add_argument("--limit", type=float, default=0.90)
    ap.add_argument("--pair", default="loop,loop")
    ap.add_argument("--out")
    ap.add_argument("--onoff", type=int, default=0, metavar="SECS",
                    help="instead: each target runs SECS while the other goes 1 s on, 1 s off")
    a = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("needs root (loop devices)")
    made = []
    tmp = tempfile.mkdtemp(dir="/dev/shm")
    try:
        kinds = a.pair.split(",")
        targets = [make_zram(made) if k == "zram" else make_loop(made, tmp, i)
                   for i, k in enumerate(kinds)]
        load0 = open("/proc/loadavg").read().split()[0]
        if a.onoff:
            n = os.cpu_count()
            half = [f"0-{n // 2 - 1}" if n > 2 else "0", f"{n // 2}-{n - 1}" if n > 2 else "1"]
            print(f"on/off: {a.onoff} s per victim, the other 1 s on, 1 s off; CPUs {half}; "
                  f"load average {load0}")
            ok = True
            for vi, label in ((0, "A"), (1, "B")):
                busy, idle, nb, ni = onoff(targets[vi], targets[1 - vi], a.onoff,
                                           half[vi], half[1 - vi], tmp)
                m = busy / idle
                ok &= m >= a.limit
                print(f"{label}: {idle:9.0f} IOPS with the other idle ({ni} samples), "
                      f"{busy:9.0f} while it ran ({nb}): ratio {m:.2f} "
                      f"{'ok' if m >= a.limit else 'BEYOND THE LIMIT'}")
            print(f"load average after: {open('/proc/loadavg').read().split()[0]}")
            return 0 if ok else 1
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
              f"4 KiB random reads QD16; limit {a.limit:.2f}; load average "
              f"{load0} before, {open('/proc/loadavg').read().split()[0]} after "
              f"on {os.cpu_count()} CPUs")
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
