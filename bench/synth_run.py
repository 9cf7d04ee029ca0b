#!/usr/bin/env python3
"""synth_run.py SRC DST AGENTS VOLUMES SECONDS [POINTS] - a run directory at fleet size without a fleet.

The report tests' synthetic run (tests/data/report/synthetic) scaled to AGENTS client hosts x
VOLUMES volumes x SECONDS seconds, every entity a copy of the fixture's with its figures varied
so top/bottom lists and distributions have something to sort; with POINTS > 1 its step is a
sweep over iodepth of that many points. For bench/report-open.sh and bench/chartlib.sh.
"""
import copy, json, random, sys
src, dst, n, m, secs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
points = int(sys.argv[6]) if len(sys.argv) > 6 else 1
run = json.load(open(src + "/run.json"))
prof = json.load(open(src + "/profile.json"))
rnd = random.Random(1)
st = run["steps"][0]
st.pop("seconds_bin_step", None)
st["seconds"] = secs
st["measured_from_second"] = min(2, secs - 1)

def scaled(e, f):
    e = copy.deepcopy(e)
    for k in ("iops", "mbps"):
        if isinstance(e.get(k), (int, float)):
            e[k] = round(e[k] * f, 3)
    for k, v in list(e.get("lat_us", {}).items()):
        if isinstance(v, (int, float)):
            e["lat_us"][k] = round(v / f, 3)
    e.pop("series", None)
    base = e.get("iops") or 1000
    lat = (e.get("lat_us") or {}).get("p99") or 500
    e["series"] = {
        "iops": [round(base * rnd.uniform(0.9, 1.1)) for _ in range(secs)],
        "read_iops": [round(base * 0.7 * rnd.uniform(0.9, 1.1)) for _ in range(secs)],
        "mbps": [round(base * 4096 / 1e6 * rnd.uniform(0.9, 1.1), 3) for _ in range(secs)],
        "lat_p50_us": [round(lat / 3 * rnd.uniform(0.9, 1.1), 3) for _ in range(secs)],
        "lat_p99_us": [round(lat * rnd.uniform(0.9, 1.1), 3) for _ in range(secs)],
        "lat_p99.9_us": [round(lat * 1.5 * rnd.uniform(0.9, 1.1), 3) for _ in range(secs)],
        "lat_max_us": [round(lat * 3 * rnd.uniform(0.9, 1.1), 3) for _ in range(secs)],
    }
    return e

def lat_times(e, g):
    for k, v in list(e.get("lat_us", {}).items()):
        if isinstance(v, (int, float)):
            e["lat_us"][k] = round(v * g, 3)
    for k, v in list(e.get("series", {}).items()):
        if k.startswith("lat_"):
            e["series"][k] = [round(x * g, 3) for x in v]
    return e

def bare(e):
    """a volume as run.json keeps one at fleet size: its window figures, its series in
    seconds.bin (results/fullsize.h) - which a synthetic run has not, so none"""
    if n * m > 256:
        e.pop("series", None)
    return e

va, aa, ra = st["volumes"][0], st["agents"][0], run["agents"][0]
st["volumes"], st["agents"], run["agents"] = [], [], []
prof["agents"], prof["volumes"] = [], []
for a in range(n):
    name = "client-%04d" % a
    ae = scaled(aa, rnd.uniform(0.5, 1.5))
    ae["name"] = name
    st["agents"].append(ae)
    r = copy.deepcopy(ra)
    r["name"] = name
    run["agents"].append(r)
    prof["agents"].append({"name": name, "endpoint": "tcp://10.%d.%d.1:7470" % (a // 250, a % 250)})
    for v in range(m):
        path = "/dev/nvme%dn1" % v
        ve = bare(scaled(va, rnd.uniform(0.5, 1.5)))
        ve.update({"name": "%s:%s" % (name, path), "agent": name, "path": path,
                   "node": prof["nodes"][(a * m + v) % len(prof["nodes"])]["name"]})
        st["volumes"].append(ve)
        prof["volumes"].append({"agent": name, "path": path,
                                "node": prof["nodes"][(a * m + v) % len(prof["nodes"])]["name"]})
st.pop("waf", None)
run["steps"] = [st]
prof["steps"] = prof["steps"][:1]
# points > 1: the step swept over iodepth 1, 2, 4 ..., each point the step with its
# figures scaled as a sweep that levels off, the sweep's columns on the last
if points > 1:
    steps, qd = [], [2 ** k for k in range(points)]
    for k in range(points):
        f = min(1.0, (k + 1) / (points - 1)) if points > 1 else 1
        p = copy.deepcopy(st)
        p["name"] = "rr@iodepth=%d" % qd[k]
        p["sweep_of"], p["sweep_point"] = "rr", str(qd[k])
        p["workload"]["iodepth"] = qd[k]
        # throughput x f, latency rising with the queue depth
        g = (k + 1) * f
        p["volumes"], p["agents"], p["nodes"] = (
            [lat_times(scaled(e, f), g) for e in p[lvl]] for lvl in ("volumes", "agents", "nodes"))
        p["volumes"] = [bare(e) for e in p["volumes"]]
        p["total"] = lat_times(scaled(p["total"], f), g)
        steps.append(p)
    t = [s["total"] for s in steps]
    steps[-1]["sweep"] = {"param": "iodepth", "values": qd, "labels": [str(q) for q in qd],
                          "n": [q * n * m for q in qd], "iops": [x["iops"] for x in t],
                          "mbps": [x["mbps"] for x in t],
                          "lat_mean_us": [x["lat_us"]["mean"] for x in t],
                          "lat_p99_us": [x["lat_us"]["p99"] for x in t],
                          "knee": {"value": qd[-2], "index": points - 2, "confirmed": True,
                                   "reason": "synthetic: the last point adds nothing"}}
    run["steps"] = steps
    prof["steps"][0]["sweep"] = {"iodepth": qd}
prof.pop("expect", None)
json.dump(run, open(dst + "/run.json", "w"))
json.dump(prof, open(dst + "/profile.json", "w"))
