#!/bin/bash
# import-vs-fio.sh - does an imported job file run the load fio itself runs? For a sample of
# the real-world corpus (tests/data/corpus) and one data-reduction job, each job file runs
# twice on loop devices made here: fio on the file as written (its devices replaced by the
# loop devices, its sizes capped to them, a short runtime), then bench-coord on what
# import-fio makes of that same file. Compared: IOPS, the read share, the average read and
# write size (the block-size mix), and the compressibility of what was written (zlib over
# each written 4 KiB block) and its duplicate 4 KiB blocks. Devices are zeroed before each
# run, so only blocks the run wrote are measured.
# Prints `case_metric: fio / bench-coord = ratio` lines and `name: value` summaries.
# Needs root (loop devices) and fio. About 2 minutes.
# Noise: fio and bench-coord run one after the other on a shared 2-core host; repeat a
# case before reading much into a few percent.
# Usage: [ONLY="case ..."] bench/import-vs-fio.sh [BUILD_DIR] [SECONDS]
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build}
SECS=${2:-6}
COORD="$BUILD/bench-coord"
CORPUS="$SRC/tests/data/corpus/fio"
[ -x "$COORD" ] || {
	echo "build first: cmake -S $SRC -B $BUILD && cmake --build $BUILD" >&2
	exit 1
}
[ "$(id -u)" = 0 ] && command -v fio >/dev/null && command -v losetup >/dev/null || {
	echo "skipped: needs root, fio and losetup" >&2
	exit 77
}
T=$(mktemp -d /var/tmp/bc-import-vs-fio.XXXXXX)
LOOPS=()
cleanup() {
	for l in "${LOOPS[@]}"; do losetup -d "$l" 2>/dev/null || true; done
	rm -rf "$T"
}
trap cleanup EXIT
DEV_MB=128

# loop devices (one per distinct device of a job file), each over a file here, O_DIRECT
new_loop() {
	local img="$T/disk$1.img" l
	truncate -s ${DEV_MB}M "$img"
	l=$(losetup -f --show --direct-io=on "$img")
	LOOPS+=("$l")
	echo "$l"
}

# the job file with its devices on loop devices, sizes capped, runtime short
rewrite() { # rewrite SRC DST
	python3 - "$1" "$2" "$SECS" "$DEV_MB" "${LOOPS[@]}" <<'PY'
import re, sys
src, dst, secs, mb, loops = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
text = open(src).read()
devs = []
for m in re.finditer(r"^\s*filename\s*=\s*(\S+)", text, re.M):
    for d in m.group(1).split(":"):
        if d not in devs:
            devs.append(d)
if len(devs) > len(loops):
    sys.exit("more devices than loop devices")
def fname(m):
    return "filename=" + ":".join(loops[devs.index(d)] for d in m.group(1).split(":"))
text = re.sub(r"^\s*filename\s*=\s*(\S+)", fname, text, flags=re.M)
# sizes and offsets within the loop device: the job file's proportions, scaled down
def nbytes(v):
    m = re.match(r"(\d+)([kmgt]?)", v.lower())
    return int(m.group(1)) * {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}[m.group(2)]
vals = {k: [nbytes(m.group(1)) for m in re.finditer(r"^\s*%s\s*=\s*(\S+)" % k, text, re.M)]
        for k in ("size", "offset")}
total = max(vals["size"] or [0]) + max(vals["offset"] or [0])
f = min(1.0, 0.9 * (mb << 20) / total) if total else 1.0
def cap(m):
    n = int(nbytes(m.group(2)) * f) >> 20
    return "%s=%dm" % (m.group(1), max(n, 1) if m.group(1) == "size" else n)
text = re.sub(r"^\s*(size|offset)\s*=\s*(\S+)", cap, text, flags=re.M)
text = re.sub(r"^\s*(runtime|timeout)\s*=.*$", "", text, flags=re.M)
text = re.sub(r"^\s*startdelay\s*=.*$", "", text, flags=re.M)
text = re.sub(r"^\[global\]", "[global]\nruntime=%s\n" % secs, text, count=1, flags=re.M)
if "[global]" not in text:
    text = "[global]\nruntime=%s\n" % secs + text
open(dst, "w").write(text)
PY
}

# per-direction ios and bytes, and the seconds: from fio's JSON, from bench-coord's run.json
measure() { # measure TOOL OUT
	python3 - "$@" <<'PY'
import json, sys, glob
tool, out = sys.argv[1], sys.argv[2]
r = w = rb = wb = 0
if tool == "fio":
    d = json.load(open(out))
    secs = max(j["job_runtime"] for j in d["jobs"]) / 1000.0
    for j in d["jobs"]:
        r += j["read"]["total_ios"]; rb += j["read"]["io_bytes"]
        w += j["write"]["total_ios"]; wb += j["write"]["io_bytes"]
else:
    run = json.load(open(glob.glob(out + "/*/run.json")[0]))
    secs = 0
    for st in run["steps"]:
        t = st["total"]
        secs += st["measured_seconds"]
        wr = t.get("write", {})
        w += wr.get("ios", 0); wb += wr.get("bytes", 0)
        r += t["ios"] - wr.get("ios", 0); rb += t["bytes"] - wr.get("bytes", 0)
print(r, rb, w, wb, secs)
PY
}

