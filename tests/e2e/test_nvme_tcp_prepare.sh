#!/bin/bash
# test_nvme_tcp_prepare: a profile with an "nvme_tcp" volume on a host without the nvme-fabrics
# module fails at PREPARE, cleanly: exit 1, one message naming the volume (its label and index)
# and the fabric address, the failure in run.json, no local agent left running; a daemon agent
# reports the same and keeps serving (a second, plain-file run on it succeeds). The only fabric
# address used is loopback. Where /dev/nvme-fabrics does exist, the connect to 127.0.0.1:4420
# (nothing listens) fails the same way with another reason.
. "$(dirname "$0")/lib.sh"

NQN=nqn.2026-11.io.bench-coord.test:absent
profile() { # profile AGENTS_JSON
	cat <<JSON
{"name": "nvme-tcp-prepare",
 "agents": $1,
 "volumes": [{"agent": "c1", "path": "v.dat", "size": "1m"},
             {"agent": "c1", "nvme_tcp": {"traddr": "127.0.0.1", "subnqn": "$NQN", "nsid": 1}}],
 "steps": [{"name": "s0", "rw": "randread", "runtime": "1s"}]}
JSON
}
LABEL="nvme-tcp://127\.0\.0\.1:4420/$NQN/ns1"

# 1. a local agent: bench-coord starts it and must not leave it behind
profile '[{"name": "c1", "endpoint": "local"}]' >"$T/p.json"
"$COORD" validate "$T/p.json" >/dev/null || fail "the profile does not validate"
rc=0
"$COORD" run -o "$T/out" --scratch-dir "$T/scr" --connect-timeout 2 "$T/p.json" \
	>"$T/stdout" 2>"$T/stderr" || rc=$?
cat "$T/stderr"
[ "$rc" = 1 ] || fail "exit code $rc, expected 1"
grep -Eq "agent c1 \(tcp://127\.0\.0\.1:[0-9]+\): volumes\[1\] \($LABEL\): " "$T/stderr" ||
	fail "the error does not name the agent, volumes[1] and its fabric address"
grep -Eq "/dev/nvme-fabrics|127\.0\.0\.1:4420" "$T/stderr" || fail "the error gives no reason"
assert_no_agents "$T/scr"
R=$(run_dir "$T/out")
json "$R/run.json" "r['status'] == 'not started' and '127.0.0.1:4420' in r['steps'][0]['error']" |
	grep -qx True || fail "run.json does not record the failure"

# 2. a daemon agent: the same error, and it is still there and usable afterwards
start_agent c1
profile "[{\"name\": \"c1\", \"endpoint\": \"$EP_c1\"}]" >"$T/p2.json"
rc=0
"$COORD" run -o "$T/out2" --connect-timeout 2 "$T/p2.json" >"$T/stdout2" 2>"$T/stderr2" || rc=$?
cat "$T/stderr2"
[ "$rc" = 1 ] || fail "daemon agent: exit code $rc, expected 1"
grep -Eq "volumes\[1\] \($LABEL\): " "$T/stderr2" || fail "daemon agent: volume not named"
grep -q "prepare failed: volumes\[1\] (nvme-tcp://127.0.0.1:4420/" "$T/agent-c1.log" ||
	fail "the agent's log does not name the volume"
kill -0 "${AGENT_PIDS[0]}" || fail "the agent died"
cat >"$T/p3.json" <<JSON
{"name": "after", "agents": [{"name": "c1", "endpoint": "$EP_c1"}],
 "volumes": [{"agent": "c1", "path": "v.dat", "size": "1m"}],
 "steps": [{"name": "s0", "rw": "randread", "runtime": "1s"}]}
JSON
"$COORD" run -q -o "$T/out3" --connect-timeout 2 "$T/p3.json" >/dev/null 2>"$T/stderr3" ||
	fail "the agent does not serve the next run: $(cat "$T/stderr3")"
echo "PASS"
