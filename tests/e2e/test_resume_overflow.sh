#!/bin/bash
# test_resume_overflow: the records an agent keeps for a silent coordinator fill their buffer
# before the grace runs out. Two agents with a deliberately small buffer (bench-agent
# --orphan-ring-kib 16, a knob for tests only: ~20 s of this step's records at ~0.8 KiB a
# second, 10 of which the buffer keeps while the coordinator is heard; the budget would be
# 0.6 MiB) run a 24 s step with an orphan_grace of 60 s; the coordinator is killed with -9 at
# second 4, and the buffer fills about 10 s into the silence. Each agent says so in its log,
# stops all I/O (no job thread left, its volume written no more) and ends the session.
# `run --resume` then learns from each agent (HELLO_OK orphan_end) where it stopped and why,
# says which seconds' records are lost, and runs the step again: entries [soak incomplete and
# marked, soak ok], the checker agreeing. About 50 s.
. "$(dirname "$0")/lib.sh"

CHECK="$BC_SRC/tests/faults/check_run.py"
start_agent a1 --orphan-ring-kib 16
start_agent a2 --orphan-ring-kib 16
two_agent_profile overflow '"orphan_grace": "60s",' '[{"name": "soak", "rw": "randwrite", "bs": "4k", "iodepth": 2, "runtime": "24s",
	   "rate_iops": 400}]'
"$COORD" run --plain -o "$T/out" "$T/p.json" >"$T/stdout" 2>"$T/stderr" &
kill_run_at $! 4
FULL="fill their 16 KiB after"
for a in a1 a2; do
	for _ in $(seq 400); do
		grep -q "$FULL" "$T/agent-$a.log" && grep -q "session with .* ended" "$T/agent-$a.log" && break
		sleep 0.1
	done
	grep -q "$FULL.*stopping all I/O" "$T/agent-$a.log" ||
		fail "agent $a: no full buffer in its log: $(tail -5 "$T/agent-$a.log")"
	grep -q "ended: the records kept for a silent coordinator filled their buffer" "$T/agent-$a.log" ||
		fail "agent $a did not end its session: $(tail -5 "$T/agent-$a.log")"
done
assert_agents_stopped "their buffers filled"

resume_run
for a in a1 a2; do
	grep -qE "agent $a no longer runs the step: it stopped its I/O in second [0-9]+ after [0-9]+ ms of coordinator silence \(the records it kept for its silent coordinator filled their buffer\); its records of seconds [0-9]+ to [0-9]+ never reached the run directory and are lost" "$T/stdout2" ||
		fail "the resume did not say what agent $a lost: $(cat "$T/stdout2")"
done
resume_said "run again from its start" "the resume did not run the step again"
RJ="$R/run.json"
[ "$(json "$RJ" "[s['name'] for s in r['steps']]")" = "['soak', 'soak']" ] ||
	fail "entries: $(json "$RJ" "[s['name'] for s in r['steps']]")"
json "$RJ" "r['status'] == 'ok' and r['steps'][0]['status'] == 'incomplete' and 'interrupted' in r['steps'][0] and r['steps'][1]['status'] == 'ok' and r['steps'][1]['measured_seconds'] == 24" |
	grep -qx True || fail "run.json: $(json "$RJ" "[(s['status'], s.get('measured_seconds')) for s in r['steps']]")"
python3 "$CHECK" "$R" || fail "ground truth disagrees with the resumed run"
grep -o "agent a1 no longer runs the step[^;]*; its records of seconds [0-9]* to [0-9]*" "$T/stdout2"
echo "PASS"
