#!/bin/bash
# test_resume_node_counters: the node counters a coordinator scraped before it was killed stay in
# the step it was running. Two agents with an orphan_grace of 30 s run an 18 s step on volumes of
# a storage node whose counters come from a real prometheus-node-exporter on loopback; the
# coordinator is killed with -9 at second 6 and `run --resume` re-attaches 3 s later. Checked:
# events.jsonl holds the dead coordinator's scrapes (node_scrape) of the seconds before the kill;
# the step's node series have values there, equal to what `report --rebuild` gives from a copy of
# the directory taken at the kill (that copy's interrupted entry: the scrapes replayed), values
# after the gap, and none in it: the gap is the node's coordinator_gaps entry, its seconds in
# missing_seconds, ending right before the gap event's node_counters_from_second; the node window
# runs across the gap; summary.md says which seconds have none; a rebuild of the resumed
# directory gives the same run.json, and the checker agrees. About 25 s.
. "$(dirname "$0")/lib.sh"

start_node_exporter
start_agent a1
start_agent a2
cat >"$T/p.json" <<JSON
{"name": "nodegap", "orphan_grace": "30s",
 "agents": [{"name": "a1", "endpoint": "$EP_a1"}, {"name": "a2", "endpoint": "$EP_a2"}],
 "nodes": [{"name": "n1", "metrics": ["$NE_URL"]}],
 "volumes": [{"agent": "a1", "path": "$T/a1.dat", "size": "16m", "node": "n1"},
             {"agent": "a2", "path": "$T/a2.dat", "size": "16m", "node": "n1"}],
 "steps": [{"name": "soak", "rw": "randrw", "bs": "4k", "iodepth": 2, "runtime": "18s",
            "rate_iops": 400}]}
JSON
"$COORD" run --plain -o "$T/out" "$T/p.json" >"$T/stdout" 2>"$T/stderr" &
kill_run_at $! 6
# the directory as the kill left it, for the rebuild that replays the dead coordinator's scrapes
cp -a "$R" "$T/killed"
sleep 3
resume_run
resume_said "re-attached: soak" "the resume did not re-attach to the step in flight"
assert_kept
"$COORD" report --rebuild "$T/killed" >"$T/rebuild-killed.out" 2>&1 ||
	fail "report --rebuild of the killed directory failed: $(cat "$T/rebuild-killed.out")"
python3 - "$R" "$T/killed" "$T/events.before" <<'PY' || fail "node counters before the kill lost"
import json, sys
d, killed, before = sys.argv[1:4]
ev = [json.loads(l) for l in open(before)]
tried = {e["b"] for e in ev if e["event"] == "node_scrape"}
dead = {e["b"] for e in ev if e["event"] == "node_scrape" and e["ok"]}
assert len(dead) >= 3, ("the dead coordinator's scrapes are not in its log", sorted(dead))
gap = next(json.loads(l) for l in open(d + "/events.jsonl") if '"coordinator_gap"' in l)
live = gap["node_counters_from_second"]
s = json.load(open(d + "/run.json"))["steps"][0]
assert s["status"] == "ok" and s["measured_seconds"] == 18, (s["status"], s["measured_seconds"])
c = s["nodes"][0]["counters"]
cpu = c["series"]["cpu_busy_pct"]
gaps = c["coordinator_gaps"]
assert len(gaps) == 1 and gaps[0]["to_second"] == live - 1, (gaps, live)
g0, g1 = gaps[0]["from_second"], gaps[0]["to_second"]
# the gap: no value, listed missing; it starts at the dead coordinator's last scrape
assert g0 == max(tried) and g0 <= g1 < 17, (g0, g1, sorted(tried))
assert all(cpu[k] is None and k in c["missing_seconds"] for k in range(g0, g1 + 1)), cpu
# before it: a value for each second whose two boundaries the dead coordinator scraped
pre = [k for k in range(g0) if k in dead and k + 1 in dead]
assert len(pre) >= 2 and all(cpu[k] is not None for k in pre), (pre, cpu)
# after it: the resumed coordinator's (a late boundary on a loaded machine may cost a second)
post = [cpu[k] for k in range(g1 + 1, 18)]
assert sum(v is not None for v in post) >= len(post) // 2, post
assert c["window"]["from_second"] < g0 and c["window"]["to_second"] > g1, c["window"]
# the same seconds as the replay of the killed directory's log gives them
k = json.load(open(killed + "/run.json"))["steps"][0]
assert k["status"] == "incomplete", k["status"]
kc = k["nodes"][0]["counters"]
for key, ser in c["series"].items():
    assert ser[:g0] == kc["series"][key][:g0], (key, ser[:g0], kc["series"][key][:g0])
assert "coordinator_gaps" not in kc and kc["scrapes"]["ok"] == len(dead), kc["scrapes"]
print("node cpu before the gap %s, gap %d-%d, after %s" % (cpu[:g0], g0, g1, cpu[g1 + 1:]))
PY
grep -q "Node counters scraped from node_exporter have no values for seconds" "$R/summary.md" ||
	fail "summary.md does not say which seconds have no node counters"
cp -a "$R" "$T/rebuilt"
"$COORD" report --rebuild "$T/rebuilt" >/dev/null || fail "rebuild failed"
python3 "$BC_SRC/tests/faults/check_run.py" "$T/rebuilt" --same-as "$R" ||
	fail "the rebuild of the resumed directory differs from the run"
python3 "$BC_SRC/tests/faults/check_run.py" "$R" || fail "ground truth disagrees with the resumed step"
echo "PASS"
