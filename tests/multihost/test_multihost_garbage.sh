#!/bin/bash
# test_multihost_garbage: while a run is in progress on three namespace hosts, one agent gets
# 1,000 garbage, truncated, oversized, wrong-version and out-of-session messages from an
# authenticated peer (tests/multihost/bc_garbage.c), non-ZeroMQ bytes on raw TCP, and garbage
# from an unauthorized key. The agent neither crashes nor disturbs the run (every second has
# all three agents, no errors), counts what it dropped (HELLO_OK), and rate-limits its log.
. "$(dirname "$0")/../hosts/hosts.sh"
GARBAGE="$BC_BIN/tests/bc_garbage"
[ -x "$GARBAGE" ] || fail "$GARBAGE not built"

hosts_up 3
cat >"$HOSTS_DIR/p.json" <<JSON
{"name": "mh-garbage", "agents": $(agents_json),
 "volumes": [{"agent": "h1", "path": "v.dat", "size": "16m"}, {"agent": "h2", "path": "v.dat", "size": "16m"},
             {"agent": "h3", "path": "v.dat", "size": "16m"}],
 "steps": [{"name": "s", "rw": "randrw", "bs": "4k", "iodepth": 4, "ramp": "1s", "runtime": "9s"}]}
JSON
"$COORD" run -o "$HOSTS_DIR/out" "$HOSTS_DIR/p.json" >"$HOSTS_DIR/stdout" 2>"$HOSTS_DIR/stderr" &
CPID=$!
for _ in $(seq 100); do
	grep -qE '^[0-9:]{8} +1 ' "$HOSTS_DIR/stdout" 2>/dev/null && break
	sleep 0.1
done
grep -qE '^[0-9:]{8} +1 ' "$HOSTS_DIR/stdout" || { cat "$HOSTS_DIR/stdout" "$HOSTS_DIR/stderr"; fail "run did not start"; }

"$GARBAGE" "${HOST_EP[1]}" "${HOST_KEY[1]}" "$COORD_CERT" 1000 || fail "bc_garbage failed"
"$GARBAGE" --raw "${HOST_IP[1]}" 7470 100 || fail "bc_garbage --raw failed"
"$COORD" keygen "$HOSTS_DIR/intruder" >/dev/null
"$GARBAGE" "${HOST_EP[1]}" "${HOST_KEY[1]}" "$HOSTS_DIR/intruder/coord.cert" 20 ||
	fail "bc_garbage (unauthorized) failed"
kill -0 "${HOST_PID[1]}" || fail "h1 died under garbage"

rc=0
wait $CPID || rc=$?
cat "$HOSTS_DIR/stdout" "$HOSTS_DIR/stderr"
[ "$rc" = 0 ] || fail "the run in progress failed (exit $rc)"
R=$(run_dir "$HOSTS_DIR/out")
RJ="$R/run.json"
json "$RJ" "r['status'] == 'ok' and r['steps'][0]['incomplete_seconds'] == [] and r['steps'][0]['total']['errors'] == 0" |
	grep -qx True || fail "the run was disturbed"
json "$RJ" "all(v > 0 for a in r['steps'][0]['agents'] for v in a['series']['iops'])" |
	grep -qx True || fail "some agent had a second without I/O"
kill -0 "${HOST_PID[1]}" || fail "h1 died"

# what h1 dropped, as it reports to the next coordinator
sec=$("$GARBAGE" --hello "${HOST_EP[1]}" "${HOST_KEY[1]}" "$COORD_CERT") || fail "h1 does not answer HELLO"
echo "h1 security: $sec"
python3 - "$sec" <<'PY' || fail "h1's drop counters are wrong"
import json, sys
s = json.loads(sys.argv[1]); d = s["dropped"]
assert s["mode"] == "curve", s
assert d["malformed"] + d["wrong_version"] + d["oversized"] + d["refused"] >= 1000, d
assert d["oversized"] >= 20 and d["wrong_version"] >= 1 and d["malformed"] >= 1, d
assert d["rejected_keys"] >= 1, d
assert d["handshake_failures"] >= 50, d
PY
lines=$(wc -l <"${HOST_LOG[1]}")
[ "$lines" -lt 100 ] || fail "h1 logged $lines lines: the garbage was not rate-limited"
grep -q "more dropped messages not logged\|dropped a" "${HOST_LOG[1]}" || fail "h1 did not log the drops"
echo "PASS"
