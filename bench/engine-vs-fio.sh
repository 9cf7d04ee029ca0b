#!/bin/bash
# engine-vs-fio.sh - bench-agent's I/O engine against fio's io_uring engine, shape by shape,
# same options, both pinned to the same CPU, alternating in short paired rounds until the
# IOPS ratio's interval says "above", "below" or "indistinguishable" (or the rounds run out).
#
# Usage (root: it mounts a tmpfs and attaches a loop device, both its own, removed on exit):
#   bench/engine-vs-fio.sh [-B build-dir] [-c cpu] [-t seconds] [-n min-rounds]
#                          [-N max-rounds] [-e band] [-s size-MiB] [-S shape-regex] [-l] [-R] [-C]
#                          [-T] [-W keys]
#     -t  seconds per run (default 3)       -n/-N  rounds per shape, at least/at most (4/12)
#     -e  half-width of "indistinguishable" (default 0.03: the ratio's 95% interval inside
#         [0.97, 1.03]); -S runs the shapes whose name matches; -l lists them; -R adds the
#         agent's RSS at 16 null volumes x 4 jobs x QD 64.
#     -C  instead of timing: user-space instructions per I/O under valgrind --tool=callgrind,
#         which do not depend on the machine's load (see "Instruction counts" below).
#     -T  instead of ratios: where each I/O's time goes, per tool (see "Timeline" below).
#     -W  workload keys added to bench-coord's step, as JSON members, e.g.
#         -W '"submit_mode": "batch"' (a policy forced, against the engine's own choice).
#
# A round runs fio then bench-coord (odd rounds) or bench-coord then fio (even rounds) on the
# same shape, so a neighbour's load hits both alike; a shape's ratio is the geometric mean of
# its rounds' bench-agent/fio IOPS ratios with a 95% Student-t interval on the log ratios.
# After -n rounds a shape stops as soon as the interval lies above 1 ("above"), below 1
# ("below") or inside 1 +- e ("indistinguishable"); at -N rounds it says "undecided".
#
# Output: a header (CPU, loop device, versions, load), then one line per shape:
#   <shape> ratio R [lo, hi] <verdict> n=N | IOPS fio F bc B | CPU/io x.xx of fio's |
#   p50 us fio F bc B | load L
# then "min_ratio: X", the smallest ratio over the shapes run, last. A benchmark, not a test:
# it prints figures and asserts nothing. Where each figure comes from (bench/engine-vs-fio.py
# computes them; docs/engine.md, "Measuring the engine"):
#   IOPS      fio: read + write "iops" of its JSON (group_reporting over numjobs);
#             bench-coord: run.json's total IOPS over the measured seconds. Same runtime, no ramp.
#   CPU/io    user + system CPU of the process doing the I/O per I/O: fio's usr_cpu/sys_cpu x
#             job_runtime / total_ios; bench-agent's own getrusage from START to STEP_DONE
#             (job threads, control thread, io_uring workers) / every I/O of the step.
#   p50       submission to completion, reads where the shape reads: fio's "lat" percentile
#             (--lat_percentiles=1), bench-coord's merged histogram.
#   load      the 1-minute load average when the shape finished (a quiet machine: below 1).
#
# Instruction counts (-C): each tool runs the shape for -t and for 3 x -t seconds under
# callgrind, pinned to the CPU; Ir/io = (Ir(long) - Ir(short)) / (ios(long) - ios(short)), the
# I/Os counted by the device itself (/sys/block/X/stat, reads + writes completed), so start-up
# and teardown cancel. fio runs with --thread (its whole process is counted: job and main
# thread); the engine runs as bench_peak (the job threads alone, no agent control thread).
# User space only: the kernel's share, most of an I/O's cost, is not counted, and costs that go
# with time rather than I/Os (timed waits, the per-second stats) land in the slope too. Shapes
# with a block-size split, a read/write mix, several jobs or the null target are left out
# (bench_peak drives single-bs, single-direction shapes). Prints one line per shape:
#   <shape> Ir/io fio F bc B ratio R
# then "max_ir_ratio: X" (the largest bc/fio instruction ratio) last.
#
# Timeline (-T, needs perf): -n rounds per loop shape, the tools alternating; in each run, once
# the device counts I/O, one second of io_uring, block and scheduler tracepoints is recorded
# system-wide and bench/engine-timeline.py follows every I/O through submission, the device,
# the reap and the user-space gap to the next submission, the device queue's depth and the I/O
# threads' on-CPU / runnable / asleep time. Per shape and tool it prints the median over the
# rounds of each figure as `<shape>_<tool>_<figure>: value` lines (window_iops: the I/Os per
# second while recorded; device_mean_depth against the shape's queue depth shows idle slots).
set -euo pipefail

