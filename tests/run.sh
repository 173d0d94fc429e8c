#!/usr/bin/env bash
# Runs every test: the sanitizer-built unit test programs, then the
# integration scripts (real files, loop devices, zram, fio) against the
# sanitizer-built binary, then the VM tests (tests/vm/run.sh: QEMU NVMe,
# AHCI, device-mapper, md, null_blk behind a real kernel).  Ends with one
# line "tests: N passed, N failed, N skipped".
#
#   tests/run.sh            everything
#   tests/run.sh PATTERN    only unit programs / scripts whose name has PATTERN
#                           (vm_: only the VM tests, as `make test-vm`)
set -u
cd "$(dirname "$0")/.."
pattern=${1:-}
passed=0 failed=0 skipped=0
failures=()

export SSDBENCH=${SSDBENCH:-$PWD/build/san/ssdbench}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p tests/artefacts

for t in build/san/tests/test_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	[ -n "$pattern" ] && [[ $name != *$pattern* ]] && continue
	out=$("$t" 2>&1); rc=$?
	line=$(printf '%s\n' "$out" | grep -E '^[a-z_0-9-]+: [0-9]+ passed, [0-9]+ failed' | tail -1)
	p=$(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$line")
	f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")
	k=$(sed -nE 's/.* ([0-9]+) skipped.*/\1/p' <<<"$line")
	if [ -z "$line" ]; then p=0; f=1; fi
	skipped=$((skipped + ${k:-0}))
	if [ $rc -ne 0 ] && [ "${f:-0}" -eq 0 ]; then f=1; fi
	passed=$((passed + p)); failed=$((failed + f))
	if [ "$f" -ne 0 ]; then
		failures+=("$name"); printf '%s\n' "$out" | tail -40
	fi
	echo "unit $name: $p passed, $f failed, ${k:-0} skipped"
	[ "${k:-0}" -gt 0 ] && printf '%s\n' "$out" | grep '^  skip ' 
done

for s in tests/integration/test_*.sh; do
	[ -f "$s" ] || continue
	name=$(basename "$s" .sh)
	[ -n "$pattern" ] && [[ $name != *$pattern* ]] && continue
	log=tests/artefacts/$name.log
	start=$(date +%s)
	bash "$s" >"$log" 2>&1; rc=$?
	secs=$(( $(date +%s) - start ))
	case $rc in
	0) passed=$((passed + 1)); echo "integration $name: ok (${secs}s)" ;;
	77) skipped=$((skipped + 1)); echo "integration $name: skipped: $(tail -1 "$log")" ;;
	*) failed=$((failed + 1)); failures+=("$name")
	   echo "integration $name: FAILED (${secs}s), last lines of $log:"; tail -30 "$log" ;;
	esac
done

# Each fuzzer for a few seconds under ASan/UBSan (make fuzz runs them
# longer); missing fuzzers (no clang here) are a skip, not a pass.
if [ -z "$pattern" ] || [[ fuzz == *$pattern* ]]; then
	if ls build/fuzz/bin/fuzz_* >/dev/null 2>&1; then
		out=$(tests/fuzz/run.sh "${FUZZ_TEST_SECONDS:-3}" 2>&1)
		printf '%s\n' "$out" | grep -v '^fuzz: [0-9]* passed'
		fp=$(sed -nE 's/^fuzz: ([0-9]+) passed.*/\1/p' <<<"$out")
		ff=$(sed -nE 's/^fuzz: .* ([0-9]+) failed.*/\1/p' <<<"$out")
		passed=$((passed + ${fp:-0})); failed=$((failed + ${ff:-1}))
		[ "${ff:-1}" -ne 0 ] && failures+=(fuzz)
	else
		skipped=$((skipped + 1)); echo "fuzz: skipped: no build/fuzz/bin (make fuzz-build)"
	fi
fi

# The VM tests (tests/vm/): one guest boots for all that match; each counts
# as its own test, skipped with the reason when qemu or a kernel is missing.
tests/vm/run.sh "$pattern" 2>&1 | tee tests/artefacts/vm-run.log
while read -r _ name verdict; do
	name=${name%:}
	case $verdict in
	ok*) passed=$((passed + 1)) ;;
	skipped*) skipped=$((skipped + 1)) ;;
	FAILED*) failed=$((failed + 1)); failures+=("$name") ;;
	esac
done < <(grep -E '^vm test_vm_[a-z0-9_]+: ' tests/artefacts/vm-run.log)

[ ${#failures[@]} -gt 0 ] && echo "failed: ${failures[*]}"
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
