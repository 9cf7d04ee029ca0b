#!/bin/bash
# report-open.sh - how long report.html takes to open at fleet size, without running a fleet:
# the synthetic run directory of the report tests (tests/data/report/synthetic) scaled to N
# agents x M volumes x S seconds (every entity a copy of the fixture's, its figures varied so
# top/bottom lists and distributions have something to sort), reported by `bench-coord report`,
# then loaded by headless Chromium (--dump-dom, the same measure as bench/pov-scale.sh).
#
# usage: bench/report-open.sh [BUILD_DIR]   (REPORT_AGENTS, REPORT_VOLUMES, REPORT_SECONDS)
# prints: report_write_s, report_html_bytes, report_open_s, chromium_blank_s (and the
# sizes and open time of volumes.html, the full per-volume page, when written)
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
. "$SRC/bench/lib.sh"
BUILD=${1:-$SRC/build}
N=${REPORT_AGENTS:-1000}
M=${REPORT_VOLUMES:-16}
S=${REPORT_SECONDS:-30}
W=$(mktemp -d /var/tmp/bc-report-open.XXXXXX)
# REPORT_KEEP=1: the run directory stays (its path is printed) to look at or open again
[ -n "${REPORT_KEEP:-}" ] || trap 'rm -rf "$W"' EXIT
RD="$W/run"
mkdir -p "$RD"

python3 - "$SRC/tests/data/report/synthetic" "$RD" "$N" "$M" "$S" <<'EOF'
import copy, json, random, sys
src, dst, n, m, secs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
run = json.load(open(src + "/run.json"))
prof = json.load(open(src + "/profile.json"))
rnd = random.Random(1)
st = run["steps"][0]
st.pop("seconds_bin_step", None)
st["seconds"] = secs
st["measured_from_second"] = min(2, secs - 1)

def scaled(e, f):
    e = copy.deepcopy(e)
    for k in ("iops", "mbps"):
        if isinstance(e.get(k), (int, float)):
            e[k] = round(e[k] * f, 3)
    for k, v in list(e.get("lat_us", {}).items()):
        if isinstance(v, (int, float)):
            e["lat_us"][k] = round(v / f, 3)
    e.pop("series", None)
    base = e.get("iops") or 1000
    lat = (e.get("lat_us") or {}).get("p99") or 500
    e["series"] = {
        "iops": [round(base * rnd.uniform(0.9, 1.1)) for _ in range(secs)],
        "read_iops": [round(base * 0.7 * rnd.uniform(0.9, 1.1)) for _ in range(secs)],
        "mbps": [round(base * 4096 / 1e6 * rnd.uniform(0.9, 1.1), 3) for _ in range(secs)],
        "lat_p50_us": [round(lat / 3 * rnd.uniform(0.9, 1.1), 3) for _ in range(secs)],
        "lat_p99_us": [round(lat * rnd.uniform(0.9, 1.1), 3) for _ in range(secs)],
        "lat_p99.9_us": [round(lat * 1.5 * rnd.uniform(0.9, 1.1), 3) for _ in range(secs)],
        "lat_max_us": [round(lat * 3 * rnd.uniform(0.9, 1.1), 3) for _ in range(secs)],
    }
    return e

va, aa, ra = st["volumes"][0], st["agents"][0], run["agents"][0]
st["volumes"], st["agents"], run["agents"] = [], [], []
prof["agents"], prof["volumes"] = [], []
for a in range(n):
    name = "client-%04d" % a
    ae = scaled(aa, rnd.uniform(0.5, 1.5))
    ae["name"] = name
    st["agents"].append(ae)
    r = copy.deepcopy(ra)
    r["name"] = name
    run["agents"].append(r)
    prof["agents"].append({"name": name, "endpoint": "tcp://10.%d.%d.1:7470" % (a // 250, a % 250)})
    for v in range(m):
        path = "/dev/nvme%dn1" % v
        ve = scaled(va, rnd.uniform(0.5, 1.5))
        ve.update({"name": "%s:%s" % (name, path), "agent": name, "path": path,
                   "node": prof["nodes"][(a * m + v) % len(prof["nodes"])]["name"]})
        st["volumes"].append(ve)
        prof["volumes"].append({"agent": name, "path": path,
                                "node": prof["nodes"][(a * m + v) % len(prof["nodes"])]["name"]})
st.pop("waf", None)
run["steps"] = [st]
prof["steps"] = prof["steps"][:1]
prof.pop("expect", None)
json.dump(run, open(dst + "/run.json", "w"))
json.dump(prof, open(dst + "/profile.json", "w"))
EOF

t0=$(date +%s%N)
"$BUILD/bench-coord" report "$RD" >/dev/null
t1=$(date +%s%N)
chrome_open "$W" "$RD/report.html"
echo "agents $N volumes $M seconds $S${REPORT_KEEP:+ (kept: $RD)}"
python3 -c "print('report_write_s: %.2f' % (($t1 - $t0) / 1e9))"
echo "report_html_bytes: $(stat -c %s "$RD/report.html")"
for f in volumes.html volumes.csv; do
	[ -f "$RD/$f" ] && echo "${f%.*}_${f#*.}_bytes: $(stat -c %s "$RD/$f")"
done
echo "report_open_s: $open_s"
echo "chromium_blank_s: $blank_s"
if [ -n "$CHROMIUM" ] && [ -f "$RD/volumes.html" ]; then
	echo "volumes_open_s: $(chrome_s "$W" "file://$RD/volumes.html")"
fi
