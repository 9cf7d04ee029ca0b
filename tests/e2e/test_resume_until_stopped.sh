#!/bin/bash
# test_resume_until_stopped: a step that runs until the user stops it, taken up by a resumed
# coordinator, ends at Ctrl-C as it would have live. Two agents with an orphan_grace of 30 s
# run an until_stopped step (cap 120 s); the coordinator is killed with -9 at second 3 and
# `run --resume` follows 2 s later; once the step's second 9 is in, the resumed coordinator
# gets SIGINT. Checked: the step is re-attached, not run again; it stops at a second boundary
# after the gap with its figures (stopped_by_user_at_second == its seconds), the step after it
# does not start, the run ends ok with exit 0; every second and the drain of each agent once;
# the checker agrees. About 20 s.
. "$(dirname "$0")/lib.sh"

CHECK="$BC_SRC/tests/faults/check_run.py"
start_agent a1
start_agent a2
two_agent_profile until '"orphan_grace": "30s",' '[{"name": "soak", "rw": "randrw", "bs": "4k", "iodepth": 2, "runtime": "120s",
	   "until_stopped": true, "rate_iops": 400},
	  {"name": "tail", "rw": "randwrite", "bs": "4k", "iodepth": 2, "runtime": "2s",
	   "rate_iops": 400}]'
"$COORD" run --plain -o "$T/out" "$T/p.json" >"$T/stdout" 2>"$T/stderr" &
kill_run_at $! 3
sleep 2
"$COORD" run --plain --resume "$R" >"$T/stdout2" 2>"$T/stderr2" &
CPID=$!
wait_run_when "$CPID" "$(at_second 9)"
kill -INT "$CPID"
RC=0
wait "$CPID" || RC=$?
[ "$RC" = 0 ] || fail "exit code $RC after stopping the taken-up step: $(cat "$T/stdout2" "$T/stderr2")"
resume_said "re-attached: soak" "the resume did not re-attach to the step in flight"
resume_said "stopped by the user" "the resume did not stop the taken-up step at Ctrl-C"
if grep -q "run again" "$T/stdout2"; then fail "the step ran again: $(cat "$T/stdout2")"; fi
RJ="$R/run.json"
json "$RJ" 'r["status"] == "ok" and [s["status"] for s in r["steps"]] == ["ok", "not started"] and 10 <= r["steps"][0]["stopped_by_user_at_second"] == r["steps"][0]["seconds"] < 120 and len(r["steps"][0]["coordinator_gaps"]) == 1' |
	grep -qx True || fail "run.json: $(json "$RJ" '[(s["name"], s["status"], s.get("seconds"), s.get("stopped_by_user_at_second"), s.get("error")) for s in r["steps"]], r["status"]')"
assert_each_once "$(json "$RJ" 'r["steps"][0]["seconds"]')" 1
python3 "$CHECK" "$R" || fail "ground truth disagrees with the stopped step"
echo "PASS"
