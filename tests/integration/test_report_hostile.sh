#!/usr/bin/env bash
# Hostile text reaches the report only as text.  gnuplot runs `cmd` inside
# double-quoted strings and `system "cmd"` on any line, and a browser runs
# <script>; names come from the command line, from a drive's firmware and
# from databases other people hand over.  So hostile strings (backquotes,
# newlines, system, quotes, backslashes, HTML tags, a very long one,
# invalid UTF-8) go into every field that reaches the report, once through
# the command line and once by editing every text column and every JSON
# string of a database by hand.  The report must succeed, show the text
# escaped, and create no file the strings ask for.
. "$(dirname "$0")/lib.sh"
command -v gnuplot >/dev/null || skip "gnuplot is not installed"
cd "$TEST_TMP"
S=$SSDBENCH

# The first has an '=' (a step's workload names look like "mix=70 qd=1"):
# as a plain run's name it is still the user's name, shown on the labels
# in full and escaped.
# Each string asks to create a file named pwnedN in the current directory
# (the report's gnuplot runs there) or in $TEST_TMP.
long=$(printf 'L%.0s' $(seq 1 5000))
H=(
	"k=v <script>document.write('pwned6')</script><b>tag</b>&amp;"
	"bq\`touch $TEST_TMP/pwned1\`bq"
	$'nl\nsystem "touch '"$TEST_TMP"$'/pwned2"\n# '
	"q\"; system \"touch $TEST_TMP/pwned3\"; \"q"
	"bs\\\" . system(\"touch $TEST_TMP/pwned4\") . \"\\"
	"sq' . system('touch $TEST_TMP/pwned5') . 'sq"
	"at@x \$(touch $TEST_TMP/pwned7) \${x}"
	$'cr\rmid\ttab\x01ctl'
	"$long"
	$'bad\xff\xfe\xc3utf8\xe2\x82'
)

no_pwn() {
	local found
	found=$(find "$TEST_TMP" -name 'pwned*' | head -1)
	[ -z "$found" ] || fail "$1: a hostile string created $found"
}

