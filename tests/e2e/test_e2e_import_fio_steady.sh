#!/bin/bash
# test_e2e_import_fio_steady: a fio job file with steadystate (ss, ss_dur, ss_ramp) imports as
# stop_steady and runs on files with a local agent: the rate-capped job (300 IOPS, a level
# series) is steady within 20% over 3 s once its ramps are over and ends long before its 60 s
# runtime; the uncapped one asked for a 0.0001% deviation is never steady and runs its whole
# runtime; run.json says which, and a rebuild from events.jsonl equals it. fill_device on a
# file is refused with its line. About 15 s.
. "$(dirname "$0")/lib.sh"

cat >"$T/ss.fio" <<FIO
[global]
ioengine=libaio
direct=1
group_reporting
filename=$T/ss.dat
size=16m
bs=4k
iodepth=4
time_based
ramp_time=1

[flat]
rw=randread
rate_iops=300
runtime=60
ss=iops:20%
ss_dur=3
ss_ramp=1

[never]
stonewall
rw=randread
runtime=4
steadystate=iops:0.0001%
ss_dur=3
FIO
"$COORD" import-fio "$T/ss.fio" -o "$T/ss.json" 2>"$T/ss.err" || {
	cat "$T/ss.err"
	fail "import-fio ss.fio failed"
}
json "$T/ss.json" '[s.get("stop_steady") for s in r["steps"]] == [{"criterion": "iops:20%", "window": 3, "ramp": 1}, {"criterion": "iops:0.0001%", "window": 3}]' |
	grep -qx True || fail "steadystate imported wrongly: $(cat "$T/ss.json")"

"$COORD" run -q -o "$T/out" "$T/ss.json" >"$T/run.out" 2>&1 || {
	cat "$T/run.out"
	fail "the imported profile did not run"
}
R=$(run_dir "$T/out")
python3 - "$R/run.json" <<'PY' || fail "stop_steady: $(json "$R/run.json" '[(s["name"], s["seconds"], s.get("stop_steady")) for s in r["steps"]]')"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["status"] == "ok", r["status"]
s0, s1 = r["steps"]
a, b = s0["stop_steady"], s1["stop_steady"]
# flat: steady once 1 s ramp + 1 s ss_ramp + a 3 s window are over; ended 2 s on, before 61
assert a["reached"] is True and 4 <= a["at_second"] < a["ended_at_second"] == s0["seconds"] < 61, (a, s0["seconds"])
assert a["value"] <= 20 and abs(a["mean"] - 300) <= 60, a
# never: judged, not steady, ran its 1 s ramp + 4 s
assert b["reached"] is False and b["windows_judged"] >= 1 and s1["seconds"] == 5, (b, s1["seconds"])
assert b["value"] > 0.0001 and b["outcome"].startswith("not steady"), b
PY
# the rebuild from events.jsonl gives the same run.json
cp -r "$R" "$T/rebuilt"
"$COORD" report --rebuild "$T/rebuilt" >/dev/null || fail "rebuild failed"
python3 "$BC_SRC/tests/faults/check_run.py" "$T/rebuilt" --same-as "$R" || fail "the rebuild differs from the run"

# fill_device on a file: fio would fill the filesystem holding it
printf '[fill]\nfilename=%s/fill.dat\nrw=write\nfill_device=1\n' "$T" >"$T/fill.fio"
"$COORD" import-fio "$T/fill.fio" -o "$T/fill.json" 2>"$T/fill.err" && fail "fill_device on a file imported"
grep -q "fill.fio:4: fill_device=1 on $T/fill.dat: fio writes until the filesystem holding the file is full" "$T/fill.err" ||
	fail "no reason for refusing fill_device: $(cat "$T/fill.err")"
echo "ok"
