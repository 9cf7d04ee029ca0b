#!/bin/bash
# test_e2e_device_moved: the check that the device under the volumes moved the bytes a step reports.
#  - buffered reads (direct off) of a 32 MiB file already in the page cache: the page cache serves
#    them, the device moves almost nothing; the check fails, the step is suspect, the page cache's
#    share is a figure, and the terminal, run.json, summary.md, report.html and the verdict all say
#    the figures did not measure the storage and why;
#  - the same file read direct: the device moves the bytes, the check passes, the step is ok;
#  - as root with loop devices: reads of a loop device over a sparse file (a range never written
#    in this run nor by a precondition) are named at PREPARE (its backing file's holes) and fail
#    the check (the device under the backing file moved nothing); a loop device over a written
#    file, direct I/O on, passes it.
# About 25 s.
. "$(dirname "$0")/lib.sh"

need_block_fs "$T"
mkdir -p "$T/data"
dd if=/dev/urandom of="$T/data/cached.dat" bs=1M count=32 status=none
sync "$T/data/cached.dat"
cat "$T/data/cached.dat" >/dev/null # in the page cache now

step() { # step NAME DIRECT
	echo "{\"name\": \"$1\", \"rw\": \"randread\", \"bs\": \"4k\", \"iodepth\": 4, \"direct\": $2, \"ramp\": \"0s\", \"runtime\": \"2s\"}"
}
cat >"$T/p.json" <<JSON
{"name": "moved",
 "agents": [{"name": "a1", "endpoint": "local"}],
 "volumes": [{"agent": "a1", "path": "$T/data/cached.dat"}],
 "steps": [$(step buffered false), $(step direct true)]}
JSON
"$COORD" run --plain -o "$T/out" --scratch-dir "$T/scr" "$T/p.json" >"$T/out1" 2>&1 || {
	cat "$T/out1"
	fail "run failed"
}
R=$(run_dir "$T/out")
RJ="$R/run.json"
S0="r['steps'][0]"
MOVED="[c for c in $S0['checks'] if c['name'] == 'the device moved the bytes the step reports'][0]"
json "$RJ" "$MOVED"
[ "$(json "$RJ" "$S0['status']")" = suspect ] || fail "buffered cached reads: status $(json "$RJ" "$S0['status']")"
[ "$(json "$RJ" "$MOVED['pass']")" = False ] || fail "buffered cached reads: the check passed"
json "$RJ" "$MOVED['page_cache_read_pct'] >= 80" | grep -qx True ||
	fail "page cache share $(json "$RJ" "$MOVED.get('page_cache_read_pct')")"
json "$RJ" "$S0['suspect_reason']" | grep -q "the figures did not measure the storage: .* (buffered reads: the page cache served them)" ||
	fail "suspect reason: $(json "$RJ" "$S0.get('suspect_reason')")"
json "$RJ" "$S0['analysis']['verdict']" | grep -q "^the figures did not measure the storage" ||
	fail "the verdict does not say it: $(json "$RJ" "$S0['analysis']['verdict']")"
grep -q "step buffered: suspect over seconds" "$T/out1" || fail "terminal: not suspect"
grep -q "warning: step buffered: SUSPECT: the figures did not measure the storage" "$T/out1" ||
	fail "terminal: no SUSPECT warning"
grep -q "^## Step buffered (suspect" "$R/summary.md" || fail "summary.md: status"
grep -q "Suspect: the figures did not measure the storage" "$R/summary.md" || fail "summary.md: why"
grep -q "the page cache served [0-9.]*% of the reads" "$R/summary.md" || fail "summary.md: page cache share"
grep -q "Suspect:.*the figures did not measure the storage" "$R/report.html" ||
	fail "report.html: not said"
# the same file, direct: what the step read came from the device
[ "$(json "$RJ" "r['steps'][1]['status']")" = ok ] || fail "direct reads: status $(json "$RJ" "r['steps'][1]['status']")"
json "$RJ" "[c['pass'] for c in r['steps'][1]['checks'] if c['name'] == 'the device moved the bytes the step reports']" |
	grep -qx '\[True\]' || fail "direct reads: the check did not pass"

# loop devices: a range never written, and one written
if [ "$(id -u)" != 0 ]; then
	echo "loop devices not checked: not root"
	echo "PASS"
	exit 0
fi
truncate -s 32M "$T/data/sparse.img"
dd if=/dev/urandom of="$T/data/full.img" bs=1M count=32 status=none
sync "$T/data/full.img"
L1=$(losetup -f --show "$T/data/sparse.img" 2>/dev/null) || { echo "loop devices not checked: losetup failed"; echo "PASS"; exit 0; }
L2=$(losetup -f --show --direct-io=on "$T/data/full.img" 2>/dev/null) || {
	losetup -d "$L1"
	echo "loop devices not checked: losetup --direct-io failed"
	echo "PASS"
	exit 0
}
trap 'losetup -d "$L1" "$L2" 2>/dev/null; cleanup' EXIT
# one loop device a run: two on one disk are one check over their sum (the disk moved the bytes of
# both), where the written one's reads would cover the sparse one's
loop_run() { # loop_run NAME DEVICE -> the run directory
	cat >"$T/$1.json" <<JSON
{"name": "$1",
 "agents": [{"name": "a1", "endpoint": "local"}],
 "volumes": [{"agent": "a1", "path": "$2"}],
 "steps": [{"name": "rr", "rw": "randread", "bs": "4k", "iodepth": 16, "direct": true, "ramp": "0s", "runtime": "2s"}]}
JSON
	"$COORD" run --plain -o "$T/$1" --scratch-dir "$T/scr-$1" "$T/$1.json" >"$T/$1.txt" 2>&1 || {
		cat "$T/$1.txt"
		fail "loop run $1 failed"
	}
	run_dir "$T/$1"
}
MOVEDL="[(c['pass'], c['detail']) for c in r['steps'][0]['checks'] if c['name'] == 'the device moved the bytes the step reports']"
RJ="$(loop_run sparse "$L1")/run.json"
grep -q "PREPARE: volume a1:$L1: its read window was not written in this run nor by a precondition, and 100.0% of it is not backed by written data" "$T/sparse.txt" ||
	fail "the never-written loop range is not named at PREPARE: $(cat "$T/sparse.txt")"
json "$RJ" "$MOVEDL"
[ "$(json "$RJ" "r['steps'][0]['status']")" = suspect ] ||
	fail "never-written loop range: status $(json "$RJ" "r['steps'][0]['status']")"
json "$RJ" "[p for p, d in $MOVEDL]" | grep -qx '\[False\]' || fail "never-written loop range: the check passed"
RJ="$(loop_run written "$L2")/run.json"
json "$RJ" "$MOVEDL"
[ "$(json "$RJ" "r['steps'][0]['status']")" = ok ] ||
	fail "written loop range: status $(json "$RJ" "r['steps'][0]['status']")"
json "$RJ" "[p for p, d in $MOVEDL]" | grep -qx '\[True\]' || fail "written loop range: the check failed"
echo "PASS"
