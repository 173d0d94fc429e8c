# The colour every device has in the charts of a report, read from the
# SVGs gnuplot drew: each legend entry's text and the colour of its sample.
# A device must have one colour on every chart, and no two devices the
# same; in the scripts, the DUT (the first label) is plotted last, on top.
#   python3 svg_colours.py DIR DUT_LABEL COMPARISON_LABEL...
import glob, html, re, sys
d, labels = sys.argv[1], sys.argv[2:]
seen = {}   # device -> {colour: [charts]}
charts_with = 0
for svg in sorted(glob.glob(d + "/*.svg")):
    s = open(svg).read()
    for g in s.split('<g id="gnuplot_plot_')[1:]:
        t = re.search(r"<text>(.*?)</text>", g)
        if not t:
            continue
        title = html.unescape(t.group(1))
        dev = max((l for l in labels if title == l or
                   (title.startswith(l) and title[len(l)] in " ,:(")), key=len, default=None)
        if not dev:
            continue
        c = re.search(r"(?:color|stroke)='(rgb\([^)]*\))'", g[t.end():])
        if not c:
            continue
        seen.setdefault(dev, {}).setdefault(re.sub(r"\s", "", c.group(1)), []).append(svg.split("/")[-1])
for dev, cols in seen.items():
    print(dev, {k: len(v) for k, v in cols.items()})
    assert len(cols) == 1, (dev, {k: v[:3] for k, v in cols.items()})
assert len(seen) == len(labels), ("devices without a legend entry", set(labels) - set(seen))
colours = [next(iter(c)) for c in seen.values()]
assert len(set(colours)) == len(colours), ("two devices share a colour", seen.keys(), colours)

# The DUT over the others: its series is the last one plotted (bars sit
# side by side and keep the devices' order).
for gp in sorted(glob.glob(d + "/*.gp")):
    script = open(gp).read()
    if "set style data histograms" in script:
        continue
    titles = re.findall(r'title "((?:[^"\\]|\\.)*)"', script)
    devs = [t for t in titles if any(t == l or t.startswith(l + " ") for l in labels)]
    if any(t.startswith(labels[0]) for t in devs) and any(not t.startswith(labels[0]) for t in devs):
        assert devs[-1].startswith(labels[0]), ("DUT not on top", gp, devs)
