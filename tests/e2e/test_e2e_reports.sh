#!/bin/bash
# test_e2e_reports: a real run writes summary.md, report.html, timeseries.csv and fio.json;
# fio's own fio_jsonplus_clat2csv reads fio.json with the run's totals; `report` rebuilds
# the same files; `compare` finds a run consistent with itself and not with a changed copy.
. "$(dirname "$0")/lib.sh"

cat >"$T/p.json" <<JSON
{
  "name": "e2e-reports",
  "agents": [{"name": "a1", "endpoint": "local"}, {"name": "a2", "endpoint": "local"}],
  "nodes": [{"name": "n1", "addresses": ["127.0.0.1"]}],
  "volumes": [
    {"agent": "a1", "path": "v0.dat", "size": "16m", "node": "n1"},
    {"agent": "a2", "path": "v0.dat", "size": "16m", "node": "n1"},
    {"agent": "a2", "path": "v1.dat", "size": "16m"}
  ],
  "defaults": {"direct": true, "ramp": "1s", "runtime": "2s"},
  "steps": [
    {"name": "write-64k", "rw": "write", "bs": "64k", "iodepth": 4},
    {"name": "randrw-4k", "rw": "randrw", "rwmixread": 70, "bs": "4k", "iodepth": 8}
  ],
  "expect": [
    {"step": "randrw-4k", "metric": "iops", "min": 1},
    {"step": "randrw-4k", "metric": "p99_ms", "max": 100000, "agent": "a1"},
    {"step": "write-64k", "metric": "write_gbps", "min": 1000000}
  ]
}
JSON
"$COORD" run -q -o "$T/out" "$T/p.json" >"$T/stdout" 2>"$T/stderr" || {
	cat "$T/stdout" "$T/stderr"
	fail "bench-coord run failed"
}
R=$(run_dir "$T/out")
for f in summary.md report.html timeseries.csv fio.json; do
	[ -s "$R/$f" ] || fail "missing $R/$f"
done
grep -q '^## Acceptance criteria' "$R/summary.md" || fail "no criteria in summary.md"
grep -q '^2 of 3 criteria passed.' "$R/summary.md" || fail "expected 2 of 3 criteria to pass"
grep -q '| \*\*FAIL\*\* | write-64k | total | write_gbps |' "$R/summary.md" || fail "no FAIL row"
grep -q '^### Devices' "$R/summary.md" || fail "no device table"
grep -q '^### By storage node' "$R/summary.md" || fail "no per-node table"

# timeseries.csv: one row per second per entity, and the seconds add up to the window
python3 - "$R" <<'PY' || fail "timeseries.csv does not match run.json"
import csv, json, sys
d = sys.argv[1]
r = json.load(open(d + "/run.json"))
rows = list(csv.DictReader(open(d + "/timeseries.csv", newline="")))
want = sum(s["seconds"] * (1 + len(s["agents"]) + len(s["nodes"]) + len(s["volumes"]))
           for s in r["steps"])
assert len(rows) == want, (len(rows), want)
for s in r["steps"]:
    run = [x for x in rows if x["step"] == s["name"] and x["level"] == "total" and x["phase"] == "run"]
    assert len(run) == s["measured_seconds"]
    assert sum(int(x["iops"]) for x in run) == s["total"]["ios"], s["name"]
    for a in s["agents"]:
        got = sum(int(x["iops"]) for x in rows if x["step"] == s["name"] and x["entity"] == a["name"]
                  and x["level"] == "agent" and x["phase"] == "run")
        assert got == a["ios"], (a["name"], got, a["ios"])
print("timeseries.csv: %d rows" % len(rows))
PY

