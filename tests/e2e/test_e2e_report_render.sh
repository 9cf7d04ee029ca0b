#!/bin/bash
# test_e2e_report_render: report.html as a customer's browser draws it. A real sweep run and
# the synthetic run with every optional section, in headless Chromium at 1280 and 1920 px:
# no table wider than its box (nothing of it cut off) and the page no wider than the window;
# the summary's figures are run.json's (recomputed here) and say so in their text; every chart
# has data and, drawn interactively, a canvas; the page prints to a PDF of pages that are not
# blank; `compare --html` of the runs renders too. About 60 s.
# BC_KEEP_SHOTS=DIR keeps screenshots of each report at both widths there.
. "$(dirname "$0")/lib.sh"

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || {
	echo "skip: chromium not installed (Debian package chromium; deploy/install-deps.sh --test)"
	exit 77
}
# chrome ERR ARGS...: one headless Chromium, its own profile, nothing fetched
chrome() {
	local err=$1 prof
	shift
	prof=$(mktemp -d "$T/chrome.XXXXXX")
	timeout 180 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--hide-scrollbars --user-data-dir="$prof" --enable-logging=stderr --v=0 "$@" 2>"$err"
}

cat >"$T/p.json" <<JSON
{
  "name": "e2e-render",
  "description": "two client hosts, a queue-depth sweep",
  "agents": [{"name": "a1", "endpoint": "local"}, {"name": "a2", "endpoint": "local"}],
  "volumes": [
    {"agent": "a1", "path": "v0.dat", "size": "16m"}, {"agent": "a1", "path": "v1.dat", "size": "16m"},
    {"agent": "a2", "path": "v0.dat", "size": "16m"}, {"agent": "a2", "path": "v1.dat", "size": "16m"}
  ],
  "defaults": {"ramp": "1s", "runtime": "2s"},
  "steps": [{"name": "rr", "rw": "randread", "bs": "4k", "sweep": {"iodepth": [1, 4, 16]}}]
}
JSON
"$COORD" run -q -o "$T/out" "$T/p.json" >"$T/run.out" 2>&1 || {
	cat "$T/run.out"
	fail "bench-coord run failed"
}
RUN=$(run_dir "$T/out")
cp -r "$BC_SRC/tests/data/report/synthetic" "$T/synthetic"
# the longest texts a table gets: a contended step's verdict names its host's processes
python3 - "$T/synthetic/run.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
a = r["steps"][0]["analysis"]
a["verdict"] = "Contended run: the figures are the client host's: " + ", ".join(
    "process-%d (pid %d) 0.%02d cores" % (i, 1000 + i, i) for i in range(40))
a["bottleneck"] = "client host of agent(s) " + ", ".join("client-%02d" % i for i in range(30))
json.dump(r, open(sys.argv[1], "w"))
PY
"$COORD" report "$T/synthetic" >/dev/null || fail "report of the synthetic run failed"

# the probe: what the page looks like once drawn, written into the DOM for --dump-dom
cat >"$T/probe.js" <<'JS'
document.addEventListener("DOMContentLoaded", function () {
	var out = {width: window.innerWidth, cut: [], figs: [], charts: 0, live: 0, data: 0};
	var main = document.querySelector("main").getBoundingClientRect();
	document.querySelectorAll(".tw").forEach(function (b, i) {
		var t = b.querySelector("table"), r = t.getBoundingClientRect();
		if (b.scrollWidth > b.clientWidth + 1 || r.right > main.right + 1)
			out.cut.push({i: i, scroll: b.scrollWidth, box: b.clientWidth,
				      head: t.rows[0].textContent.slice(0, 60)});
	});
	out.page_overflow = document.documentElement.scrollWidth > document.documentElement.clientWidth + 1;
	document.querySelectorAll("[data-fig]").forEach(function (f) {
		var v = f.querySelector(".v");
		out.figs.push({key: f.dataset.fig, value: f.dataset.value, step: f.dataset.step || "",
			       text: v ? v.textContent : ""});
	});
	document.querySelectorAll("figure").forEach(function (f) {
		var svg = f.querySelector("svg.chart");
		if (svg && (svg.querySelector("polyline") || svg.querySelector("rect[fill^='#']") ||
			    svg.querySelector("path[fill-opacity]")))
			out.charts++;
		if (f.querySelector("script.cd")) out.data++;
		if (f.querySelector(".live canvas")) out.live++;
	});
	var pre = document.createElement("pre");
	pre.id = "probe";
	pre.textContent = JSON.stringify(out);
	document.body.appendChild(pre);
});
JS