BUILD=""
CPU=""
RUNTIME=3
NMIN=4
NMAX=12
BAND=0.03
SIZE_MB=1024
ONLY=""
LIST=""
RSS=""
CG=""
TL=""
XKEYS=""

# name | rw | bs (size or split) | iodepth | numjobs | rwmixread | target (loop or null)
SHAPES="randread-4k-qd1|randread|4k|1|1||loop
randread-4k-qd8|randread|4k|8|1||loop
randread-4k-qd32|randread|4k|32|1||loop
randread-4k-qd128|randread|4k|128|1||loop
randwrite-4k-qd1|randwrite|4k|1|1||loop
randwrite-4k-qd8|randwrite|4k|8|1||loop
randwrite-4k-qd32|randwrite|4k|32|1||loop
randwrite-4k-qd128|randwrite|4k|128|1||loop
randwrite-8k-qd8-x2|randwrite|8k|8|2||loop
read-128k-qd4|read|128k|4|1||loop
read-1m-qd4|read|1m|4|1||loop
write-1m-qd4|write|1m|4|1||loop
randrw70-4k64k-qd16|randrw|4k/80:64k/20|16|1|70|loop
null-randread-4k-qd32|randread|4k|32|1||null"

usage() {
	sed -n '2,59p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
}

while getopts "B:c:t:n:N:e:s:S:lRCTW:h" o; do
	case $o in
	B) BUILD=$OPTARG ;;
	c) CPU=$OPTARG ;;
	t) RUNTIME=$OPTARG ;;
	n) NMIN=$OPTARG ;;
	N) NMAX=$OPTARG ;;
	e) BAND=$OPTARG ;;
	s) SIZE_MB=$OPTARG ;;
	S) ONLY=$OPTARG ;;
	l) LIST=1 ;;
	R) RSS=1 ;;
	C) CG=1 ;;
	T) TL=1 ;;
	W) XKEYS=", $OPTARG" ;;
	*) usage ;;
	esac
done
if [ -n "$LIST" ]; then
	echo "$SHAPES" | awk -F'|' '{printf "%-24s rw=%s bs=%s iodepth=%s numjobs=%s%s target=%s\n",
		$1, $2, $3, $4, $5, ($6 == "" ? "" : " rwmixread=" $6), $7}'
	exit 0
fi
[ "$NMIN" -ge 2 ] && [ "$NMAX" -ge "$NMIN" ] || {
	echo "engine-vs-fio: need 2 <= -n <= -N" >&2
	exit 2
}

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
[ -z "$CG" ] || [ -x "$BUILD/bench/bench_peak" ] || die "no $BUILD/bench/bench_peak for -C"
[ -z "$CG" ] || command -v valgrind >/dev/null || die "'valgrind' not found (-C)"
[ -z "$TL" ] || command -v perf >/dev/null || die "'perf' not found (-T)"
for t in fio losetup taskset python3 mount umount; do
	command -v $t >/dev/null || die "'$t' not found"
done
[ -z "$CPU" ] && CPU=$(($(nproc) - 1))
taskset -c "$CPU" true 2>/dev/null || die "cannot pin to CPU $CPU"
[ -z "$ONLY" ] || echo "$SHAPES" | cut -d'|' -f1 | grep -Eq -- "$ONLY" ||
	die "no shape matches '$ONLY' (-l lists them)"

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

