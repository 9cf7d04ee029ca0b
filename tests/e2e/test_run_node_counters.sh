#!/bin/bash
# test_run_node_counters: `bench-coord run` with a storage node whose metrics endpoint is a real
# prometheus-node-exporter on loopback: run.json carries that node's counters for every second of
# the step (CPU, NIC), the client host's counters from the agent, and a verdict with evidence; a
# second node whose endpoint is dead only loses its own seconds, never the run; the scrapes in
# events.jsonl (node_scrape), replayed, give the same node counters as the run.
. "$(dirname "$0")/lib.sh"

start_node_exporter --collector.netdev.device-exclude='^$'
DEAD=$(free_port)
cat >"$T/p.json" <<JSON
{"name": "nodes",
 "agents": [{"name": "c1", "endpoint": "local"}],
 "nodes": [{"name": "n1", "metrics": ["$NE_URL"], "nic": "lo"},
           {"name": "dead", "metrics": ["http://127.0.0.1:$DEAD/metrics"]}],
 "volumes": [{"agent": "c1", "path": "a.dat", "size": "16m", "node": "n1"},
             {"agent": "c1", "path": "b.dat", "size": "16m", "node": "dead"}],
 "steps": [{"name": "rr", "rw": "randread", "bs": "4k", "iodepth": 4, "ramp": "1s", "runtime": "4s"}]}
JSON
"$COORD" run -o "$T/out" --scratch-dir "$T/scr" "$T/p.json" >"$T/stdout" 2>"$T/stderr" || {
	cat "$T/stdout" "$T/stderr"
	fail "run with node counters failed"
}
cat "$T/stdout"
RJ="$(run_dir "$T/out")/run.json"
python3 - "$RJ" <<'PY' || fail "node or client counters missing from run.json"
import json, sys
s = json.load(open(sys.argv[1]))["steps"][0]
nodes = {n["name"]: n for n in s["nodes"]}
c = nodes["n1"]["counters"]
cpu = c["series"]["cpu_busy_pct"]
assert len(cpu) == s["seconds"], (len(cpu), s["seconds"])
missing = [k for k, v in enumerate(cpu) if v is None]
# one boundary may be late on a loaded machine; most seconds must be there
assert len(missing) <= 1, missing
assert all(v is None or 0 <= v <= 100 for v in cpu), cpu
assert c["window"]["net_tx_mbps"] >= 0 and c["scrapes"]["ok"] >= s["seconds"]
dead = nodes["dead"]["counters"]
assert dead["scrapes"]["failed"] >= s["seconds"] and len(dead["missing_seconds"]) == s["seconds"], dead["scrapes"]
h = s["agents"][0]["host"]
assert h["window"]["cpu_busy_pct"] >= 0 and len(h["series"]["cpu_busy_pct"]) == s["seconds"]
a = s["analysis"]
assert a["verdict"] and any(h["name"] == "n1" for h in a["use"]["nodes"]), a["use"]
# the suspects table is the verdict: no per-host USE line repeats it in the evidence
assert not any(e.startswith("node n1:") and "CPU" in e for e in a["evidence"]), a["evidence"]
print("node n1 cpu per second:", cpu)
PY
# rebuilt from events.jsonl, the run with node counters is the run as written
R=$(run_dir "$T/out")
cp -r "$R" "$T/rebuilt"
"$COORD" report --rebuild "$T/rebuilt" >/dev/null || fail "rebuild failed"
python3 "$BC_SRC/tests/faults/check_run.py" "$T/rebuilt" --same-as "$R" ||
	fail "the rebuild of a run with node counters differs from the run"
# without the step's node_counters line (as when its coordinator died), the replay of the
# node_scrape lines gives the node counters the run computed from the scrapes themselves
cp -r "$R" "$T/scrapes"
grep -v '"event":"node_counters"' "$R/events.jsonl" >"$T/scrapes/events.jsonl"
"$COORD" report --rebuild "$T/scrapes" >/dev/null || fail "rebuild without node_counters failed"
python3 - "$RJ" "$T/scrapes/run.json" <<'PY' || fail "the scrapes replayed differ from the run's"
import json, sys
run, rep = (json.load(open(f))["steps"][0] for f in sys.argv[1:3])
for a, b in zip(run["nodes"], rep["nodes"]):
    ca, cb = a["counters"], b["counters"]
    for k in ("series", "window", "missing_seconds", "link_mbps", "interfaces"):
        assert ca.get(k) == cb.get(k), (a["name"], k, ca.get(k), cb.get(k))
    for k in ("ok", "failed", "last_error"):
        assert ca["scrapes"].get(k) == cb["scrapes"].get(k), (a["name"], k, ca["scrapes"], cb["scrapes"])
print("node counters from the node_scrape lines: as the run's, %d nodes" % len(run["nodes"]))
PY
echo "PASS"
