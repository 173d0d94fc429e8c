#!/usr/bin/env bash
# The demo's fill step, as the demo runs it: an SN8100 miniature (scale
# 0.1, 10 ms samples, the full-scaled preset), purge, peak, then the two
# fill passes.  Pass 2 writes to a full drive, so its cache is the static
# SLC alone, shorter than a stage of the analysis (8 samples of 5000).
# Its stored figures must be the drive's configured truth, read from
# `sim show`: slc_static_gb x scale, at w_slc_gbs within 3 sd of the
# profile's sequential noise (sigma_seq).
source "$(dirname "$0")/lib.sh"
S=$SSDBENCH
db=$TEST_TMP/f.db
$S suite --target "sim:sn8100-2tb,scale=0.1,t_idle_enter_ms=5" --preset full-scaled \
	--only purge,peak,fill --db "$db" >"$TEST_TMP/out" 2>&1 ||
	fail "suite: $(tail -5 "$TEST_TMP/out")"
$S sim show sn8100-2tb >"$TEST_TMP/profile" || fail "sim show"
$S export last --db "$db" --json --summary >"$TEST_TMP/run.json" || fail "export"
python3 - "$TEST_TMP/profile" "$TEST_TMP/run.json" <<'PY' || fail "pass 2's cache is not the configured one"
import json, re, sys
prof, empty_gb = {}, None
for line in open(sys.argv[1]):
    h = re.search(r'SLC cache: ([0-9.]+) GB on an empty drive', line)
    if h:
        empty_gb = float(h.group(1))
    m = re.match(r'^(\w+)\s*=\s*([0-9.]+)', line)
    if m:
        prof[m.group(1)] = float(m.group(2))
scale = 0.1
m = {x["key"]: x["value"] for x in json.load(open(sys.argv[2]))["metrics"]}
for k in (2,):
    p = f"fill.pass{k}."
    assert m[p + "has_slc_cache"] == 1, f"pass {k}: no cache found"
    gb, truth = m[p + "slc_cache_gb"], prof["slc_static_gb"] * scale
    assert abs(gb / truth - 1) <= 0.05, (gb, truth)
    speed, want = m[p + "slc_speed_mbps"] / 1e3, prof["w_slc_gbs"]
    assert abs(speed / want - 1) <= 3 * prof["sigma_seq"], (speed, want)
    assert m[p + "slc_cache_start_gb"] == 0
    print(f"pass {k}: {gb:.3f} GB (configured {truth:.3f}) at {speed:.2f} GB/s")
# pass 1: the whole cache of an empty drive, as `sim show` works it out
assert abs(m["fill.pass1.slc_cache_gb"] / (empty_gb * scale) - 1) <= 0.02, \
    (m["fill.pass1.slc_cache_gb"], empty_gb)
PY
echo ok
