#!/usr/bin/env bash
# The Debian package: `dpkg-buildpackage -us -uc -b` on a copy of the source
# builds a .deb that holds every file `make install` installs (under /usr)
# and the documentation, declares its library dependencies, installs with
# dpkg, and the installed binary answers `ssdbench version` and runs the
# demo (three simulated quick reviews and their report).  The package is
# removed again at the end unless it was installed before.
. "$(dirname "$0")/lib.sh"
need_root
command -v dpkg-buildpackage >/dev/null || skip "dpkg-dev is not installed"
[ -x /usr/bin/dh ] || skip "debhelper is not installed"
repo=$(cd "$(dirname "$0")/../.." && pwd)
src=$TEST_TMP/pkg/ssdbench
mkdir -p "$src"
# the tracked and new files, not build/ or other leftovers
(cd "$repo" && git ls-files -co --exclude-standard 2>/dev/null || find . -path ./build -prune -o -type f -print) |
	(cd "$repo" && tar -cf - -T -) | tar -xf - -C "$src"
[ -f "$src/debian/control" ] || fail "no debian/ in the source"

(cd "$src" && dpkg-buildpackage -us -uc -b -j2) >"$TEST_TMP/build.log" 2>&1 ||
	{ tail -30 "$TEST_TMP/build.log"; fail "dpkg-buildpackage failed"; }
deb=$(ls "$TEST_TMP"/pkg/ssdbench_*_*.deb | head -1)
[ -s "$deb" ] || fail "no .deb built"
echo "built $(basename "$deb")"

# What make install installs, and what the package holds.
(cd "$src" && make install DESTDIR="$TEST_TMP/mi" PREFIX=/usr) >/dev/null 2>&1 ||
	fail "make install into a staging folder failed"
(cd "$TEST_TMP/mi" && find . -type f | sed 's|^\.||' | sort) >"$TEST_TMP/want"
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\.||' >"$TEST_TMP/have"
while read -r f; do
	# Debian's tools compress manual pages (policy 12.1): ssdbench.1 ships
	# as ssdbench.1.gz.
	case $f in /usr/share/man/*) grep -qx "$f.gz" "$TEST_TMP/have" && continue ;; esac
	grep -qx "$f" "$TEST_TMP/have" || fail "make install installs $f, the package lacks it"
done <"$TEST_TMP/want"
grep -q '^/usr/share/doc/ssdbench/README.md' "$TEST_TMP/have" || fail "no README in the package"
deps=$(dpkg-deb -f "$deb" Depends)
for lib in liburing libsqlite3 libjansson; do
	grep -q "$lib" <<<"$deps" || fail "Depends lacks $lib: $deps"
done
echo "Depends: $deps"

was_installed=0
dpkg -s ssdbench >/dev/null 2>&1 && was_installed=1
dpkg -i "$deb" >"$TEST_TMP/install.log" 2>&1 || { cat "$TEST_TMP/install.log"; fail "dpkg -i failed"; }
[ "$was_installed" = 1 ] || trap 'dpkg -r ssdbench >/dev/null 2>&1 || true; cleanup' EXIT
[ -x /usr/bin/ssdbench ] || fail "no /usr/bin/ssdbench after dpkg -i"
/usr/bin/ssdbench version || fail "ssdbench version"
SSDBENCH=/usr/bin/ssdbench DEMO_DIR="$TEST_TMP/demo" bash "$src/scripts/demo.sh" ||
	fail "the demo with the installed binary"
[ -s "$TEST_TMP/demo/report/index.html" ] || fail "the demo made no report"
echo ok
