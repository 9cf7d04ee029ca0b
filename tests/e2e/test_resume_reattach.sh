#!/bin/bash
# test_resume_reattach: a coordinator killed with -9 in the middle of a 20 s step whose profile
# gives the agents an orphan_grace of 30 s, and `bench-coord run --resume DIR` 3 s later. The
# two agents (loopback, CURVE, file volumes) keep the load running through the gap and keep
# every record; the resumed coordinator takes their sessions over, has them send what the run
# directory lacks, and the step ends at its planned length as one entry: every second 0..19
# and the drain of each agent exactly once in events.jsonl, the records the dead coordinator
# wrote unchanged, a coordinator_gap event and its note in summary.md, the ground-truth
# checker agreeing with run.json, a rebuild giving the same run.json, and the step after it
# run as usual. About 40 s.
. "$(dirname "$0")/lib.sh"

CHECK="$BC_SRC/tests/faults/check_run.py"
start_agent a1
start_agent a2
two_agent_profile reattach '"orphan_grace": "30s",' '[{"name": "soak", "rw": "randrw", "bs": "4k", "iodepth": 2, "runtime": "20s",
	   "rate_iops": 400},
	  {"name": "tail", "rw": "randread", "bs": "4k", "iodepth": 2, "runtime": "2s",
	   "rate_iops": 400}]'
"$COORD" run --plain -o "$T/out" "$T/p.json" >"$T/stdout" 2>"$T/stderr" &
# kill once both agents' records of the step's second 4 are in
kill_run_at $! 4
sleep 3

resume_run
resume_said "re-attached: soak" "the resume did not re-attach to the step in flight"
resume_said "resuming .* at step tail" "the resume did not go on after the re-attached step"
for a in a1 a2; do
	grep -q "taken over by" "$T/agent-$a.log" || fail "agent $a: no take-over in its log"
	grep -q "re-attached to step 0" "$T/agent-$a.log" || fail "agent $a did not send again"
	if grep -q "stopping all I/O" "$T/agent-$a.log"; then
		fail "agent $a stopped its I/O within the grace"
	fi
done
# everything the dead coordinator wrote stays, byte for byte
assert_kept
# each second of the step once per agent, the drain once, one STEP_DONE each, one gap
assert_each_once 20 1
json "$R/run.json" "[g['gap_s'] >= 2 and g['from_second'] >= 4 and g['replayed_seconds'] >= 2 for g in r['steps'][0]['coordinator_gaps']] == [True]" |
	grep -qx True || fail "the gap: $(json "$R/run.json" "r['steps'][0].get('coordinator_gaps')")"
RJ="$R/run.json"
json "$RJ" "[s['name'] for s in r['steps']]" >"$T/names"
[ "$(cat "$T/names")" = "['soak', 'tail']" ] || fail "entries: $(cat "$T/names")"
json "$RJ" "r['status'] == 'ok' and r['steps'][0]['status'] == 'ok' and 'analysis' in r['steps'][0] and r['steps'][0]['measured_seconds'] == 20 and not r['steps'][0].get('incomplete_seconds') and len(r['steps'][0]['coordinator_gaps']) == 1 and 'interrupted' not in r['steps'][0]" |
	grep -qx True || fail "the step is not whole: $(json "$RJ" "{k: r['steps'][0].get(k) for k in ('status', 'measured_seconds', 'incomplete_seconds', 'coordinator_gaps', 'interrupted', 'analysis')}")"
# the load ran through the gap: I/O in every second of each agent
python3 - "$R/timeseries.csv" <<'PY' || fail "a second of the step without I/O"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1]))
        if r["step"] == "soak" and r["level"] == "agent"]
secs = {(r["entity"], int(r["second"])) for r in rows if float(r["iops"]) > 0}
sys.exit(0 if secs == {(a, k) for a in ("a1", "a2") for k in range(20)} else 1)
PY
python3 "$CHECK" "$R" || fail "ground truth disagrees with the re-attached run"
grep -q "re-attached" "$R/summary.md" || fail "summary.md does not say the step was re-attached"
grep -q "re-attached" "$R/report.html" || fail "report.html does not say the step was re-attached"
cp -a "$R" "$T/copy"
"$COORD" report --rebuild "$T/copy" >"$T/rebuild.out" 2>&1 || fail "report --rebuild failed"
python3 "$CHECK" "$T/copy" --same-as "$R" || fail "rebuilt run.json differs from the live one"
if pgrep -f "bench-coord run.*$T" >/dev/null; then fail "a coordinator is left running"; fi
echo "PASS"