# fio.json through fio's own json+ tool: no error, and the bins hold every I/O
command -v fio_jsonplus_clat2csv >/dev/null || fail "fio_jsonplus_clat2csv missing (fio package)"
(cd "$T" && fio_jsonplus_clat2csv "$R/fio.json" "$T/clat.csv" >"$T/clat.log" &&
	fio_jsonplus_clat2csv "$R/fio.json" "$T/clat.csv" --validate >>"$T/clat.log") || {
	cat "$T/clat.log"
	fail "fio_jsonplus_clat2csv cannot read fio.json"
}
python3 - "$R" "$T" <<'PY' || fail "fio.json totals differ from run.json"
import csv, json, sys
d, t = sys.argv[1], sys.argv[2]
r = json.load(open(d + "/run.json"))
f = json.load(open(d + "/fio.json"))
assert len(f["jobs"]) == len(r["steps"])
assert len(f["client_stats"]) == sum(len(s["agents"]) + 1 for s in r["steps"])
for i, s in enumerate(r["steps"]):
    job = f["jobs"][i]
    rows = list(csv.reader(open("%s/clat_job%d.csv" % (t, i))))
    head = [h.strip() for h in rows[0]]
    for op in ("read", "write"):
        ios = s["total"].get(op, {}).get("ios", 0)
        col = head.index(op + "_clat_ns_count")
        got = sum(int(x[col]) for x in rows[1:] if len(x) > col and x[col].strip())
        assert got == ios, (s["name"], op, got, ios)
        assert job[op]["total_ios"] == ios and job[op]["clat_ns"]["N"] == ios
        assert job[op]["io_bytes"] == s["total"].get(op, {}).get("bytes", 0)
    clients = [c for c in f["client_stats"] if c["groupid"] == i]
    assert clients[-1]["jobname"] == "All clients"
    for op in ("read", "write"):
        assert sum(c[op]["total_ios"] for c in clients[:-1]) == clients[-1][op]["total_ios"]
print("fio.json: %d jobs, bins match run.json" % len(f["jobs"]))
PY

# report regenerates the very same files from the run directory
mkdir "$T/first"
cp "$R"/{summary.md,report.html,timeseries.csv,fio.json} "$T/first/"
"$COORD" report "$R" >"$T/report.out" || fail "bench-coord report failed"
for f in summary.md report.html timeseries.csv fio.json; do
	cmp -s "$R/$f" "$T/first/$f" || fail "report rewrote $f differently"
done

# no run.json: report rebuilds it from events.jsonl with the same figures as the live run
cp -r "$R" "$T/norun"
rm "$T/norun/run.json"
"$COORD" report "$T/norun" 2>"$T/norun.err" || fail "report could not rebuild run.json: $(cat "$T/norun.err")"
python3 - "$R/run.json" "$T/norun/run.json" <<'PY' || fail "rebuilt run.json differs from the live one"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert b["rebuilt_from"] == "events.jsonl" and b["status"] == a["status"], (b["status"], a["status"])
assert len(a["steps"]) == len(b["steps"])
for sa, sb in zip(a["steps"], b["steps"]):
    for k in ("ios", "bytes", "iops", "mbps"):
        assert sa["total"][k] == sb["total"][k], (sa["name"], k, sa["total"][k], sb["total"][k])
    for k in ("p50", "p99", "p99.9", "max"):
        assert sa["total"]["lat_us"][k] == sb["total"]["lat_us"][k], (sa["name"], k)
    assert sa["total"]["series"]["iops"] == sb["total"]["series"]["iops"]
    assert [v["bytes"] for v in sa["volumes"]] == [v["bytes"] for v in sb["volumes"]]
PY
# a run.json left "running" by a coordinator that died is replaced by the rebuilt one
cp -r "$R" "$T/running"
python3 -c "import json,sys; p=sys.argv[1]; r=json.load(open(p)); r['status']='running'; json.dump(r,open(p,'w'))" \
	"$T/running/run.json"
"$COORD" report "$T/running" 2>"$T/running.err" || fail "report of an incomplete run failed"
[ "$(json "$T/running/run.json" 'r.get("rebuilt_from")')" = events.jsonl ] ||
	fail "a run.json left running was not rebuilt"

# compare: consistent with itself; a copy with 30% fewer IOPS in one step is not
"$COORD" compare --threshold 5 "$R" "$R" --md "$T/cmp.md" >"$T/cmp.out" || {
	cat "$T/cmp.out"
	fail "a run is not consistent with itself"
}
grep -q '2 step(s): 2 consistent' "$T/cmp.out" || fail "compare summary: $(tail -1 "$T/cmp.out")"
grep -q '^## Step randrw-4k' "$T/cmp.md" || fail "no Markdown comparison"
cp -r "$R" "$T/slower"
python3 -c "
import json,sys; p=sys.argv[1]; r=json.load(open(p)); t=r['steps'][1]['total']; t['iops']*=0.7
json.dump(r,open(p,'w'))" "$T/slower/run.json"
if "$COORD" compare -t 5 "$R" "$T/slower" >"$T/cmp2.out"; then
	fail "compare missed a 30% difference"
fi
grep -q 'INCONSISTENT: slower IOPS -30.0%' "$T/cmp2.out" || fail "compare verdict: $(cat "$T/cmp2.out")"
cat "$T/cmp2.out"
echo "PASS"
