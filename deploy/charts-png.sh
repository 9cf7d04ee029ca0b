#!/bin/bash
# charts-png.sh RUN_DIR...: a PNG beside every SVG chart in RUN_DIR/charts/ (report.html's
# latency charts as files), drawn by headless Chromium - no other tool needed. Prints each PNG.
set -euo pipefail
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || { echo "charts-png.sh: chromium not installed" >&2; exit 1; }
[ $# -ge 1 ] || { echo "usage: charts-png.sh RUN_DIR..." >&2; exit 2; }
prof=$(mktemp -d)
trap 'rm -rf "$prof"' EXIT
for dir in "$@"; do
	[ -d "$dir/charts" ] || { echo "charts-png.sh: no '$dir/charts' (run bench-coord report)" >&2; exit 1; }
	for svg in "$dir"/charts/*.svg; do
		# the size the SVG declares, so the PNG is the chart and nothing else
		read -r w h < <(sed -n 's/.*<svg[^>]* width="\([0-9]*\)" height="\([0-9]*\)".*/\1 \2/p' "$svg" | head -1)
		png="${svg%.svg}.png"
		timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
			--disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
			--hide-scrollbars --window-size="${w:-520},${h:-300}" --screenshot="$png" \
			"file://$(realpath "$svg")" >/dev/null 2>&1
		echo "$png"
	done
done
