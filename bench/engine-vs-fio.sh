#!/bin/bash
# engine-vs-fio.sh - bench-agent's I/O engine against fio's io_uring engine, same options,
# pinned to the same CPU, back to back: (a) 4k randread QD32 and (b) 4k randwrite QD32 on a
# loop device over a tmpfs file with direct I/O, (c) the null target against fio's null
# ioengine. Prints IOPS, CPU per I/O and latency percentiles per tool and case, then the
# agent's RSS with 16 volumes x 4 jobs x QD 64, and last "min_ratio: X" (the smallest
# bench-agent/fio IOPS ratio). A benchmark, not a test: it prints figures, asserts nothing.
#
# Usage (root: it mounts a tmpfs and attaches a loop device, both its own, removed on exit):
#   bench/engine-vs-fio.sh [-B build-dir] [-c cpu] [-t seconds] [-r repeats] [-s size]
#
# How each figure is measured (see docs/engine.md, "Measuring the engine"):
#   IOPS      fio: read/write "iops" of its JSON; bench-coord: run.json total IOPS over the
#             measured seconds. Same runtime, no ramp, for both.
#   CPU/IO    user and system CPU of the process doing the I/O divided by the I/Os it did.
#             fio: the job process's usr_cpu/sys_cpu (getrusage, % of job_runtime) x
#             job_runtime / total_ios. bench-agent: the agent process's own getrusage from
#             START to STEP_DONE (STEP_DONE "cpu": every thread of the agent - job threads,
#             control thread, io_uring workers) / every I/O of the step including the drain.
#             bench-coord itself (the coordinator) is not counted, as fio's parent is not.
#   p50, p99  submission to completion: fio's "lat" (slat + clat, --lat_percentiles=1);
#             bench-coord's merged histogram of the measured seconds. Same definition.
#   RSS       VmHWM (peak resident set) of the local bench-agent process, read from
#             /proc/PID/status while the step runs.
# Each case runs -r times per tool, alternating tools; the row shown is the median run by IOPS.
set -euo pipefail

BUILD=""
CPU=""
RUNTIME=10
REPS=3
SIZE_MB=1024

usage() {
	sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
}

while getopts "B:c:t:r:s:h" o; do
	case $o in
	B) BUILD=$OPTARG ;;
	c) CPU=$OPTARG ;;
	t) RUNTIME=$OPTARG ;;
	r) REPS=$OPTARG ;;
	s) SIZE_MB=$OPTARG ;;
	*) usage ;;
	esac
done

SRC=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "$BUILD" ]; then
	for d in "$SRC/build" "$SRC/build-engine"; do
		[ -x "$d/bench-coord" ] && BUILD=$d && break
	done
fi
COORD="$BUILD/bench-coord"
die() {
	echo "engine-vs-fio: $*" >&2
	exit 1
}
[ -x "$COORD" ] && [ -x "$BUILD/bench-agent" ] || die "no bench-coord/bench-agent in '$BUILD' (use -B)"
[ "$(id -u)" = 0 ] || die "needs root (tmpfs mount and a loop device)"
for t in fio losetup taskset python3 mount umount; do
	command -v $t >/dev/null || die "'$t' not found"
done
[ -z "$CPU" ] && CPU=$(($(nproc) - 1))
taskset -c "$CPU" true 2>/dev/null || die "cannot pin to CPU $CPU"

