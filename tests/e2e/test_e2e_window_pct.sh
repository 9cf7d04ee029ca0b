#!/bin/bash
# test_e2e_window_pct: a workload's window_offset/_length in percent of the volume's window, as
# import-fio writes fio's offset=N%/size=M%, resolved by the agent: a one-pass write of a fresh
# 32 MiB file with offset 40% and length 13% writes exactly the bytes fio would
# (offset 13,421,773 rounded up to the 64k block: 13,434,880; length 4,362,076 rounded down:
# 4,325,376) and nothing outside them. A few seconds.
. "$(dirname "$0")/lib.sh"

SCR="$T/scratch"
cat >"$T/p.json" <<'JSON'
{"name": "window-pct", "agents": [{"name": "local", "endpoint": "local"}],
 "volumes": [{"agent": "local", "path": "w.dat", "size": "32m"}],
 "steps": [{"name": "part", "rw": "write", "bs": "64k", "iodepth": 4, "direct": true,
            "size_based": true, "runtime": "30s",
            "window_offset": "40%", "window_length": "13%"}]}
JSON
"$COORD" run -q -o "$T/out" --scratch-dir "$SCR" "$T/p.json" >"$T/stdout" 2>&1 || {
	cat "$T/stdout"
	fail "run failed"
}
RJ="$(run_dir "$T/out")/run.json"
json "$RJ" "r['status'] == 'ok' and r['steps'][0]['volumes'][0]['all_intervals']['bytes'] == 4325376" |
	grep -qx True || fail "not 4,325,376 bytes written: $(json "$RJ" "r['steps'][0]['volumes'][0]['all_intervals']")"
# the write stamps (engine/job.h) name each 4 KiB block's own offset: every written block lies in
# [13434880, 17760256) and every block there was written
python3 - "$(find "$SCR" -name w.dat | head -n1)" <<'PY' || fail "the blocks written are not the window's"
import struct, sys
data = open(sys.argv[1], "rb").read()
lo, hi = 13434880, 13434880 + 4325376
for off in range(0, len(data), 4096):
    blk = data[off:off + 4096]
    written = blk != bytes(4096)
    assert written == (lo <= off < hi), (off, written)
    if written:
        assert struct.unpack_from("<Q", blk)[0] == off, off
print("window [%d, %d): %d blocks, all in place" % (lo, hi, (hi - lo) // 4096))
PY
echo "PASS"
