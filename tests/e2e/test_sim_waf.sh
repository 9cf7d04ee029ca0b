#!/bin/bash
# test_sim_waf: a simulated FDP SSD through bench-coord and a local agent - the device's host
# byte counter (FDP statistics HBMW, read through the same log-page path as a real drive) equals
# the bytes the agent wrote, exactly, in every step; a sequential fill has WAF 1 and random 4k
# writes on the now full device have WAF > 1 (the state carries from step to step); validate
# refuses a bad "sim" key naming its JSON path.
. "$(dirname "$0")/lib.sh"

SCR="$T/scratch"
cat >"$T/bad.json" <<'JSON'
{"name": "sim-bad", "agents": [{"name": "local", "endpoint": "local"}],
 "volumes": [{"agent": "local", "path": "sim", "sim": {"capacity": "1g", "ru": "4m", "rus": 3}}],
 "steps": [{"name": "s", "rw": "randwrite"}]}
JSON
if "$COORD" validate "$T/bad.json" >"$T/bad.out" 2>&1; then
	fail "validate accepted an unknown \"sim\" key"
fi
grep -q 'volumes\[0\]\.sim: unknown key "rus"' "$T/bad.out" || fail "no JSON path: $(cat "$T/bad.out")"

cat >"$T/p.json" <<'JSON'
{"name": "sim-waf",
 "agents": [{"name": "local", "endpoint": "local"}],
 "volumes": [{"agent": "local", "path": "sim:ssd0",
              "sim": {"capacity": "256m", "page": "4k", "ru": "1m", "op": 0.07, "ruhs": 4,
                      "gc": "greedy", "gc_start_free_rus": 2, "gc_stop_free_rus": 4},
              "fdp": {"pids": [0, 1, 2, 3], "policy": "round-robin"}}],
 "steps": [{"name": "fill", "rw": "write", "bs": "128k", "iodepth": 8, "size_based": true,
            "runtime": "30s"},
           {"name": "randwrite-4k", "rw": "randwrite", "bs": "4k", "iodepth": 32,
            "runtime": "3s"}]}
JSON
"$COORD" validate "$T/p.json" >/dev/null || fail "validate refused the sim profile"
"$COORD" run -o "$T/out" --scratch-dir "$SCR" "$T/p.json" >"$T/stdout" 2>"$T/stderr" || {
	cat "$T/stdout" "$T/stderr"
	fail "run failed"
}
cat "$T/stdout"
RJ="$(run_dir "$T/out")/run.json"
[ "$(json "$RJ" 'r["status"]')" = ok ] || fail "status is not ok"
for i in 0 1; do
	V="r['steps'][$i]['agent_totals']['local']['volumes'][0]"
	json "$RJ" "$V['nvme']['waf']" >"$T/waf$i"
	echo "step $i: agent wrote $(json "$RJ" "$V['write']['bytes']") bytes; device: $(cat "$T/waf$i")"
	json "$RJ" "$V['write']['bytes'] > 0 and $V['nvme']['fdp']['hbmw'] == $V['write']['bytes'] and
	  $V['nvme']['wafs']['fdp']['host_bytes'] == $V['write']['bytes'] and
	  abs($V['nvme']['waf']['host_bytes'] - $V['write']['bytes']) < 512000 and
	  $V['nvme']['sim']['host_write_bytes'] == $V['write']['bytes'] and
	  $V['write']['errors'] == 0" | grep -qx True ||
		fail "step $i: device host bytes differ from the agent's written bytes"
	# seed 000's WAF (OCP C0 over SMART data units), the FDP statistics' beside it
	json "$RJ" "$V['nvme']['waf']['status'] == 'available' and
	  $V['nvme']['waf']['source'] == 'ocp_c0' and 'value' in $V['nvme']['waf'] and
	  $V['nvme']['wafs']['fdp']['status'] == 'available' and
	  $V['nvme']['ocp_c0']['physical_media_bytes_written'] == $V['nvme']['fdp']['mbmw']" |
		grep -qx True || fail "step $i: no OCP and FDP WAF: $(cat "$T/waf$i")"
done
# the fill is one sequential pass over an empty device: nothing to collect
# (exactly by the FDP statistics; within SMART's 512,000-byte data unit by OCP C0 over SMART)
json "$RJ" "r['steps'][0]['agent_totals']['local']['volumes'][0]['nvme']['wafs']['fdp']['value'] == 1
  and abs(r['steps'][0]['agent_totals']['local']['volumes'][0]['nvme']['waf']['value'] - 1)
  < 512000 / r['steps'][0]['agent_totals']['local']['volumes'][0]['write']['bytes']" |
	grep -qx True || fail "sequential fill: WAF is not 1: $(cat "$T/waf0")"
# the device the fill left full: random overwrites make GC copy
json "$RJ" "r['steps'][1]['agent_totals']['local']['volumes'][0]['nvme']['waf']['value'] > 1.5
  and r['steps'][1]['agent_totals']['local']['volumes'][0]['nvme']['sim']['gc_copy_bytes'] > 0" |
	grep -qx True || fail "random 4k on a full device: no GC: $(cat "$T/waf1")"
# no latency model: completions are immediate, so in-flight = IOPS x latency is not judged
json "$RJ" "[c['detail'] for c in r['steps'][1]['checks'] if c['name'].startswith('Little')] ==
  ['skipped: the target completes at once (no device queue)']" | grep -qx True ||
	fail "Little's law judged on an instant target"
sleep 0.2
assert_no_agents "$SCR"
echo "PASS"
