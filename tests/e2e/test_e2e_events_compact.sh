#!/bin/bash
# test_e2e_events_compact: a run whose events.jsonl has its "stats" events in the compact
# form (--events-format compact: the binary STATS body in base64), aggregated on worker
# threads (--agg-threads 2), rebuilds from events.jsonl into the same figures as the live
# run.json: every volume, agent, node and the total, per second and over the window.
. "$(dirname "$0")/lib.sh"

cat >"$T/p.json" <<JSON
{
  "name": "e2e-compact",
  "agents": [{"name": "a1", "endpoint": "local"}, {"name": "a2", "endpoint": "local"},
             {"name": "a3", "endpoint": "local"}],
  "nodes": [{"name": "n1"}, {"name": "n2"}],
  "volumes": [
    {"agent": "a1", "path": "v0.dat", "size": "16m", "node": "n1"},
    {"agent": "a2", "path": "v0.dat", "size": "16m", "node": "n2"},
    {"agent": "a2", "path": "v1.dat", "size": "16m", "node": "n1"},
    {"agent": "a3", "path": "v0.dat", "size": "16m"}
  ],
  "defaults": {"ramp": "1s", "runtime": "2s", "rw": "randrw", "rwmixread": 70, "bs": "4k",
               "iodepth": 4},
  "steps": [{"name": "randrw-4k"}]
}
JSON
"$COORD" run -q -o "$T/out" --events-format compact --agg-threads 2 "$T/p.json" \
	>"$T/stdout" 2>"$T/stderr" || {
	cat "$T/stdout" "$T/stderr"
	fail "bench-coord run failed"
}
R=$(run_dir "$T/out")
grep -q '"event":"stats"' "$R/events.jsonl" || fail "no stats events"
grep '"event":"stats"' "$R/events.jsonl" | grep -qv '"body_b64":' && fail "a stats event is not compact"
grep -q '"hist":' "$R/events.jsonl" && fail "a compact events.jsonl holds histograms"
grep -q '"agg_cpu_ms":' "$R/events.jsonl" || fail "second_closed has no agg_cpu_ms (no workers?)"

cp -r "$R" "$T/norun"
rm "$T/norun/run.json"
"$COORD" report "$T/norun" 2>"$T/norun.err" || fail "report could not rebuild run.json: $(cat "$T/norun.err")"
python3 - "$R/run.json" "$T/norun/run.json" <<'PY' || fail "rebuilt run.json differs from the live one"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert b["rebuilt_from"] == "events.jsonl" and b["status"] == a["status"], (b["status"], a["status"])
assert b["events_skipped"] == 0, b["events_skipped"]
assert len(a["steps"]) == len(b["steps"])
for sa, sb in zip(a["steps"], b["steps"]):
    assert sa["total"]["ios"] > 0
    for level in ("total", "agents", "nodes", "volumes"):
        assert json.dumps(sa[level], sort_keys=True) == json.dumps(sb[level], sort_keys=True), \
            (sa["name"], level)
print("rebuilt from compact events: same figures at every level")
PY
