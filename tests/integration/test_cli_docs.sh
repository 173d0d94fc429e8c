#!/usr/bin/env bash
# The command line's own documentation: every command's --help, the
# manual page written from them (each command and each option --help
# lists must be in it, and it must render without warnings), the bash
# completion (commands, options, presets, sim: profiles), and
# `make install` putting all three in place under DESTDIR.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)

# plan's help names --describe, which prints every setting.
$SSDBENCH plan --help >"$TEST_TMP/help"
grep -q -- '--describe' "$TEST_TMP/help" || fail "plan --help lacks --describe"
$SSDBENCH plan --describe >"$TEST_TMP/describe"
grep -q '^\[rnd_precond\]  kind' "$TEST_TMP/describe" || fail "plan --describe"

# The manual page, from the binary under test.
"$root/scripts/gen-man.sh" "$SSDBENCH" >"$TEST_TMP/ssdbench.1" || fail "gen-man.sh"
man=$TEST_TMP/ssdbench.1
head -1 "$man" | grep -q '^\.TH SSDBENCH 1' || fail "no .TH header"
cmds=$($SSDBENCH --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
[ "$(wc -w <<<"$cmds")" -ge 12 ] || fail "commands from --help: $cmds"
for c in $cmds; do
	grep -q "^\.SS $c\$" "$man" || fail "man page lacks the command $c"
	for o in $($SSDBENCH "$c" --help 2>&1 | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
		grep -q -- "$o" "$man" || fail "man page lacks $c $o"
	done
done
if command -v groff >/dev/null; then
	warn=$(groff -man -ww -z "$man" 2>&1) || fail "groff failed: $warn"
	[ -z "$warn" ] || fail "groff warns: $warn"
else
	echo "groff is not installed: rendering not checked"
fi

# Completion, as bash calls it.
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ssdbench; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$root/share/ssdbench.bash-completion" "$@"
}
# completes WORD ARGS...: WORD is among the completions of ARGS.  The
# words are taken whole before the search: `grep -q` stops at the first
# match, and under pipefail the completion writing its next word into the
# closed pipe (SIGPIPE) would fail the check now and then.
completes() {
	local want=$1 got
	shift
	got=$(complete_words "$@") && grep -qx -- "$want" <<<"$got"
}
completes plan "$SSDBENCH" pl || fail "completion: command"
completes --describe "$SSDBENCH" plan --de || fail "completion: plan --describe"
completes --ramp "$SSDBENCH" run --ra || fail "completion: run --ramp"
completes full "$SSDBENCH" suite --preset f || fail "completion: preset"
completes sim:sn8100-2tb "$SSDBENCH" suite --target sim:sn || fail "completion: sim profile"
completes p4800x-375gb "$SSDBENCH" sim show p4 || fail "completion: sim show"

# make install under DESTDIR: binary, manual page, completion.
dest=$TEST_TMP/dest
make -C "$root" -s install DESTDIR="$dest" PREFIX=/usr >/dev/null || fail "make install"
[ -x "$dest/usr/bin/ssdbench" ] || fail "install: no binary"
[ -s "$dest/usr/share/man/man1/ssdbench.1" ] || fail "install: no manual page"
[ -s "$dest/usr/share/bash-completion/completions/ssdbench" ] || fail "install: no completion"
echo "cli docs: ok"
