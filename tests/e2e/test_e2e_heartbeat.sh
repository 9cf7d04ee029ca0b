#!/bin/bash
# test_e2e_heartbeat: the coordinator keeps its sessions alive while it writes results. A real
# agent whose dead-man switch fires after 3 s of silence (--deadman-ms, a test option) runs a
# three-point sweep whose results writing after each point is made 8 s slower on purpose
# (--results-delay-ms, a test option): every point runs, and the agent's session ends with BYE,
# never with "silent". Then the other side: an agent with its default switch, idle between
# points while the coordinator is killed -9 in its slow results phase, ends the session as soon
# as the connection is gone (not after the long idle limit) and serves a new run.
. "$(dirname "$0")/lib.sh"

profile() { # profile NAME AGENT
	local ep
	ep=EP_$2
	cat <<JSON
{"name": "$1",
 "agents": [{"name": "$2", "endpoint": "${!ep}"}],
 "volumes": [{"agent": "$2", "path": "$T/$2.dat", "size": "16m"}],
 "steps": [{"name": "rr", "rw": "randread", "bs": "4k",
            "sweep": {"iodepth": [1, 2, 4], "ramp": "0s", "runtime": "2s"}}]}
JSON
}

start_agent real0 --deadman-ms 3000
profile hb real0 >"$T/hb.json"
"$COORD" run -q -o "$T/out" --results-delay-ms 8000 "$T/hb.json" >"$T/stdout" 2>"$T/stderr" || {
	cat "$T/stdout" "$T/stderr" "$T/agent-real0.log"
	fail "the sweep failed while its results phase was slow"
}
R=$(run_dir "$T/out")
json "$R/run.json" "[(s['name'], s['status']) for s in r['steps']] == [('rr@iodepth=1', 'ok'), ('rr@iodepth=2', 'ok'), ('rr@iodepth=4', 'ok')]" |
	grep -qx True || fail "not every point ran: $(json "$R/run.json" "[(s['name'], s['status']) for s in r['steps']]")"
! grep -q "silent for" "$T/agent-real0.log" || fail "the agent's dead-man switch fired: $(cat "$T/agent-real0.log")"
grep -q "session with .* ended: BYE" "$T/agent-real0.log" || fail "the session did not end with BYE: $(cat "$T/agent-real0.log")"
grep "longest coordinator silence" "$T/agent-real0.log"

# a coordinator really gone while the agent is idle: the session ends at once
start_agent real1
profile gone real1 >"$T/gone.json"
"$COORD" run -q -o "$T/out-gone" --results-delay-ms 120000 "$T/gone.json" >"$T/stdout-gone" 2>&1 &
CPID=$!
for _ in $(seq 300); do
	grep -qs '"event":"step_done"' "$T"/out-gone/*/events.jsonl && break
	sleep 0.1
done
grep -qs '"event":"step_done"' "$T"/out-gone/*/events.jsonl || fail "the first point did not end"
sleep 1 # in the delayed results phase: the agent is idle
kill -9 $CPID
wait $CPID 2>/dev/null || true
for _ in $(seq 150); do
	grep -q "ended: coordinator gone" "$T/agent-real1.log" && break
	sleep 0.1
done
grep -q "ended: coordinator gone" "$T/agent-real1.log" ||
	fail "the idle agent kept the session of a dead coordinator: $(cat "$T/agent-real1.log")"
profile again real1 >"$T/again.json"
sed -i 's/"iodepth": \[1, 2, 4\]/"iodepth": [1]/' "$T/again.json"
"$COORD" run -q -o "$T/out-again" "$T/again.json" >"$T/stdout-again" 2>&1 || {
	cat "$T/stdout-again"
	fail "the agent did not serve a new run"
}
echo "PASS"
