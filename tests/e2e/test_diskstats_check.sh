#!/bin/bash
# test_diskstats_check: on a loop device, the agent's byte counts match the kernel's
# /proc/diskstats (check passes); run with tests/e2e/agent_overcount (an agent whose fault seam
# over-reports its bytes by 10%) the same check fails, naming the volume. Several agents and volumes
# on one device are one check over their sum; I/O from outside the run is said to be that. The
# image is written and the loop device does direct I/O, so the disk under it moves what the agent
# reads: the check that the device moved the bytes passes too (test_e2e_device_moved: when not).
. "$(dirname "$0")/lib.sh"

loop_image 64

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
json "$(run_dir "$T/ok")/run.json" \
	"[c['pass'] for c in r['steps'][0]['checks'] if c['name'] == 'the device moved the bytes the step reports']" |
	grep -qx '\[True\]' || fail "the device under the loop did not move the bytes"

BC_AGENT_BIN="$BC_BIN/tests/agent_overcount" "$COORD" run -q -o "$T/bad" --scratch-dir "$T/scr" "$T/p.json" \
	>"$T/out2" 2>&1 || true
cat "$T/out2"
[ "$(check "$T/bad")" = "[False]" ] || fail "mis-scaled bytes were not caught: $(check "$T/bad")"
grep -q "check failed: agent bytes match the block device's diskstats" "$T/out2" ||
	fail "the failed check was not reported on the terminal"
# four agents, a volume each, on one device: one check for the device, its bytes the sum of all
# four volumes, and it passes (one agent may not name one path twice)
cat >"$T/shared.json" <<JSON
{"name": "diskstats-shared",
 "agents": [{"name": "c1", "endpoint": "local"}, {"name": "c2", "endpoint": "local"},
            {"name": "c3", "endpoint": "local"}, {"name": "c4", "endpoint": "local"}],
 "volumes": [{"agent": "c1", "path": "$LOOP", "offset": "0", "length": "16m"},
             {"agent": "c2", "path": "$LOOP", "offset": "16m", "length": "16m"},
             {"agent": "c3", "path": "$LOOP", "offset": "32m", "length": "16m"},
             {"agent": "c4", "path": "$LOOP", "offset": "48m", "length": "16m"}],
 "steps": [{"name": "rr", "rw": "randread", "bs": "4k", "iodepth": 4, "ramp": "1s", "runtime": "4s"}]}
JSON
"$COORD" run -q -o "$T/shared" --scratch-dir "$T/scr" "$T/shared.json" >"$T/out3" 2>&1 || {
	cat "$T/out3"
	fail "the shared-device run failed"
}
[ "$(check "$T/shared")" = "[True]" ] ||
	fail "four volumes on one device: $(check "$T/shared") (expected one passing check)"
json "$(run_dir "$T/shared")/run.json" \
	"[c['detail'] for c in r['steps'][0]['checks'] if c['name'].startswith('agent bytes')][0]" |
	grep -q "4 volume(s)" || fail "the device check does not sum its four volumes"

# other I/O on the device during the step: the kernel saw more, said so (not a failure)
"$COORD" run -q -o "$T/other" --scratch-dir "$T/scr" "$T/p.json" >"$T/out4" 2>&1 &
CPID=$!
for _ in $(seq 300); do
	grep -qs '"event":"stats"' "$T"/other/*/events.jsonl && break
	sleep 0.1
done
dd if="$LOOP" of=/dev/null bs=1M count=48 iflag=direct status=none
wait $CPID || { cat "$T/out4"; fail "the run with outside I/O failed"; }
json "$(run_dir "$T/other")/run.json" \
	"[(c['pass'], c['outcome']) for c in r['steps'][0]['checks'] if c['name'].startswith('agent bytes')]" |
	grep -q "(None, 'device shared with I/O outside this run')" ||
	fail "outside I/O not reported as a shared device: $(check "$T/other")"
echo "PASS"
