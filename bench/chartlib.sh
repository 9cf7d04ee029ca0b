#!/bin/bash
# chartlib.sh - what report.html's interactive charts cost, by charting library: the page's
# weight and how long headless Chromium takes to open it (the charts in view drawn, as a
# reader sees it) and to draw every chart at once (?eager, the worst case), for a run at fleet
# size without a fleet (bench/synth_run.py: CHARTLIB_AGENTS x CHARTLIB_VOLUMES x
# CHARTLIB_SECONDS, a sweep of CHARTLIB_POINTS points). The same page, the same chart data
# (report/draw/live.c) and driver (report/draw/js/live.js), with each library and its
# adapter: uPlot (the one report.html embeds), dygraphs, Chart.js with chartjs-plugin-zoom,
# ECharts; "static" is the page with no script and no chart data. Variants are opened in
# turn, rotated each round (CHARTLIB_ROUNDS), and the medians printed: the machine is shared,
# so compare the ratios. The libraries come from npm (npm pack, once, into the work folder),
# or CHARTLIB_DIR holding the unpacked packages. docs/report.md has today's figures.
#
# usage: bench/chartlib.sh [BUILD_DIR]
# prints: <variant>_bytes, <variant>_open_s, <variant>_eager_s, each over static, and
# <variant>_draw_all_ms: the script's own time to draw every chart (performance.now() around it,
# Chromium's start out of it: the least noisy of the figures)
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
. "$SRC/bench/lib.sh"
BUILD=${1:-$SRC/build}
N=${CHARTLIB_AGENTS:-1000}
M=${CHARTLIB_VOLUMES:-16}
S=${CHARTLIB_SECONDS:-60}
P=${CHARTLIB_POINTS:-4}
R=${CHARTLIB_ROUNDS:-5}
[ -n "$CHROMIUM" ] || { echo "chartlib.sh: chromium is not installed" >&2; exit 1; }
W=$(mktemp -d /var/tmp/bc-chartlib.XXXXXX)
[ -n "${CHARTLIB_KEEP:-}" ] || trap 'rm -rf "$W"' EXIT

LIB=${CHARTLIB_DIR:-$W/npm}
if [ -z "${CHARTLIB_DIR:-}" ]; then
	mkdir -p "$LIB"
	(cd "$LIB" && npm pack --silent uplot@1.6.32 dygraphs@2.2.2 chart.js@4.5.0 \
		chartjs-plugin-zoom@2.2.0 echarts@5.6.0 >/dev/null &&
		for t in *.tgz; do mkdir -p "${t%.tgz}" && tar -xzf "$t" -C "${t%.tgz}"; done)
fi

mkdir -p "$W/run"
# CHARTLIB_RUN: a run directory made before (CHARTLIB_KEEP), reported again
if [ -n "${CHARTLIB_RUN:-}" ]; then
	rm -rf "$W/run"
	cp -r "$CHARTLIB_RUN" "$W/run"
else
	python3 "$SRC/bench/synth_run.py" "$SRC/tests/data/report/synthetic" "$W/run" "$N" "$M" "$S" "$P"
fi
"$BUILD/bench-coord" report "$W/run" >/dev/null
mkdir -p "$W/v"
python3 - "$W/run/report.html" "$W/v" "$LIB" "$SRC" <<'EOF'
import base64, glob, hashlib, re, sys
page, out, lib, src = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
html = open(page, encoding="utf-8").read()
live = open(src + "/coordinator/report/draw/js/live.js").read()
# the page's one script: the last <script> without attributes, before </body>
start = html.rindex("<script>")
end = html.index("</script>", start) + len("</script>")

def one(pattern):
    hits = glob.glob(lib + "/*/package/" + pattern)
    assert hits, "no %s under %s" % (pattern, lib)
    return open(hits[0], encoding="utf-8").read()

def variant(name, js, css=""):
    h = html[:start] + ("<script>" + js + "</script>" if js else "") + html[end:]
    if js:
        digest = base64.b64encode(hashlib.sha256(js.encode()).digest()).decode()
        h = re.sub(r"script-src 'sha256-[^']*'", "script-src 'sha256-%s'" % digest, h, count=1)
    else:
        h = re.sub(r" script-src 'sha256-[^']*';", "", h, count=1)
        h = re.sub(r'<script type="application/json" class="cd">.*?</script>', "", h, flags=re.S)
    if css:
        h = h.replace("</style>", css + "</style>", 1)
    open("%s/%s.html" % (out, name), "w", encoding="utf-8").write(h)

variant("static", "")
variant("uplot", html[start + 8:end - 9])
variant("dygraphs", one("dist/dygraph.min.js") + "\n" +
        open(src + "/bench/chartlib/dygraphs.js").read() + "\n" + live,
        one("dist/dygraph.min.css"))
variant("chartjs", one("dist/chart.umd.min.js") + "\n" + one("dist/chartjs-plugin-zoom.min.js") +
        "\n" + open(src + "/bench/chartlib/chartjs.js").read() + "\n" + live)
variant("echarts", one("dist/echarts.common.min.js") + "\n" +
        open(src + "/bench/chartlib/echarts.js").read() + "\n" + live)
EOF

variants=(static uplot dygraphs chartjs echarts)
# the time the page's script took to draw every chart, from the DOM it leaves
charts_ms() {
	local prof
	prof=$(mktemp -d "$W/chrome.XXXXXX")
	timeout 600 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
		--dump-dom "$1" 2>/dev/null | sed -n 's/.*data-charts-ms="\([0-9.]*\)".*/\1/p' | head -1
}
declare -A open eager draw
for ((r = 0; r < R; r++)); do
	for ((k = 0; k < ${#variants[@]}; k++)); do
		v=${variants[$(((k + r) % ${#variants[@]}))]}
		open[$v]+="$(chrome_s "$W" "file://$W/v/$v.html") "
		eager[$v]+="$(chrome_s "$W" "file://$W/v/$v.html?eager") "
		[ "$v" = static ] || draw[$v]+="$(charts_ms "file://$W/v/$v.html?eager") "
	done
done
echo "charts: $(grep -o 'class="cd"' "$W/v/uplot.html" | wc -l) with data"
echo "agents $N volumes $M seconds $S points $P rounds $R${CHARTLIB_KEEP:+ (kept: $W)}"
for v in "${variants[@]}"; do
	python3 - "$v" "$(stat -c %s "$W/v/$v.html")" "${open[$v]}" "${eager[$v]}" \
		"$(stat -c %s "$W/v/static.html")" "${open[static]}" "${eager[static]}" \
		"${draw[$v]:-}" <<'EOF'
import statistics, sys
v, size, o, e, s_size, s_o, s_e, d = sys.argv[1:]
med = lambda xs: statistics.median(float(x) for x in xs.split())
print("%s_bytes: %s" % (v, size))
print("%s_open_s: %.2f" % (v, med(o)))
print("%s_eager_s: %.2f" % (v, med(e)))
if v != "static":
    print("%s_bytes_over_static: %.3f" % (v, int(size) / int(s_size)))
    print("%s_open_over_static: %.2f" % (v, med(o) / med(s_o)))
    print("%s_eager_over_static: %.2f" % (v, med(e) / med(s_e)))
    print("%s_draw_all_ms: %.0f" % (v, med(d)))
EOF
done
