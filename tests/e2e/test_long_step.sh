#!/bin/bash
# test_long_step: a step longer than the long-step limit (results/fullsize.h; moved to 120 s
# here with BC_LONG_STEP_S) is read per minute: run.json's total, client hosts and storage
# nodes carry "minutes" instead of per-second series, the step a "drift" object, and the
# reports follow. A synthetic soak of 3 agents x 2 volumes x 200 s (bench/soakgen.c: its
# first 60 s at 1.5x the IOPS) is replayed by `report --rebuild`; every minute's exact p99
# of the total is recomputed in Python from seconds.bin's per-second histograms (merged,
# ranked), its IOPS, lowest and highest second and the drift's hour by the ground-truth
# checker from the record log; then a live run of a 12 s step with the limit at 5 s. About 30 s.
. "$(dirname "$0")/lib.sh"

GEN="$BC_BIN/bench/bench_soakgen"
[ -x "$GEN" ] || { echo "SKIP: bench_soakgen not built"; exit 77; }
"$GEN" -n 3 -m 2 -s 200 --warmup 60 --iops 300 -o "$T/run" >"$T/gen.out" || fail "soakgen failed"
BC_LONG_STEP_S=120 "$COORD" report --rebuild "$T/run" >"$T/out" 2>&1 || {
	cat "$T/out"
	fail "report --rebuild failed"
}
"$COORD" dump-seconds --hist --level total "$T/run" >"$T/hist.csv" || fail "dump-seconds --hist"
python3 - "$T/run" "$T/hist.csv" <<'EOF' || fail "the per-minute figures are wrong"
import csv, json, math, sys
run, histf = sys.argv[1:3]
st = json.load(open(run + "/run.json"))["steps"][0]
bad = []
t = st["total"]
if "series" in t or "minutes" not in t:
    bad.append("the total has %s" % sorted(t))
m = t["minutes"]
if m["interval_s"] != 60 or len(m["iops"]) != 4 or m["seconds"] != [60, 60, 60, 20]:
    bad.append("minutes: %s" % {k: m[k] for k in ("interval_s", "seconds")})
# each minute's p99: the seconds' histograms merged, ranked (rank ceil(p x count))
hist = {}
for r in csv.DictReader(open(histf)):
    j = int(r["second"]) // 60
    hist.setdefault(j, {})
    hist[j][int(r["mid_ns"])] = hist[j].get(int(r["mid_ns"]), 0) + int(r["count"])
for j, h in sorted(hist.items()):
    n = sum(h.values())
    rank, seen = max(1, math.ceil(0.99 * n)), 0
    for mid in sorted(h):
        seen += h[mid]
        if seen >= rank:
            break
    if abs(m["lat_p99_us"][j] - mid / 1e3) > 1e-3:
        bad.append("minute %d p99 %s us, the merged histogram gives %s" % (j, m["lat_p99_us"][j], mid / 1e3))
for a in st["agents"]:
    if "series" in a or len(a.get("minutes", {}).get("iops", [])) != 4:
        bad.append("agent %s: %s" % (a["name"], sorted(a)))
    if a.get("host", {}).get("minutes", {}).get("interval_s") != 60:
        bad.append("agent %s: host %s" % (a["name"], sorted(a.get("host", {}))))
for n in st["nodes"]:
    if len(n.get("minutes", {}).get("lat_p99_us", [])) != 4:
        bad.append("node %s: %s" % (n["name"], sorted(n)))
d = st.get("drift", {})
if [h["seconds"] for h in d.get("hours", [])] != [200] or d.get("worst_minute_iops", {}).get("minute") not in (1, 2):
    bad.append("drift: %s" % d)
if "steady_from_second" not in d or d["steady_from_second"] is not None:
    bad.append("steady state in 200 s: %s" % d.get("steady_from_second"))
if st["vdbench"].get("interval_s") != 60 or len(st["vdbench"]["intervals"]) != 4:
    bad.append("vdbench: %s" % st["vdbench"].get("interval_s"))
