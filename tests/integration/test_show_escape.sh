#!/usr/bin/env bash
# Stored text reaches the terminal as text: a target name, a step name, an
# error and a workload name holding an ESC sequence and a newline print
# escaped (\x1b, \n) in `show`, `show N` and the summary of `run`, so a
# database someone hands you cannot recolour, move the cursor or fake lines.
source "$(dirname "$0")/lib.sh"
cd "$TEST_TMP"
esc=$'\e'
hostile="x${esc}[31mred${esc}]0;title${esc}\\"$'\n'"fake line"
want='x\x1b[31mred\x1b]0;title\x1b\\\nfake line'

# no raw control byte but the line ends; the escaped form is there
clean() {
	! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$1" || fail "$2: a raw control byte reached the terminal"
	grep -qF -- "$want" "$1" || fail "$2: the name is not shown escaped"
	! grep -qx 'fake line' "$1" || fail "$2: the newline in the name started a line"
}

# run's summary: the target is a file whose name holds the sequence
target="$TEST_TMP/$hostile"
"$SSDBENCH" run --target "$target" --size 4M --rw write --bs 64k \
	--time 1s --db run.db >run.txt 2>&1 || { cat run.txt; fail "run"; }
cat -v run.txt
clean run.txt "run summary"

"$SSDBENCH" show --db run.db >list.txt || fail "show"
cat -v list.txt
clean list.txt "show"

# a hand-edited database: every text show prints
sqlite3 run.db "UPDATE runs SET error = target, command_line = target, status = 'failed';
	UPDATE workloads SET name = (SELECT target FROM runs WHERE id = 1);" ||
	fail "editing the database"
"$SSDBENCH" show 1 --db run.db >one.txt || fail "show 1"
cat -v one.txt
clean one.txt "show 1"
[ "$(grep -cF -- "$want" one.txt)" -ge 4 ] || fail "show 1: target, command, error and workload name all escaped"
exit 0