# check_page DIR WHAT: the page and every chart exist, no raw tag from a
# string is on the page, and no chart script has a backquote or a line
# that a string started.
check_page() {
	local dir=$1 what=$2
	[ -s "$dir/index.html" ] || fail "$what: no index.html"
	no_pwn "$what"
	grep -q "<script>document" "$dir/index.html" && fail "$what: raw <script> from data on the page"
	grep -q "<b>tag</b>" "$dir/index.html" && fail "$what: raw <b> from data on the page"
	grep -q "&lt;b&gt;tag&lt;/b&gt;" "$dir/index.html" || fail "$what: the tag is not shown as text"
	local gp n=0
	for gp in "$dir"/*.gp; do
		[ -e "$gp" ] || continue
		n=$((n + 1))
		grep -q '`' "$gp" && fail "$what: backquote in $(basename "$gp")"
		grep -Eq '^[[:space:]]*system' "$gp" && fail "$what: a system line in $(basename "$gp")"
		grep -q $'\r' "$gp" && fail "$what: carriage return in $(basename "$gp")"
		[ -s "${gp%.gp}.svg" ] || fail "$what: $(basename "$gp") drew nothing"
	done
	[ "$n" -gt 0 ] || fail "$what: no chart"
	# Re-running a script by hand, as its comment invites, is safe too.
	(cd "$dir" && for gp in *.gp; do gnuplot "$gp" >/dev/null 2>&1; done) || true
	no_pwn "$what (gnuplot re-run by hand)"
	echo "$what: $n charts, nothing created"
}

# 1. Through the command line: workload names and a target file's path.
i=0
for h in "${H[@]}"; do
	i=$((i + 1))
	name=${h:0:60}
	$S run --target "sim:p1-1tb" --size 64m --rw randread --bs 4k --qd 2 \
		--time 300ms --name "$name" --db cli.db >/dev/null 2>&1 ||
		fail "run with hostile name $i"
done
mkdir files
tgt="files/t\`touch pwned8\`"$'\nsystem "touch pwned9"'
$S run --target "$tgt" --size 16m --rw randread --bs 4k --qd 2 --time 300ms \
	--name "${H[2]:0:60}" --db cli.db >/dev/null 2>&1 ||
	fail "run on a file with a hostile path"
no_pwn "runs"
compares=()
for n in $(seq 2 $((i + 1))); do compares+=(--compare "$n"); done
$S report 1 "${compares[@]}" --db cli.db --out "$TEST_TMP/cli" >/dev/null ||
	fail "report of the hostile names failed"
check_page "$TEST_TMP/cli" "command line"
# The first name on the labels of its run: whole, escaped, after what ran.
grep -qF "RND 4 KiB read (k=v &lt;script&gt;document.write(&#39;pwned6&#39;)&lt;/script&gt;&lt;b&gt;tag&lt;/b&gt;&amp;amp;)" \
	"$TEST_TMP/cli/index.html" || fail "the name with '=' is not on its labels"

# 2. Through a hand-edited database: a simulated review, then every text
#    column and every string inside the JSON columns replaced by a hostile
#    string (a step's kind and the fields that say what a row is are kept,
#    so the sections that draw charts still draw them).
$S suite --target sim:p1-1tb --preset quick --db db.db >/dev/null 2>&1 ||
	fail "suite on sim:p1-1tb"
$S run --target sim:p1-1tb --size 64m --rw randrw --bs 4k --qd 2 --time 300ms \
	--db db.db >/dev/null 2>&1 || fail "plain run"
python3 - db.db "${H[@]}" <<'EOF'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.text_factory = bytes
hostile = [s.encode('utf-8', 'surrogateescape') for s in
           (a for a in sys.argv[2:])]
# Fields whose value the program reads as a word of its own vocabulary
# (a kind, a status, a time stamp, a direction, a metric's key): a hostile
# one there is refused or ignored, not drawn, so they stay.
keep_cols = {'kind', 'status', 'started_at', 'finished_at', 'recorded_at',
             'phase', 'direction', 'key', 'mode', 'engine_mode'}
keep_json = {'kind', 'rw', 'pattern', 'method', 'rule', 'track', 'plan',
             'unit', 'engine', 'mode', 'direction', 'status', 'ioengine'}
n = [0]
def pick():
    n[0] += 1
    return hostile[n[0] % len(hostile)]
def walk(v, key=None):
    if isinstance(v, dict):
        return {k: walk(x, k) for k, x in v.items()}
    if isinstance(v, list):
        return [walk(x, key) for x in v]
    if isinstance(v, str) and key not in keep_json:
        return pick().decode('utf-8', 'surrogateescape')
    return v
for (table,) in db.execute("select name from sqlite_master where type='table'"):
    table = table.decode()
    cols = [(r[1].decode(), r[2].decode().upper()) for r in
            db.execute(f"pragma table_info({table})")]
    for col, typ in cols:
        if typ != 'TEXT' or col in keep_cols:
            continue
        rows = db.execute(f"select rowid, {col} from {table}").fetchall() \
            if not table in ('target_facts',) else \
            db.execute(f"select run_id || '/' || phase, {col} from {table}").fetchall()
        for rid, val in rows:
            if val is None:
                continue
            if col.endswith('_json'):
                try:
                    doc = json.loads(val.decode('utf-8', 'surrogateescape'))
                except ValueError:
                    continue
                new = json.dumps(walk(doc), ensure_ascii=False).encode(
                    'utf-8', 'surrogateescape')
            else:
                new = pick()
            if table == 'target_facts':
                run, phase = rid.decode().split('/')
                db.execute(f"update {table} set {col}=? where run_id=? and phase=?",
                           (new, int(run), phase))
            else:
                db.execute(f"update {table} set {col}=? where rowid=?", (new, rid))
db.commit()
EOF
no_pwn "editing the database"
$S show --db db.db >/dev/null || fail "show of the edited database"
$S report 1 --compare 2 --db db.db --out "$TEST_TMP/db" >/dev/null ||
	fail "report of the edited database failed"
check_page "$TEST_TMP/db" "hand-edited database"
echo ok
