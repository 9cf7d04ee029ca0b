#!/bin/bash
# test_resume_reattach: a coordinator killed with -9 in the middle of a 20 s step whose profile
# gives the agents an orphan_grace of 30 s, and `bench-coord run --resume DIR` 3 s later. The
# two agents (loopback, CURVE, file volumes) keep the load running through the gap and keep
# every record; the resumed coordinator takes their sessions over, has them send what the run
# directory lacks, and the step ends at its planned length as one entry: every second 0..19
# and the drain of each agent exactly once in events.jsonl, the records the dead coordinator
# wrote unchanged, a coordinator_gap event and its note in summary.md, the ground-truth
# checker agreeing with run.json, a rebuild giving the same run.json, and the step after it
# run as usual. About 40 s.
. "$(dirname "$0")/lib.sh"

CHECK="$BC_SRC/tests/faults/check_run.py"
start_agent a1
start_agent a2
cat >"$T/p.json" <<JSON
{"name": "reattach", "orphan_grace": "30s",
 "agents": [{"name": "a1", "endpoint": "$EP_a1"}, {"name": "a2", "endpoint": "$EP_a2"}],
 "volumes": [{"agent": "a1", "path": "$T/a1.dat", "size": "16m"},
             {"agent": "a2", "path": "$T/a2.dat", "size": "16m"}],
 "steps": [{"name": "soak", "rw": "randrw", "bs": "4k", "iodepth": 2, "runtime": "20s",
            "rate_iops": 400},
           {"name": "tail", "rw": "randread", "bs": "4k", "iodepth": 2, "runtime": "2s",
            "rate_iops": 400}]}
JSON
"$COORD" run --plain -o "$T/out" "$T/p.json" >"$T/stdout" 2>"$T/stderr" &
CPID=$!
R=""
# kill once both agents' records of the step's second 4 are in
for _ in $(seq 900); do
	R=$(find "$T/out" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | head -n1 || true)
	if [ -n "$R" ] && python3 - "$R/events.jsonl" <<'PY'; then break; fi
import json, sys
got = {}
for line in open(sys.argv[1]):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    if e.get("event") == "stats" and e.get("second", -1) >= 4:
        got[e["agent"]] = True
sys.exit(0 if len(got) == 2 else 1)
PY
	kill -0 $CPID 2>/dev/null || fail "the run ended before it could be killed: $(cat "$T/stderr")"
	sleep 0.1
done
kill -9 $CPID
wait $CPID 2>/dev/null || true
[ -n "$R" ] || fail "no run directory"
python3 - "$R/events.jsonl" "$T/events.before" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(b[:b.rfind(b"\n") + 1])
PY
cp "$R/records.bin" "$T/records.before"
sleep 3

"$COORD" run --plain --resume "$R" >"$T/stdout2" 2>"$T/stderr2" || {
	cat "$T/stdout2" "$T/stderr2"
	fail "run --resume failed"
}
grep -q "re-attached: soak" "$T/stdout2" || {
	cat "$T/stdout2" "$T/stderr2"
	fail "the resume did not re-attach to the step in flight"
}
grep -q "resuming .* at step tail" "$T/stdout2" || {
	cat "$T/stdout2"
	fail "the resume did not go on after the re-attached step"
}
for a in a1 a2; do
	grep -q "taken over by" "$T/agent-$a.log" || fail "agent $a: no take-over in its log"
	grep -q "re-attached to step 0" "$T/agent-$a.log" || fail "agent $a did not send again"
	if grep -q "stopping all I/O" "$T/agent-$a.log"; then
		fail "agent $a stopped its I/O within the grace"
	fi
done
# everything the dead coordinator wrote stays, byte for byte
n=$(stat -c %s "$T/events.before")
cmp -n "$n" "$T/events.before" "$R/events.jsonl" || fail "events.jsonl before the kill changed"
python3 - "$T/records.before" "$R/records.bin" <<'PY' || fail "records.bin before the kill changed"
import struct, sys
old, new = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
off = 16
while off + 8 <= len(old):
    n = struct.unpack("<I", old[off:off + 4])[0]
    if off + 8 + n > len(old):
        break
    off += 8 + n
sys.exit(0 if new[:off] == old[:off] else 1)
PY
# each second of the step once per agent, the drain once, one STEP_DONE each, one gap
python3 - "$R/events.jsonl" <<'PY' || fail "the step's records are not each there once"
import collections, json, sys
seen, done, gaps = collections.Counter(), collections.Counter(), []
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("step") != 0:
        continue
    if e["event"] == "stats":
        seen[(e["agent"], e["second"])] += 1
    elif e["event"] == "step_done":
        done[e["agent"]] += 1
    elif e["event"] == "coordinator_gap":
        gaps.append(e)
want = {(a, k) for a in ("a1", "a2") for k in list(range(20)) + [-1]}
bad = {k: v for k, v in seen.items() if v != 1}
if set(seen) != want or bad:
    print("missing", sorted(want - set(seen)), "extra", sorted(set(seen) - want), "twice", bad)
    sys.exit(1)
if done != {"a1": 1, "a2": 1} or len(gaps) != 1:
    print("step_done", done, "gaps", gaps)
    sys.exit(1)
g = gaps[0]
print("gap %.1f s from second %d, %d second(s) sent again" %
      (g["gap_s"], g["from_second"], g["replayed_seconds"]))
sys.exit(0 if g["gap_s"] >= 2 and g["from_second"] >= 4 and g["replayed_seconds"] >= 2 else 1)
PY
RJ="$R/run.json"
json "$RJ" "[s['name'] for s in r['steps']]" >"$T/names"
[ "$(cat "$T/names")" = "['soak', 'tail']" ] || fail "entries: $(cat "$T/names")"
json "$RJ" "r['status'] == 'ok' and r['steps'][0]['status'] == 'ok' and r['steps'][0]['measured_seconds'] == 20 and not r['steps'][0].get('incomplete_seconds') and len(r['steps'][0]['coordinator_gaps']) == 1 and 'interrupted' not in r['steps'][0]" |
	grep -qx True || fail "the step is not whole: $(json "$RJ" "{k: r['steps'][0].get(k) for k in ('status', 'measured_seconds', 'incomplete_seconds', 'coordinator_gaps', 'interrupted')}")"
# 400 IOPS on each of two volumes for 20 s: no second's I/O lost to the gap
json "$RJ" "15600 <= r['steps'][0]['total']['ios'] <= 16400" | grep -qx True ||
	fail "the step's I/Os: $(json "$RJ" "r['steps'][0]['total']['ios']"), 16,000 planned"
python3 "$CHECK" "$R" || fail "ground truth disagrees with the re-attached run"
grep -q "re-attached" "$R/summary.md" || fail "summary.md does not say the step was re-attached"
grep -q "re-attached" "$R/report.html" || fail "report.html does not say the step was re-attached"
cp -a "$R" "$T/copy"
"$COORD" report --rebuild "$T/copy" >"$T/rebuild.out" 2>&1 || fail "report --rebuild failed"
python3 "$CHECK" "$T/copy" --same-as "$R" || fail "rebuilt run.json differs from the live one"
if pgrep -f "bench-coord run.*$T" >/dev/null; then fail "a coordinator is left running"; fi
echo "PASS"
