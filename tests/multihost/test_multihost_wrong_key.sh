#!/bin/bash
# test_multihost_wrong_key: on three namespace hosts, a coordinator whose key an agent does not
# authorize is refused with a clear error on both sides (the agent logs "rejected coordinator key
# K from ADDR", bench-coord names the agent and the fix, at once); a wrong server_key and a
# plain-text coordinator are refused with their own clear errors, each logged by the agent with
# the coordinator's address; the agents keep serving, and the right keys then run.
. "$(dirname "$0")/../hosts/hosts.sh"

hosts_up 3
profile() { # profile FILE [PYTHON-EXPR-ON-p]: the three hosts, one small read step each
	cat >"$1" <<JSON
{"name": "mh-keys", "agents": $(agents_json),
 "volumes": [{"agent": "h1", "path": "v.dat", "size": "4m"}, {"agent": "h2", "path": "v.dat", "size": "4m"},
             {"agent": "h3", "path": "v.dat", "size": "4m"}],
 "steps": [{"name": "s", "rw": "randread", "runtime": "1s"}]}
JSON
	if [ -n "${2:-}" ]; then
		python3 -c "import json,sys; p=json.load(open(sys.argv[1])); $2; json.dump(p, open(sys.argv[1], 'w'))" "$1"
	fi
}
# run NAME ARGS...: bench-coord run, stdout+stderr in $HOSTS_DIR/NAME.out, exit code in RC;
# CT: its --connect-timeout in seconds (3)
run() {
	local name=$1 t0
	shift
	RC=0
	t0=$(date +%s%N)
	"$COORD" run -q -o "$HOSTS_DIR/out-$name" --connect-timeout "${CT:-3}" "$@" >"$HOSTS_DIR/$name.out" 2>&1 || RC=$?
	ELAPSED_MS=$((($(date +%s%N) - t0) / 1000000))
	cat "$HOSTS_DIR/$name.out"
}

# 1. a coordinator key no agent authorizes
"$COORD" keygen "$HOSTS_DIR/intruder" >/dev/null
intruder=$(sed -n 's/^ *public-key = "\(.*\)"/\1/p' "$HOSTS_DIR/intruder/coord.cert")
profile "$HOSTS_DIR/p.json"
# a 30 s connect timeout: the refusal must come well before it, however busy the host (a 3 s
# timeout and a 3 s bound flipped on a loaded CI machine)
CT=30 run intruder --cert "$HOSTS_DIR/intruder/coord.cert" "$HOSTS_DIR/p.json"
[ "$RC" = 1 ] || fail "unauthorized coordinator: exit $RC, expected 1"
grep -qE "agent h[123] \(tcp://${HOSTS_NET//./\\.}\.1[123]:7470\): CURVE handshake failed: the agent rejected this coordinator's key" \
	"$HOSTS_DIR/intruder.out" || fail "coordinator error does not name the agent and the rejected key"
grep -qF -e "$intruder" "$HOSTS_DIR/intruder.out" || fail "coordinator error does not show its key"
grep -q "authorized-keys directory" "$HOSTS_DIR/intruder.out" || fail "coordinator error does not say how to fix it"
[ "$ELAPSED_MS" -lt 15000 ] || fail "took ${ELAPSED_MS} ms: a refused key should fail long before the 30 s connect timeout"
for i in 1 2 3; do
	for _ in $(seq 100); do grep -qF "rejected coordinator key $intruder from $HOSTS_NET.1" "${HOST_LOG[$i]}" && break; sleep 0.1; done
	grep -qF "rejected coordinator key $intruder from $HOSTS_NET.1" "${HOST_LOG[$i]}" ||
		{ cat "${HOST_LOG[$i]}"; fail "h$i did not log the rejected key and address"; }
done

# 2. a server_key that is not h2's (h3's): the handshake cannot complete
profile "$HOSTS_DIR/p2.json" "p['agents'][1]['server_key'] = '${HOST_KEY[3]}'"
run wrongserver "$HOSTS_DIR/p2.json"
[ "$RC" = 1 ] || fail "wrong server_key: exit $RC, expected 1"
grep -qE "agent h2 \(tcp://[0-9.]+:7470\): no answer to HELLO within 3\.0 s: CURVE handshake failed" \
	"$HOSTS_DIR/wrongserver.out" || fail "coordinator error does not explain the failed handshake"
grep -q "server_key" "$HOSTS_DIR/wrongserver.out" || fail "coordinator error does not point at server_key"
# the peer is the coordinator (the root namespace's bridge address) with its ephemeral port
peer_re="${HOSTS_NET//./\\.}\\.1:[0-9]+"
for _ in $(seq 100); do grep -q "CURVE handshake from" "${HOST_LOG[2]}" && break; sleep 0.1; done
grep -qE "CURVE handshake from $peer_re on tcp://${HOST_IP[2]//./\\.}:7470 failed: cryptographic error" "${HOST_LOG[2]}" ||
	{ cat "${HOST_LOG[2]}"; fail "h2 did not log the failed handshake with the coordinator's address"; }

# 3. plain text against CURVE agents
run plain --insecure "$HOSTS_DIR/p.json"
[ "$RC" = 1 ] || fail "--insecure coordinator: exit $RC, expected 1"
grep -q "security mechanism mismatch" "$HOSTS_DIR/plain.out" || fail "no mechanism mismatch error"
# which side sees the mismatch first is a race: the agent logs it, or the coordinator's close
plain_re="handshake from $peer_re on tcp://${HOST_IP[1]//./\\.}:7470 failed: (security mechanism mismatch|.*the peer closed the connection)"
for _ in $(seq 100); do grep -qE "$plain_re" "${HOST_LOG[1]}" && break; sleep 0.1; done
grep -qE "$plain_re" "${HOST_LOG[1]}" ||
	{ cat "${HOST_LOG[1]}"; fail "h1 did not log the plain-text coordinator with its address"; }

# 4. the agents still serve, and the right keys run
run good "$HOSTS_DIR/p.json"
[ "$RC" = 0 ] || fail "the authorized coordinator could not run after the refusals"
for i in 1 2 3; do kill -0 "${HOST_PID[$i]}" || fail "h$i died"; done
echo "PASS"
