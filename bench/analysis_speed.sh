#!/usr/bin/env bash
# Build and run the analysis speed benchmark against the release library.
#   bench/analysis_speed.sh
set -eu
cd "$(dirname "$0")/.."
make -j2 build/ssdbench >/dev/null
mkdir -p build/bench
cc -std=c11 -O2 -Isrc -Itests/unit -o build/bench/analysis_speed \
   bench/analysis_speed.c build/rel/libssdbench.a -lm
build/bench/analysis_speed
