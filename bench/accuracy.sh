#!/bin/bash
# accuracy.sh - are bench-coord's figures right?
#  (a) the same 4k randread QD16 workload, fio (io_uring engine) then bench-coord (one local
#      agent), on the same loop device over a tmpfs file, both pinned to the same CPU:
#      IOPS, p50, p99 of each and their ratios. fio's figures are its `lat` (slat + clat),
#      the same definition as bench-coord's (docs/engine.md).
#  (b) 10M heavy-tailed latencies split over 8 simulated agents, merged through the real
#      histogram, STATS encode/decode and merge code, against the exact sorted values.
# Last line: "p99_error_pct: X" (target <= 0.5). Needs root (loop device), fio, python3.
# Usage: bench/accuracy.sh [BUILD_DIR] [SECONDS]
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build}
SECS=${2:-10}
CPU=${BC_BENCH_CPU:-$(($(nproc) - 1))}
COORD="$BUILD/bench-coord"
[ -x "$COORD" ] && [ -x "$BUILD/bench/bench_hist_accuracy" ] || {
	echo "build first: cmake -S $SRC -B $BUILD && cmake --build $BUILD" >&2
	exit 1
}
T=$(mktemp -d /tmp/bc-accuracy.XXXXXX)
LOOP=""
cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null || true
	mountpoint -q "$T/tmpfs" && umount "$T/tmpfs"
	rm -rf "$T"
}
trap cleanup EXIT

echo "== (a) fio vs bench-coord: 4k randread QD16, ${SECS}s, CPU $CPU"
if [ "$(id -u)" = 0 ] && command -v fio >/dev/null; then
	mkdir "$T/tmpfs"
	mount -t tmpfs -o size=1100m tmpfs "$T/tmpfs"
	dd if=/dev/urandom of="$T/tmpfs/disk.img" bs=1M count=1024 status=none
	LOOP=$(losetup -f --show "$T/tmpfs/disk.img")
	taskset -c "$CPU" fio --name=acc --filename="$LOOP" --ioengine=io_uring --direct=1 \
		--rw=randread --bs=4k --iodepth=16 --time_based --runtime="$SECS" --ramp_time=2 \
		--lat_percentiles=1 --output-format=json --output="$T/fio.json" >/dev/null
	cat >"$T/p.json" <<JSON
{"name": "accuracy", "agents": [{"name": "a", "endpoint": "local"}],
 "volumes": [{"agent": "a", "path": "$LOOP"}],
 "steps": [{"name": "rr", "rw": "randread", "bs": "4k", "iodepth": 16, "direct": true,
            "ramp": "2s", "runtime": "${SECS}s"}]}
JSON
	taskset -c "$CPU" "$COORD" run -q -o "$T/runs" "$T/p.json" >/dev/null 2>"$T/coord.err" || {
		cat "$T/coord.err" >&2
		exit 1
	}
	python3 - "$T/fio.json" "$T"/runs/*/run.json <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["jobs"][0]["read"]
r = json.load(open(sys.argv[2]))["steps"][0]["total"]
fp = f["lat_ns"]["percentile"]
rows = [("IOPS", f["iops"], r["iops"]),
        ("p50 us", fp["50.000000"] / 1e3, r["lat_us"]["p50"]),
        ("p99 us", fp["99.000000"] / 1e3, r["lat_us"]["p99"]),
        ("mean us", f["lat_ns"]["mean"] / 1e3, r["lat_us"]["mean"])]
print(f"{'':10} {'fio':>12} {'bench-coord':>12} {'ratio':>8}")
for name, a, b in rows:
    print(f"{name:10} {a:12.1f} {b:12.1f} {b / a if a else 0:8.3f}")
PY
else
	echo "skipped: needs root and fio"
fi

echo
echo "== (b) merged percentiles of 8 agents vs exact order statistics"
"$BUILD/bench/bench_hist_accuracy"
