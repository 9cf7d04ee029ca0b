#!/bin/bash
# test_e2e_fresh_vs_fio: a 4k random-read step on a fresh 128 MiB file, direct, QD 1, against fio
# on its own fresh file of the same size, on the same filesystem, with the same options
# (io_uring, direct, 4k randread, iodepth 1, 1 s ramp + 3 s): bench-coord lays the file out
# before the step reads it, as fio does, so the two IOPS agree (bench-coord / fio within
# 1/3-3, the medians of three rounds run alternately, fresh files every time). The band is
# wide because QD-1 IOPS on a shared 2-core host swing by half when another process takes a
# core; the defect it guards against is a factor of about 48 (reads of unwritten extents never
# reach the device), and the engine's own speed against fio is bench/engine-vs-fio.sh's work. Also: run.json reports the layout apart from the step (bytes, seconds), the
# file has no unwritten extent left, and the device under it moved the bytes (the check
# passes). About 40 s.
. "$(dirname "$0")/lib.sh"

command -v fio >/dev/null || { echo "skip: fio not installed (deploy/install-deps.sh --test)"; exit 77; }
need_block_fs "$T"
SIZE=128m

cat >"$T/p.json" <<JSON
{"name": "fresh-randread",
 "agents": [{"name": "a1", "endpoint": "local"}],
 "volumes": [{"agent": "a1", "path": "vol.dat", "size": "$SIZE"}],
 "defaults": {"direct": true},
 "steps": [{"name": "rr", "rw": "randread", "bs": "4k", "iodepth": 1, "numjobs": 1,
            "ramp": "1s", "runtime": "3s"}]}
JSON

bc_round() { # bc_round N -> IOPS of bench-coord's measured window
	rm -rf "$T/scr$1"
	"$COORD" run -q -o "$T/bc$1" --scratch-dir "$T/scr$1" "$T/p.json" >"$T/bc$1.out" 2>&1 || {
		cat "$T/bc$1.out"
		fail "bench-coord round $1 failed"
	}
	json "$(run_dir "$T/bc$1")/run.json" 'r["steps"][0]["total"]["iops"]'
}

fio_round() { # fio_round N -> fio's read IOPS, on its own fresh file
	rm -f "$T/fio$1.dat"
	fio --name=rr --filename="$T/fio$1.dat" --size=$SIZE --rw=randread --bs=4k --iodepth=1 \
		--numjobs=1 --ioengine=io_uring --direct=1 --ramp_time=1 --runtime=3 --time_based \
		--output-format=json >"$T/fio$1.json" 2>"$T/fio$1.err" || {
		cat "$T/fio$1.err"
		fail "fio round $1 failed"
	}
	rm -f "$T/fio$1.dat"
	json "$T/fio$1.json" 'r["jobs"][0]["read"]["iops"]'
}

B1=$(bc_round 1)
F1=$(fio_round 1)
B2=$(bc_round 2)
F2=$(fio_round 2)
B3=$(bc_round 3)
F3=$(fio_round 3)
echo "bench-coord IOPS: $B1 $B2 $B3; fio IOPS: $F1 $F2 $F3"
RATIO=$(python3 -c "import statistics as s; print(s.median([$B1, $B2, $B3]) / s.median([$F1, $F2, $F3]))")
echo "bench-coord / fio: $RATIO"
python3 -c "import sys; sys.exit(0 if 1 / 3 <= $RATIO <= 3 else 1)" ||
	fail "bench-coord / fio IOPS = $RATIO on fresh files, outside 1/3-3"

RJ="$(run_dir "$T/bc1")/run.json"
# the layout, apart from the step: every byte of the fresh file, once
json "$RJ" "[(l['name'], l['bytes'], l['direct'], l['seconds'] > 0) for l in r['steps'][0]['layout']]" |
	grep -qx "\[('a1:vol.dat', 134217728, True, True)\]" ||
	fail "layout not reported: $(json "$RJ" "r['steps'][0]['layout']")"
[ "$(json "$RJ" "r['steps'][0]['backing'][0]['unbacked_bytes']")" = 0 ] ||
	fail "unwritten data left after the layout: $(json "$RJ" "r['steps'][0]['backing']")"
grep -q '"event":"layout_progress"' "$(run_dir "$T/bc1")/events.jsonl" ||
	fail "no layout_progress event"
# the device under the file moved the bytes the step read (where the filesystem has one)
json "$RJ" "[(c['pass'], c['scope']) for c in r['steps'][0]['checks'] if c['name'].startswith('the device moved')]"
json "$RJ" "all(c['pass'] for c in r['steps'][0]['checks'] if c['name'].startswith('the device moved'))" |
	grep -qx True || fail "the device check did not pass on a laid-out file"
[ "$(json "$RJ" 'r["steps"][0]["status"]')" = ok ] ||
	fail "step status $(json "$RJ" 'r["steps"][0]["status"]')"
echo "PASS"
