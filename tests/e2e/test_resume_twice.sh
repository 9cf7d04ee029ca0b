#!/bin/bash
# test_resume_twice: a coordinator that dies again in the step it re-attached to is resumed
# again. Two agents with an orphan_grace of 30 s run a 24 s step; the coordinator is killed
# with -9 at second 3, `run --resume` follows 2 s later, that resumed coordinator is killed
# with -9 too once the step's second 11 is in, and a second `run --resume` follows 2 s later.
# Checked: both resumes re-attach (no run again), the step stays one entry of 24 measured
# seconds with two coordinator_gaps, every second 0..23 and the drain of each agent exactly
# once in events.jsonl, one STEP_DONE each, what each dead coordinator wrote unchanged, the
# step after it run, the checker agreeing. About 35 s.
. "$(dirname "$0")/lib.sh"

CHECK="$BC_SRC/tests/faults/check_run.py"
start_agent a1
start_agent a2
two_agent_profile twice '"orphan_grace": "30s",' '[{"name": "soak", "rw": "randrw", "bs": "4k", "iodepth": 2, "runtime": "24s",
	   "rate_iops": 400},
	  {"name": "tail", "rw": "randwrite", "bs": "4k", "iodepth": 2, "runtime": "2s",
	   "rate_iops": 400}]'
"$COORD" run --plain -o "$T/out" "$T/p.json" >"$T/stdout" 2>"$T/stderr" &
kill_run_at $! 3
sleep 2
"$COORD" run --plain --resume "$R" >"$T/stdout1" 2>"$T/stderr1" &
kill_run_at $! 11
grep -q "re-attached: soak" "$T/stdout1" || fail "the first resume did not re-attach: $(cat "$T/stdout1" "$T/stderr1")"
sleep 2
resume_run
resume_said "re-attached: soak" "the second resume did not re-attach to the step in flight"
if grep -q "run again" "$T/stdout2"; then fail "the step ran again: $(cat "$T/stdout2")"; fi
assert_kept
assert_each_once 24 2
RJ="$R/run.json"
[ "$(json "$RJ" "[s['name'] for s in r['steps']]")" = "['soak', 'tail']" ] ||
	fail "entries: $(json "$RJ" "[s['name'] for s in r['steps']]")"
json "$RJ" "r['status'] == 'ok' and r['steps'][0]['status'] == 'ok' and r['steps'][0]['measured_seconds'] == 24 and not r['steps'][0].get('incomplete_seconds') and len(r['steps'][0]['coordinator_gaps']) == 2" |
	grep -qx True || fail "the step is not whole: $(json "$RJ" "{k: r['steps'][0].get(k) for k in ('status', 'measured_seconds', 'incomplete_seconds', 'coordinator_gaps')}")"
python3 "$CHECK" "$R" || fail "ground truth disagrees with the twice re-attached run"
echo "PASS"
