#!/usr/bin/env bash
# Runs every libFuzzer harness of build/fuzz/bin for SECONDS each (make
# fuzz: 60; tests/run.sh: a few) on a corpus built fresh from
#   tests/fuzz/seeds/NAME/          small inputs taken from the tests,
#   ../shared/external/fio/         real fio logs, JSON and job files, when
#                                   that folder is there (never copied in),
#   the built binary                plan settings, every built-in profile,
#                                   and a real database for the store reader.
# A harness that crashes, leaks or trips a sanitizer fails; the input that
# did it is kept in build/fuzz/artifacts/.  Ends with one line
# "fuzz: N passed, N failed".
#
#   tests/fuzz/run.sh SECONDS [NAME]
set -u
cd "$(dirname "$0")/../.."
secs=${1:-60}
only=${2:-}
bin=build/fuzz/bin
ssdbench=${SSDBENCH_REL:-build/ssdbench}
ext=../shared/external/fio
work=build/fuzz/corpus
art=build/fuzz/artifacts
mkdir -p "$art"
passed=0 failed=0

seed() {	# seed NAME FILE...: copy into NAME's corpus
	local name=$1; shift
	mkdir -p "$work/$name"
	local f
	for f in "$@"; do [ -f "$f" ] && cp "$f" "$work/$name/" 2>/dev/null; done
	return 0
}

rm -rf "$work"
for d in tests/fuzz/seeds/*/; do
	n=$(basename "$d")
	seed "$n" "$d"*
done
seed ini tests/fuzz/seeds/plan/* tests/fuzz/seeds/jobfile/*
if [ -d "$ext" ]; then
	seed fio_json "$ext"/*.json
	seed fio_log "$ext"/*.log
	seed jobfile "$ext"/*.fio "$ext"/*.job
	seed ini "$ext"/*.fio "$ext"/*.job
else
	echo "fuzz: no $ext here: fio's files are not in the corpus"
fi
if [ -x "$ssdbench" ]; then
	mkdir -p "$work/profile" "$work/plan" "$work/set" "$work/store"
	for p in $("$ssdbench" sim list | awk '{print $1}'); do
		"$ssdbench" sim show "$p" >"$work/profile/$p.ini" 2>/dev/null
	done
	for preset in quick full; do
		"$ssdbench" plan --preset "$preset" --target sim:p1-1tb --settings \
			>"$work/set/$preset.txt" 2>/dev/null
	done
	db=$(mktemp -d)
	"$ssdbench" run --target sim:p1-1tb --size 64m --rw randrw --bs 4k --qd 2 \
		--time 300ms --name a --name b --db "$db/s.db" >/dev/null 2>&1 &&
		sqlite3 "$db/s.db" "pragma wal_checkpoint(truncate)" >/dev/null 2>&1 &&
		cp "$db/s.db" "$work/store/run.db"
	rm -rf "$db"
else
	echo "fuzz: no $ssdbench: profiles, plans and a database are not in the corpus"
fi

for f in "$bin"/fuzz_*; do
	[ -x "$f" ] || continue
	name=${f##*/fuzz_}
	[ -n "$only" ] && [ "$name" != "$only" ] && continue
	mkdir -p "$work/$name"
	log=$art/$name.log
	if "$f" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 -artifact_prefix="$art/$name-" \
		"$work/$name" >"$log" 2>&1; then
		passed=$((passed + 1))
		echo "fuzz $name: ok ($(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}') inputs in ${secs}s)"
	else
		failed=$((failed + 1))
		echo "fuzz $name: FAILED, last lines of $log:"
		grep -E 'ERROR|SUMMARY|#0 |#1 |#2 |#3 ' "$log" | head -12
	fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
