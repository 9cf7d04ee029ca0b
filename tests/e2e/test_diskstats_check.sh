#!/bin/bash
# test_diskstats_check: on a loop device, the agent's byte counts match the kernel's
# /proc/diskstats (check passes); with the test-only hook BC_TEST_SCALE_BYTES the agent
# mis-reports its bytes and the same check fails, naming the volume.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || { echo "skip: needs root for losetup"; exit 77; }
truncate -s 64M "$T/disk.img"
LOOP=$(losetup -f --show "$T/disk.img" 2>/dev/null) || { echo "skip: losetup failed"; exit 77; }
trap 'losetup -d "$LOOP" 2>/dev/null; cleanup' EXIT

cat >"$T/p.json" <<JSON
{"name": "diskstats",
 "agents": [{"name": "c1", "endpoint": "local"}],
 "volumes": [{"agent": "c1", "path": "$LOOP"}],
 "steps": [{"name": "rr", "rw": "randread", "bs": "4k", "iodepth": 8, "ramp": "1s", "runtime": "2s"}]}
JSON

check() { # check OUTDIR -> prints pass value of the diskstats check
	json "$(run_dir "$1")/run.json" \
		"[c['pass'] for c in r['steps'][0]['checks'] if c['name'].startswith('agent bytes match')]"
}

"$COORD" run -q -o "$T/ok" --scratch-dir "$T/scr" "$T/p.json" >"$T/out1" 2>&1 || {
	cat "$T/out1"
	fail "run on $LOOP failed"
}
[ "$(check "$T/ok")" = "[True]" ] || fail "diskstats check did not pass: $(check "$T/ok")"

BC_TEST_SCALE_BYTES=1.1 "$COORD" run -q -o "$T/bad" --scratch-dir "$T/scr" "$T/p.json" \
	>"$T/out2" 2>&1 || true
cat "$T/out2"
[ "$(check "$T/bad")" = "[False]" ] || fail "mis-scaled bytes were not caught: $(check "$T/bad")"
grep -q "check failed: agent bytes match the block device's diskstats" "$T/out2" ||
	fail "the failed check was not reported on the terminal"
echo "PASS"
