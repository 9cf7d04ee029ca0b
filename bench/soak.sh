#!/bin/bash
# soak.sh - a soak at PoV size without waiting a day, in two parts; prints `name: value` lines.
#
# live (SOAK_LIVE=1, the default): bench/pov-scale.sh's real run (bench_swarm playing
# SOAK_AGENTS x SOAK_VOLUMES "null" volumes over CURVE, a real bench-agent beside) for one
# point of SOAK_SECONDS, the coordinator's RSS sampled every 0.5 s:
#   live_rss_slope_bytes_per_volume_second  least-squares slope of VmRSS over the step's
#                       seconds after its first SOAK_SETTLE (default 60), over the volumes
#                       (target 0 within noise: the live path is O(volumes))
#   live_step_rss_mb, live_peak_rss_mb     largest VmRSS while the step ran; VmHWM over the run
#                                          (the results phase and the reports included)
#   live_results_phase_s, live_run_ok, live_rundir_bytes_per_volume_second   (pov-scale's)
# synthetic (SOAK_GEN=1, the default): bench_soakgen writes a run directory of SOAK_GEN_AGENTS
# x SOAK_GEN_VOLUMES x SOAK_GEN_SECONDS (default 100 x 16 x 86,400: a day at 1,600 volumes;
# SOAK_GEN_IOPS per volume, default 2,000 as the swarm's), then
#   gen_s               writing it
#   rebuild_peak_rss_mb, rebuild_s   `bench-coord report --rebuild`: every record replayed
#                       through the live aggregation, then the results phase (run.json) and
#                       every report, as a live run's end would write them
#   report_peak_rss_mb, report_s     `bench-coord report` on the rebuilt directory
#   rundir_bytes, records_bytes, seconds_bytes, runjson_bytes, events_bytes   (du, apparent)
#   rundir_bytes_per_volume_second
#   report_open_s, chromium_blank_s  headless Chromium on report.html, and an empty page
# Disk: the synthetic day is ~60 GB at the default load (records.bin ~410 B a volume-second),
# written under SOAK_DIR (default /var/tmp) and removed unless SOAK_KEEP=1.
# RSS and sizes do not depend on the machine's load; times do: compare them as ratios of one
# run alternating builds, never across machines (docs/scaling.md).
#
# usage: bench/soak.sh
#   SOAK_LIVE=0|1 SOAK_AGENTS=N SOAK_VOLUMES=M SOAK_SECONDS=S SOAK_SETTLE=S
#   SOAK_GEN=0|1 SOAK_GEN_AGENTS=N SOAK_GEN_VOLUMES=M SOAK_GEN_SECONDS=S SOAK_GEN_IOPS=I
#   SOAK_DIR=DIR SOAK_KEEP=1 BC_BIN=DIR (default build)
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
. "$SRC/bench/lib.sh"
BIN=$(cd "${BC_BIN:-$SRC/build}" && pwd)
COORD=$BIN/bench-coord
GEN=$BIN/bench/bench_soakgen
for b in "$COORD" "$GEN"; do
	[ -x "$b" ] || { echo "soak.sh: $b missing: build first" >&2; exit 2; }
done
W=$(mktemp -d "${SOAK_DIR:-/var/tmp}/bc-soak.XXXXXX")
cleanup() {
	if [ "${SOAK_KEEP:-0}" = 1 ]; then echo "kept $W" >&2; else rm -rf "$W"; fi
}
trap cleanup EXIT

if [ "${SOAK_LIVE:-1}" = 1 ]; then
	N=${SOAK_AGENTS:-100} M=${SOAK_VOLUMES:-16} S=${SOAK_SECONDS:-600}
	POV_AGENTS=$N POV_VOLUMES=$M POV_POINTS=1 POV_SECONDS=$S POV_KEEP=1 BC_BIN=$BIN \
		bash "$SRC/bench/pov-scale.sh" >"$W/pov.out" 2>"$W/pov.err" || true
	PW=$(sed -n 's/^kept //p' "$W/pov.err" | tail -n1)
	sed -n 's/^\(run_ok\|peak_rss_mb\|step_rss_mb\|results_phase_s\|rundir_bytes_per_volume_second\): /live_\1: /p' "$W/pov.out"
	if [ -n "$PW" ] && [ -s "$PW/samples" ]; then
		python3 - "$PW" "$N" "$M" "${SOAK_SETTLE:-60}" <<'EOF'
import json, os, sys
pw, n, m, settle = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rd = [os.path.join(pw, "reports", d) for d in os.listdir(os.path.join(pw, "reports"))][0]
start = None
for line in open(os.path.join(rd, "events.jsonl")):
    if '"step_start"' in line:
        e = json.loads(line)
        start, secs = e["start_ns"], e["seconds"]
        break
smp = [tuple(map(int, l.split())) for l in open(os.path.join(pw, "samples")) if len(l.split()) == 3]
t0, t1 = start + settle * 10**9, start + secs * 10**9
pts = [((t - t0) / 1e9, r * 1024.0) for t, r, _ in smp if t0 <= t <= t1]
if len(pts) < 3:
    print("live_rss_slope_bytes_per_volume_second: nan")
else:
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sl = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
    vols = n * m + 2  # the real agent's two volumes
    print("live_rss_samples: %d" % len(pts))
    print("live_rss_slope_bytes_per_volume_second: %.4f" % (sl / vols))
    print("live_rss_range_mb: %.1f-%.1f" % (min(y for _, y in pts) / 2**20, max(y for _, y in pts) / 2**20))
EOF
	fi
	[ "${SOAK_KEEP:-0}" = 1 ] || rm -rf "$PW"
fi

if [ "${SOAK_GEN:-1}" = 1 ]; then
	GN=${SOAK_GEN_AGENTS:-100} GM=${SOAK_GEN_VOLUMES:-16} GS=${SOAK_GEN_SECONDS:-86400}
	D=$W/run
	"$GEN" -n "$GN" -m "$GM" -s "$GS" --iops "${SOAK_GEN_IOPS:-2000}" --warmup $((GS / 24)) \
		-o "$D" >"$W/gen.out"
	sed -n 's/^gen_s: /gen_s: /p' "$W/gen.out"
	/usr/bin/time -f "%M %e" -o "$W/rebuild.time" "$COORD" report --rebuild "$D" >"$W/rebuild.out" 2>&1 ||
		{ tail -5 "$W/rebuild.out" >&2; exit 1; }
	/usr/bin/time -f "%M %e" -o "$W/report.time" "$COORD" report "$D" >"$W/report.out" 2>&1 ||
		{ tail -5 "$W/report.out" >&2; exit 1; }
	read -r rss s <"$W/rebuild.time"
	echo "rebuild_peak_rss_mb: $((rss / 1024))"
	echo "rebuild_s: $s"
	read -r rss s <"$W/report.time"
	echo "report_peak_rss_mb: $((rss / 1024))"
	echo "report_s: $s"
	size() { stat -c %s "$D/$1" 2>/dev/null || echo 0; }
	total=$(du -sb "$D" | cut -f1)
	echo "rundir_bytes: $total"
	echo "records_bytes: $(size records.bin)"
	echo "seconds_bytes: $(size seconds.bin)"
	echo "runjson_bytes: $(size run.json)"
	echo "events_bytes: $(size events.jsonl)"
	echo "rundir_bytes_per_volume_second: $((total / (GN * GM * GS)))"
	chrome_open "$W" "$D/report.html"
	echo "report_open_s: $open_s"
	echo "chromium_blank_s: $blank_s"
fi
