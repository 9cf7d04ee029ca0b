#!/bin/bash
# test_e2e_sweep: an iodepth sweep runs each point as its own step, the last carries the sweep
# table and the analysis, and a plateau made by the profile's own rate limits is found and
# attributed to them (client-bound), not to the storage. Every output shows the verdict.
. "$(dirname "$0")/lib.sh"

cat >"$T/p.json" <<JSON
{"name": "sweep",
 "agents": [{"name": "c1", "endpoint": "local"}],
 "nodes": [{"name": "n1"}, {"name": "n2"}],
 "volumes": [{"agent": "c1", "path": "a.dat", "size": "16m", "node": "n1", "workload": {"rate_iops": 500}},
             {"agent": "c1", "path": "b.dat", "size": "16m", "node": "n2", "workload": {"rate_iops": 500}}],
 "steps": [{"name": "rr", "rw": "randread", "bs": "4k",
            "sweep": {"iodepth": [1, 4, 16], "ramp": "1s", "runtime": "2s"}}]}
JSON
"$COORD" run -o "$T/out" --scratch-dir "$T/scr" "$T/p.json" >"$T/stdout" 2>"$T/stderr" || {
	cat "$T/stdout" "$T/stderr"
	fail "sweep run failed"
}
cat "$T/stdout"
R=$(run_dir "$T/out")
RJ="$R/run.json"
json "$RJ" "[s['name'] for s in r['steps']] == ['rr@iodepth=1', 'rr@iodepth=4', 'rr@iodepth=16'] and all(s['sweep_of'] == 'rr' for s in r['steps'])" |
	grep -qx True || fail "sweep points are not steps of their own"
# every point's events name the profile step they belong to (0), not a point's copy
python3 -c "
import json, sys
steps = {json.loads(l).get('step') for l in open(sys.argv[1])
         if json.loads(l).get('event') in ('second_closed', 'analysis', 'step_start')}
sys.exit(0 if steps == {0} else 1)" "$R/events.jsonl" || fail "events carry another step index"
json "$RJ" "r['steps'][-1]['sweep']['param'] == 'iodepth' and r['steps'][-1]['sweep']['values'] == [1, 4, 16]" |
	grep -qx True || fail "the last point does not carry the sweep table"
# never above the limits; 500 IOPS per volume is low enough that even QD 1 on a loaded host
# reaches them (2 ms per I/O to spare), so the plateau is there at every point
json "$RJ" "all(850 <= i <= 1050 for i in r['steps'][-1]['sweep']['iops'])" | grep -qx True ||
	fail "rate limits (2 x 500 IOPS) not honoured: $(json "$RJ" "r['steps'][-1]['sweep']['iops']")"
json "$RJ" "r['steps'][-1]['analysis']['class'] == 'client-bound' and 'rate limits' in r['steps'][-1]['analysis']['verdict']" |
	grep -qx True || fail "plateau not attributed to the rate limits: $(json "$RJ" "r['steps'][-1]['analysis']['verdict']")"
json "$RJ" "len(r['steps'][-1]['analysis']['points']) == 3 and r['steps'][0]['agents'][0]['host']['window']['cpu_busy_pct'] >= 0" |
	grep -qx True || fail "analysis points or client host counters missing"
# (on a contended host - a loaded CI machine - the verdict says so first, then the analysis's)
grep -qE "verdict: (client-bound|Contended run: .* Otherwise: client-bound)" "$T/stdout" ||
	fail "the verdict is not in the live output"
grep -qi "client-bound" "$R/summary.md" || fail "the verdict is not in summary.md"
echo "PASS"
