#!/bin/bash
# test_e2e_seconds: seconds.bin, the per-second record, with two real agents over a plain step
# and an iodepth sweep, two of its volumes "null" on one agent (the same name, told apart by
# their order). Every step that ran is in it (run.json's seconds_bin_step); every
# volume's per-second series in run.json, and its rows in timeseries.csv, are what
# `bench-coord dump-seconds` reads from the file, second by second; the ground-truth checker
# (events.jsonl) agrees with run.json; `report --rebuild` writes seconds.bin again byte for
# byte and a run.json with the same figures; a file cut short reads as truncated up to its last
# whole second (exit 1), and a damaged frame is found by --check. The records are logged in the
# default (binary) form: records.bin holds the STATS bodies, events.jsonl a line naming each;
# `dump-events` prints the log as the json form, which rebuilds into the same seconds.bin byte for
# byte without records.bin; records.bin cut short rebuilds from the records before the cut, and
# the checker, reading records.bin itself, agrees with that rebuild. `run --json` prints each
# second of the total as a JSON line with the figures of run.json.
. "$(dirname "$0")/lib.sh"

start_agent a1
start_agent a2
cat >"$T/p.json" <<JSON
{"name": "seconds",
 "agents": [{"name": "a1", "endpoint": "$EP_a1"}, {"name": "a2", "endpoint": "$EP_a2"}],
 "volumes": [{"agent": "a1", "path": "$T/a1-x.dat", "size": "16m"},
             {"agent": "a1", "path": "$T/a1-y.dat", "size": "16m"},
             {"agent": "a2", "path": "$T/a2-x.dat", "size": "16m"},
             {"agent": "a2", "path": "null", "workload": {"rate_iops": 300}}, {"agent": "a2", "path": "null"}],
 "steps": [{"name": "mix", "rw": "randrw", "rwmixread": 70, "bs": "4k", "iodepth": 2,
            "ramp": "1s", "runtime": "3s"},
           {"name": "sw", "rw": "randread", "bs": "4k", "ramp": "1s", "runtime": "2s",
            "sweep": {"iodepth": [1, 4]}}]}
JSON
"$COORD" run --json -o "$T/out" "$T/p.json" >"$T/stdout" 2>"$T/stderr" || {
	cat "$T/stdout" "$T/stderr"
	fail "the run failed"
}
R=$(run_dir "$T/out")
# --json's live lines: one a second per step, the total's IOPS of run.json's series, and
# time_ns an exact integer a second apart (not a double's 53 bits)
python3 - "$R" "$T/stdout" <<'PY' || fail "run --json's lines disagree with run.json"
import json, re, sys
run = json.load(open(sys.argv[1] + "/run.json"))
raw = open(sys.argv[2]).read().splitlines()
lines = [json.loads(l) for l in raw]
assert all(re.search(r'"time_ns":\d{19},', l) for l in raw), raw[0]
for st in run["steps"]:
    mine = [l for l in lines if l["step"] == st["name"]]
    assert [l["second"] for l in mine] == list(range(len(st["total"]["series"]["iops"]))), mine
    assert [l["iops"] for l in mine] == st["total"]["series"]["iops"], (st["name"], mine)
    ts = [l["time_ns"] for l in mine]
    assert all(b - a == 10**9 for a, b in zip(ts, ts[1:])), ts
PY
[ -s "$R/seconds.bin" ] || fail "no seconds.bin in $R"

"$COORD" dump-seconds "$R" >"$T/rows.csv" || fail "dump-seconds failed: $(cat "$T/rows.csv")"
"$COORD" dump-seconds --json --level total "$R" >"$T/total.jsonl" || fail "dump-seconds --json failed"
"$COORD" dump-seconds --hist --level total --step 0 "$R" >"$T/hist.csv" || fail "dump-seconds --hist failed"
python3 - "$R" "$T/rows.csv" "$T/total.jsonl" "$T/hist.csv" <<'PY' || fail "run.json, timeseries.csv and seconds.bin differ (above)"
import csv, json, sys
rd, rows_csv, total_jl, hist_csv = sys.argv[1:]
run = json.load(open(rd + "/run.json"))
bad = []
rows = {}
for r in csv.DictReader(open(rows_csv, newline="")):
    rows[(int(r["step"]), r["level"], int(r["index"]), int(r["second"]))] = r
