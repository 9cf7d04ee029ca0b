#!/bin/bash
# engine-vs-fio-vm.sh - bench-agent's I/O engine against fio's io_uring engine on an emulated
# NVMe namespace in the VM lab: one QEMU guest (tests/vmlab, TCG, 1 vCPU) with one namespace
# (nvme0n1, 4 KiB LBAs, over a file of random data this script creates and removes), fio run
# in the guest on /dev/nvme0n1 and bench-coord on the host driving the guest's bench-agent
# (CURVE, as the vmlab tests run it) on the same shape, alternating in short paired rounds
# until the IOPS ratio's interval says "above", "below" or "indistinguishable" (or the rounds
# run out). The statistics and the line are bench/engine-vs-fio.sh's (bench/engine-vs-fio.py).
#
# Usage: bench/engine-vs-fio-vm.sh [-B build-dir] [-t seconds] [-n min-rounds]
#                                  [-N max-rounds] [-e band] [-s size-MiB] [-m guest-MiB]
#                                  [-S shape-regex] [-l]
#     -t  seconds per run (default 3)       -n/-N  rounds per shape, at least/at most (4/8)
#     -e  half-width of "indistinguishable" (default 0.03); -s the namespace's size (256 MiB);
#     -m  the guest's memory (1024 MiB: fio's libraries take ~85 MB of its RAM); -S runs the
#         shapes whose name matches; -l lists them.
#
# Needs qemu-system-x86_64, busybox and fio on the host (the guest gets the host's fio and its
# libraries as an initramfs piece, tests/vmlab/build-guest.sh); skips (exit 77) with the
# reason without them. Touches no device of the host: the guest's only disk is its emulated
# namespace, its network QEMU user networking with ports forwarded on 127.0.0.1 alone.
#
# A round runs fio then bench-coord (odd rounds) or bench-coord then fio (even rounds). The
# same options as the loop mode: direct I/O, io_uring with registered files and buffers on
# fio's side, --norandommap, no ramp, the same runtime; nothing is pinned (the guest has one
# vCPU, and QEMU's threads on the host are the emulation).
#
# Output: a header (guest kernel, QEMU, fio, namespace, host load), then one line per shape:
#   <shape> ratio R [lo, hi] <verdict> n=N | IOPS fio F bc B | CPU/io x.xx of fio's |
#   p50 us fio F bc B | load L
# each followed by the guest's own counters over the shape's runs, per tool:
#   "  <shape> device I/Os per tool I/O fio F bc B | interrupts per I/O fio F bc B"
# (the I/Os nvme0n1 completed, /sys/block/nvme0n1/stat, over the I/Os the tool counted: 1.000
# when the tool's figure is the device's; the NVMe queues' interrupts, /proc/interrupts, per
# I/O: how completions reach the guest), then "min_ratio: X" last. IOPS and p50 are as in
# engine-vs-fio.sh; CPU/io is the guest's CPU time per I/O: fio's usr_cpu + sys_cpu in the
# guest, bench-agent's own getrusage in the guest; load is the host's 1-minute load average
# when the shape finished (TCG turns every guest instruction into host work, so the host's load
# is the noise). Under TCG the absolute figures say little about a real drive: read the
# ratios. A benchmark: it asserts nothing.
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=""
RUNTIME=3
NMIN=4
NMAX=8
BAND=0.03
SIZE_MB=256
MEM_MB=1024
ONLY=""
LIST=""

# name | rw | bs (size or split) | iodepth | numjobs | rwmixread (the loop mode's shapes that
# mean something on one vCPU: no second job, no null target)
SHAPES="randread-4k-qd1|randread|4k|1|1|
randread-4k-qd8|randread|4k|8|1|
randread-4k-qd32|randread|4k|32|1|
randread-4k-qd128|randread|4k|128|1|
randwrite-4k-qd1|randwrite|4k|1|1|
randwrite-4k-qd8|randwrite|4k|8|1|
randwrite-4k-qd32|randwrite|4k|32|1|
randwrite-4k-qd128|randwrite|4k|128|1|
read-128k-qd4|read|128k|4|1|
read-1m-qd4|read|1m|4|1|
write-1m-qd4|write|1m|4|1|
randrw70-4k64k-qd16|randrw|4k/80:64k/20|16|1|70"

usage() {
	sed -n '2,40p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
}

while getopts "B:t:n:N:e:s:m:S:lh" o; do
	case $o in
	B) BUILD=$OPTARG ;;
	t) RUNTIME=$OPTARG ;;
	n) NMIN=$OPTARG ;;
	N) NMAX=$OPTARG ;;
	e) BAND=$OPTARG ;;
	s) SIZE_MB=$OPTARG ;;
	m) MEM_MB=$OPTARG ;;
	S) ONLY=$OPTARG ;;
	l) LIST=1 ;;
	*) usage ;;
	esac
