#!/bin/bash
# flood.sh CASE: one agent on loopback under hostile traffic; it keeps serving its real
# coordinator, counts and logs (rate-limited, with the peer's address) what it dropped, and
# `bench-coord agents` shows the counters. Cases:
#   announce_flood  1,100 idle connections to the key-announce port of an agent whose
#                   descriptor limit is 1,024: capped like the control port, the run goes on
#   hello_timeout   an agent that cannot answer (stopped): the coordinator's message lists
#                   the likely causes in order (overloaded / descriptor limit, key, network)
#   oversized       a 64 MiB frame from an authenticated peer: counted as oversized, logged
#   mechanism       a ZMTP greeting naming an unknown mechanism: logged as such, not as
#                   plain text
#   half_open       a connection that never sends a byte, closed by the agent's handshake
#                   timeout: logged as that, not as "the peer hung up"
. "$BC_SRC/tests/e2e/lib.sh"
CASE=${1:?case}
GARBAGE="$BC_BIN/tests/bc_garbage"
[ -x "$GARBAGE" ] || fail "$GARBAGE not built"

profile() {
	cat >"$T/p.json" <<JSON
{"name": "flood", "agents": [{"name": "a1", "endpoint": "$EP_a1"}],
 "volumes": [{"agent": "a1", "path": "$T/a1.dat", "size": "8m"}],
 "steps": [{"name": "s0", "rw": "randread", "bs": "4k", "iodepth": 2, "runtime": "2s"}]}
JSON
}

# agents_counters: `bench-coord agents` on the profile, its output in $T/agents.out
agents_counters() {
	"$COORD" agents "$T/p.json" >"$T/agents.out" 2>&1 || fail "bench-coord agents failed: $(cat "$T/agents.out")"
	cat "$T/agents.out"
}

case $CASE in
announce_flood)
	command -v prlimit >/dev/null || { echo "skip: no prlimit"; exit 77; }
	start_agent a1 --key-announce 'tcp://127.0.0.1:*'
	APID=${AGENT_PIDS[0]}
	ANN=$(sed -n 's/.*announced for bench-coord keyscan on tcp:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$T/agent-a1.log" | head -n1)
	[ -n "$ANN" ] || fail "the agent announces no key: $(cat "$T/agent-a1.log")"
	# as if started under a 1,024 descriptor limit (the agent raised its soft limit at start)
	prlimit --pid "$APID" --nofile=1024:1024 || { echo "skip: cannot set the agent's limit"; exit 77; }
	hold_connections "$ANN" 1100
	profile
	rc=0
	"$COORD" run -q -o "$T/out" "$T/p.json" >"$T/stdout" 2>&1 || rc=$?
	cat "$T/stdout"
	[ "$rc" = 0 ] || fail "the run failed (exit $rc) with 1,100 connections on the announce port"
	fds=$(ls "/proc/$APID/fd" | wc -l)
	echo "agent descriptors with the flood open: $fds"
	[ "$fds" -lt 600 ] || fail "the agent holds $fds descriptors"
	agents_counters
	hold_release
	grep -qE "announce.*127\.0\.0\.1|127\.0\.0\.1.*announce" "$T/agent-a1.log" ||
		fail "the agent did not log the announce flood with the peer: $(tail -n5 "$T/agent-a1.log")"
	n=$(grep -c "announce" "$T/agent-a1.log")
	[ "$n" -lt 40 ] || fail "$n log lines about the flood: not rate-limited"
	grep -E "announce" "$T/agents.out" | grep -qE "[0-9]{3}" ||
		fail "bench-coord agents does not show the announce port's closed connections"
	grep -q "127.0.0.1" "$T/agents.out" || fail "bench-coord agents does not name the peer"
	;;
hello_timeout)
	start_agent a1
	profile
	kill -STOP "${AGENT_PIDS[0]}"
	rc=0
	"$COORD" run -q --connect-timeout 2 -o "$T/out" "$T/p.json" >"$T/stdout" 2>&1 || rc=$?
	kill -CONT "${AGENT_PIDS[0]}"
	cat "$T/stdout"
	[ "$rc" = 1 ] || fail "exit $rc, expected 1"
	python3 - "$T/stdout" <<'PY' || fail "the HELLO timeout does not list the causes in order"
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r"no answer to HELLO.*", t)
assert m, "no HELLO timeout message"
msg = m.group(0)
at = [msg.find(w) for w in ("overloaded", "descriptor", "key", "network")]
print(at)
assert all(a >= 0 for a in at) and at == sorted(at), msg
PY
	;;
oversized)
	start_agent a1
	"$GARBAGE" --big "$EP_a1" "$KEY_a1" "$COORD_CERT" 64 || fail "bc_garbage --big failed"
	sec=$("$GARBAGE" --hello "$EP_a1" "$KEY_a1" "$COORD_CERT") || fail "no HELLO_OK after the 64 MiB frame"
	echo "security: $sec"
	python3 -c "import json,sys; d=json.loads(sys.argv[1])['dropped']; assert d['oversized'] >= 1, d" "$sec" ||
		fail "a 64 MiB frame is not counted as oversized"
	grep -E "64 MiB|67108|oversized|larger than" "$T/agent-a1.log" | grep -q "127.0.0.1" ||
		fail "the agent did not log the oversized frame with its peer: $(cat "$T/agent-a1.log")"
	;;
mechanism)
	start_agent a1
	"$GARBAGE" --greeting 127.0.0.1 "${EP_a1##*:}" FOO || fail "bc_garbage --greeting failed"
	for _ in $(seq 50); do grep -q "mechanism" "$T/agent-a1.log" && break; sleep 0.1; done
	cat "$T/agent-a1.log"
	grep "mechanism" "$T/agent-a1.log" | grep -q "127.0.0.1" || fail "no log line naming the peer"
	! grep "mechanism" "$T/agent-a1.log" | grep -qi "plain text" || fail "an unknown mechanism logged as plain text"
	;;
half_open)
	start_agent a1 --handshake-timeout 2
	python3 - "${EP_a1##*:}" <<'PY'
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=20)
s.settimeout(30)
# the agent's ZMTP greeting arrives; we send nothing and wait for the agent to close
try:
    while s.recv(4096):
        pass
except OSError:
    pass
PY
	for _ in $(seq 50); do grep -q "handshake" "$T/agent-a1.log" && break; sleep 0.1; done
	cat "$T/agent-a1.log"
	grep "handshake" "$T/agent-a1.log" | grep -q "127.0.0.1" || fail "no log line naming the peer"
	! grep -q "hung up" "$T/agent-a1.log" || fail "a connection the agent closed is logged as the peer hanging up"
	grep -qE "no handshake within 2(\.0)? s|handshake timeout" "$T/agent-a1.log" || fail "the log does not say the agent's handshake timeout closed it"
	;;
*)
	fail "unknown case $CASE"
	;;
esac
echo "PASS: $CASE"
