#!/bin/bash
# test_e2e_report_html: report.html of a real run and of a synthetic run with every optional
# section (sweeps, verdicts, node egress, WAF) renders in headless Chromium: no console errors,
# every chart run.json calls for is in the DOM with data drawn, and the screenshot is not blank.
. "$(dirname "$0")/lib.sh"

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || {
	echo "skip: chromium not installed (Debian package chromium; deploy/install-deps.sh)"
	exit 77
}

# chrome OUT_STDERR ARGS...: one headless Chromium, its own profile, nothing fetched
chrome() {
	local err=$1 prof
	shift
	prof=$(mktemp -d "$T/chrome.XXXXXX")
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
		--enable-logging=stderr --v=0 "$@" 2>"$err"
}

# the console check must be able to fail: a page with a blocked fetch and a script
cat >"$T/control.html" <<'HTML'
<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'">
</head><body><img src="http://example.invalid/x.png"><script>console.error("x")</script></body></html>
HTML
chrome "$T/control.err" --dump-dom "file://$T/control.html" >/dev/null
grep -q ':CONSOLE' "$T/control.err" || fail "console messages are not visible in Chromium's log"

cat >"$T/p.json" <<JSON
{
  "name": "e2e-html",
  "agents": [{"name": "a1", "endpoint": "local"}, {"name": "a2", "endpoint": "local"}],
  "nodes": [{"name": "n1"}, {"name": "n2"}],
  "volumes": [
    {"agent": "a1", "path": "v0.dat", "size": "16m", "node": "n1"},
    {"agent": "a2", "path": "v0.dat", "size": "16m", "node": "n2"}
  ],
  "steps": [{"name": "randread-4k", "rw": "randread", "bs": "4k", "iodepth": 8,
             "ramp": "1s", "runtime": "3s"}],
  "expect": [{"step": "randread-4k", "metric": "iops", "min": 1}]
}
JSON
"$COORD" run -q -o "$T/out" "$T/p.json" >"$T/run.out" 2>&1 || {
	cat "$T/run.out"
	fail "bench-coord run failed"
}
cp -r "$BC_SRC/tests/data/report/synthetic" "$T/synthetic"
"$COORD" report "$T/synthetic" >/dev/null || fail "report of the synthetic run failed"

for R in "$(run_dir "$T/out")" "$T/synthetic"; do
	name=$(basename "$R")
	chrome "$T/$name.dom.err" --dump-dom "file://$R/report.html" >"$T/$name.dom" ||
		fail "$name: chromium --dump-dom failed: $(tail -3 "$T/$name.dom.err")"
	if grep ':CONSOLE' "$T/$name.dom.err"; then
		fail "$name: console messages while loading report.html"
	fi
	python3 - "$R/run.json" "$T/$name.dom" <<'PY' || fail "$name: charts missing from the DOM"
import json, re, sys
r = json.load(open(sys.argv[1]))
dom = open(sys.argv[2]).read()
want = []
for i, s in enumerate(r["steps"]):
    if "series" in s.get("total", {}):
        want += ["s%d-%s-total" % (i, m) for m in ("iops", "mbps", "lat")]
    for lvl in ("agents", "nodes"):
        if s.get(lvl):
            want += ["s%d-%s-%s" % (i, m, lvl) for m in ("iops", "mbps", "p99")]
    if "sweep" in s:
        name = re.sub(r"[^A-Za-z0-9._-]", "_", s.get("sweep_of", s["name"]))
        k = len([x for x in r["steps"][:i] if "sweep" in x])
        want += ["sweep%d-%s-%s" % (k, name, w) for w in ("throughput", "latency",
                                                            "latency-vs-throughput")]
    if any("net_tx_mbps" in n.get("counters", {}).get("series", {}) for n in s.get("nodes", [])):
        want.append("s%d-node-egress" % i)
if any("waf" in s for s in r["steps"]):
    want.append("waf")
svgs = dict(re.findall(r'<svg[^>]*data-chart="([^"]+)"[^>]*>(.*?)</svg>', dom, re.S))
missing = [w for w in want if w not in svgs]
assert not missing, "missing charts: %s" % missing
for w in want:
    body = svgs[w]
    lines = re.findall(r'<polyline[^>]*points="([^"]*)"', body)
    bars = re.findall(r'<rect [^>]*fill="#', body)
    assert any(len(p.split()) >= 2 for p in lines) or bars, "chart %s draws nothing" % w
# one script (the interactive charts, admitted by its hash), the rest is chart data
assert dom.count("<script>") == 1, "%d scripts" % dom.count("<script>")
lines = [w for w in want if w != "waf"]  # the WAF bars have no interactive form
assert len(re.findall(r'<script type="application/json" class="cd">', dom)) >= len(lines), \
    "chart data for fewer charts than the %d line charts" % len(lines)
print("%s: %d charts present" % (sys.argv[1], len(want)))
PY
	chrome "$T/$name.shot.err" --screenshot="$T/$name.png" --window-size=1400,3000 \
		"file://$R/report.html" >/dev/null || fail "$name: screenshot failed"
	stats=$(python3 "$BC_SRC/tests/e2e/pngtool.py" stats "$T/$name.png")
	echo "$name: $stats"
	python3 -c "
import sys; f = dict(zip(sys.argv[1::2], sys.argv[2::2]))
sys.exit(0 if float(f['stddev']) > 10 and int(f['colours']) > 30 else 1)" $stats ||
		fail "$name: the screenshot looks blank ($stats)"
done
echo "PASS"