WORK=$(mktemp -d /tmp/bc-engine-vs-fio.XXXXXX)
LOOP=""
MOUNTED=""
cleanup() {
	local i
	if [ -n "$LOOP" ]; then
		losetup -d "$LOOP" 2>/dev/null || true
	fi
	if [ -n "$MOUNTED" ]; then
		# loop detach is asynchronous: the tmpfs is busy until the kernel lets go
		for i in $(seq 50); do
			umount "$WORK/tmpfs" 2>/dev/null && break
			sleep 0.1
		done
	fi
	rm -rf "$WORK" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$WORK/tmpfs" "$WORK/out"
mount -t tmpfs -o size=$((SIZE_MB + 64))m bc-engine-vs-fio "$WORK/tmpfs"
MOUNTED=1
# real data, so reads and writes touch real pages of the tmpfs
dd if=/dev/urandom of="$WORK/tmpfs/backing" bs=1M count="$SIZE_MB" status=none
DIO=on
LOOP=$(losetup -f --show --direct-io=on "$WORK/tmpfs/backing" 2>/dev/null) || {
	DIO=off
	LOOP=$(losetup -f --show "$WORK/tmpfs/backing")
}
[ -b "$LOOP" ] || die "no loop device"

# ---- one run of each tool: prints "iops usr_ns_per_io sys_ns_per_io p50_us p99_us" ----

# An io_uring that registered the device is torn down asynchronously after its process exits;
# until then the device stays claimed and the next writer's O_EXCL open fails. Wait for it.
wait_free() { # device or "null"
	[ "$1" = null ] && return 0
	python3 -c '
import os, sys, time
for _ in range(100):
    try:
        os.close(os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL))
        sys.exit(0)
    except OSError:
        time.sleep(0.05)
sys.exit("engine-vs-fio: %s stays busy" % sys.argv[1])' "$1"
}

fio_run() { # case rw filename-or-null
	local rw=$2 out="$WORK/fio-$1.json" eng
	if [ "$3" = null ]; then
		eng=(--ioengine=null --size=1t)
	else
		eng=(--ioengine=io_uring --filename="$3" --direct=1 --registerfiles=1 --fixedbufs=1)
	fi
	taskset -c "$CPU" fio --name="$1" "${eng[@]}" --rw="$rw" --bs=4k --iodepth=32 \
		--numjobs=1 --time_based --runtime="$RUNTIME" --norandommap --randrepeat=0 \
		--lat_percentiles=1 --percentile_list=50:99 --output-format=json >"$out" 2>/dev/null
	python3 - "$out" "$rw" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
d = j["write" if "write" in sys.argv[2] else "read"]
ios = d["total_ios"] or 1
rt_ns = j["job_runtime"] * 1e6
pct = d["lat_ns"]["percentile"]
print("%.0f %.1f %.1f %.2f %.2f" % (d["iops"], j["usr_cpu"] / 100 * rt_ns / ios,
      j["sys_cpu"] / 100 * rt_ns / ios, pct["50.000000"] / 1e3, pct["99.000000"] / 1e3))
EOF
}

# profile for bench-coord with one local agent: VOLS is a JSON list of volumes
bc_profile() { # file rw iodepth numjobs vols-json
	cat >"$1" <<EOF
{"name": "engine-vs-fio", "agents": [{"name": "local", "endpoint": "local"}],
 "volumes": $5,
 "steps": [{"name": "s", "rw": "$2", "bs": "4k", "iodepth": $3, "numjobs": $4,
            "direct": true, "ramp": 0, "runtime": $RUNTIME}]}
EOF
}

bc_run() { # case rw target
	local p="$WORK/bc-$1.json" out="$WORK/out/$1" rd
	rm -rf "$out"
	bc_profile "$p" "$2" 32 1 "[{\"agent\": \"local\", \"path\": \"$3\"}]"
	taskset -c "$CPU" "$COORD" run -q --insecure -o "$out" "$p" >"$WORK/bc-$1.log" 2>&1 ||
		die "bench-coord failed ($1): $(tail -n 5 "$WORK/bc-$1.log")"
	rd=$(find "$out" -mindepth 1 -maxdepth 1 -type d | head -n1)
	python3 - "$rd/run.json" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))["steps"][0]
t = s["total"]
ios = 0
for a in s["agent_totals"].values():
    for v in a["volumes"]:
        ios += sum(v[o]["ios"] for o in ("read", "write", "trim"))
    cpu = a["cpu"]
ios = ios or 1
print("%.0f %.1f %.1f %.2f %.2f" % (t["iops"], cpu["process_user_ns"] / ios,
      cpu["process_sys_ns"] / ios, t["lat_us"]["p50"], t["lat_us"]["p99"]))
EOF
}

