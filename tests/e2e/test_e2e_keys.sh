#!/bin/bash
# test_e2e_keys: keys from files and from the network, never pasted. `bench-coord trust
# agent.cert` pins an agent under the endpoint its certificate records; `bench-coord keyscan`
# fetches a running agent's key from its announcement and pins it only with
# --trust-on-first-use; a pinned key that differs is a hard error for both; every key or command
# printed survives the shell; hints follow XDG_CONFIG_HOME; a 0644 secret and a 0777
# authorized-keys directory are warned about on each side. Loopback only.
. "$(dirname "$0")/lib.sh"

KH="$T/kh"   # a known-hosts file of this test's own (start_agent fills the default one)

# shell_word LINE N: the Nth word of LINE as a shell would read it
shell_word() {
	local n=$2
	eval "set -- $1"
	shift $((n - 1))
	printf '%s' "$1"
}

# 1. keygen: the hints name $XDG_CONFIG_HOME and are shell-safe
out=$("$COORD" keygen --force)
echo "$out"
grep -q "$XDG_CONFIG_HOME/bench-coord/coord.cert" <<<"$out" || fail "keygen does not name XDG_CONFIG_HOME"
! grep -q '~/.config/bench-coord' <<<"$out" || fail "keygen names ~/.config despite XDG_CONFIG_HOME"
mkdir -p "$T/a1keys"
out=$("$AGENT" keygen --endpoint tcp://127.0.0.1:1 "$T/a1keys")
echo "$out"
cmd=$(sed -n 's/^ *bench-coord trust //p' <<<"$out")
[ "$(shell_word "$cmd" 1)" = "$T/a1keys/agent.cert" ] || fail "keygen's trust command is not shell-safe: $cmd"

# 2. an agent on loopback whose key the coordinator does not know yet
cp "$XDG_CONFIG_HOME/bench-coord/coord.cert" "$T/a1keys/authorized_keys/"
"$AGENT" --listen 'tcp://127.0.0.1:*' --ready-fd 3 --scratch-dir "$T/scr1" --cert "$T/a1keys/agent.cert" \
	--authorized-keys "$T/a1keys/authorized_keys" --key-announce 'tcp://127.0.0.1:*' \
	3>"$T/ep1" 2>"$T/a1.log" &
AGENT_PIDS+=($!)
for _ in $(seq 50); do [ -s "$T/ep1" ] && grep -q "announced" "$T/a1.log" && break; sleep 0.1; done
EP1=$(head -n1 "$T/ep1")
ANN=$(sed -n 's/.*announced for bench-coord keyscan on \([^ ]*\) .*/\1/p' "$T/a1.log")
[ -n "$EP1" ] && [ -n "$ANN" ] || fail "agent did not start: $(cat "$T/a1.log")"
KEY1=$(sed -n 's/^ *public-key = "\(.*\)"/\1/p' "$T/a1keys/agent.cert")
cat >"$T/p.json" <<JSON
{"name": "keys", "agents": [{"name": "a1", "endpoint": "$EP1"}],
 "volumes": [{"agent": "a1", "path": "null"}], "steps": [{"name": "s"}]}
JSON
"$COORD" agents --known-hosts "$KH" "$T/p.json" >/dev/null 2>"$T/err" && fail "agents ran without the agent's key"
grep -q "keyscan --trust-on-first-use $EP1" "$T/err" || fail "no-key error does not suggest keyscan: $(cat "$T/err")"

# 3. keyscan without consent: prints the key (shell-safe) and fingerprint, writes nothing
out=$("$COORD" keyscan --known-hosts "$KH" --announce "$ANN" "$EP1")
echo "$out"
line=$(head -n1 <<<"$out")
[ "$(shell_word "$line" 2)" = "$KEY1" ] || fail "the printed key does not survive the shell: $line"
fp=$("$AGENT" fingerprint "$T/a1keys/agent.cert" | awk '{print $NF}')
grep -qF "$fp" <<<"$line" || fail "keyscan's fingerprint differs from bench-agent fingerprint ($fp)"
[ "$(shell_word "$("$AGENT" fingerprint "$T/a1keys/agent.cert")" 1)" = "$KEY1" ] ||
	fail "bench-agent fingerprint's key is not shell-safe"
[ ! -e "$KH" ] || fail "keyscan wrote known-hosts without --trust-on-first-use"

# 4. --trust-on-first-use pins it; the coordinator then connects with it
"$COORD" keyscan --trust-on-first-use --known-hosts "$KH" --announce "$ANN" "$EP1" | tee "$T/out"
grep -q "^pinned $EP1 SHA256:" "$T/out" || fail "keyscan did not pin"
grep -qxF "$EP1 $KEY1" "$KH" || fail "known-hosts has no line for the agent"
"$COORD" agents --known-hosts "$KH" "$T/p.json" >/dev/null 2>"$T/err" ||
	fail "agents failed with the pinned key: $(cat "$T/err")"

# 5. trust: the certificate's endpoint (keygen --endpoint), --endpoint, --name; then a mismatch
"$COORD" trust --known-hosts "$T/kh2" "$T/a1keys/agent.cert" | tee "$T/out"
grep -qxF "tcp://127.0.0.1:1 $KEY1" "$T/kh2" || fail "trust did not use the certificate's endpoint"
"$COORD" trust --known-hosts "$T/kh2" --name a1 "$T/a1keys/agent.cert" >/dev/null
grep -qxF "a1 $KEY1" "$T/kh2" || fail "trust --name did not pin under the name"
"$COORD" agents --known-hosts "$T/kh2" "$T/p.json" >/dev/null 2>"$T/err" ||
	fail "agents failed with the trusted certificate: $(cat "$T/err")"
"$COORD" trust --known-hosts "$T/kh2" --name a1 "$T/a1keys/agent.cert" | grep -q "^already pinned a1" ||
	fail "a second trust is not 'already pinned'"
"$AGENT" keygen "$T/other" >/dev/null
cp "$T/kh2" "$T/kh2.before"
rc=0
"$COORD" trust --known-hosts "$T/kh2" --name a1 "$T/other/agent.cert" 2>"$T/err" || rc=$?
[ "$rc" = 1 ] && grep -q "a1 is pinned to another key" "$T/err" || fail "trust replaced a pinned key (rc $rc)"
cmp -s "$T/kh2" "$T/kh2.before" || fail "a refused trust changed known-hosts"
# keyscan of an endpoint pinned to another key: an error with and without consent
python3 - "$KH" "$T/kh3" "$EP1" "$(sed -n 's/^ *public-key = "\(.*\)"/\1/p' "$T/other/agent.cert")" <<'PY'
import sys
src, dst, ep, key = sys.argv[1:]
lines = [f"{ep} {key}" if l.split(" ")[0] == ep else l for l in open(src).read().splitlines()]
open(dst, "w").write("\n".join(lines) + "\n")
PY
for tofu in "" --trust-on-first-use; do
	rc=0
	"$COORD" keyscan $tofu --known-hosts "$T/kh3" --announce "$ANN" "$EP1" >/dev/null 2>"$T/err" || rc=$?
	[ "$rc" = 1 ] && grep -q "another key" "$T/err" || fail "keyscan $tofu accepted a changed key (rc $rc)"
done

# 6. permissions, both sides: a secret others can read, an authorized-keys directory anyone can write
chmod 0644 "$XDG_CONFIG_HOME/bench-coord/coord.cert_secret"
"$COORD" agents --known-hosts "$KH" "$T/p.json" >/dev/null 2>"$T/err" || true
grep -q "secret key file '$XDG_CONFIG_HOME/bench-coord/coord.cert_secret' is readable or writable by others" \
	"$T/err" || fail "no warning for a 0644 coordinator secret: $(cat "$T/err")"
chmod 0600 "$XDG_CONFIG_HOME/bench-coord/coord.cert_secret"
chmod 0777 "$T/a1keys/authorized_keys"
chmod 0644 "$T/a1keys/agent.cert_secret"
timeout 5 "$AGENT" --listen 'tcp://127.0.0.1:*' --cert "$T/a1keys/agent.cert" \
	--authorized-keys "$T/a1keys/authorized_keys" --scratch-dir "$T/scr2" 2>"$T/a2.log" &
p=$!
for _ in $(seq 50); do grep -q "listening" "$T/a2.log" && break; sleep 0.1; done
kill $p 2>/dev/null || true
wait $p 2>/dev/null || true
cat "$T/a2.log"
grep -q "authorized keys directory '$T/a1keys/authorized_keys' is writable by others (mode 0777)" "$T/a2.log" ||
	fail "no warning for a 0777 authorized-keys directory"
grep -q "secret key file '$T/a1keys/agent.cert_secret' is readable" "$T/a2.log" ||
	fail "no warning for a 0644 agent secret"

# 7. a coordinator the agent does not know: its log names the peer address
"$COORD" keygen --force "$T/stranger" >/dev/null
"$COORD" agents --cert "$T/stranger/coord.cert" --known-hosts "$KH" --connect-timeout 2 "$T/p.json" \
	>/dev/null 2>&1 && fail "an unauthorized coordinator was admitted"
grep -Eq "rejected coordinator key .* from 127\.0\.0\.1" "$T/a1.log" || fail "the rejection names no peer address"
echo "PASS"
