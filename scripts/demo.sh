#!/usr/bin/env bash
# The main job: a short benchmark on a scratch file, stored in demo/ssdbench.db.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p demo
build/ssdbench run --target demo/scratch.img --size 256m --rw randread --bs 4k --qd 32 \
	--time 5s --db demo/ssdbench.db
