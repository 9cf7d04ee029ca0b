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

python3 "$SRC/bench/synth_run.py" "$SRC/tests/data/report/synthetic" "$RD" "$N" "$M" "$S"

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
