#!/bin/bash
# test_sim_latency: a simulated SSD with modelled latency ("sim": {"latency"}) through bench-coord
# and a local agent: each I/O completes as a real io_uring timeout after its modelled media time.
# 4 dies at 1 ms per page program: QD1 random 4k writes take ~1 ms each; at QD16 the dies
# saturate at 4000 IOPS and each write queues ~4 ms (Little's law, 16 / 4000 per s). The device
# stays nearly empty, so no GC is involved.
. "$(dirname "$0")/lib.sh"

SCR="$T/scratch"
cat >"$T/p.json" <<'JSON'
{"name": "sim-latency",
 "agents": [{"name": "local", "endpoint": "local"}],
 "volumes": [{"agent": "local", "path": "sim:lat",
              "sim": {"capacity": "256m", "ru": "1m", "op": 0.25, "ruhs": 1,
                      "latency": {"units": 4, "read": "100us", "program": "1ms",
                                  "erase": "2ms"}}}],
 "steps": [{"name": "qd1", "rw": "randwrite", "bs": "4k", "iodepth": 1, "runtime": "2s"},
           {"name": "qd16", "rw": "randwrite", "bs": "4k", "iodepth": 16, "runtime": "2s"}]}
JSON
"$COORD" run -o "$T/out" --scratch-dir "$SCR" "$T/p.json" >"$T/stdout" 2>"$T/stderr" || {
	cat "$T/stdout" "$T/stderr"
	fail "run failed"
}
cat "$T/stdout"
RJ="$(run_dir "$T/out")/run.json"
[ "$(json "$RJ" 'r["status"]')" = ok ] || fail "status is not ok"
S0="r['steps'][0]['total']"
S1="r['steps'][1]['total']"
echo "qd1: $(json "$RJ" "$S0['iops'], $S0['lat_us']")"
echo "qd16: $(json "$RJ" "$S1['iops'], $S1['lat_us']")"
json "$RJ" "$S0['errors'] == 0 and $S1['errors'] == 0" | grep -qx True ||
	fail "timeouts counted as errors"
# Never faster than the model (the lower latency bounds and the IOPS ceilings are exact
# consequences of 4 dies at 1 ms); slower only by the timer's wake-up, which a loaded host
# stretches, so the upper latency bounds are an order of magnitude: they catch a model that
# is wrong, not a busy machine.
json "$RJ" "1000 <= $S0['lat_us']['p50'] < 10000 and 100 < $S0['iops'] <= 1000" |
	grep -qx True || fail "QD1: not ~1 ms per write"
json "$RJ" "3900 <= $S1['lat_us']['p50'] < 40000 and 400 < $S1['iops'] <= 4010" |
	grep -qx True || fail "QD16: 4 dies at 1 ms should give ~4000 IOPS at ~4 ms"
# Little's law holds whatever the load: 16 in flight = IOPS x mean latency
json "$RJ" "abs($S1['iops'] * $S1['lat_us']['mean'] / 1e6 - 16) < 1.6" |
	grep -qx True || fail "QD16: IOPS x mean latency is not 16 in flight"
sleep 0.2
assert_no_agents "$SCR"
echo "PASS"