steps = run["steps"]
if [s["name"] for s in steps] != ["mix", "sw@iodepth=1", "sw@iodepth=4"]:
    bad.append("steps: %s" % [s["name"] for s in steps])
def ios(r):
    return int(r["read_ios"]) + int(r["write_ios"]) + int(r["trim_ios"])
ts = {}  # names repeat: each entity's rows in the order they come
for r in csv.DictReader(open(rd + "/timeseries.csv", newline="")):
    ts.setdefault((r["step"], r["level"], r["entity"]), []).append(r)
for st in steps:
    o = st.get("seconds_bin_step")
    if o is None:
        bad.append("%s: no seconds_bin_step" % st["name"])
        continue
    for lvl, key in (("volume", "volumes"), ("agent", "agents"), ("total", None)):
        ents = [st["total"]] if key is None else st[key]
        seen = {}
        for n, e in enumerate(ents):
            nth = seen[e["name"]] = seen.get(e["name"], -1) + 1
            ser = e["series"]
            if len(ser["iops"]) != st["seconds"]:
                bad.append("%s %s: %d seconds in its series" % (st["name"], e["name"], len(ser["iops"])))
            for k in range(st["seconds"]):
                r = rows.get((o, lvl, n, k))
                if r is None:
                    bad.append("%s %s second %d: not in seconds.bin" % (st["name"], e["name"], k))
                    continue
                want = ios(r) if int(r["reports"]) else None
                if ser["iops"][k] != want or (want is not None and ser["read_iops"][k] != int(r["read_ios"])):
                    bad.append("%s %s second %d: run.json %s, seconds.bin %s" % (st["name"], e["name"], k, ser["iops"][k], want))
                if want is not None and ser["lat_max_us"][k] is not None and abs(ser["lat_max_us"][k] - int(r["max_ns"]) / 1000) > 0.001:
                    bad.append("%s %s second %d: max latency differs" % (st["name"], e["name"], k))
                t = ts.get((st["name"], lvl, e["name"]), [])[nth * st["seconds"] + k:][:1]
                t = t[0] if t and int(t[0]["second"]) == k else None
                if lvl == "volume" and (t is None or (t["iops"] or None) != (str(want) if want is not None else None)):
                    bad.append("%s %s second %d: timeseries.csv %s, seconds.bin %s" % (st["name"], e["name"], k, t and t["iops"], want))
    # the window's I/Os are the sum of its seconds
    win = sum(ios(r) for (so, lvl, i, k), r in rows.items()
              if so == o and lvl == "total" and k >= st["measured_from_second"] and k < st["seconds"])
    allops = sum(st["total"].get(op, {}).get("ios", 0) for op in ("read", "write", "trim"))
    if win != allops:
        bad.append("%s: window I/Os %d in run.json, %d in seconds.bin" % (st["name"], allops, win))
# the two "null" volumes of a2: the rate-limited one first, each with its own series
for st in steps:
    nulls = [e for e in st["volumes"] if e["name"] == "a2:null"]
    if len(nulls) != 2 or not (0 < nulls[0]["iops"] <= 330 < nulls[1]["iops"]):
        bad.append("%s: a2's null volumes %s" % (st["name"], [e["iops"] for e in nulls]))
tot = [json.loads(l) for l in open(total_jl)]
if not tot or any(t["level"] != "total" for t in tot):
    bad.append("--json --level total: %d lines" % len(tot))
h = list(csv.DictReader(open(hist_csv, newline="")))
s0 = steps[0]
for k in range(s0["measured_from_second"], s0["seconds"]):
    n = sum(int(x["count"]) for x in h if int(x["second"]) == k)
    r = rows[(0, "total", 0, k)]
    if n != ios(r):
        bad.append("second %d: %d samples in its histograms, %d I/Os" % (k, n, ios(r)))
for b in bad[:20]:
    print(b)
sys.exit(1 if bad else 0)
PY

python3 "$BC_SRC/tests/faults/check_run.py" "$R" || fail "the run's figures disagree with events.jsonl"

