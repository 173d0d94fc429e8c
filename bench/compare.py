#!/usr/bin/env python3
"""ssdbench against fio and a minimal liburing loop, on zram and a loop device.

Equal settings: both tools at their defaults (each waits for one completion
per reap), or, with --batch N, ssdbench --batch N against fio
iodepth_batch_complete_min=N (and the minimal loop's wait_nr N), N capped at
the queue depth.  Each round runs every tool once per workload, the order
reversed every other round, so slow drifts of this shared machine hit all
tools alike; the table reports medians of the per-round ratios and their
range.  CPU is counted from per-task schedstat for the whole
process tree (every thread, io_uring workers included) plus kernel threads
(loop workers, kworkers), over a window inside the measured time.

usage (as root, from the checkout, after `make`):
    bench/compare.py [--rounds 3] [--secs 3] [--targets zram,loop] [--batch N]
                     [--workloads 1,3,...] [--out FILE]
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
SSDBENCH = os.path.join(HERE, "..", "build", "ssdbench")
WORKLOADS = [  # name, rw, bs, qd, jobs, read % of a mix
    ("4k randread QD1", "randread", 4096, 1, 1, None),
    ("4k randwrite QD1", "randwrite", 4096, 1, 1, None),
    ("4k randread QD32", "randread", 4096, 32, 1, None),
    ("4k randwrite QD32", "randwrite", 4096, 32, 1, None),
    ("128k seq read QD32", "read", 131072, 32, 1, None),
    ("128k seq write QD32", "write", 131072, 32, 1, None),
    ("4k randrw 70:30 QD8", "randrw", 4096, 8, 1, 70),
    ("4k randread 4 jobs x QD8", "randread", 4096, 8, 4, None),
]
TOOLS = ("fio", "ssdbench", "min")


def tasks():
    """{tid: (on-cpu ns, pid, ppid)} for every task on the machine."""
    out = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                    out[int(tid)] = (int(f.read().split()[0]), int(pid), ppid)
        except (OSError, IndexError, ValueError):
            pass
    return out


def tree(root, snap):
    pids, grew = {root}, True
    while grew:
        grew = False
        for _, pid, ppid in snap.values():
            if ppid in pids and pid not in pids:
                pids.add(pid)
                grew = True
    return pids


def cpu_split(root, a, b):
    """CPU ns in (a, b] of the benchmark tree, of kernel threads, of the rest."""
    pids = tree(root, b) | {os.getpid()}
    bench = kern = other = 0
    for tid, (ns, pid, ppid) in b.items():
        d = ns - a.get(tid, (0,))[0]
        if pid in pids:
            bench += d if pid != os.getpid() else 0
        elif ppid == 2 or pid == 2:
            kern += d
        else:
            other += d
    return bench, kern, other


def run(cmd, secs, ramp):
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(ramp + 0.3)
    a, ta = tasks(), time.monotonic()
    time.sleep(secs - 0.6)
    b, tb = tasks(), time.monotonic()
    out, err = p.communicate()
    if p.returncode:
        raise RuntimeError(f"{cmd[0]} failed: {err.strip()[-300:]}")
    bench, kern, other = cpu_split(p.pid, a, b)
    return out, (bench + kern) / 1e9, tb - ta, other / 1e9 / (tb - ta)


def iops_of(tool, out):
    """Reads plus writes: a mix counts both, several jobs are summed."""
    d = json.loads(out)
    if tool == "fio":
        j = d["jobs"][0]          # group_reporting: one entry for all jobs
        return j["read"]["iops"] + j["write"]["iops"]
    if tool == "ssdbench":
        w = d["workloads"][0]
        return w["read"]["iops"] + w["write"]["iops"]
    return d["iops"]


def has_min(wl):
    """The minimal loop is one thread of reads or writes: no mix, one job."""
    _, _, _, _, jobs, mix = wl
    return jobs == 1 and mix is None


def command(tool, target, wl, secs, ramp, batch=0):
    _, rw, bs, qd, jobs, mix = wl
    n = min(qd, batch) if batch else 0   # 0: the tool's default, which is 1
    if tool == "fio":
        return ["fio", "--name=b", f"--filename={target}", "--ioengine=io_uring", "--direct=1",
                "--registerfiles=1", "--fixedbufs=1", f"--rw={rw}", f"--bs={bs}",
                f"--iodepth={qd}", f"--numjobs={jobs}", "--group_reporting=1",
                "--time_based=1", f"--runtime={secs}", f"--ramp_time={ramp}",
                "--output-format=json"] + \
               ([f"--rwmixread={mix}"] if mix is not None else []) + \
               ([f"--iodepth_batch_complete_min={n}"] if n else [])
    if tool == "ssdbench":
        return [SSDBENCH, "run", "--target", target, "--rw", rw, "--bs", str(bs), "--qd", str(qd),
                "--jobs", str(jobs), "--time", f"{secs}s", "--ramp", f"{ramp}s", "--no-db",
                "--json", "--destroy-data"] + \
               (["--rwmixread", str(mix)] if mix is not None else []) + \
               (["--batch", str(n)] if n else [])
    cmd = [os.path.join(HERE, "uring_min"), "-d", str(qd), "-b", str(bs), "-t", str(secs),
           "-r", str(ramp), "-c", str(n or 1)]
    if "write" in rw:
        cmd += ["-w", "-S"]   # stamps every 512 B before each write, as ssdbench and fio do
    if rw in ("read", "write"):
        cmd.append("-s")
    return cmd + [target]


def reset_zram():
    # The last io_uring worker may hold the device for a moment after exit.
    for _ in range(50):
        try:
            with open("/sys/block/zram0/reset", "w") as f:
                f.write("1")
            return
        except OSError:
            time.sleep(0.1)
    print("zram0 could not be reset", file=sys.stderr)


def setup(kind, tmp):
    """Returns (device, cleanup)."""
    if kind == "zram":
        if open("/sys/block/zram0/disksize").read().strip() != "0":
            raise RuntimeError("zram0 is in use")
        with open("/sys/block/zram0/disksize", "w") as f:
            f.write("1G")
        subprocess.run(["dd", "if=/dev/urandom", "of=/dev/zram0", "bs=1M", "count=1024",
                        "oflag=direct", "status=none"], check=True)
        return "/dev/zram0", reset_zram
    img = os.path.join(tmp, "loop.img")
    subprocess.run(["dd", "if=/dev/urandom", f"of={img}", "bs=1M", "count=1024",
                    "oflag=direct", "status=none"], check=True)
    dev = subprocess.run(["losetup", "--direct-io=on", "-f", "--show", img], check=True,
                         capture_output=True, text=True).stdout.strip()
    return dev, lambda: subprocess.run(["losetup", "-d", dev])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--secs", type=int, default=3)
    ap.add_argument("--ramp", type=int, default=1)
    ap.add_argument("--targets", default="zram,loop")
    ap.add_argument("--batch", type=int, default=0,
                    help="ssdbench --batch N, fio iodepth_batch_complete_min=N, the minimal "
                         "loop's wait_nr N (capped at the queue depth); 0: defaults")
    ap.add_argument("--workloads", default="",
                    help="1-based numbers of the workloads to run, e.g. 1,3 (default all)")
    ap.add_argument("--out", default=None, help="append raw results (JSON lines)")
    a = ap.parse_args()
    subprocess.run(["cc", "-O2", "-o", os.path.join(HERE, "uring_min"),
                    os.path.join(HERE, "uring_min.c"), "-luring"], check=True)
    wls = [WORKLOADS[int(i) - 1] for i in a.workloads.split(",")] if a.workloads else WORKLOADS
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind in a.targets.split(","):
            dev, cleanup = setup(kind, tmp)
            try:
                res, noises = {}, []
                for rnd in range(a.rounds):
                    for wl in wls:
                        name = wl[0]
                        tools = [t for t in TOOLS if t != "min" or has_min(wl)]
                        for tool in tools if rnd % 2 == 0 else tools[::-1]:
                            out, cpu, win, noise = run(
                                command(tool, dev, wl, a.secs, a.ramp, a.batch),
                                a.secs, a.ramp)
                            iops = iops_of(tool, out)
                            us_per_io = cpu / (iops * win) * 1e6
                            res.setdefault(name, {}).setdefault(tool, []).append((iops, us_per_io))
                            rec = dict(target=kind, workload=name, tool=tool, round=rnd,
                                       iops=round(iops), cpu_us_per_io=round(us_per_io, 3),
                                       noise_cores=round(noise, 2))
                            noises.append(noise)
                            print(json.dumps(rec), flush=True)
                            if a.out:
                                with open(a.out, "a") as f:
                                    f.write(json.dumps(rec) + "\n")
                for wl in wls:
                    r = res[wl[0]]
                    med = lambda t, k: statistics.median(x[k] for x in r[t]) if t in r else None
                    def ratio(t1, t2, k):
                        if t2 not in r:
                            return None
                        q = [x[k] / y[k] for x, y in zip(r[t1], r[t2])]
                        return statistics.median(q), min(q), max(q)
                    rows.append((kind, wl[0], med("fio", 0), med("ssdbench", 0), med("min", 0),
                                 med("fio", 1), med("ssdbench", 1), med("min", 1),
                                 ratio("ssdbench", "fio", 0), ratio("ssdbench", "fio", 1),
                                 ratio("ssdbench", "min", 0), ratio("ssdbench", "min", 1),
                                 statistics.median(noises)))
            finally:
                cleanup()
    print()
    setting = (f"ssdbench --batch {a.batch} vs fio iodepth_batch_complete_min={a.batch} "
               "(capped at the QD)" if a.batch else "defaults: ssdbench and fio each wait for "
               "one completion")
    print(f"{setting}; medians of {a.rounds} rounds; ratios are medians of per-round "
          "ratios [min-max]")
    print()
    print("| target | workload | IOPS fio | IOPS ssdbench | IOPS min | CPU µs/IO fio | ssdbench | min "
          "| IOPS ssdbench/fio | CPU/IO ssdbench/fio | IOPS ssdbench/min | CPU/IO ssdbench/min "
          "| noise cores |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    num = lambda v, f: "n/a" if v is None else format(v, f)
    rat = lambda q: "n/a" if q is None else f"{q[0]:.2f} [{q[1]:.2f}-{q[2]:.2f}]"
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {num(r[2], '.0f')} | {num(r[3], '.0f')} | {num(r[4], '.0f')} "
              f"| {num(r[5], '.2f')} | {num(r[6], '.2f')} | {num(r[7], '.2f')} | {rat(r[8])} "
              f"| {rat(r[9])} | {rat(r[10])} | {rat(r[11])} | {r[12]:.2f} |")


if __name__ == "__main__":
    sys.exit(main())
