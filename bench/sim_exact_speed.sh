#!/usr/bin/env bash
# Build and run the exact-stream speed benchmark against the release library
# (LIB=path/libssdbench.a: another revision's build, for comparison).
#   bench/sim_exact_speed.sh [-s SCALE] [-t SECONDS] [-w STREAMS] [DRIVE ...]
set -eu
cd "$(dirname "$0")/.."
lib=${LIB:-build/rel/libssdbench.a}
[ -n "${LIB:-}" ] || make -s -j2 build/ssdbench
mkdir -p build/bench
out=build/bench/sim_exact_speed${LIB:+.other}
cc -std=c11 -O2 -Isrc -o "$out" bench/sim_exact_speed.c "$lib" -lm
"$out" "$@"
