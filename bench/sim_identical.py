#!/usr/bin/env python3
"""Do two builds simulate the same drive bit for bit?

    bench/sim_identical.py [options] BIN_A BIN_B [DRIVE ...]

Runs `ssdbench suite` with both binaries on each simulated drive (every
built-in one by default, from `BIN_A sim list`), the same plan and the
same seed, and compares the two databases table by table: every stored
sample, histogram (the encoded buckets as bytes), workload total, metric,
target fact and step, row by row.  What differs between two runs of one
binary is left out, and only that: the wall-clock columns (started_at,
finished_at, recorded_at, taken_at), the run's random uid, the command line (it names the
database file) and the host description.  A table or column that only
one of the two schemas has (B records something new) is not compared:
it is listed as such, and the rows are compared on the columns both have.  A change meant to make the
simulator cheaper without changing what it simulates must print
"identical" for every drive; the exit status is 1 when anything differs.

Options:
  --preset P     suite preset (default full-scaled: every step, short)
  --scale X      the drives' scale (default 0.01)
  --set S.K=V    passed to the suite (repeatable)
  --out DIR      keep the databases there (default: a temporary folder)
  --show N       differing rows to print per table (default 5)

A quick run of every step on all built-in drives:
    bench/sim_identical.py old/ssdbench build/ssdbench
The reviewer's `full` plan, smaller drives:
    bench/sim_identical.py --preset full --scale 0.01 old/ssdbench build/ssdbench
"""
import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

# Wall-clock and invocation columns: they differ between two runs of the
# same binary, so they say nothing about the simulation.
SKIP = {"started_at", "finished_at", "recorded_at", "taken_at",
        "command_line", "host_json", "uid"}


def tables(db):
    return [r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]


def dump(path):
    """{table: (columns, sorted rows)} without the skipped columns."""
    db = sqlite3.connect(path)
    out = {}
    for t in tables(db):
        cols = [r[1] for r in db.execute(f"PRAGMA table_info({t})") if r[1] not in SKIP]
        q = ", ".join(f'"{c}"' for c in cols)
        rows = db.execute(f'SELECT {q} FROM "{t}"').fetchall()
        out[t] = (cols, sorted(rows, key=repr))
    db.close()
    return out


def show(v):
    if isinstance(v, bytes):
        return f"<{len(v)} bytes {v[:12].hex()}...>"
    s = repr(v)
    return s if len(s) <= 120 else s[:117] + "..."


def common(cols, rows, keep):
    """The rows with only the columns in keep, in cols' order."""
    idx = [i for i, c in enumerate(cols) if c in keep]
    return [cols[i] for i in idx], sorted((tuple(r[i] for i in idx) for r in rows), key=repr)


def compare(a, b, nshow):
    """Number of differing rows; prints what differs."""
    bad = 0
    for t in sorted(set(a) | set(b)):
        if t not in a or t not in b:
            # a new table of one schema: what it records is new, not
            # a difference in what both record
            print(f"    table {t}: only in {'B' if t not in a else 'A'} (not compared)")
            continue
        (ca, ra), (cb, rb) = a[t], b[t]
        if ca != cb:
            both = set(ca) & set(cb)
            for side, cols in (("A", ca), ("B", cb)):
                extra = [c for c in cols if c not in both]
                if extra:
                    print(f"    table {t}: columns only in {side} (not compared): "
                          + ", ".join(extra))
            (ca, ra), (cb, rb) = common(ca, ra, both), common(cb, rb, both)
            if ca != cb:
                print(f"    table {t}: columns in another order: {ca} / {cb}")
                bad += 1
                continue
        sa, sb = set(ra), set(rb)
        only_a = [r for r in ra if r not in sb]
        only_b = [r for r in rb if r not in sa]
        n = max(len(only_a), len(only_b))
        if len(ra) != len(rb):
            print(f"    table {t}: {len(ra)} rows in A, {len(rb)} in B")
            n = max(n, 1)
        if not n:
            continue
        bad += n
        print(f"    table {t}: {n} rows differ")
        for ra_, rb_ in list(zip(only_a, only_b))[:nshow]:
            d = [f"{c}: {show(x)} / {show(y)}" for c, x, y in zip(ca, ra_, rb_) if x != y]
            key = ", ".join(f"{c}={show(x)}" for c, x in zip(ca[:2], ra_[:2]))
            print(f"      {key}: " + "; ".join(d))
    return bad


def run(binary, drive, args, db):
    for f in (db, db + "-wal", db + "-shm"):
        if os.path.exists(f):
            os.remove(f)
    cmd = [binary, "suite", "--target", f"sim:{drive},scale={args.scale}",
           "--preset", args.preset, "--db", db]
    for s in args.set:
        cmd += ["--set", s]
    t0 = time.monotonic()
    r0 = os.times()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    r1 = os.times()
    cpu = (r1.children_user - r0.children_user) + (r1.children_system - r0.children_system)
    if p.returncode:
        print(f"    {binary}: exit {p.returncode}: {p.stderr.strip()[-400:]}")
    return p.returncode, cpu, time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("--preset", default="full-scaled")
    ap.add_argument("--scale", default="0.01")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--out")
    ap.add_argument("--show", type=int, default=5)
    ap.add_argument("bin_a")
    ap.add_argument("bin_b")
    ap.add_argument("drives", nargs="*")
    args = ap.parse_args()
    out = args.out or tempfile.mkdtemp(prefix="sim_identical.")
    os.makedirs(out, exist_ok=True)
    # Copies, so a rebuild meanwhile does not change what is compared.
    bins = []
    for i, b in enumerate((args.bin_a, args.bin_b)):
        dst = os.path.join(out, f"ssdbench.{'AB'[i]}")
        shutil.copy(b, dst)
        bins.append(dst)
    drives = args.drives or [
        l.split()[0] for l in subprocess.run([bins[0], "sim", "list"], capture_output=True,
                                             text=True, check=True).stdout.splitlines()
        if l.strip()]
    print(f"A = {args.bin_a}, B = {args.bin_b}; preset {args.preset}, scale {args.scale}; "
          f"databases in {out}")
    failed = []
    for d in drives:
        res = []
        for i, b in enumerate(bins):
            db = os.path.join(out, f"{d}.{'AB'[i]}.db")
            res.append((db,) + run(b, d, args, db))
        (da, rca, ca, _), (dbb, rcb, cb, _) = res
        print(f"{d}: CPU s A {ca:.1f} B {cb:.1f}")
        if rca or rcb:
            failed.append(d)
            print(f"{d}: a run failed")
            continue
        a, b = dump(da), dump(dbb)
        rows = sum(len(v[1]) for v in a.values())
        bad = compare(a, b, args.show)
        samples = len(a.get("samples", ([], []))[1])
        hists = len(a.get("histograms", ([], []))[1])
        if bad:
            failed.append(d)
            print(f"{d}: DIFFERENT ({bad} rows of {rows})")
        else:
            print(f"{d}: identical ({rows} rows: {samples} samples, {hists} histograms)")
    print("all identical" if not failed else "different or failed: " + " ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
