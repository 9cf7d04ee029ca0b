#!/bin/bash
# test_resume_steady: stop_steady's window crosses a coordinator gap. Two agents with an
# orphan_grace of 30 s run a rate-capped step (level IOPS) that ends once 7 seconds in a row
# are within 50% of their mean (cap 60 s); the coordinator is killed with -9 at second 3 and
# `run --resume` follows 2 s later. The window holds the seconds the dead coordinator closed
# (made again from the log), so the step is steady at a second before 9; judged only from the
# seconds closed after the gap it could be steady at second 9 at the earliest. Checked: the step
# is re-attached, steady (step_steady after the coordinator_gap) and ends two seconds on, every
# second and the drain of each agent once, the checker agrees. About 20 s.
. "$(dirname "$0")/lib.sh"

CHECK="$BC_SRC/tests/faults/check_run.py"
start_agent a1
start_agent a2
two_agent_profile steady '"orphan_grace": "30s",' '[{"name": "soak", "rw": "randrw", "bs": "4k", "iodepth": 2, "runtime": "60s",
	   "rate_iops": 400, "stop_steady": {"criterion": "iops:50%", "window": 7}}]'
"$COORD" run --plain -o "$T/out" "$T/p.json" >"$T/stdout" 2>"$T/stderr" &
kill_run_at $! 3
sleep 2
resume_run
resume_said "re-attached: soak" "the resume did not re-attach to the step in flight"
resume_said "steady state at second" "stop_steady was not judged in the taken-up step"
RJ="$R/run.json"
python3 - "$R" <<'PY' || fail "stop_steady across the gap: $(json "$RJ" '[(s.get("seconds"), s.get("stop_steady")) for s in r["steps"]]')"
import json, sys
d = sys.argv[1]
ev = [json.loads(l) for l in open(d + "/events.jsonl")]
kinds = [e["event"] for e in ev]
assert kinds.count("step_steady") == 1 and kinds.index("coordinator_gap") < kinds.index("step_steady"), kinds
gap = next(e for e in ev if e["event"] == "coordinator_gap")
s = json.load(open(d + "/run.json"))["steps"][0]
a = s["stop_steady"]
assert s["status"] == "ok" and a["reached"] is True, (s["status"], a)
# the closed seconds before the gap are in the window: steady before the gap's from_second + 6
assert 6 <= a["at_second"] < 9 and a["window_from_second"] < gap["from_second"], (a, gap)
assert a["at_second"] < a["ended_at_second"] == s["seconds"] < 60, (a, s["seconds"])
print("steady at second %d (window from %d), gap from second %d, ended at %d" %
      (a["at_second"], a["window_from_second"], gap["from_second"], s["seconds"]))
PY
assert_each_once "$(json "$RJ" 'r["steps"][0]["seconds"]')" 1
python3 "$CHECK" "$R" || fail "ground truth disagrees with the steady step"
echo "PASS"
