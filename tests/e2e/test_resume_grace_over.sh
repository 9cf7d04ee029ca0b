#!/bin/bash
# test_resume_grace_over: a coordinator killed with -9 in a 12 s write step whose orphan_grace
# is 4 s, and resumed only after the grace ran out. Each agent stops on its own when its
# coordinator has been silent for the grace (its log says so): no job thread is left and its
# volume is written no more. `bench-coord run --resume DIR` then finds no agent in the step,
# says why for each, and runs the step again from its start as the next entry, the cut one
# kept and marked; the ground-truth checker agrees with every entry. About 35 s.
. "$(dirname "$0")/lib.sh"

CHECK="$BC_SRC/tests/faults/check_run.py"
start_agent a1
start_agent a2
two_agent_profile grace-over '"orphan_grace": "4s",' '[{"name": "soak", "rw": "randwrite", "bs": "4k", "iodepth": 2, "runtime": "12s",
	   "rate_iops": 400},
	  {"name": "tail", "rw": "randwrite", "bs": "4k", "iodepth": 2, "runtime": "2s",
	   "rate_iops": 400}]'
"$COORD" run --plain -o "$T/out" "$T/p.json" >"$T/stdout" 2>"$T/stderr" &
# kill once both agents' records of the step's second 2 are in
kill_run_at $! 2

# each agent stops by itself once the grace is over (generous: a loaded host is slow)
for a in a1 a2; do
	for _ in $(seq 300); do
		grep -q "its orphan_grace: stopping all I/O" "$T/agent-$a.log" && break
		sleep 0.1
	done
	grep -q "its orphan_grace: stopping all I/O" "$T/agent-$a.log" ||
		fail "agent $a did not stop at the end of its grace: $(tail -5 "$T/agent-$a.log")"
done
# nothing runs and nothing is written after it
assert_agents_stopped "their grace ran out"

resume_run
resume_said "run again from its start: agent a1 no longer runs the step" "the resume did not say why it runs the step again"
grep -q "agent a2 no longer runs the step" "$T/stdout2" || fail "no reason for agent a2"
RJ="$R/run.json"
json "$RJ" "[s['name'] for s in r['steps']]" >"$T/names"
[ "$(cat "$T/names")" = "['soak', 'soak', 'tail']" ] || fail "entries: $(cat "$T/names")"
json "$RJ" "r['status'] == 'ok' and r['steps'][0]['status'] == 'incomplete' and 'interrupted' in r['steps'][0] and r['steps'][1]['status'] == 'ok' and r['steps'][1]['measured_seconds'] == 12 and not r['steps'][0].get('coordinator_gaps')" |
	grep -qx True || fail "run.json: $(json "$RJ" "[(s['status'], s.get('measured_seconds')) for s in r['steps']]")"
python3 "$CHECK" "$R" || fail "ground truth disagrees with the resumed run"
if pgrep -f "bench-coord run.*$T" >/dev/null; then fail "a coordinator is left running"; fi
echo "PASS"
