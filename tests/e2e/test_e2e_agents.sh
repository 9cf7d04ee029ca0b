#!/bin/bash
# test_e2e_agents: `bench-coord agents PROFILE` reaches two bench-agent processes and a local
# one, shows version, host, paths and clock offset, creates nothing on them, and names the
# agent that does not answer.
. "$(dirname "$0")/lib.sh"

for a in a1 a2; do start_agent $a; done
cat >"$T/p.json" <<JSON
{
  "name": "e2e-agents",
  "agents": [
    {"name": "a1", "endpoint": "$EP_a1"},
    {"name": "a2", "endpoint": "$EP_a2"},
    {"name": "l1", "endpoint": "local"}
  ],
  "volumes": [
    {"agent": "a1", "path": "$T/a1.dat", "size": "8m"},
    {"agent": "a2", "path": "$T/a2.dat", "size": "8m"},
    {"agent": "l1", "path": "null"}
  ],
  "steps": [{"name": "s"}]
}
JSON
"$COORD" agents "$T/p.json" >"$T/out" 2>"$T/err" || {
	cat "$T/out" "$T/err"
	fail "bench-coord agents failed"
}
cat "$T/out"
for a in a1 a2 l1; do
	grep -qE "^$a +tcp://127\.0\.0\.1:[0-9]+ +[^ ]+ +[0-9]+\.[0-9]+\.[0-9]+ " "$T/out" ||
		fail "no line for agent $a"
done
grep -qE "^a1 +$T/a1\.dat " "$T/out" || fail "no device line for a1"
[ ! -e "$T/a1.dat" ] && [ ! -e "$T/a2.dat" ] || fail "agents created volume files"

"$COORD" agents --json "$T/p.json" >"$T/json" 2>/dev/null || fail "agents --json failed"
python3 - "$T/json" <<'PY' || fail "agents --json output wrong"
import json, sys
a = json.load(open(sys.argv[1]))
assert [x["name"] for x in a] == ["a1", "a2", "l1"]
assert all(x["answered"] and x["clock_rtt_ns"] > 0 and x["hello"]["version"] for x in a), a
assert a[0]["hello"]["paths"][0]["kind"] == "missing"
PY

# one agent nobody listens for: named, exit 1, the others still shown
python3 -c "
import json,sys; p=json.load(open(sys.argv[1])); p['agents'][1]['endpoint']='tcp://127.0.0.1:9'
json.dump(p,open(sys.argv[2],'w'))" "$T/p.json" "$T/p2.json"
if "$COORD" agents --connect-timeout 1 "$T/p2.json" >"$T/out2" 2>"$T/err2"; then
	fail "agents succeeded with an unreachable agent"
fi
grep -q 'agent a2 (tcp://127.0.0.1:9)' "$T/err2" || fail "unreachable agent not named: $(cat "$T/err2")"
grep -qE '^a1 +tcp://' "$T/out2" || fail "the reachable agents are not shown"
echo "PASS"
