#!/bin/bash
# test_e2e_fio_json: fio.json in each shape fio writes - one client (fio's plain layout, no
# client_stats), several clients (client_stats with one "All clients" per step) - and one fio
# JSON per sweep point in bench-fio's layout (fio/<target>/<bs>/<rw>-<iodepth>-<numjobs>.json),
# each read by fio's own fio_jsonplus_clat2csv, with the keys fio-plot's readers use
# (fio_plot/fiolib/jsonparsing_support.py get_json_mapping, jsonimport.py filter_json_files).
. "$(dirname "$0")/lib.sh"

command -v fio_jsonplus_clat2csv >/dev/null || fail "fio_jsonplus_clat2csv missing (fio package)"

# fio's tool on one document: every step's I/Os are in its csv
clat() { # FIO_JSON TAG
	(cd "$T" && fio_jsonplus_clat2csv "$1" "$T/$2.csv" >"$T/$2.log" 2>&1 &&
		fio_jsonplus_clat2csv "$1" "$T/$2.csv" --validate >>"$T/$2.log" 2>&1) || {
		cat "$T/$2.log"
		fail "fio_jsonplus_clat2csv cannot read $1"
	}
}

cat >"$T/one.json" <<JSON
{"name": "fj-one", "agents": [{"name": "a1", "endpoint": "local"}],
 "volumes": [{"agent": "a1", "path": "fj.dat", "size": "16m"}],
 "defaults": {"direct": true, "runtime": "1s"},
 "steps": [{"name": "qd", "rw": "randread", "bs": "4k", "sweep": {"iodepth": [1, 4]}},
           {"name": "mix", "rw": "randrw", "rwmixread": 70, "bs": "8k", "iodepth": 2}]}
JSON
cat >"$T/two.json" <<JSON
{"name": "fj-two", "agents": [{"name": "a1", "endpoint": "local"}, {"name": "a2", "endpoint": "local"}],
 "volumes": [{"agent": "a1", "path": "fj1.dat", "size": "16m"}, {"agent": "a2", "path": "fj2.dat", "size": "16m"}],
 "defaults": {"direct": true, "runtime": "1s"},
 "steps": [{"name": "rr", "rw": "randread", "bs": "4k", "iodepth": 4}]}
JSON
for p in one two; do
	"$COORD" run -q -o "$T/out-$p" "$T/$p.json" >"$T/$p.out" 2>&1 || {
		cat "$T/$p.out"
		fail "run $p failed"
	}
done
R1=$(run_dir "$T/out-one")
R2=$(run_dir "$T/out-two")
clat "$R1/fio.json" one
clat "$R2/fio.json" two
n=0
for f in $(find "$R1/fio" -name '*.json' | sort); do
	n=$((n + 1))
	clat "$f" "point$n"
done
[ "$n" = 3 ] || fail "expected 3 per-point files, got $n"

python3 - "$R1" "$R2" "$T" <<'PY' || fail "fio JSON shapes"
import csv, json, os, sys
r1, r2, t = sys.argv[1:4]

def fioplot_row(job, opts, mode):
    # what fio-plot's get_json_mapping reads from every job it charts
    for k in ("iodepth", "numjobs", "bs", "rw"):
        assert k in opts, (k, opts)
    for k in ("bw", "iops", "iops_stddev"):
        assert k in job[mode], (k, job[mode].keys())
    for k in ("mean", "stddev"):
        assert k in job[mode]["lat_ns"]
    for k in ("latency_ms", "latency_us", "latency_ns", "usr_cpu", "sys_cpu"):
        assert k in job, (k, job["jobname"])

def ios_in_csv(tag, i, op):
    rows = list(csv.reader(open("%s/%s_job%d.csv" % (t, tag, i))))
    head = [h.strip() for h in rows[0]]
    col = head.index(op + "_clat_ns_count")
    return sum(int(x[col]) for x in rows[1:] if len(x) > col and x[col].strip())

# one client: fio's plain layout
run = json.load(open(r1 + "/run.json"))
f = json.load(open(r1 + "/fio.json"))
assert "client_stats" not in f, "one client has no client_stats in fio"
assert len(f["jobs"]) == len(run["steps"]) == 3
g = f["global options"]
assert g["bs"] if "bs" in g else True
for i, (job, st) in enumerate(zip(f["jobs"], run["steps"])):
    opts = dict(job["job options"], **g)
    assert opts["bs"] in ("4k", "8k"), opts
    assert ("rwmixread" in opts) == (opts["rw"] == "randrw"), opts
    assert opts["filename"] == "fj.dat" and opts["size"] == "16m", opts
    fioplot_row(job, opts, "read")
    cpu = run["steps"][i]["agent_totals"]["a1"]["cpu"]
    want = 100 * cpu["process_user_ns"] / (st["seconds"] * 1e9)
    assert abs(job["usr_cpu"] - want) < 1e-6, (job["usr_cpu"], want)
    for op in ("read", "write"):
        assert ios_in_csv("one", i, op) == st["total"].get(op, {}).get("ios", 0)
# one file per point, in bench-fio's layout, options fio-plot filters on in "global options"
for st in run["steps"]:
    wl = st["workload"]
    sub = "randrw70/8k" if wl["rw"] == "randrw" else "4k"
    path = "%s/fio/fj.dat/%s/%s-%d-%d.json" % (r1, sub, wl["rw"], wl["iodepth"], wl["numjobs"])
    p = json.load(open(path))
    assert len(p["jobs"]) == 1 and p["jobs"][0]["jobname"] == st["name"], path
    opts = dict(p["jobs"][0]["job options"], **p["global options"])
    assert int(opts["iodepth"]) == wl["iodepth"] and opts["rw"] == wl["rw"], opts
    assert p["jobs"][0]["read"]["total_ios"] == st["total"]["read"]["ios"]

# several clients: client_stats with "All clients" once per step
run = json.load(open(r2 + "/run.json"))
f = json.load(open(r2 + "/fio.json"))
cs = f["client_stats"]
assert [c["jobname"] for c in cs].count("All clients") == len(run["steps"]) == 1
assert len(cs) == 3 and cs[-1]["hostname"] == "All clients"
for c in cs:
    fioplot_row(c, dict(c["job options"], **f["global options"]), "read")
assert sum(c["read"]["total_ios"] for c in cs[:-1]) == cs[-1]["read"]["total_ios"] == \
    run["steps"][0]["total"]["read"]["ios"] == ios_in_csv("two", 0, "read")
assert abs(cs[-1]["usr_cpu"] - cs[0]["usr_cpu"] - cs[1]["usr_cpu"]) < 1e-6
assert {c["job options"].get("filename") for c in cs[:-1]} == {"fj1.dat", "fj2.dat"}
assert not os.path.exists(r2 + "/fio"), "one step: no per-point files"
print("fio JSON: plain (3 jobs), 3 points, client_stats (2 + All clients) read by fio's tool")
PY
echo "PASS"