# zlib per written (non-zero) 4 KiB block and distinct blocks over the loop devices
content() {
	python3 - "$@" <<'PY'
import sys, zlib, hashlib
tin = tout = n = 0
seen = set()
for dev in sys.argv[1:]:
    with open(dev, "rb") as f:
        while True:
            b = f.read(4096)
            if len(b) < 4096:
                break
            if not b.count(0) == 4096:
                n += 1
                tin += 4096
                tout += min(len(zlib.compress(b, 6)), 4096)
                seen.add(hashlib.sha1(b).digest())
print("%.3f %.3f %d" % (tin / tout if tout else 0, n / len(seen) if seen else 0, n))
PY
}

# zeroes without writing: holes punched in the images (the loop devices read them through O_DIRECT)
zero() {
	local i
	for i in "${!LOOPS[@]}"; do
		fallocate -p -o 0 -l ${DEV_MB}M "$T/disk$i.img"
	done
}

# one case: the job file run by fio, then by bench-coord
compare() { # compare NAME JOBFILE
	local name=$1 src=$2
	case " ${ONLY:-$name} " in *" $name "*) ;; *) return 0 ;; esac
	rewrite "$src" "$T/$name.fio"
	zero
	fio --output-format=json --output="$T/$name.fio.json" "$T/$name.fio" >/dev/null 2>"$T/$name.fio.err" || {
		echo "$name: fio failed: $(tail -2 "$T/$name.fio.err")" >&2
		return
	}
	read -r fr frb fw fwb fs <<<"$(measure fio "$T/$name.fio.json")"
	read -r fz fd fn <<<"$(content "${LOOPS[@]}")"
	zero
	"$COORD" import-fio -o "$T/$name.json" "$T/$name.fio" 2>"$T/$name.imp.err" || {
		echo "$name: import-fio refused it: $(grep -v note "$T/$name.imp.err" | head -3)" >&2
		return
	}
	"$COORD" run -q -o "$T/$name.runs" "$T/$name.json" >/dev/null 2>"$T/$name.run.err" || true
	read -r br brb bw bwb bs <<<"$(measure coord "$T/$name.runs")"
	read -r bz bd bn <<<"$(content "${LOOPS[@]}")"
	python3 - "$name" "$fr" "$frb" "$fw" "$fwb" "$fs" "$fz" "$fd" "$br" "$brb" "$bw" "$bwb" "$bs" "$bz" "$bd" <<'PY'
import sys
n = sys.argv[1]
fr, frb, fw, fwb, fs, fz, fd, br, brb, bw, bwb, bs, bz, bd = map(float, sys.argv[2:])
def row(metric, a, b, fmt="%.1f"):
    ratio = b / a if a else (1.0 if not b else float("inf"))
    print(("%s_%s: " + fmt + " / " + fmt + " = %.3f") % (n, metric, a, b, ratio))
row("iops", (fr + fw) / fs, (br + bw) / bs)
row("read_pct", 100 * fr / (fr + fw) if fr + fw else 0, 100 * br / (br + bw) if br + bw else 0)
if fr and br:
    row("read_avg_kib", frb / fr / 1024, brb / br / 1024)
if fw and bw:
    row("write_avg_kib", fwb / fw / 1024, bwb / bw / 1024)
    row("compress", fz, bz, "%.3f")
    row("dedupe", fd, bd, "%.3f")
PY
}

for i in 0 1 2 3 4 5; do new_loop $i >/dev/null; done
C=$CORPUS/nutanix__curie/curie/yaml
compare four_corners_randread "$C/four_corners_microbenchmark/random_read.fio"
compare four_corners_seqwrite "$C/four_corners_microbenchmark/sequential_write.fio"
compare vdi_task "$C/vdi_simulator_task_100/vdi.fio"
compare oltp_small "$C/oltp_simulator_small/oltp.fio"
# data reduction as fio writes it (not from the corpus: no corpus job sets both)
cat >"$T/reduce.job" <<EOF
[global]
ioengine=libaio
direct=1
filename=/dev/sdb
size=200m
time_based
[reduce]
rw=write
bs=64k
iodepth=8
buffer_compress_percentage=60
dedupe_percentage=40
EOF
compare reduce "$T/reduce.job"
