#!/bin/bash
# test_agent_two_on_host: two agents on one host whose ports overlap (the second listens on the
# first's control port + 1, its default key announcement port): the agent that finds its
# announcement port taken says so once, naming the port, the likely cause and the fix, and
# still serves; the other's keyscan still works; an announcement port given explicitly (option
# or config key_announce) that is taken is an error. Loopback only.
. "$(dirname "$0")/lib.sh"

# P: a port with P+1..P+3 free too (ephemeral range, checked by binding)
P=$(python3 - <<'PY'
import socket
for _ in range(200):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close()
    if p > 65000:
        continue
    try:
        socks = []
        for q in (p, p + 1, p + 2, p + 3):
            t = socket.socket(); t.bind(("127.0.0.1", q)); socks.append(t)
        for t in socks:
            t.close()
        print(p)
        break
    except OSError:
        for t in socks:
            t.close()
PY
)
[ -n "$P" ] || fail "no four free consecutive loopback ports"

# agent B first, on P+1: its control port is A's default announcement port
"$AGENT" keygen "$T/kb" >/dev/null
"$AGENT" --listen "tcp://127.0.0.1:$((P + 1))" --scratch-dir "$T/sb" --cert "$T/kb/agent.cert" \
	--authorized-keys "$T/kb/authorized_keys" 2>"$T/b.log" &
AGENT_PIDS+=($!)
for _ in $(seq 50); do grep -q "announced" "$T/b.log" && break; sleep 0.1; done
grep -q "announced for bench-coord keyscan on tcp://127.0.0.1:$((P + 2))" "$T/b.log" ||
	fail "agent B did not announce on its control port + 1: $(cat "$T/b.log")"

# agent A on P: its default announcement port P+1 is B's
"$AGENT" keygen "$T/ka" >/dev/null
cp "$COORD_CERT" "$T/ka/authorized_keys/"
"$AGENT" --listen "tcp://127.0.0.1:$P" --scratch-dir "$T/sa" --cert "$T/ka/agent.cert" \
	--authorized-keys "$T/ka/authorized_keys" 2>"$T/a.log" &
AGENT_PIDS+=($!)
for _ in $(seq 50); do grep -q "listening on" "$T/a.log" && grep -q "keyscan" "$T/a.log" && break; sleep 0.1; done
cat "$T/a.log"
[ "$(grep -c "keyscan" "$T/a.log")" = 1 ] || fail "agent A did not say exactly once that keyscan cannot reach it"
line=$(grep "keyscan" "$T/a.log")
for want in "tcp://127.0.0.1:$((P + 1))" "Address already in use" "control port + 1" \
	"another bench-agent on this host" "serves on tcp://127.0.0.1:$P" "--key-announce tcp://\*:PORT" \
	"--key-announce off"; do
	grep -q -e "$want" <<<"$line" || fail "agent A's warning lacks '$want': $line"
done

# A still serves: the coordinator runs a step on it
KA=$(sed -n 's/^ *public-key = "\(.*\)"/\1/p' "$T/ka/agent.cert")
add_known_host "tcp://127.0.0.1:$P" "$KA"
cat >"$T/p.json" <<JSON
{"name": "two", "agents": [{"name": "a", "endpoint": "tcp://127.0.0.1:$P"}],
 "volumes": [{"agent": "a", "path": "null"}],
 "steps": [{"name": "s", "rw": "randread", "bs": "4k", "ramp": "0s", "runtime": "1s"}]}
JSON
"$COORD" run -q -o "$T/runs" "$T/p.json" >"$T/run.out" 2>&1 || { cat "$T/run.out"; fail "agent A does not serve"; }
# B's keyscan is unaffected
"$COORD" keyscan --known-hosts "$T/kh" "tcp://127.0.0.1:$((P + 1))" >"$T/scan.out" 2>&1 ||
	{ cat "$T/scan.out"; fail "keyscan of agent B failed"; }
grep -qF -e "$(sed -n 's/^ *public-key = "\(.*\)"/\1/p' "$T/kb/agent.cert")" "$T/scan.out" ||
	fail "keyscan of agent B did not print B's key"
# the warning came once, not per connection
[ "$(grep -c "keyscan" "$T/a.log")" = 1 ] || fail "agent A repeated the warning"

# an explicit announcement port that is taken is an error, by option and by config
rc=0
timeout 20 "$AGENT" --listen "tcp://127.0.0.1:$((P + 3))" --scratch-dir "$T/sc" --cert "$T/ka/agent.cert" \
	--authorized-keys "$T/ka/authorized_keys" --key-announce "tcp://127.0.0.1:$((P + 1))" 2>"$T/c.log" || rc=$?
[ "$rc" != 0 ] && [ "$rc" != 124 ] || fail "a taken --key-announce port did not stop the agent (exit $rc)"
grep -q "cannot listen for keyscan on 'tcp://127.0.0.1:$((P + 1))'" "$T/c.log" || fail "no error for the taken port: $(cat "$T/c.log")"
printf '{"listen": "tcp://127.0.0.1:%d", "key_announce": "tcp://127.0.0.1:%d"}\n' $((P + 3)) $((P + 1)) >"$T/c.json"
rc=0
timeout 20 "$AGENT" --config "$T/c.json" --scratch-dir "$T/sc" --cert "$T/ka/agent.cert" \
	--authorized-keys "$T/ka/authorized_keys" 2>"$T/c2.log" || rc=$?
[ "$rc" != 0 ] && [ "$rc" != 124 ] || fail "a taken key_announce port did not stop the agent (exit $rc)"
grep -q "cannot listen for keyscan on 'tcp://127.0.0.1:$((P + 1))'" "$T/c2.log" || fail "no error for the taken config port: $(cat "$T/c2.log")"
echo PASS