rows = [r for r in csv.DictReader(open(run + "/timeseries.csv")) if r["level"] == "total"]
if [r["second"] for r in rows] != ["0", "60", "120", "180"]:
    bad.append("timeseries.csv total rows at %s" % [r["second"] for r in rows])
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
EOF
grep -q "Drift over the step" "$T/run/summary.md" || fail "summary.md has no drift table"
grep -q 'data-chart="s0-iops-total"' "$T/run/report.html" || fail "report.html has no total chart"
grep -q "time in step (min)" "$T/run/report.html" || fail "report.html's charts are not per minute"
python3 "$BC_SRC/tests/faults/check_run.py" "$T/run" >"$T/check" 2>&1 || {
	cat "$T/check"
	fail "the ground-truth checker disagrees"
}
# the volumes' minutes past run.json's budget (results/fullsize.h): left in seconds.bin, the
# reports read them there and say the same
cp -r "$T/run" "$T/budget"
BC_LONG_STEP_S=120 BC_SERIES_VOLUME_POINTS=1 "$COORD" report --rebuild "$T/budget" >"$T/out3" 2>&1 ||
	fail "report --rebuild past the budget failed"
python3 -c '
import json, sys
a, b = (json.load(open(d + "/run.json"))["steps"][0] for d in sys.argv[1:3])
sys.exit(0 if all("minutes" in v for v in a["volumes"]) and "minutes" in b["total"] and
         all("minutes" not in v and "series" not in v for v in b["volumes"]) else 1)' "$T/run" "$T/budget" ||
	fail "the volumes' minutes are not in run.json within the budget, or are past it"
for f in timeseries.csv report.html; do
	cmp "$T/run/$f" "$T/budget/$f" || fail "$f differs with the volumes' minutes read from seconds.bin"
done
# the same run under the limit: per-second series as ever
"$COORD" report --rebuild "$T/run" >"$T/out2" 2>&1 || fail "report --rebuild (short) failed"
python3 -c '
import json, sys
st = json.load(open(sys.argv[1] + "/run.json"))["steps"][0]
sys.exit(0 if len(st["total"]["series"]["iops"]) == 200 and "drift" not in st else 1)' "$T/run" ||
	fail "a 200 s step under the default limit is not per second"
# a live run of a long step (the limit moved to 5 s): the same per minute from a real agent
start_agent a1
cat >"$T/p.json" <<JSON
{"name": "long", "agents": [{"name": "a1", "endpoint": "$EP_a1"}],
 "nodes": [{"name": "n1"}],
 "volumes": [{"agent": "a1", "path": "null", "node": "n1", "workload": {"rate_iops": 2000}}],
 "steps": [{"name": "soak", "rw": "randread", "bs": "4k", "ramp": "1s", "runtime": "11s"}]}
JSON
BC_LONG_STEP_S=5 "$COORD" run -q -o "$T/live" "$T/p.json" >"$T/live.out" 2>&1 || {
	cat "$T/live.out"
	fail "the live long step failed"
}
R=$(run_dir "$T/live")
python3 - "$R" <<'EOF2' || fail "the live long step is not per minute"
import json, sys
st = json.load(open(sys.argv[1] + "/run.json"))["steps"][0]
m = st["total"].get("minutes", {})
ok = "series" not in st["total"] and m.get("seconds") == [12] and m["iops"][0] > 0
ok = ok and st["agents"][0]["host"]["minutes"]["interval_s"] == 60 and "drift" in st
sys.exit(0 if ok else 1)
EOF2
python3 "$BC_SRC/tests/faults/check_run.py" "$R" >"$T/check2" 2>&1 || {
	cat "$T/check2"
	fail "the ground-truth checker disagrees with the live long step"
}
echo "PASS: a long step is read per minute, its drift and percentiles exact, live and rebuilt"