done
if [ -n "$LIST" ]; then
	echo "$SHAPES" | awk -F'|' '{printf "%-22s rw=%s bs=%s iodepth=%s numjobs=%s%s\n",
		$1, $2, $3, $4, $5, ($6 == "" ? "" : " rwmixread=" $6)}'
	exit 0
fi
die() {
	echo "engine-vs-fio-vm: $*" >&2
	exit 1
}
[ "$NMIN" -ge 2 ] && [ "$NMAX" -ge "$NMIN" ] || die "need 2 <= -n <= -N"
[[ "$SIZE_MB" =~ ^[0-9]+$ ]] && [ "$SIZE_MB" -ge 16 ] || die "-s '$SIZE_MB': MiB, at least 16"
[ -z "$ONLY" ] || echo "$SHAPES" | cut -d'|' -f1 | grep -Eq -- "$ONLY" ||
	die "no shape matches '$ONLY' (-l lists them)"
if [ -z "$BUILD" ]; then
	for d in "$SRC/build" "$SRC/build-engine"; do
		[ -x "$d/bench-coord" ] && BUILD=$d && break
	done
fi
[ -x "$BUILD/bench-coord" ] && [ -x "$BUILD/bench-agent" ] ||
	die "no bench-coord/bench-agent in '$BUILD' (use -B)"
command -v fio >/dev/null || {
	echo "engine-vs-fio-vm: skip: fio is not installed on the host (apt-get install fio)" >&2
	exit 77
}

BC_BIN=$(cd "$BUILD" && pwd)
BC_SRC=$SRC
BC_VMLAB_FIO=1
export BC_BIN BC_SRC BC_VMLAB_FIO
# shellcheck source=../tests/vmlab/lib.sh
. "$SRC/tests/vmlab/lib.sh"
vmlab_init # $VT, removed on exit with the guest and its namespace's file
WORK="$VT/work"
mkdir -p "$WORK/out"

