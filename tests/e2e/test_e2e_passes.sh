#!/bin/bash
# test_e2e_passes: "passes" repeats a size-bound step's one pass, as import-fio writes fio's
# numjobs clones x loops on a window whose size only the agent knows (a device, a percent of
# it). On a fresh 16 MiB file: 2 random jobs writing the upper half 3 times write exactly
# 3 x 8 MiB, every block of that half and none below it; a sequential job reading the whole
# file twice reads exactly 2 x 16 MiB. A few seconds.
. "$(dirname "$0")/lib.sh"

SCR="$T/scratch"
profile() { # name, step
	cat <<JSON
{"name": "$1", "agents": [{"name": "local", "endpoint": "local"}],
 "volumes": [{"agent": "local", "path": "p.dat", "size": "16m"}],
 "steps": [$2]}
JSON
}
# a step that only writes needs no layout: the file's blocks are the step's alone
profile rand '{"name": "rand", "rw": "randwrite", "bs": "4k", "iodepth": 4, "numjobs": 2,
               "direct": true, "size_based": true, "passes": 3, "runtime": "60s",
               "window_offset": "50%"}' >"$T/rand.json"
profile seq '{"name": "seq", "rw": "read", "bs": "64k", "iodepth": 2, "direct": true,
              "size_based": true, "passes": 2, "runtime": "60s"}' >"$T/seq.json"
"$COORD" validate "$T/rand.json" >/dev/null || fail "validate refused passes"
run() { # profile, step's bytes
	"$COORD" run -q -o "$T/out-$1" --scratch-dir "$SCR" "$T/$1.json" >"$T/stdout" 2>&1 || {
		cat "$T/stdout"
		fail "run $1 failed"
	}
	RJ="$(run_dir "$T/out-$1")/run.json"
	json "$RJ" "r['steps'][0]['volumes'][0]['all_intervals']['bytes'] == $2" | grep -qx True ||
		fail "$1: not $2 bytes: $(json "$RJ" "r['steps'][0]['volumes'][0]['all_intervals']")"
}
run rand 25165824
# a job's write stamp (engine/job.h) starts with the block's offset and the job's write
# sequence number: the upper half is the step's whole, the lower half never written (a step
# that only writes gets no layout: zeros)
python3 - "$(find "$SCR" -name p.dat | head -n1)" <<'PY' || fail "the blocks written are not the window's"
import struct, sys
data = open(sys.argv[1], "rb").read()
half = len(data) // 2
for off in range(0, len(data), 4096):
    if off < half:
        assert data[off:off + 4096] == bytes(4096), off
    else:
        where, seq = struct.unpack_from("<QQ", data, off)
        assert where == off and seq < 1000000, (off, where, seq)
print("upper half: %d blocks written by the step, lower half untouched" % (half // 4096))
PY
# the file exists now: the read step reads it twice over
run seq 33554432
echo "PASS"