# An io_uring that registered the device is torn down asynchronously after its process exits;
# until then the device stays claimed and the next writer's O_EXCL open fail. Wait for it.
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

# ---- one run of each tool: prints "iops cpu_ns_per_io p50_us" ----

fio_run() { # shape rw bs iodepth numjobs rwmixread target
	local out="$WORK/fio-$1.json" eng bsopt mix=()
	if [ "$7" = null ]; then
		eng=(--ioengine=null --size=1t)
	else
		eng=(--ioengine=io_uring --filename="$7" --direct=1 --registerfiles=1 --fixedbufs=1)
	fi
	case $3 in
	*/*) bsopt=--bssplit=$3 ;;
	*) bsopt=--bs=$3 ;;
	esac
	[ -n "$6" ] && mix=(--rwmixread="$6")
	taskset -c "$CPU" fio --name="$1" "${eng[@]}" --rw="$2" "$bsopt" "${mix[@]}" \
		--iodepth="$4" --numjobs="$5" --group_reporting --time_based --runtime="$RUNTIME" \
		--norandommap --randrepeat=0 --lat_percentiles=1 --percentile_list=50 \
		--output-format=json >"$out" 2>/dev/null || die "fio failed ($1)"
	python3 "$SRC/bench/engine-vs-fio.py" fio "$out"
}

bc_run() { # shape rw bs iodepth numjobs rwmixread target
	local p="$WORK/bc-$1.json" out="$WORK/out/$1" rd mix=""
	[ -n "$6" ] && mix=", \"rwmixread\": $6"
	rm -rf "$out"
	cat >"$p" <<EOF
{"name": "engine-vs-fio", "agents": [{"name": "local", "endpoint": "local"}],
 "volumes": [{"agent": "local", "path": "$7"}],
 "steps": [{"name": "s", "rw": "$2", "bs": "$3", "iodepth": $4, "numjobs": $5$mix,
            "direct": true, "ramp": 0, "runtime": $RUNTIME$XKEYS}]}
EOF
	taskset -c "$CPU" "$COORD" run -q --insecure -o "$out" "$p" >"$WORK/bc-$1.log" 2>&1 ||
		die "bench-coord failed ($1): $(tail -n 5 "$WORK/bc-$1.log")"
	rd=$(find "$out" -mindepth 1 -maxdepth 1 -type d | head -n1)
	python3 "$SRC/bench/engine-vs-fio.py" bc "$rd/run.json"
}

# the shape's verdict so far: prints "<n> <ratio> <lo> <hi> <verdict>"
verdict() { # results-file
	python3 "$SRC/bench/engine-vs-fio.py" verdict "$1" "$BAND"
}

LINES="$WORK/lines"
: >"$LINES"
# ---- -C: user-space instructions per I/O under callgrind, by slope over two run lengths ----

cg_one() { # tool(fio|bc) seconds rw bs iodepth : prints "Ir ios"
	local o="$WORK/cg-$1-$2" dev=${LOOP#/dev/} r0 r1
	wait_free "$LOOP"
	r0=$(awk '{print $1 + $5}' "/sys/block/$dev/stat")
	if [ "$1" = fio ]; then
		taskset -c "$CPU" valgrind --tool=callgrind --callgrind-out-file="$o" fio --thread \
			--name=cg --ioengine=io_uring --filename="$LOOP" --direct=1 --registerfiles=1 \
			--fixedbufs=1 --rw="$3" --bs="$4" --iodepth="$5" --time_based --runtime="$2" \
			--norandommap --randrepeat=0 >"$o.log" 2>&1 || die "fio under callgrind failed"
	else
		taskset -c "$CPU" valgrind --tool=callgrind --callgrind-out-file="$o" \
			"$BUILD/bench/bench_peak" -t "$2" -d "$5" -b "$4" -w "$3" "$LOOP" >"$o.log" 2>&1 ||
			die "bench_peak under callgrind failed: $(tail -n 3 "$o.log")"
	fi
	r1=$(awk '{print $1 + $5}' "/sys/block/$dev/stat")
	echo "$(awk '/^(summary|totals):/ {print $2; exit}' "$o") $((r1 - r0))"
}

if [ -n "$CG" ]; then
	echo "engine-vs-fio -C: callgrind, CPU $CPU, ${RUNTIME}s and $((RUNTIME * 3))s runs;" \
		"loop $LOOP (direct-io=$DIO); $(fio --version), $(valgrind --version)"
	while IFS='|' read -r name rw bs qd nj mix tgt; do
		[ -n "$ONLY" ] && ! echo "$name" | grep -Eq -- "$ONLY" && continue
		# bench_peak drives one bs, one direction, one job, a real device
		case $bs in */*) continue ;; esac
		[ "$nj" = 1 ] && [ -z "$mix" ] && [ "$tgt" = loop ] || continue
		v=()
		for t in fio bc; do
			v+=($(cg_one $t "$RUNTIME" "$rw" "$bs" "$qd") $(cg_one $t $((RUNTIME * 3)) "$rw" "$bs" "$qd"))
		done
		python3 - "$name" "${v[@]}" >>"$LINES" <<'EOF'
