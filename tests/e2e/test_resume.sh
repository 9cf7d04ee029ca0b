#!/bin/bash
# test_resume: kill -9 of the coordinator in the middle of a sweep point, then
# `bench-coord run --resume DIR` while the agents (loopback, file volumes) are still inside the
# dead coordinator's session. The resumed coordinator waits for their dead-man switch, runs
# the profile on from the interrupted point (the points before it are not run again), keeps
# every record measured before the kill byte for byte, marks the interrupted entry, and ends
# with one run directory whose run.json and summary.md the ground-truth checker recomputes
# from events.jsonl; `report --rebuild` of a copy gives the same run.json. No coordinator is
# left running and the agents serve a new run. About 45 s.
. "$(dirname "$0")/lib.sh"

CHECK="$BC_SRC/tests/faults/check_run.py"
start_agent a1
start_agent a2
cat >"$T/p.json" <<JSON
{"name": "resume",
 "agents": [{"name": "a1", "endpoint": "$EP_a1"}, {"name": "a2", "endpoint": "$EP_a2"}],
 "volumes": [{"agent": "a1", "path": "$T/a1.dat", "size": "16m"},
             {"agent": "a2", "path": "$T/a2.dat", "size": "16m"}],
 "steps": [{"name": "warm", "rw": "randwrite", "bs": "4k", "iodepth": 2, "runtime": "2s",
            "rate_iops": 400},
           {"name": "sw", "rw": "randread", "bs": "4k", "rate_iops": 400,
            "sweep": {"iodepth": [1, 4, 8], "runtime": "4s"}},
           {"name": "tail", "rw": "randread", "bs": "4k", "iodepth": 2, "runtime": "2s",
            "rate_iops": 400}]}
JSON
"$COORD" run --plain -o "$T/out" "$T/p.json" >"$T/stdout" 2>"$T/stderr" &
# kill once the second sweep point (iodepth=4) has records of its seconds 0 and 1
kill_run_when $! '
import json, sys
at, secs = False, set()
for line in open(sys.argv[1]):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    if e.get("event") == "step_start":
        at = e.get("name") == "sw@iodepth=4"
    elif at and e.get("event") == "stats" and e.get("second", -1) >= 0:
        secs.add(e["second"])
sys.exit(0 if {0, 1} <= secs else 1)'
grep -q '"name":"sw@iodepth=4"' "$R/events.jsonl" || {
	cat "$T/stdout" "$T/stderr"
	fail "the run did not reach the second sweep point"
}

resume_run
resume_said "resuming .* at step sw, after point 1" "the resume did not say where it goes on"
# every record measured before the kill is still there, byte for byte, in the same files
assert_kept
RJ="$R/run.json"
json "$RJ" "[s['name'] for s in r['steps']]" >"$T/names"
[ "$(cat "$T/names")" = "['warm', 'sw@iodepth=1', 'sw@iodepth=4', 'sw@iodepth=4', 'sw@iodepth=8', 'tail']" ] ||
	fail "entries: $(cat "$T/names")"
json "$RJ" "r['status'] == 'ok' and len(r['resumed']) == 1 and r['resumed'][0]['interrupted'] == 'sw@iodepth=4'" |
	grep -qx True || fail "run.json: status $(json "$RJ" "r['status']"), resumed $(json "$RJ" "r.get('resumed')")"
json "$RJ" "r['steps'][2]['status'] == 'incomplete' and 'interrupted' in r['steps'][2] and r['steps'][2]['measured_seconds'] >= 1 and r['steps'][2]['total']['ios'] > 0" |
	grep -qx True || fail "the interrupted entry lost its seconds or its mark: $(json "$RJ" "{k: r['steps'][2].get(k) for k in ('status', 'interrupted', 'measured_seconds')}")"
json "$RJ" "r['steps'][4]['sweep']['values'] == [1, 4, 8] and r['steps'][3]['status'] == 'ok'" |
	grep -qx True || fail "the sweep's table does not cover its three points"
python3 "$CHECK" "$R" || fail "ground truth disagrees with the resumed run"
grep -q "Step sw@iodepth=4 (incomplete)" "$R/summary.md" || fail "summary.md lacks the interrupted entry"

# the same directory's log replayed gives the same run.json
cp -a "$R" "$T/copy"
"$COORD" report --rebuild "$T/copy" >"$T/rebuild.out" 2>&1 || fail "report --rebuild failed"
python3 "$CHECK" "$T/copy" --same-as "$R" || fail "rebuilt run.json differs from the live one"

# each agent ended the dead coordinator's session on its own (its dead-man switch, or the
# closed connection once its step ended); nothing is left running
for a in a1 a2; do
	grep -qE "ended: coordinator (silent|gone)" "$T/agent-$a.log" ||
		fail "agent $a did not end the dead coordinator's session: $(tail -5 "$T/agent-$a.log")"
done
if pgrep -f "bench-coord run.*$T" >/dev/null; then fail "a coordinator is left running"; fi
"$COORD" run -q -o "$T/out3" "$T/p.json" >"$T/stdout3" 2>&1 || fail "agents did not serve a new run"
echo "PASS"
