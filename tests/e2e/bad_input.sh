#!/bin/bash
# bad_input CASE: one class of bad input ends with a non-zero exit and one clear message that
# names where (file:line:col, JSON path, agent and endpoint, agent and path); runs that got as far
# as a run directory record the failure in it, and nothing is left running.
. "$(dirname "$0")/lib.sh"
CASE=${1:?case}

base() { # base AGENTS_JSON VOLUMES_JSON STEP_EXTRA
	cat <<JSON
{"name": "bad-$CASE",
 "agents": $1,
 "volumes": $2,
 "steps": [{"name": "s0", "rw": "randread", "runtime": "1s"}, {"name": "s1", "rw": "read" $3}]}
JSON
}
LOCAL='[{"name": "c1", "endpoint": "local"}]'
VOL='[{"agent": "c1", "path": "v.dat", "size": "1m"}]'

# expect EXIT_CODE REGEX: run the coordinator on $T/p.json
expect() {
	local want=$1 re=$2 rc=0
	"$COORD" run -o "$T/out" --scratch-dir "$T/scr" --connect-timeout 1 "$T/p.json" \
		>"$T/stdout" 2>"$T/stderr" || rc=$?
	cat "$T/stderr"
	[ "$rc" = "$want" ] || fail "exit code $rc, expected $want"
	grep -Eq "$re" "$T/stderr" || fail "stderr does not match /$re/"
	assert_no_agents "$T/scr"
}

case $CASE in
syntax)
	printf '{"name": "x",\n  "agents": [\n    {"name": "c1" "endpoint": "local"}]}\n' >"$T/p.json"
	expect 2 "p\.json:3:19: "
	;;
unknown_key)
	base "$LOCAL" "$VOL" ', "fooo": 1' >"$T/p.json"
	expect 2 'p\.json: steps\[1\]\.fooo: unknown key'
	;;
wrong_type)
	base "$LOCAL" "$VOL" ', "iodepth": "x"' >"$T/p.json"
	expect 2 'p\.json: steps\[1\]\.iodepth: expected integer >= 1, got "x"'
	;;
out_of_range)
	base "$LOCAL" "$VOL" ', "rwmixread": 101' >"$T/p.json"
	expect 2 'p\.json: steps\[1\]\.rwmixread: .*100'
	;;
undeclared_agent)
	base "$LOCAL" '[{"agent": "c9", "path": "v.dat"}]' '' >"$T/p.json"
	expect 2 'p\.json: volumes\[0\]\.agent: unknown agent "c9"'
	;;
unreachable_agent)
	# a loopback port nobody listens on: bind-and-close to find one
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	# a key for it, so the coordinator gets as far as trying to connect
	add_known_host far "$(sed -n 's/^ *public-key = "\(.*\)"/\1/p' "$COORD_CERT")"
	base "[{\"name\": \"c1\", \"endpoint\": \"local\"}, {\"name\": \"far\", \"endpoint\": \"tcp://127.0.0.1:$port\"}]" \
		"[{\"agent\": \"c1\", \"path\": \"v.dat\", \"size\": \"1m\"}, {\"agent\": \"far\", \"path\": \"/dev/null\"}]" '' >"$T/p.json"
	expect 1 "agent far \(tcp://127\.0\.0\.1:$port\): no answer to HELLO within 1\.0 s"
	R=$(run_dir "$T/out")
	[ "$(json "$R/run.json" 'r["status"]')" = "not started" ] || fail "run.json does not record the failure as not started"
	json "$R/run.json" "'agent far' in r['error']" | grep -qx True || fail "run.json error does not name the agent"
	grep -q '"event":"run_end"' "$R/events.jsonl" || fail "events.jsonl not closed"
	# nothing ran: said on the terminal, and no reports that look like partial results
	grep -q "run NOT STARTED, nothing was measured: $R/" "$T/stdout" || fail "the terminal does not say the run did not start"
	! grep -q "partial results" "$T/stdout" || fail "a run that never started claims partial results"
	[ ! -e "$R/summary.md" ] && [ ! -e "$R/report.html" ] || fail "reports written for a run that never started"
	;;
unopenable_path)
	base "$LOCAL" '[{"agent": "c1", "path": "v.dat", "size": "1m"}, {"agent": "c1", "path": "/nonexistent-bc-dir/vol.dat"}]' '' >"$T/p.json"
	expect 1 "agent c1 \(tcp://127\.0\.0\.1:[0-9]+\): .*/nonexistent-bc-dir/vol\.dat"
	R=$(run_dir "$T/out")
	[ "$(json "$R/run.json" 'r["status"]')" = "not started" ] || fail "run.json does not record the failure as not started"
	json "$R/run.json" "r['steps'][0]['status'] == 'failed' and '/nonexistent-bc-dir/vol.dat' in r['steps'][0]['error']" |
		grep -qx True || fail "run.json step does not record the failed path"
	;;
*)
	fail "unknown case $CASE"
	;;
esac
echo "PASS"