# the rebuild: seconds.bin byte for byte, run.json's figures the same
cp -r "$R" "$T/rebuilt"
"$COORD" report --rebuild "$T/rebuilt" >/dev/null || fail "report --rebuild failed"
cmp "$R/seconds.bin" "$T/rebuilt/seconds.bin" || fail "the rebuilt seconds.bin differs from the run's"
python3 "$BC_SRC/tests/faults/check_run.py" "$T/rebuilt" --same-as "$R" || fail "the rebuilt run.json differs"
cmp "$R/timeseries.csv" "$T/rebuilt/timeseries.csv" || fail "the rebuilt timeseries.csv differs"

# volumes past run.json's budget of volume-points (results/fullsize.h): their series stay in
# seconds.bin, run.json keeps their window figures and vdbench SD avg lines, the reports list
# them from the file
cp -r "$R" "$T/budget"
BC_SERIES_VOLUME_POINTS=1 "$COORD" report --rebuild "$T/budget" >/dev/null ||
	fail "report --rebuild with BC_SERIES_VOLUME_POINTS=1 failed"
python3 - "$R/run.json" "$T/budget/run.json" <<'PY' || fail "run.json past the budget (above)"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
bad = []
for sa, sb in zip(a["steps"], b["steps"]):
    if not sb.get("volumes"):
        continue
    for va, vb in zip(sa["volumes"], sb["volumes"]):
        if "series" not in va:
            bad.append("%s %s: no series within the budget" % (sa["name"], va["name"]))
        if "series" in vb:
            bad.append("%s %s: a series past the budget" % (sb["name"], vb["name"]))
        va.pop("series", None)
        if va != vb:
            bad.append("%s %s: the window figures differ" % (sb["name"], vb["name"]))
    for e in [sb["total"]] + sb["agents"] + sb["nodes"]:
        if "series" not in e:
            bad.append("%s %s: no series" % (sb["name"], e.get("name", "total")))
    # vdbench's SD tables: their intervals within the budget, the avg lines past it
    for da, db in zip(sa["vdbench"]["sds"], sb["vdbench"]["sds"]):
        if "intervals" not in da or "intervals" in db or da["avg"] != db["avg"]:
            bad.append("%s vdbench sd %s: intervals or avg line wrong" % (sb["name"], db["name"]))
for m in bad[:20]:
    print(m)
sys.exit(1 if bad else 0)
PY
cmp "$R/timeseries.csv" "$T/budget/timeseries.csv" ||
	fail "timeseries.csv differs with the volumes' series read from seconds.bin"
cmp "$R/report.html" "$T/budget/report.html" ||
	fail "report.html differs with the volumes' series read from seconds.bin"
python3 "$BC_SRC/tests/faults/check_run.py" "$T/budget" || fail "the checker disagrees past the budget"

# cut short in its third frame's payload: truncated, what precedes is printed, exit 1
size=$(stat -c %s "$R/seconds.bin")
head -c $((size / 2)) "$R/seconds.bin" >"$T/cut.bin"
rc=0
"$COORD" dump-seconds "$T/cut.bin" >"$T/cut.csv" 2>"$T/cut.err" || rc=$?
[ $rc = 1 ] || fail "a truncated seconds.bin: exit $rc, not 1"
grep -q "truncated" "$T/cut.err" || fail "no 'truncated' for a file cut short: $(cat "$T/cut.err")"
[ "$(wc -l <"$T/cut.csv")" -gt 1 ] || fail "nothing printed from before the cut"
# each row printed from the cut file is the whole file's row
python3 - "$T/cut.csv" "$T/rows.csv" <<'PY' || fail "rows before the cut differ"
import sys
full = set(open(sys.argv[2]).read().splitlines())
cut = open(sys.argv[1]).read().splitlines()
sys.exit(0 if all(l in full for l in cut) else 1)
PY
# a damaged byte inside a frame: only --check sees it
cp "$R/seconds.bin" "$T/bad.bin"
printf '\xff' | dd of="$T/bad.bin" bs=1 seek=$((size / 3)) conv=notrunc status=none
rc=0
"$COORD" dump-seconds --check "$T/bad.bin" >/dev/null 2>"$T/bad.err" || rc=$?
[ $rc = 1 ] && grep -q "truncated" "$T/bad.err" || fail "--check did not find the damaged frame: $(cat "$T/bad.err")"