# probe PAGE OUT: PAGE with the probe after its own script, admitted by its hash as well
probe() {
	python3 - "$1" "$2" "$T/probe.js" <<'PY'
import base64, hashlib, sys
page, out, js = sys.argv[1], sys.argv[2], open(sys.argv[3]).read()
h = open(page, encoding="utf-8").read()
digest = base64.b64encode(hashlib.sha256(js.encode()).digest()).decode()
assert "script-src 'sha256-" in h, "no script policy"
h = h.replace("script-src 'sha256-", "script-src 'sha256-%s' 'sha256-" % digest, 1)
h = h.replace("</body>", "<script>%s</script></body>" % js, 1)
open(out, "w", encoding="utf-8").write(h)
PY
}

for R in "$RUN" "$T/synthetic"; do
	name=$(basename "$R")
	probe "$R/report.html" "$R/probe.html"
	for W in 1280 1920; do
		chrome "$T/$name.$W.err" --window-size="$W,1000" --dump-dom "file://$R/probe.html?eager" \
			>"$T/$name.$W.dom" || fail "$name at $W px: chromium --dump-dom failed"
		if grep ':CONSOLE' "$T/$name.$W.err"; then
			fail "$name at $W px: console messages"
		fi
		python3 - "$R/run.json" "$T/$name.$W.dom" "$W" "$BC_SRC/tests/e2e" <<'PY' || fail "$name at $W px"
import html, json, re, sys
sys.path.insert(0, sys.argv[4])
import reportlib
run, dom, width = json.load(open(sys.argv[1])), open(sys.argv[2]).read(), int(sys.argv[3])
p = json.loads(html.unescape(re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S).group(1)))
assert p["width"] == width, "window %d, not %d px" % (p["width"], width)
assert not p["cut"], "tables cut at %d px: %s" % (width, p["cut"])
assert not p["page_overflow"], "the page is wider than the window"
# every chart drawn, every line chart with data, and drawn interactively (?eager)
assert p["charts"] >= 10 and p["data"] >= 6, p
assert p["live"] == p["data"], "%d charts with data, %d drawn live" % (p["data"], p["live"])
# the summary's figures are run.json's: recomputed here, by the rule docs/report.md says
measured = [s for s in run["steps"] if s["status"] in ("ok", "degraded", "suspect")
            and isinstance(s.get("total", {}).get("iops"), (int, float))]
want = {}
if measured:
    top = max(measured, key=lambda s: s["total"]["iops"])
    want["peak_iops"] = (top["total"]["iops"], top["name"])
    best = max(measured, key=lambda s: s["total"]["mbps"])
    want["peak_mbps"] = (best["total"]["mbps"], best["name"])
    knees = [s for s in run["steps"] if "knee" in s.get("sweep", {}) and "index" in s["sweep"]["knee"]]
    if knees:
        sw = knees[-1]["sweep"]
        label = sw["labels"][sw["knee"]["index"]]
        kp = [s for s in run["steps"] if s.get("sweep_of") == knees[-1]["sweep_of"]
              and s.get("sweep_point") == label][0]
        want["knee_p50_us"] = (kp["total"]["lat_us"]["p50"], kp["name"])
        want["knee_p99_us"] = (kp["total"]["lat_us"]["p99"], kp["name"])
