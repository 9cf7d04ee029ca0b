#!/bin/bash
# test_e2e_quickstart: profiles/local-quickstart.json runs with locally started agents,
# prints per-second lines, writes the run directory, and leaves no agent or scratch file behind.
. "$(dirname "$0")/lib.sh"

SCR="$T/scratch"
cd "$T"
"$COORD" run -o "$T/out" --scratch-dir "$SCR" "$BC_SRC/profiles/local-quickstart.json" \
	>"$T/stdout" 2>"$T/stderr" || {
	cat "$T/stdout" "$T/stderr"
	fail "quickstart run failed"
}
cat "$T/stdout"
R=$(run_dir "$T/out")
RJ="$R/run.json"
[ "$(json "$RJ" 'r["status"]')" = ok ] || fail "status is not ok"
secs=$(json "$RJ" 'r["steps"][0]["seconds"]')
[ "$(grep -cE '^[0-9:]{8} +[0-9]+ (ramp|run) +3/3 ' "$T/stdout")" = "$secs" ] ||
	fail "expected $secs live lines with 3/3 agents"
json "$RJ" "len(r['steps'][0]['volumes']) == 6 and all(v['iops'] > 0 for v in r['steps'][0]['volumes'])" |
	grep -qx True || fail "not every volume did I/O"
json "$RJ" "r['steps'][0]['total']['ios'] == sum(v['ios'] for v in r['steps'][0]['volumes'])" |
	grep -qx True || fail "total ios differ from the sum of volumes"
grep -q 'step randrw-4k-70-30: ok' "$T/stdout" || fail "no final summary"
ls "$R"/agent-local-*.log >/dev/null || fail "no local agent logs"
sleep 0.2
assert_no_agents "$SCR"
echo "PASS"