# the record log: every "stats" line names a frame of records.bin, none carries histograms
[ -s "$R/records.bin" ] || fail "no records.bin in $R"
grep -q '"hist":' "$R/events.jsonl" && fail "events.jsonl holds histograms in the binary form"
nstats=$(grep -c '"event":"stats"' "$R/events.jsonl")
[ "$(grep '"event":"stats"' "$R/events.jsonl" | grep -c '"rec":')" = "$nstats" ] ||
	fail "a stats line names no record"
"$COORD" dump-events --check "$R" >"$T/check.out" || fail "dump-events --check: $(cat "$T/check.out")"
grep -q "$nstats records: 0 missing, 0 damaged" "$T/check.out" || fail "dump-events --check: $(cat "$T/check.out")"
# the json form printed from it: every record whole, and it rebuilds into the same seconds.bin
mkdir "$T/asjson"
cp "$R/profile.json" "$T/asjson/"
"$COORD" dump-events "$R" >"$T/asjson/events.jsonl" || fail "dump-events failed"
[ "$(grep -c '"event":"stats"' "$T/asjson/events.jsonl")" = "$nstats" ] || fail "dump-events lost records"
[ "$(grep '"event":"stats"' "$T/asjson/events.jsonl" | grep -c '"volumes":')" = "$nstats" ] ||
	fail "dump-events left a record out of its line"
[ "$(grep -vc '"event":"stats"' "$T/asjson/events.jsonl")" = "$(grep -vc '"event":"stats"' "$R/events.jsonl")" ] ||
	fail "dump-events changed the other events"
"$COORD" report --rebuild "$T/asjson" >/dev/null || fail "report --rebuild of the json form failed"
cmp "$R/seconds.bin" "$T/asjson/seconds.bin" || fail "the json form rebuilds into another seconds.bin"
python3 "$BC_SRC/tests/faults/check_run.py" "$T/asjson" || fail "the json form's figures disagree"
# --compact: the same records in base64, rebuilt into the same seconds.bin
mkdir "$T/ascompact"
cp "$R/profile.json" "$T/ascompact/"
"$COORD" dump-events --compact "$R" >"$T/ascompact/events.jsonl" || fail "dump-events --compact failed"
[ "$(grep -c '"body_b64":' "$T/ascompact/events.jsonl")" = "$nstats" ] || fail "dump-events --compact"
"$COORD" report --rebuild "$T/ascompact" >/dev/null || fail "report --rebuild of the compact form failed"
cmp "$R/seconds.bin" "$T/ascompact/seconds.bin" || fail "the compact form rebuilds into another seconds.bin"

# records.bin cut short (a coordinator killed mid-write): the records before the cut rebuild,
# the others are skipped, and the checker reading records.bin agrees with that rebuild
cp -r "$R" "$T/cutrec"
rsize=$(stat -c %s "$R/records.bin")
head -c $((rsize * 2 / 3)) "$R/records.bin" >"$T/cutrec/records.bin"
rc=0
"$COORD" dump-events --check "$T/cutrec" >"$T/cutcheck.out" 2>/dev/null || rc=$?
[ $rc = 1 ] || fail "dump-events --check of a cut records.bin: exit $rc"
missing=$(sed -n 's/.* records: \([0-9]*\) missing, 0 damaged$/\1/p' "$T/cutcheck.out")
[ -n "$missing" ] && [ "$missing" -gt 0 ] && [ "$missing" -lt "$nstats" ] ||
	fail "a cut records.bin: $(cat "$T/cutcheck.out")"
"$COORD" report --rebuild "$T/cutrec" >/dev/null 2>&1 || fail "report --rebuild of a cut records.bin failed"
[ "$(json "$T/cutrec/run.json" 'r["events_skipped"]')" = "$missing" ] ||
	fail "the rebuild skipped $(json "$T/cutrec/run.json" 'r["events_skipped"]') events, $missing records are cut off"
python3 "$BC_SRC/tests/faults/check_run.py" "$T/cutrec" || fail "the checker disagrees with the rebuild of a cut records.bin"
echo "ok: $(($(wc -l <"$T/rows.csv") - 1)) rows, $size bytes; $nstats records, $rsize bytes of records.bin"
