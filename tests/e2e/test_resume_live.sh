#!/bin/bash
# test_resume_live: a step taken up by a resumed coordinator runs live like any step. Two agents
# with an orphan_grace of 30 s run a step that ends by a live rule (stop_bytes, reached around
# its second 13 of at most 40) on volumes of a storage node whose counters come from a real
# prometheus-node-exporter on loopback. The coordinator is killed with -9 at second 4 and
# `run --resume` follows 3 s later. Checked: the step is re-attached, not run again; the resume
# prints the step's per-second lines after the re-attach; stop_bytes fires in the taken-up step
# (its count made again from the seconds in the log) and the step ends there, each second and
# the drain of each agent once (the taken-up step aggregated on two workers, --agg-threads 2);
# the node's counters are scraped again from the gap event's node_counters_from_second on
# (measured after it; the seconds before it that nobody scraped are its coordinator_gaps entry)
# and summary.md says so; each agent's clock drift is measured at the step's end; the checker
# agrees. About 25 s.
. "$(dirname "$0")/lib.sh"

start_node_exporter
CHECK="$BC_SRC/tests/faults/check_run.py"
start_agent a1
start_agent a2
cat >"$T/p.json" <<JSON
{"name": "live", "orphan_grace": "30s",
 "agents": [{"name": "a1", "endpoint": "$EP_a1"}, {"name": "a2", "endpoint": "$EP_a2"}],
 "nodes": [{"name": "n1", "metrics": ["$NE_URL"]}],
 "volumes": [{"agent": "a1", "path": "$T/a1.dat", "size": "16m", "node": "n1"},
             {"agent": "a2", "path": "$T/a2.dat", "size": "16m", "node": "n1"}],
 "steps": [{"name": "soak", "rw": "randrw", "bs": "4k", "iodepth": 2, "runtime": "40s",
            "rate_iops": 400, "stop_bytes": "40m"}]}
JSON
"$COORD" run --plain -o "$T/out" "$T/p.json" >"$T/stdout" 2>"$T/stderr" &
kill_run_at $! 4
sleep 3
# the taken-up step's records go to aggregation workers, as a live step's at 64 agents and more
resume_run --agg-threads 2
resume_said "re-attached: soak" "the resume did not re-attach to the step in flight"
resume_said "stop_bytes reached at second" "stop_bytes was not judged in the taken-up step"
if grep -q "run again" "$T/stdout2"; then fail "the step ran again: $(cat "$T/stdout2")"; fi
assert_kept
python3 - "$R" "$T/stdout2" <<'PY' || fail "the taken-up step was not measured live"
import collections, json, re, sys
d, out = sys.argv[1], open(sys.argv[2]).read()
ev = [json.loads(l) for l in open(d + "/events.jsonl")]
kinds = [e["event"] for e in ev]
gap = next(e for e in ev if e["event"] == "coordinator_gap")
live = gap["live_from_second"]
reached = next(e for e in ev if e["event"] == "step_bytes_reached")
assert kinds.index("coordinator_gap") < kinds.index("step_bytes_reached"), "rule fired before"
end = reached["seconds"]
assert live < end < 40, (live, end)
seen = collections.Counter((e["agent"], e["second"]) for e in ev if e["event"] == "stats")
want = {(a, k) for a in ("a1", "a2") for k in list(range(end)) + [-1]}
assert set(seen) >= want and all(seen[x] == 1 for x in seen), ("records", sorted(want - set(seen)))
# the per-second lines of the live view, from the re-attach to the end
for k in range(live, end):
    assert re.search(r"^\S+ +%d run" % k, out, re.M), ("no live line for second", k)
s = json.load(open(d + "/run.json"))["steps"][0]
assert s["status"] == "ok" and s["measured_seconds"] == end, (s["status"], s["measured_seconds"])
assert s["stopped_at_bytes_second"] == end
c = s["nodes"][0]["counters"]
assert live == s["coordinator_gaps"][0]["node_counters_from_second"]
assert c["coordinator_gaps"][-1]["to_second"] == live - 1, (c["coordinator_gaps"], live)
cpu = c["series"]["cpu_busy_pct"]
g0 = c["coordinator_gaps"][-1]["from_second"]
assert all(cpu[k] is None for k in range(g0, live)), cpu
assert sum(v is not None for v in cpu[live:end]) >= (end - live) // 2, cpu
for a in ("a1", "a2"):
    ca = s["clock"]["agents"][a]
    assert ca["end_after_ms"] > 0 and "drift_ppm" in ca, ca
print("live from second %d, stop_bytes at %d, node cpu %s" % (live, end, cpu[live:end]))
PY
grep -q "Node counters scraped from node_exporter have no values for seconds" "$R/summary.md" ||
	fail "summary.md does not say which seconds have node counters"
python3 "$CHECK" "$R" || fail "ground truth disagrees with the taken-up step"
echo "PASS"
