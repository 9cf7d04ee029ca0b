#!/bin/bash
# test_e2e_report_charts: the latency charts of a real run with two client hosts, two storage
# nodes, a mixed read/write step and a queue-depth sweep: report.html renders in headless
# Chromium with every chart present and drawn, a screenshot that is not blank; the same charts
# are standalone SVG files (well-formed XML) that deploy/charts-png.sh turns into PNGs; read and
# write are shown apart in summary.md, report.html and on the terminal.
. "$(dirname "$0")/lib.sh"

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || {
	echo "skip: chromium not installed (Debian package chromium; deploy/install-deps.sh)"
	exit 77
}
chrome() {
	local err=$1 prof
	shift
	prof=$(mktemp -d "$T/chrome.XXXXXX")
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
		--enable-logging=stderr --v=0 "$@" 2>"$err"
}

cat >"$T/p.json" <<JSON
{
  "name": "e2e-charts",
  "agents": [{"name": "a1", "endpoint": "local"}, {"name": "a2", "endpoint": "local"}],
  "nodes": [{"name": "n1"}, {"name": "n2"}],
  "volumes": [
    {"agent": "a1", "path": "v0.dat", "size": "16m", "node": "n1"},
    {"agent": "a2", "path": "v0.dat", "size": "16m", "node": "n2"}
  ],
  "steps": [{"name": "mix", "rw": "randrw", "rwmixread": 70, "bs": "4k", "iodepth": 4,
             "ramp": "1s", "runtime": "3s"},
            {"name": "qd", "rw": "randread", "bs": "4k", "runtime": "2s",
             "sweep": {"iodepth": [1, 2, 4]}}]
}
JSON
"$COORD" run -o "$T/out" "$T/p.json" >"$T/run.out" 2>&1 || {
	cat "$T/run.out"
	fail "bench-coord run failed"
}
R=$(run_dir "$T/out")

# the terminal: the mixed step's total has read and write rows, the read-only steps none
awk '/^step mix:/{m=1} /^step qd/{m=0} m' "$T/run.out" >"$T/mix.out"
grep -qE '^    read +[0-9]' "$T/mix.out" && grep -qE '^    write +[0-9]' "$T/mix.out" ||
	fail "no read/write rows under the mixed step's total: $(cat "$T/mix.out")"
if awk '/^step qd/{m=1} m' "$T/run.out" | grep -qE '^    (read|write) +[0-9]'; then
	fail "read/write rows for a read-only step"
fi

# summary.md: the read/write table agrees with run.json for the total and every agent
python3 - "$R" "$BC_SRC/tests/e2e" <<'PY' || fail "summary.md read/write rows disagree with run.json"
import json, sys
sys.path.insert(0, sys.argv[2])
import reportlib
d = sys.argv[1]
r = json.load(open(d + "/run.json"))
md = open(d + "/summary.md").read()
sect = md[md.index("### Ops apart"):]
sect = sect[:sect.index("\n\n", sect.index("|---"))]
rows = {tuple(c.strip() for c in l.strip("|").split("|")[:3]): l for l in sect.splitlines()[4:]}
st = r["steps"][0]
ents = [("total", st["total"])] + [("agent " + a["name"], a) for a in st["agents"]] + \
       [("node " + n["name"], n) for n in st["nodes"]]
for who, e in ents:
    for op in ("read", "write"):
        line = rows.get(("mix", who, op))
        assert line, "no row for %s %s" % (who, op)
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert abs(reportlib.count(cells[3]) - e[op]["iops"]) <= 0.5, (who, op, cells[3], e[op]["iops"])
        assert reportlib.lat_agrees(cells[7], e[op]["lat_us"]["p99"]), (who, op, cells[7])
assert not any(k[0].startswith("qd") for k in rows), "a read-only step in the read/write table"
print("read/write rows: %d, recomputed" % len(rows))
PY

# the charts run.json calls for, in report.html and as files
python3 - "$R" >"$T/want" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1] + "/run.json"))
for i, s in enumerate(r["steps"]):
    base = "s%d-%s-" % (i, re.sub(r"[^A-Za-z0-9._-]", "_", s["name"]))
    mixed = all(s["total"].get(op, {}).get("ios", 0) > 0 for op in ("read", "write"))
    for lvl in ("total", "agent", "node"):
        for k in ("hist", "pct"):
            print(base + "lat-%s-%s" % (k, lvl))
    for h in (("lat-heat-read", "lat-heat-write") if mixed else ("lat-heat",)):
        print(base + h)
sweeps = [s for s in r["steps"] if "sweep" in s]
for k, s in enumerate(sweeps):
    for what in ("throughput", "latency", "latency-vs-throughput"):
        print("sweep%d-%s-%s" % (k, re.sub(r"[^A-Za-z0-9._-]", "_", s["sweep_of"]), what))
