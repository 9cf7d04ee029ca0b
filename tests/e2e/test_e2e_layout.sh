#!/bin/bash
# test_e2e_layout: what backs a read window.
#  - an existing written 16 MiB file, extended to 32 MiB by the volume's "size": the agent lays out
#    the 16 MiB it added (and nothing of the rest: its bytes are unchanged), once per run (the
#    second read step lays out nothing), with progress on the terminal and in events.jsonl, and
#    its time reported apart from the steps (run.json layout, summary.md);
#  - an existing sparse file the agent did not make: named by the pre-flight (bench-coord agents:
#    a WARNING line: 100% not backed by written data) and at PREPARE, and the warning stays in run.json,
#    summary.md and report.html; its reads are answered without the device, so the step is
#    suspect and says why;
#  - "layout": false on a file the agent creates: not laid out, and a warning that stays;
#  - a verified random read/write on a fresh file: the laid-out blocks carry valid verify
#    headers, so reads of blocks no write reached are no verify errors.
# About 20 s.
. "$(dirname "$0")/lib.sh"

need_block_fs "$T"
SCR="$T/scr"
mkdir -p "$SCR/a1"
# 16 MiB of written data the agent will extend
dd if=/dev/urandom of="$SCR/a1/grow.dat" bs=1M count=16 status=none
sync "$SCR/a1/grow.dat"
HEAD=$(head -c 16777216 "$SCR/a1/grow.dat" | md5sum)

cat >"$T/p.json" <<JSON
{"name": "layout",
 "agents": [{"name": "a1", "endpoint": "local"}],
 "volumes": [{"agent": "a1", "path": "grow.dat", "size": "32m"}],
 "defaults": {"direct": true},
 "steps": [{"name": "r1", "rw": "randread", "bs": "4k", "iodepth": 4, "ramp": "0s", "runtime": "2s"},
           {"name": "r2", "rw": "randread", "bs": "4k", "iodepth": 4, "ramp": "0s", "runtime": "2s"}]}
JSON
"$COORD" run -o "$T/out" --plain --scratch-dir "$SCR" "$T/p.json" >"$T/out1" 2>&1 || {
	cat "$T/out1"
	fail "the extended-file run failed"
}
R=$(run_dir "$T/out")
RJ="$R/run.json"
json "$RJ" "[(s['name'], [(l['bytes'], l['ranges']) for l in s['layout']]) for s in r['steps']]" |
	grep -qx "\[('r1', \[(16777216, 1)\]), ('r2', \[\])\]" ||
	fail "expected 16 MiB laid out before r1 and nothing before r2: $(json "$RJ" "[s['layout'] for s in r['steps']]")"
[ "$(head -c 16777216 "$SCR/a1/grow.dat" | md5sum)" = "$HEAD" ] ||
	fail "the layout wrote over the file's existing 16 MiB"
json "$RJ" "[s['backing'][0]['unbacked_bytes'] for s in r['steps']]" | grep -qx '\[0, 0\]' ||
	fail "unwritten data left: $(json "$RJ" "[s['backing'] for s in r['steps']]")"
grep -q "^layout a1:$SCR/a1/grow.dat: 16.0 MiB written in" "$T/out1" ||
	fail "no layout line on the terminal: $(grep -i layout "$T/out1")"
grep '"event":"layout_progress"' "$R/events.jsonl" | grep -q '"done":true' || fail "no layout_progress event"
grep -q 'Layout before the step (not in its figures): a1:grow.dat 16.0 MiB' "$R/summary.md" ||
	fail "summary.md: no layout line for the step"

# an existing sparse file the agent did not make, and a created file with "layout": false
rm -rf "$SCR"
mkdir -p "$T/data"
truncate -s 32M "$T/data/sparse.dat"
cat >"$T/s.json" <<JSON
{"name": "sparse",
 "agents": [{"name": "a1", "endpoint": "local"}],
 "volumes": [{"agent": "a1", "path": "$T/data/sparse.dat"},
             {"agent": "a1", "path": "raw.dat", "size": "16m", "layout": false}],
 "defaults": {"direct": true},
 "steps": [{"name": "rr", "rw": "randread", "bs": "4k", "iodepth": 4, "ramp": "0s", "runtime": "2s"}]}
JSON
"$COORD" agents "$T/s.json" >"$T/pre" 2>&1 || {
	cat "$T/pre"
	fail "the pre-flight failed"
}
cat "$T/pre"
grep -q "WARNING: volume a1:$T/data/sparse.dat: 100.0% of its read window (32.0 MiB) is not backed by written data" "$T/pre" ||
	fail "the pre-flight does not name the sparse file"
grep -q 'volume a1:raw.dat: PREPARE will create it; "layout": false leaves it unwritten' "$T/pre" ||
	fail "the pre-flight does not say raw.dat stays unwritten"
"$COORD" run -q -o "$T/out2" --scratch-dir "$SCR" "$T/s.json" >"$T/out2.txt" 2>&1 || true
cat "$T/out2.txt"
R=$(run_dir "$T/out2")
RJ="$R/run.json"
grep -q "PREPARE: volume a1:$T/data/sparse.dat: 100.0% of its read window" "$T/out2.txt" ||
	fail "not named at PREPARE"
for f in "$RJ" "$R/summary.md" "$R/report.html"; do
	grep -q "sparse.dat: 100.0% of its read window (32.0 MiB) is not backed by written data" "$f" ||
		fail "$(basename "$f"): no warning for the sparse file"
	grep -q 'raw.dat: \\\?"layout\\\?": false in the profile\|raw.dat: &quot;layout&quot;: false in the profile' "$f" ||
		fail "$(basename "$f"): no warning for \"layout\": false"
done
[ "$(json "$RJ" 'r["steps"][0]["layout"]')" = "[]" ] || fail "raw.dat was laid out despite \"layout\": false"
# reads of holes and unwritten extents never reach the device: the figures are not the storage's
[ "$(json "$RJ" 'r["steps"][0]["status"]')" = suspect ] ||
	fail "status $(json "$RJ" 'r["steps"][0]["status"]'), expected suspect"
json "$RJ" 'r["steps"][0]["suspect_reason"]' | grep -q "the figures did not measure the storage" ||
	fail "no suspect reason"
grep -q "Suspect: the figures did not measure the storage" "$R/summary.md" || fail "summary.md: not suspect"

# verify reads of laid-out blocks that no write of the step reached
cat >"$T/v.json" <<JSON
{"name": "verify",
 "agents": [{"name": "a1", "endpoint": "local"}],
 "volumes": [{"agent": "a1", "path": "v.dat", "size": "16m"}],
 "steps": [{"name": "vrw", "rw": "randrw", "bs": "4k", "iodepth": 4, "direct": true, "verify": true,
            "ramp": "0s", "runtime": "2s"}]}
JSON
"$COORD" run -q -o "$T/out3" --scratch-dir "$T/scr3" "$T/v.json" >"$T/out3.txt" 2>&1 || {
	cat "$T/out3.txt"
	fail "the verify run failed"
}
RJ="$(run_dir "$T/out3")/run.json"
json "$RJ" "[(l['bytes'], v.get('verify_errors'), v['read']['ios'] > 0) for l in r['steps'][0]['layout'] for v in r['steps'][0]['agent_totals']['a1']['volumes']]" |
	grep -qx "\[(16777216, 0, True)\]" ||
	fail "verify after the layout: $(json "$RJ" "r['steps'][0]['agent_totals']['a1']['volumes']")"
echo "PASS"