vm_new g1 "$MEM_MB"
vm_ns g1 4096 "${SIZE_MB}M"
# real data, so reads return what was written rather than QEMU's zeros for a hole
dd if=/dev/urandom of="$VT/g1/ns1.img" bs=1M count="$SIZE_MB" conv=notrunc status=none
vm_fio g1
vm_boot g1
vm_wait g1
# the namespace the guest sees is the one made here, and its fio runs
# shellcheck disable=SC2016 # expanded in the guest
info=$(vm_exec g1 'q=/sys/block/nvme0n1
echo "$(uname -r) $(cat $q/size) $(cat $q/queue/logical_block_size) $(fio --version)"') ||
	die "the guest did not answer: $info"
read -r gkver gsectors glbs gfio <<<"$info"
[ "$gsectors" = $((SIZE_MB * 2048)) ] && [ "$glbs" = 4096 ] ||
	die "the guest's nvme0n1 is $gsectors sectors of $glbs bytes," \
		"not the ${SIZE_MB} MiB 4 KiB-LBA namespace made here"
[[ "$gfio" == fio-* ]] || die "fio does not run in the guest: $gfio"

# the guest's own counters: I/Os nvme0n1 completed (reads + writes) and its queues' interrupts
# shellcheck disable=SC2016 # expanded in the guest
CNT_SH='set -- $(cat /sys/block/nvme0n1/stat)
i=$(awk "/nvme0q/ {for (k = 2; k <= NF; k++) if (\$k ~ /^[0-9]+\$/) s += \$k; else break}
	END {print s + 0}" /proc/interrupts)
echo "$(($1 + $5)) $i"'

# "device-I/Os interrupts tool-I/Os" of a run from the counters before and after it
counted() { # tool(fio|bc) before after tool-output
	echo "$(($(cut -d' ' -f1 <<<"$3") - $(cut -d' ' -f1 <<<"$2")))" \
		"$(($(cut -d' ' -f2 <<<"$3") - $(cut -d' ' -f2 <<<"$2")))" \
		"$(python3 "$SRC/bench/engine-vs-fio.py" ios "$1" "$4")" >"$WORK/cnt-$1"
}

# ---- one run of each tool: prints "iops cpu_ns_per_io p50_us" ----

fio_run() { # shape rw bs iodepth numjobs rwmixread
	local out="$WORK/fio-$1.json" bsopt mix=""
	case $3 in
	*/*) bsopt=--bssplit=$3 ;;
	*) bsopt=--bs=$3 ;;
	esac
	[ -n "$6" ] && mix=--rwmixread=$6
	# fio's JSON to a file in the guest, its messages to another: the counters before, the
	# JSON, the counters after come back
	vm_exec g1 "$CNT_SH
fio --name=$1 --ioengine=io_uring --filename=/dev/nvme0n1 --direct=1 \
		--registerfiles=1 --fixedbufs=1 --rw=$2 $bsopt $mix --iodepth=$4 --numjobs=$5 \
		--group_reporting --time_based --runtime=$RUNTIME --norandommap --randrepeat=0 \
		--lat_percentiles=1 --percentile_list=50 --output-format=json --output=/tmp/fio.json \
		>/tmp/fio.err 2>&1 || { cat /tmp/fio.err; exit 1; }
cat /tmp/fio.json
$CNT_SH" >"$out.all" || die "fio failed in the guest ($1): $(tail -n 5 "$out.all")"
	sed '1d;$d' "$out.all" >"$out"
	counted fio "$(head -n1 "$out.all")" "$(tail -n1 "$out.all")" "$out"
	python3 "$SRC/bench/engine-vs-fio.py" fio "$out"
}

bc_run() { # shape rw bs iodepth numjobs rwmixread
	local p="$WORK/bc-$1.json" out="$WORK/out/$1" mix="" c0 c1
	[ -n "$6" ] && mix=", \"rwmixread\": $6"
	rm -rf "$out"
	cat >"$p" <<EOF
{"name": "engine-vs-fio-vm", "agents": [{"name": "g1", "endpoint": "${VM_EP[g1]}"}],
 "volumes": [{"agent": "g1", "path": "/dev/nvme0n1"}],
 "steps": [{"name": "s", "rw": "$2", "bs": "$3", "iodepth": $4, "numjobs": $5$mix,
            "direct": true, "ramp": 0, "runtime": $RUNTIME}]}
EOF
	c0=$(vm_exec g1 "$CNT_SH")
	"$COORD" run -q -o "$out" "$p" >"$WORK/bc-$1.log" 2>&1 ||
		die "bench-coord failed ($1): $(tail -n 5 "$WORK/bc-$1.log")"
	c1=$(vm_exec g1 "$CNT_SH")
	counted bc "$c0" "$c1" "$(run_dir "$out")/run.json"
	python3 "$SRC/bench/engine-vs-fio.py" bc "$(run_dir "$out")/run.json"
}

qemu_ver=$("${QEMU_CMD[@]}" --version | head -n1)
echo "engine-vs-fio-vm: ${RUNTIME}s runs, $NMIN-$NMAX paired rounds per shape, band +-$BAND;" \
	"guest: 1 vCPU (TCG), ${MEM_MB} MiB, Linux $gkver, $qemu_ver, $gfio; nvme0n1 ${SIZE_MB} MiB," \
	"4 KiB LBAs, over a file of random data; $("$COORD" --version 2>&1 | head -n1);" \
	"host load $(cut -d' ' -f1-3 /proc/loadavg)"
LINES="$WORK/lines"
: >"$LINES"
while IFS='|' read -r name rw bs qd nj mix; do
	[ -n "$ONLY" ] && ! echo "$name" | grep -Eq -- "$ONLY" && continue
	res="$WORK/res-$name"
	: >"$res"
	for r in $(seq "$NMAX"); do
		if [ $((r % 2)) = 1 ]; then
			f=$(fio_run "$name" "$rw" "$bs" "$qd" "$nj" "$mix")
			b=$(bc_run "$name" "$rw" "$bs" "$qd" "$nj" "$mix")
		else
			b=$(bc_run "$name" "$rw" "$bs" "$qd" "$nj" "$mix")
			f=$(fio_run "$name" "$rw" "$bs" "$qd" "$nj" "$mix")
		fi
		echo "$f $b" >>"$res"
		echo "$(cat "$WORK/cnt-fio") $(cat "$WORK/cnt-bc")" >>"$WORK/cnt-$name"
		[ "$r" -lt "$NMIN" ] && continue
		read -r _ _ _ _ v <<<"$(python3 "$SRC/bench/engine-vs-fio.py" verdict "$res" "$BAND")"
		[ "$v" != undecided ] && break
	done
	read -r _ ratio _ <<<"$(python3 "$SRC/bench/engine-vs-fio.py" verdict "$res" "$BAND")"
	python3 "$SRC/bench/engine-vs-fio.py" line "$res" "$name" "$(cut -d' ' -f1 /proc/loadavg)" "$BAND"
	python3 "$SRC/bench/engine-vs-fio.py" counters "$WORK/cnt-$name" "$name"
	echo "$ratio" >>"$LINES"
done <<<"$SHAPES"
echo "min_ratio: $(sort -g "$LINES" | head -n1)"