# median of REPS runs by IOPS; tools alternate so a noisy neighbour hits both alike
declare -A ROW
measure() { # case rw target
	local r tool
	for tool in fio bc; do : >"$WORK/res-$1-$tool"; done
	for r in $(seq "$REPS"); do
		wait_free "$3"
		fio_run "$1" "$2" "$3" >>"$WORK/res-$1-fio"
		wait_free "$3"
		bc_run "$1" "$2" "$3" >>"$WORK/res-$1-bc"
	done
	for tool in fio bc; do
		# the median run, then the lowest and highest IOPS of all runs
		ROW[$1-$tool]="$(sort -n -k1,1 "$WORK/res-$1-$tool" | sed -n "$(((REPS + 1) / 2))p")|$(
			sort -n -k1,1 "$WORK/res-$1-$tool" | head -n1 | cut -d' ' -f1)|$(
			sort -n -k1,1 "$WORK/res-$1-$tool" | tail -n1 | cut -d' ' -f1)"
	done
}

echo "engine-vs-fio: CPU $CPU, ${RUNTIME}s x $REPS runs per tool and case, loop $LOOP" \
	"(direct-io=$DIO) over a ${SIZE_MB} MiB tmpfs file; $(fio --version), $("$COORD" --version 2>&1 | head -n1)"
measure a randread "$LOOP"
measure b randwrite "$LOOP"
measure c randread null

# ---- agent RSS: 16 null volumes x 4 jobs x QD 64 ----
vols=$(python3 -c 'import json; print(json.dumps([{"agent": "local", "path": "null"}] * 16))')
bc_profile "$WORK/rss.json" randread 64 4 "$vols"
"$COORD" run -q --insecure -o "$WORK/out/rss" "$WORK/rss.json" >"$WORK/rss.log" 2>&1 &
CPID=$!
HWM=0
while kill -0 $CPID 2>/dev/null; do
	for p in $(pgrep -P $CPID -x bench-agent || true); do
		h=$(awk '/^VmHWM:/ {print $2}' "/proc/$p/status" 2>/dev/null || echo 0)
		[ "${h:-0}" -gt "$HWM" ] && HWM=$h
	done
	sleep 0.2
done
wait $CPID || die "RSS run failed: $(tail -n 5 "$WORK/rss.log")"

python3 - "$CPU" <<EOF
rows = {
    "a": ("4k randread QD32, loop/tmpfs, direct", "${ROW[a-fio]}", "${ROW[a-bc]}"),
    "b": ("4k randwrite QD32, loop/tmpfs, direct", "${ROW[b-fio]}", "${ROW[b-bc]}"),
    "c": ("4k randread QD32, null target", "${ROW[c-fio]}", "${ROW[c-bc]}"),
}
print()
print("%-38s %-11s %9s %17s %9s %9s %9s %8s %8s" % ("case", "tool", "IOPS", "(min-max)",
      "usr ns/io", "sys ns/io", "CPU ns/io", "p50 us", "p99 us"))
ratios = []
for k in "abc":
    name, f, b = rows[k]
    fl, bl = f.split("|"), b.split("|")
    f, b = [float(x) for x in fl[0].split()], [float(x) for x in bl[0].split()]
    for tool, v, l in (("fio", f, fl), ("bench-agent", b, bl)):
        print("%-38s %-11s %9.0f %17s %9.1f %9.1f %9.1f %8.2f %8.2f" % (
            name if tool == "fio" else "", tool, v[0], "(%s-%s)" % (l[1], l[2]), v[1], v[2],
            v[1] + v[2], v[3], v[4]))
    ratios.append(b[0] / f[0])
    print("%-38s %-11s %8.2fx %17s CPU/io %.2fx of fio's" % ("", "ratio", b[0] / f[0], "",
          (b[1] + b[2]) / (f[1] + f[2])))
print()
print("agent RSS, 16 null volumes x 4 jobs x QD 64: %.1f MiB (VmHWM)" % (${HWM} / 1024))
print("min_ratio: %.2f" % min(ratios))
EOF
