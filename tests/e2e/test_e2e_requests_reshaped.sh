#!/bin/bash
# test_e2e_requests_reshaped: the device sees the workload's block size. On a loop device, 128k
# sequential reads at QD 16 reach it as one request each (the engine submits sequential I/O in
# pairs, which io_uring does not plug, so the block layer merges none); with
# iodepth_batch_submit 16 the batch is plugged and merged, and the step says so in a named
# warning with the requests per I/O; an I/O above the device's max_sectors_kb is split, said
# the same way. ~10 s.
. "$(dirname "$0")/lib.sh"

loop_image 64
MAXKB=$(cat "/sys/block/${LOOP#/dev/}/queue/max_sectors_kb")
BIG=$((MAXKB * 2))

cat >"$T/p.json" <<JSON
{"name": "reshaped",
 "agents": [{"name": "c1", "endpoint": "local"}],
 "volumes": [{"agent": "c1", "path": "$LOOP"}],
 "defaults": {"direct": true, "ramp": 0, "runtime": "2s"},
 "steps": [{"name": "seq", "rw": "read", "bs": "128k", "iodepth": 16},
           {"name": "batched", "rw": "read", "bs": "128k", "iodepth": 16,
            "iodepth_batch_submit": 16},
           {"name": "big", "rw": "read", "bs": "${BIG}k", "iodepth": 2, "runtime": "3s"}]}
JSON
"$COORD" run -q -o "$T/out" --scratch-dir "$T/scr" "$T/p.json" >"$T/log" 2>&1 || {
	cat "$T/log"
	fail "run on $LOOP failed"
}
RUN=$(run_dir "$T/out")/run.json
per_io() { # step -> the device's requests per read
	json "$RUN" "[c.get('read_requests_per_io') for s in r['steps'] if s['name'] == '$1'
		for c in s['checks'] if c['name'].startswith('agent bytes match')][0]"
}
warned() { # step word -> how many warnings of that step say the block layer did it
	json "$RUN" "len([w for s in r['steps'] if s['name'] == '$1' for w in s['warnings']
		if 'the block layer $2' in w])"
}
p=$(per_io seq)
python3 -c "import sys; sys.exit(not 0.95 <= $p <= 1.05)" ||
	fail "sequential 128k at QD 16: $p requests per I/O, the device should see each I/O whole"
[ "$(warned seq merged)" = 0 ] || fail "a merge warning for a step that was not merged"
p=$(per_io batched)
python3 -c "import sys; sys.exit(not $p < 0.95)" ||
	fail "batches of 16 sequential reads: $p requests per I/O, expected merges"
[ "$(warned batched merged)" = 1 ] || fail "the merged step has no warning: $(cat "$T/log")"
grep -q "step batched: device ${LOOP#/dev/} .*the block layer merged the step's reads" "$T/log" ||
	fail "the merge warning is not on the terminal"
p=$(per_io big)
python3 -c "import sys; sys.exit(not $p >= 1.9)" ||
	fail "reads of ${BIG} KiB on a device of max_sectors_kb $MAXKB: $p requests per I/O, expected 2 or more"
[ "$(warned big split)" = 1 ] || fail "the split step has no warning"
echo "PASS"