PY
[ "$(wc -l <"$T/want")" -eq 32 ] || fail "expected 32 charts for 4 steps, listed $(wc -l <"$T/want")"
chrome "$T/dom.err" --dump-dom "file://$R/report.html" >"$T/dom" || fail "chromium --dump-dom failed"
if grep ':CONSOLE' "$T/dom.err"; then
	fail "console messages while loading report.html"
fi
python3 - "$T/want" "$T/dom" "$R/charts" <<'PY' || fail "charts missing or empty"
import os, re, sys, xml.etree.ElementTree as ET
want = open(sys.argv[1]).read().split()
dom = open(sys.argv[2]).read()
svgs = dict(re.findall(r'<svg[^>]*data-chart="([^"]+)"[^>]*>(.*?)</svg>', dom, re.S))
missing = [w for w in want if w not in svgs]
assert not missing, "missing from report.html: %s" % missing
for w in want:
    body = svgs[w]
    lines = [p for p in re.findall(r'<polyline[^>]*points="([^"]*)"', body) if len(p.split()) >= 2]
    if "lat-heat" in w:
        # one <path> per shade, a subpath ("M x y h v h z") per cell
        paths = re.findall(r'<path[^>]*fill-opacity="([0-9.]+)"[^>]*d="([^"]*)"', body)
        cells = sum(len(re.findall(r"M[-0-9.]+ [-0-9.]+h[-0-9.]+v[-0-9.]+h[-0-9.]+z", d)) for _, d in paths)
        assert cells >= 10, "heatmap %s has %d cells" % (w, cells)
        shades = [float(o) for o, _ in paths]
        assert len(set(shades)) == len(shades) and all(0 < o <= 1 for o in shades), \
            "heatmap %s: shades repeat or out of range: %s" % (w, shades)
    else:
        assert lines, "chart %s draws no line" % w
    if "lat-hist-agent" in w or "lat-pct-agent" in w:
        assert len(lines) == 2 and ">a1<" in body and ">a2<" in body, "%s: not one line per agent" % w
    if w.endswith("-lat-hist-total") and w.startswith("s0-"):
        assert ">read<" in body and ">write<" in body and len(lines) == 2, "mixed step: read and write not apart"
    if w.startswith("sweep"):
        # 3 points a line, dotted; the knee a dashed line (against the swept value) or a ring
        assert len(re.findall(r"<circle", body)) >= 3 * len(lines), "%s: points not marked" % w
        assert 'class="mark"' in body or 'r="7"' in body, "%s: no knee marked" % w
    # the same chart as a standalone file, well-formed SVG
    path = os.path.join(sys.argv[3], w + ".svg")
    root = ET.parse(path).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg", (path, root.tag)
assert len([f for f in os.listdir(sys.argv[3]) if f.endswith(".svg")]) == len(want), "extra chart files"
print("%d charts present and drawn, each also a standalone SVG" % len(want))
PY

# a screenshot of the page is not blank; a crop of the latency charts section neither
chrome "$T/shot.err" --screenshot="$T/report.png" --window-size=1400,9000 "file://$R/report.html" \
	>/dev/null || fail "screenshot failed"
stats=$(python3 "$BC_SRC/tests/e2e/pngtool.py" stats "$T/report.png")
echo "report.html: $stats"
python3 -c "
import sys; f = dict(zip(sys.argv[1::2], sys.argv[2::2]))
sys.exit(0 if float(f['stddev']) > 10 and int(f['colours']) > 30 else 1)" $stats ||
	fail "the screenshot looks blank ($stats)"

# PNG files from two of the SVGs (deploy/charts-png.sh; each Chromium start takes seconds)
mkdir -p "$T/png/charts"
cp "$R/charts/$(sed -n 1p "$T/want").svg" "$R/charts/$(grep -m1 lat-heat-read "$T/want").svg" \
	"$T/png/charts/"
"$BC_SRC/deploy/charts-png.sh" "$T/png" >"$T/png.out" || fail "charts-png.sh failed"
[ "$(ls "$T/png/charts/"*.png | wc -l)" -eq 2 ] || fail "charts-png.sh made $(ls "$T/png/charts" | wc -l) files"
for p in "$T/png/charts/"*.png; do
	s=$(python3 "$BC_SRC/tests/e2e/pngtool.py" stats "$p")
	echo "$(basename "$p"): $s"
	python3 -c "
import sys; f = dict(zip(sys.argv[1::2], sys.argv[2::2]))
sys.exit(0 if f['width'] == '520' and float(f['stddev']) > 10 else 1)" $s || fail "$p: blank or wrong size ($s)"
done
[ -n "${BC_KEEP_SHOTS:-}" ] && cp "$T/report.png" "$T/png/charts/"*.png "$BC_KEEP_SHOTS/"
echo "PASS"
