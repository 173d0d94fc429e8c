# Helpers of the report tests: headless Chromium and the checks every
# report gets.  Source after lib.sh; skips the test where gnuplot or
# Chromium is missing.  Screenshots go to tests/artefacts/.
ART=$(cd "$(dirname "$0")/../artefacts" && pwd)
command -v gnuplot >/dev/null || skip "gnuplot is not installed"
CHROME=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROME" ] || skip "chromium is not installed"

chrome() {
	local profile
	profile=$(mktemp -d "$TEST_TMP/chrome.XXXXXX")
	timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$profile" "$@"
}

# gp_label FILE.gp xlabel|ylabel: the label's text as the script sets it.
gp_label() { sed -n "s/^set $2 '\\(.*\\)'\$/\\1/p" "$1" | head -1 | sed "s/''/'/g"; }

# check_chart DIR STEM NAME: the chart's SVG, PNG, data and script are
# there and not empty, both axes have a label, and the SVG draws them.
check_chart() {
	local dir=$1 stem=$2 name=$3 ext xl yl
	for ext in svg png dat gp; do
		[ -s "$dir/$stem.$ext" ] || fail "$name: $stem.$ext missing or empty"
	done
	xl=$(gp_label "$dir/$stem.gp" xlabel)
	yl=$(gp_label "$dir/$stem.gp" ylabel)
	[ -n "$xl" ] || fail "$name: $stem has no x label"
	[ -n "$yl" ] || fail "$name: $stem has no y label"
	grep -qF -- "$xl" "$dir/$stem.svg" || fail "$name: $stem.svg does not draw '$xl'"
	grep -qF -- "$yl" "$dir/$stem.svg" || fail "$name: $stem.svg does not draw '$yl'"
}

# check_report DIR NAME: every chart on the page passes check_chart, and
# the page renders in Chromium with no console error and every image
# loaded; the screenshot is kept as tests/artefacts/report-NAME.png.
check_report() {
	local dir=$1 name=$2 n loaded img
	[ -s "$dir/index.html" ] || fail "$name: no index.html"
	n=$(grep -o '<img src="[^"]*"' "$dir/index.html" | wc -l)
	[ "$n" -gt 0 ] || fail "$name: no chart on the page"
	for img in $(grep -o '<img src="[^"]*"' "$dir/index.html" | sed 's/.*src="//; s/"$//'); do
		check_chart "$dir" "${img%.*}" "$name"
	done
	chrome --enable-logging=stderr --v=0 --virtual-time-budget=10000 \
		--dump-dom "file://$dir/index.html" >"$TEST_TMP/$name.dom" \
		2>"$TEST_TMP/$name.console" || fail "$name: chromium failed"
	if grep -q 'CONSOLE' "$TEST_TMP/$name.console"; then
		grep 'CONSOLE' "$TEST_TMP/$name.console"
		fail "$name: console messages"
	fi
	loaded=$(grep -o 'data-images="[0-9]*/[0-9]*"' "$TEST_TMP/$name.dom" | sed 's/.*="//; s/"//')
	[ "$loaded" = "$n/$n" ] || fail "$name: images loaded: '$loaded' of $n"
	chrome --screenshot="$ART/report-$name.png" --window-size=1280,8000 \
		"file://$dir/index.html" >/dev/null 2>&1 || fail "$name: screenshot"
	[ -s "$ART/report-$name.png" ] || fail "$name: empty screenshot"
	echo "$name: $n charts, all loaded"
}

# check_fits DIR NAME: in a 1280-pixel wide window no table reaches past
# the page's body (a long path or name wraps instead of pushing the runs
# table off the page).  Measured by Chromium on a copy of the page with a
# script that lists the tables wider than the body.
check_fits() {
	local dir=$1 name=$2 wide
	local js='<script>window.addEventListener("load", function () {
  var b = document.body.getBoundingClientRect(), out = [];
  var ts = document.querySelectorAll("table");
  for (var i = 0; i < ts.length; i++) {
    var r = ts[i].getBoundingClientRect();
    if (r.right > b.right + 1)
      out.push((ts[i].caption ? ts[i].caption.textContent : "table " + i) +
               " " + Math.round(r.width) + " px");
  }
  document.body.setAttribute("data-wide", out.join("; "));
});</script>'
	awk -v js="$js" '{ sub(/<\/body>/, js "</body>") } 1' "$dir/index.html" >"$dir/fits.html"
	wide=$(chrome --window-size=1280,1000 --virtual-time-budget=10000 \
		--dump-dom "file://$dir/fits.html" 2>/dev/null | grep -o 'data-wide="[^"]*"')
	rm -f "$dir/fits.html"
	[ "$wide" = 'data-wide=""' ] || fail "$name: tables wider than the page: ${wide:-no answer}"
}
