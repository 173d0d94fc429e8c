#!/usr/bin/env bash
# Build and run the bulk-path agreement table (bench/bulk_agree.c) against
# the release library (LIB=path/libssdbench.a: another revision's build).
#   bench/bulk_agree.sh [-s SCALE] [-t SECONDS] [-r RAMP_S] [-m MIXES] [-q QDS] [DRIVE ...]
set -eu
cd "$(dirname "$0")/.."
lib=${LIB:-build/rel/libssdbench.a}
[ -n "${LIB:-}" ] || make -s -j2 build/ssdbench
mkdir -p build/bench
out=build/bench/bulk_agree${LIB:+.other}
cc -std=c11 -O2 -Wall -Wextra -Werror -Isrc -o "$out" bench/bulk_agree.c "$lib" $(pkg-config --libs liburing sqlite3) -lm -pthread
exec nice -n 5 "$out" "$@"