import sys
n = sys.argv[1]
a = [float(x) for x in sys.argv[2:]]
f = (a[2] - a[0]) / max(a[3] - a[1], 1)
b = (a[6] - a[4]) / max(a[7] - a[5], 1)
print("%-22s Ir/io fio %.0f bc %.0f ratio %.3f" % (n, f, b, b / f))
EOF
		tail -n1 "$LINES"
	done <<<"$SHAPES"
	echo "max_ir_ratio: $(awk '{print $NF}' "$LINES" | sort -g | tail -n1)"
	exit 0
fi

# ---- -T: the per-I/O timeline of each tool, from tracepoints ----

TL_EVENTS=io_uring:io_uring_submit_req,io_uring:io_uring_complete,block:block_rq_issue
TL_EVENTS=$TL_EVENTS,block:block_rq_complete,sched:sched_wakeup,sched:sched_switch

tl_one() { # tool shape rw bs iodepth numjobs rwmixread: appends figures to $WORK/tl-shape-tool
	local o="$WORK/tl-$1-$2" dev=${LOOP#/dev/} pid r0 i
	wait_free "$LOOP"
	r0=$(awk '{print $1 + $5}' "/sys/block/$dev/stat")
	if [ "$1" = fio ]; then
		fio_run "$2" "$3" "$4" "$5" "$6" "$7" "$LOOP" >"$o.res" &
	else
		bc_run "$2" "$3" "$4" "$5" "$6" "$7" "$LOOP" >"$o.res" &
	fi
	pid=$!
	# record while the tool runs its I/O: once the device counts some, half a second on
	for i in $(seq 200); do
		[ "$(awk '{print $1 + $5}' "/sys/block/$dev/stat")" -gt "$((r0 + 1000))" ] && break
		sleep 0.05
	done
	sleep 0.5
	perf record -q -o "$o.data" -a -e "$TL_EVENTS" -- sleep 1 >/dev/null 2>&1 ||
		die "perf record failed (-T)"
	wait $pid || die "$1 failed during the timeline of $2"
	perf script -i "$o.data" -F comm,tid,cpu,time,event,trace >"$o.txt" 2>/dev/null
	# a round whose recording missed the tool's I/O (it ended early) is left out, said
	python3 "$SRC/bench/engine-timeline.py" "$o.txt" "$(cat "/sys/block/$dev/dev")" "$1" \
		>"$o.fig" && cat "$o.fig" >>"$WORK/tl-$2-$1" ||
		echo "engine-vs-fio: $2: a $1 round left out (above)" >&2
	rm -f "$o.data" "$o.txt"
}

if [ -n "$TL" ]; then
	echo "engine-vs-fio -T: CPU $CPU, ${RUNTIME}s runs, $NMIN rounds per shape, 1 s recorded" \
		"per run; loop $LOOP (direct-io=$DIO); $(fio --version);" \
		"load $(cut -d' ' -f1-3 /proc/loadavg)"
	while IFS='|' read -r name rw bs qd nj mix tgt; do
		[ -n "$ONLY" ] && ! echo "$name" | grep -Eq -- "$ONLY" && continue
		[ "$tgt" = loop ] || continue
		for r in $(seq "$NMIN"); do
			if [ $((r % 2)) = 1 ]; then
				tl_one fio "$name" "$rw" "$bs" "$qd" "$nj" "$mix"
				tl_one bc "$name" "$rw" "$bs" "$qd" "$nj" "$mix"
			else
				tl_one bc "$name" "$rw" "$bs" "$qd" "$nj" "$mix"
				tl_one fio "$name" "$rw" "$bs" "$qd" "$nj" "$mix"
			fi
		done
		touch "$WORK/tl-$name-fio" "$WORK/tl-$name-bc"
		python3 - "$name" "$WORK/tl-$name-fio" "$WORK/tl-$name-bc" <<'EOF'
import collections, statistics, sys
name = sys.argv[1]
for path in sys.argv[2:]:
    vals = collections.defaultdict(list)
    for line in open(path):
        k, _, v = line.partition(": ")
        vals[k].append(float(v))
    for k, v in vals.items():
        print("%s_%s: %.2f" % (name, k, statistics.median(v)))
EOF
	done <<<"$SHAPES"
	echo "load_after: $(cut -d' ' -f1 /proc/loadavg)"
	exit 0
fi

echo "engine-vs-fio: CPU $CPU, ${RUNTIME}s runs, $NMIN-$NMAX paired rounds per shape, band" \
	"+-$BAND; loop $LOOP (direct-io=$DIO) over a ${SIZE_MB} MiB tmpfs file;" \
	"$(fio --version), $("$COORD" --version 2>&1 | head -n1); load $(cut -d' ' -f1-3 /proc/loadavg)"
while IFS='|' read -r name rw bs qd nj mix tgt; do
	[ -n "$ONLY" ] && ! echo "$name" | grep -Eq -- "$ONLY" && continue
	[ "$tgt" = loop ] && tgt=$LOOP
	res="$WORK/res-$name"
	: >"$res"
	for r in $(seq "$NMAX"); do
		wait_free "$tgt"
		if [ $((r % 2)) = 1 ]; then
			f=$(fio_run "$name" "$rw" "$bs" "$qd" "$nj" "$mix" "$tgt")
			wait_free "$tgt"
			b=$(bc_run "$name" "$rw" "$bs" "$qd" "$nj" "$mix" "$tgt")
		else
			b=$(bc_run "$name" "$rw" "$bs" "$qd" "$nj" "$mix" "$tgt")
			wait_free "$tgt"
			f=$(fio_run "$name" "$rw" "$bs" "$qd" "$nj" "$mix" "$tgt")
		fi
		echo "$f $b" >>"$res"
		[ "$r" -lt "$NMIN" ] && continue
		read -r n ratio lo hi v <<<"$(verdict "$res")"
		[ "$v" != undecided ] && break
	done
	read -r n ratio lo hi v <<<"$(verdict "$res")"
	line=$(python3 "$SRC/bench/engine-vs-fio.py" line "$res" "$name" \
		"$(cut -d' ' -f1 /proc/loadavg)" "$BAND")
	echo "$line"
	echo "$ratio" >>"$LINES"
done <<<"$SHAPES"

if [ -n "$RSS" ]; then
	vols=$(python3 -c 'import json; print(json.dumps([{"agent": "local", "path": "null"}] * 16))')
	cat >"$WORK/rss.json" <<EOF
{"name": "engine-vs-fio", "agents": [{"name": "local", "endpoint": "local"}], "volumes": $vols,
 "steps": [{"name": "s", "rw": "randread", "bs": "4k", "iodepth": 64, "numjobs": 4,
            "direct": true, "ramp": 0, "runtime": $RUNTIME}]}
EOF
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
	echo "agent RSS, 16 null volumes x 4 jobs x QD 64: $((HWM / 1024)) MiB (VmHWM)"
fi
echo "min_ratio: $(sort -g "$LINES" | head -n1)"
