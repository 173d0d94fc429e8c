#!/usr/bin/env bash
# Simulator benchmarks: the speed goals and the acceptance table, both
# through the real engine.  Builds the release library first.
#
#   bench/sim.sh            speed, then the acceptance table at full scale
#   bench/sim.sh 0.1        the table at scale 0.1 (capacity-bound cells
#                           scale with it and may drift: use 1 to judge)
set -eu
cd "$(dirname "$0")/.."
make -s -j2 build/ssdbench
cc -std=c11 -D_GNU_SOURCE -O2 -Isrc -pthread -o build/sim_accept bench/sim_accept.c \
	build/rel/libssdbench.a $(pkg-config --libs liburing sqlite3) -lm
if [ $# -eq 0 ]; then
	build/sim_accept speed
fi
build/sim_accept "${1:-1}"
