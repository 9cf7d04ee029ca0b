#!/bin/bash
# agent_loss CASE: one of three agents dies (kill -9) or hangs (SIGSTOP) mid-step.
# on_agent_loss "abort": the run exits non-zero within a few seconds and its run directory holds
# everything measured up to the loss. "continue": the other two finish, the lost one is marked
# in run.json, summary.md and on the terminal, and the exit code is 3.
. "$(dirname "$0")/lib.sh"
CASE=${1:?case}
SIG=${CASE%%_*}   # kill or stop
POLICY=${CASE#*_} # abort or continue

for a in a1 a2 a3; do start_agent $a; done
VICTIM=${AGENT_PIDS[1]}
cat >"$T/p.json" <<JSON
{"name": "loss-$CASE", "on_agent_loss": "$POLICY",
 "agents": [{"name": "a1", "endpoint": "$EP_a1"}, {"name": "a2", "endpoint": "$EP_a2"},
            {"name": "a3", "endpoint": "$EP_a3"}],
 "volumes": [{"agent": "a1", "path": "$T/a1.dat", "size": "16m"},
             {"agent": "a2", "path": "$T/a2.dat", "size": "16m"},
             {"agent": "a3", "path": "$T/a3.dat", "size": "16m"}],
 "steps": [{"name": "s0", "rw": "randread", "bs": "4k", "iodepth": 4, "ramp": "1s", "runtime": "9s"},
           {"name": "s1", "rw": "randread", "bs": "4k", "iodepth": 4, "runtime": "3s"}]}
JSON
"$COORD" run -o "$T/out" "$T/p.json" >"$T/stdout" 2>"$T/stderr" &
CPID=$!
# wait until the step runs, then hit a2
for _ in $(seq 100); do
	grep -qE '^[0-9:]{8} +2 ' "$T/stdout" 2>/dev/null && break
	sleep 0.1
done
t0=$(date +%s)
if [ "$SIG" = kill ]; then kill -9 "$VICTIM"; else kill -STOP "$VICTIM"; fi
rc=0
wait $CPID || rc=$?
t1=$(date +%s)
[ "$SIG" = stop ] && kill -CONT "$VICTIM" 2>/dev/null
cat "$T/stdout" "$T/stderr"
R=$(run_dir "$T/out")
RJ="$R/run.json"
grep -q '"agent":"a2".*"event":"stats"' "$R/events.jsonl" || fail "a2's seconds before the loss are not on disk"
json "$RJ" "any(a['name']=='a2' and a['all_intervals']['bytes']>0 for a in r['steps'][0]['agents'])" |
	grep -qx True || fail "a2's measured bytes before the loss are missing from run.json"
if [ "$POLICY" = abort ]; then
	[ "$rc" = 1 ] || fail "exit code $rc, expected 1"
	[ $((t1 - t0)) -le 7 ] || fail "took $((t1 - t0)) s to give up on a2"
	[ "$(json "$RJ" 'r["status"]')" = failed ] || fail "run.json status is not failed"
	json "$RJ" "'agent a2' in r['error'] and 'silent' in r['error']" | grep -qx True ||
		fail "run.json error does not name a2 and the silence"
	json "$RJ" "[l['name'] for l in r['steps'][0]['lost_agents']] == ['a2']" | grep -qx True ||
		fail "lost_agents does not name a2 under on_agent_loss abort"
	grep -q 'agent a2 (tcp://127.0.0.1:[0-9]*): silent for 5 s' "$T/stderr" || fail "no clear error"
else
	[ "$rc" = 3 ] || fail "exit code $rc, expected 3"
	[ "$(json "$RJ" 'r["status"]')" = degraded ] || fail "run.json status is not degraded"
	json "$RJ" "[l['name'] for l in r['steps'][0]['lost_agents']] == ['a2'] and r['steps'][0]['lost_agents'][0]['from_second'] <= 6" |
		grep -qx True || fail "lost agent not recorded in step 0"
	# the other two ran to the end of step 0 and through step 1
	json "$RJ" "all(a['series']['iops'][-1] > 0 for a in r['steps'][0]['agents'] if a['name'] != 'a2')" |
		grep -qx True || fail "a1/a3 did not finish step 0"
	# a lost agent is out of every later step: not in its figures, the step degraded
	json "$RJ" "r['steps'][1]['status'] == 'degraded' and [a['name'] for a in r['steps'][1]['agents']] == ['a1', 'a3'] and all(a['bytes'] > 0 for a in r['steps'][1]['agents']) and r['steps'][1]['agents_out'] == ['a2'] and 'a2' in r['steps'][1]['degraded']" |
		grep -qx True || fail "step 1 did not run on a1 and a3 only"
	json "$RJ" "r['steps'][0]['status'] == 'degraded' and 'a2' not in json.dumps(r['steps'][1].get('analysis', {}))" |
		grep -qx True || fail "step 0 not degraded, or a2 still a client of step 1's verdict"
	grep -q 'Agent a2 lost from second' "$R/summary.md" || fail "summary.md does not show the loss"
	grep -q 'agent a2 .* lost around second' "$T/stderr" || fail "terminal does not show the loss"
fi
echo "PASS"