figs = {f["key"]: f for f in p["figs"]}
for key, (value, step) in want.items():
    f = figs.get(key)
    assert f, "the summary has no %s (has %s)" % (key, sorted(figs))
    assert abs(float(f["value"]) - value) <= 1e-9 * max(1, abs(value)), (key, f, value)
    assert f["step"] == step, (key, f, step)
    if key.endswith("_us"):
        assert reportlib.lat_agrees(f["text"], value), (key, f["text"], value)
    elif key == "peak_iops":
        assert abs(reportlib.count(f["text"]) - value) <= 0.5, (key, f["text"], value)
    else:
        assert reportlib.sig3(reportlib.rate_mbps(f["text"]), value), (key, f["text"], value)
print("%s px: no table cut, %d charts (%d live), summary figures %s as run.json" %
      (width, p["charts"], p["live"], sorted(want)))
PY
		if [ -n "${BC_KEEP_SHOTS:-}" ]; then
			chrome "$T/shot.err" --window-size="$W,4000" --screenshot="$BC_KEEP_SHOTS/$name-$W.png" \
				"file://$R/report.html" >/dev/null || true
		fi
	done
done

# printed to PDF: pages, and the first one is not blank
chrome "$T/pdf.err" --no-pdf-header-footer --print-to-pdf="$T/report.pdf" "file://$RUN/report.html" \
	>/dev/null || fail "print to PDF failed"
head -c 5 "$T/report.pdf" | grep -q '%PDF-' && [ "$(stat -c %s "$T/report.pdf")" -gt 20000 ] ||
	fail "print to PDF wrote no PDF"
if command -v pdftoppm >/dev/null && command -v pdfinfo >/dev/null; then
	pages=$(pdfinfo "$T/report.pdf" | sed -n 's/^Pages: *//p')
	[ "$pages" -ge 3 ] || fail "the PDF has $pages page(s)"
	pdftoppm -r 50 -f 1 -l 2 -png "$T/report.pdf" "$T/page"
	for png in "$T"/page-*.png; do
		s=$(python3 "$BC_SRC/tests/e2e/pngtool.py" stats "$png")
		python3 -c "
import sys; f = dict(zip(sys.argv[1::2], sys.argv[2::2]))
sys.exit(0 if float(f['non_background']) > 0.02 else 1)" $s || fail "PDF page $png looks blank ($s)"
	done
	echo "report.pdf: $pages pages, the first two drawn"
else
	echo "report.pdf written (poppler-utils not installed: its pages were not drawn)"
fi

# compare --html: the run against itself, one page
# exit 1: 2 s steps have no interval, so "not comparable"; the page is written all the same
"$COORD" compare --html "$T/compare.html" "$RUN" "$RUN" >"$T/cmp.out" 2>&1 || true
[ -s "$T/compare.html" ] || fail "compare --html wrote nothing: $(tail -3 "$T/cmp.out")"
probe "$T/compare.html" "$T/cprobe.html"
chrome "$T/cmp.err" --window-size=1280,1000 --dump-dom "file://$T/cprobe.html?eager" >"$T/cmp.dom" ||
	fail "compare.html: chromium failed"
if grep ':CONSOLE' "$T/cmp.err"; then
	fail "compare.html: console messages"
fi
python3 - "$T/cmp.dom" <<'PY' || fail "compare.html"
import html, json, re, sys
dom = open(sys.argv[1]).read()
p = json.loads(html.unescape(re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S).group(1)))
assert not p["cut"] and not p["page_overflow"], p["cut"]
# 3 overlaid sweep charts with data, and per step (3) two interval bar charts
assert p["data"] >= 2 and p["live"] == p["data"] and p["charts"] >= 2 + 3 * 2, p
assert 'data-chart="cmp0-iops"' in dom and 'data-chart="cmp-s0-iops"' in dom
print("compare.html: %d charts, %d live" % (p["charts"], p["live"]))
PY
echo "PASS"
