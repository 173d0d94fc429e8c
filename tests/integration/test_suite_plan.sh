#!/usr/bin/env bash
# Plans: printed with estimates; bad plan files and settings are refused
# with file, line and reason before anything touches the target.
. "$(dirname "$0")/lib.sh"

target=$TEST_TMP/target.img
db=$TEST_TMP/r.db

# The reviewer's plan for a simulated 2 TB drive: every step, its settings.
$SSDBENCH plan --preset full --target sim:sn8100-2tb >"$TEST_TMP/plan.txt"
grep -q "fill drive" "$TEST_TMP/plan.txt" || fail "plan lacks the fill step"
grep -q "passes=2 share=100% bs=128KiB qd=256" "$TEST_TMP/plan.txt" || fail "fill settings missing"
grep -q "idles=5s,10s,15s,30s,60s,120s,240s" "$TEST_TMP/plan.txt" || fail "reclaim idles missing"
grep -q "^total: 16 steps" "$TEST_TMP/plan.txt" || fail "plan total: $(tail -1 "$TEST_TMP/plan.txt")"

# A simulated drive's options apply to the plan: at scale=0.01 the 2 TB
# drive has 20 GB, and a span that fits the full drive is
# refused on the scaled one.
$SSDBENCH plan --preset full --target sim:sn8100-2tb,scale=0.01 >"$TEST_TMP/scaled.txt"
grep -q "^plan: preset full on sim:sn8100-2tb,scale=0.01 (20.0 GB," "$TEST_TMP/scaled.txt" ||
	fail "scaled target: $(head -1 "$TEST_TMP/scaled.txt")"
$SSDBENCH plan --preset full --target sim:sn8100-2tb --set sync_write.span=30GiB >/dev/null ||
	fail "a 30 GiB span refused on the full-size drive"
expect_fail "span over a scaled drive" $SSDBENCH plan --preset full \
	--target sim:sn8100-2tb,scale=0.01 --set sync_write.span=30GiB
grep -q "larger than the target" <<<"$LAST_ERR" || fail "scaled span: $LAST_ERR"

# --settings prints a plan file that reads back to the same plan.
$SSDBENCH plan --preset quick --target sim:sn8100-2tb --set fill.share=30% --settings >"$TEST_TMP/a.txt"
grep -q "^fill.share=30%$" "$TEST_TMP/a.txt" || fail "--settings lacks the --set value"

check_refused() { # what plan-text expected-words...
	local what=$1 text=$2; shift 2
	printf '%s' "$text" >"$TEST_TMP/bad.ini"
	rm -f "$target" "$db"
	expect_fail "$what" $SSDBENCH suite --target "$target" --size 64m --preset quick \
		--plan "$TEST_TMP/bad.ini" --db "$db"
	for w in "$@"; do
		grep -qF -- "$w" <<<"$LAST_ERR" || fail "$what: message lacks '$w': $LAST_ERR"
	done
	[ ! -e "$target" ] || fail "$what: the target was created before the plan was checked"
	[ ! -e "$db" ] || fail "$what: a database was created before the plan was checked"
}
check_refused "unknown step" $'[fill]\npasses=1\n\n[fil]\n' "bad.ini:4" "unknown step 'fil'"
check_refused "unknown key" $'# x\n[fill]\npases=1\n' "bad.ini:3" "no parameter 'pases'"
check_refused "bad value" $'[fill]\nshare=150%\n' "bad.ini:2" "150%"
check_refused "impossible order" $'[suite]\nsteps=purge,active_range,fill\n' "bad.ini:2" "impossible order"
check_refused "inconsistent values" $'[rw_ratio]\nqds=1,2\n' "bad.ini:2" "one weight per queue depth"
check_refused "too large for the target" $'[sync_write]\nspan=1GiB\n' "bad.ini:2" "larger than the target"

expect_fail "bad --set" $SSDBENCH suite --target "$target" --size 64m --preset quick --set fill.qd=0 --db "$db"
grep -q "fill.qd=0" <<<"$LAST_ERR" || fail "--set message: $LAST_ERR"
expect_fail "unknown preset" $SSDBENCH plan --preset fastest --target sim:sn8100-2tb
grep -q "cssd, essd, full, full-scaled, quick" <<<"$LAST_ERR" || fail "preset message: $LAST_ERR"
# steady state's own sample spacing is a setting, shown with its default
"$SSDBENCH" plan --describe > "$TEST_TMP/describe.txt"
grep -Eq "^  ss_interval +duration +1s .*ss_interval" "$TEST_TMP/describe.txt" || fail "plan --describe lacks ss_interval"
"$SSDBENCH" plan --preset full --target sim:sn8100-2tb --set seq_precond.ss_interval=20s >/dev/null 2>"$TEST_TMP/err.txt" &&
	fail "an ss_interval above half the window was accepted"
grep -q "ss_interval (20s)" "$TEST_TMP/err.txt" || fail "ss_interval refusal: $(cat "$TEST_TMP/err.txt")"
echo ok
