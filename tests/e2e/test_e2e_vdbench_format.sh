#!/bin/bash
# test_e2e_vdbench_format: `run --format vdbench` prints vdbench's header and 13 columns per
# second and its avg_N-M line, whose figures equal those recomputed here from events.jsonl
# (every second's per-op counters and histograms) and run.json's window; summary.md carries the
# same table (also when run.json is rebuilt from events.jsonl), and `report --format vdbench`
# adds it to a run made without the option. Per agent and per volume (vdbench's host and SD
# reports): run.json's tables add up to the total, summary.md lists their avg lines and tables.
. "$(dirname "$0")/lib.sh"

export TZ=UTC
cat >"$T/p.json" <<JSON
{
  "name": "e2e-vdbench",
  "agents": [{"name": "a1", "endpoint": "local"}, {"name": "a2", "endpoint": "local"}],
  "volumes": [
    {"agent": "a1", "path": "v0.dat", "size": "16m"},
    {"agent": "a2", "path": "v1.dat", "size": "16m"}
  ],
  "defaults": {"direct": true, "ramp": "1s", "runtime": "3s"},
  "steps": [{"name": "rw", "rw": "randrw", "rwmixread": 70, "bs": "4k", "iodepth": 4}]
}
JSON
"$COORD" run --plain --format vdbench --events-format json -o "$T/out" "$T/p.json" \
	>"$T/stdout" 2>"$T/stderr" || {
	cat "$T/stdout" "$T/stderr"
	fail "bench-coord run --format vdbench failed"
}
R=$(run_dir "$T/out")
grep -q '^vdbench interval table' "$R/summary.md" || fail "summary.md has no vdbench table"

python3 - "$R" "$T/stdout" <<'PY' || fail "the vdbench table does not match the run"
import json, math, re, sys
d, out = sys.argv[1], sys.argv[2]
run = json.load(open(d + "/run.json"))
st = run["steps"][0]
lines = open(out).read().splitlines()
head = [i for i, l in enumerate(lines) if re.match(r"^\w{3} \d\d, \d{4}\s+interval\s+i/o", l)]
assert len(head) == 1, "one vdbench header per step: %r" % head
h = head[0]
assert lines[h + 1].split() == ["rate", "1024**2", "i/o", "pct", "time", "resp", "resp", "max",
                                "max", "stddev", "depth", "sys+u", "sys"], lines[h + 1]
assert lines[h].split()[3:] == ["interval", "i/o", "MB/sec", "bytes", "read", "resp", "read",
                                "write", "read", "write", "resp", "queue", "cpu%", "cpu%"]
rows = {}
avg = None
for l in lines[h + 2:]:
    f = l.split()
    if len(f) != 15 or not re.match(r"^\d\d:\d\d:\d\d\.\d{3}$", f[0]):
        break
    if f[1].startswith("avg_"):
        avg = f
        break
    rows[int(f[1])] = f
seconds, ramp = st["seconds"], st["measured_from_second"]
assert sorted(rows) == list(range(1, seconds + 1)), sorted(rows)
assert avg and avg[1] == "avg_%d-%d" % (ramp + 1, seconds), avg

# every second from the raw records: per op ios, bytes, latency sum and max, histogram
def mid(i):
    if i < 256:
        return i
    s = i // 128 - 1
    return ((i - s * 128) << s) + ((1 << s) >> 1)
sec = {}
for ev in map(json.loads, open(d + "/events.jsonl")):
    if ev.get("event") != "stats" or ev.get("second", 1 << 32) >= seconds:
        continue
    a = sec.setdefault(ev["second"], {"read": [0, 0, 0, 0], "write": [0, 0, 0, 0], "h": {}})
    for v in ev["volumes"]:
        for op in ("read", "write"):
            o = v.get(op)
            if not o:
                continue
            x = a[op]
            x[0] += o["ios"]; x[1] += o["bytes"]; x[2] += o["lat_sum_ns"]
            x[3] = max(x[3], o["lat_max_ns"])
            for i, c in o.get("hist", []):
                a["h"][i] = a["h"].get(i, 0) + c

def close(got, want, dec, what):
    # the table rounds to dec decimals; allow one unit of the last digit
    assert abs(float(got) - want) <= 10 ** -dec * 1.01, "%s: printed %s, recomputed %.6f" % (what, got, want)

for k in range(seconds):
    a, f = sec[k], rows[k + 1]
    r, w = a["read"], a["write"]
    n = r[0] + w[0]
    close(f[2], n, 1, "i/o rate %d" % k)
    close(f[3], (r[1] + w[1]) / 1048576, 2, "MB/sec %d" % k)
    close(f[4], (r[1] + w[1]) / n, 0, "bytes i/o %d" % k)
    close(f[5], 100 * r[0] / n, 2, "read pct %d" % k)
    close(f[6], (r[2] + w[2]) / n / 1e6, 3, "resp time %d" % k)
    close(f[7], r[2] / r[0] / 1e6, 3, "read resp %d" % k)
    close(f[8], w[2] / w[0] / 1e6, 3, "write resp %d" % k)
    close(f[9], r[3] / 1e6, 2, "read max %d" % k)
    close(f[10], w[3] / 1e6, 2, "write max %d" % k)
    cnt = sum(a["h"].values())
    m1 = sum(c * mid(i) for i, c in a["h"].items()) / cnt
    m2 = sum(c * mid(i) ** 2 for i, c in a["h"].items()) / cnt
    close(f[11], math.sqrt(max(m2 - m1 * m1, 0)) / 1e6, 3, "resp stddev %d" % k)
    close(f[12], n * (r[2] + w[2]) / n / 1e9, 1, "queue depth %d" % k)
    for c in (f[13], f[14]):
        assert c == "-" or 0 <= float(c) <= 100, f

# the avg line from run.json's measured window
t = st["total"]
secs = t["seconds"]
close(avg[2], t["ios"] / secs, 1, "avg i/o rate")
close(avg[3], t["bytes"] / secs / 1048576, 2, "avg MB/sec")
close(avg[5], t["read_pct"], 2, "avg read pct")
close(avg[6], t["lat_us"]["mean"] / 1e3, 3, "avg resp")
close(avg[7], t["read"]["lat_us"]["mean"] / 1e3, 3, "avg read resp")
close(avg[8], t["write"]["lat_us"]["mean"] / 1e3, 3, "avg write resp")
close(avg[9], t["read"]["lat_us"]["max"] / 1e3, 2, "avg read max")
close(avg[10], t["write"]["lat_us"]["max"] / 1e3, 2, "avg write max")
hist = {}
for op in ("read", "write"):
    for i, c in t[op]["hist"]:
        hist[i] = hist.get(i, 0) + c
cnt = sum(hist.values())
m1 = sum(c * mid(i) for i, c in hist.items()) / cnt
m2 = sum(c * mid(i) ** 2 for i, c in hist.items()) / cnt
close(avg[11], math.sqrt(m2 - m1 * m1) / 1e6, 3, "avg resp stddev")
# cpu: the mean over the window of the client hosts' per-second means
hs = [a["host"]["series"] for a in st["agents"]]
def mean_cpu(key):
    per = []
    for k in range(ramp, seconds):
        v = [s[key][k] for s in hs if s[key][k] is not None]
        if v:
            per.append(sum(v) / len(v))
    return sum(per) / len(per)
close(avg[13], mean_cpu("cpu_busy_pct"), 1, "avg cpu% sys+u")
close(avg[14], mean_cpu("cpu_sys_pct"), 1, "avg cpu% sys")
assert float(avg[14]) <= float(avg[13])

# summary.md: the same rows, with every second's exact host sample
md = open(d + "/summary.md").read()
block = md.split("```text\n", 1)[1].split("```", 1)[0].splitlines()
assert block[0].split()[3:] == lines[h].split()[3:], block[0]
mrows = {int(l.split()[1]): l.split() for l in block[2:] if not l.split()[1].startswith("avg")}
assert sorted(mrows) == sorted(rows)
for k, f in rows.items():
    assert mrows[k][:13] == f[:13], (k, mrows[k], f)
assert block[-1].split()[1:] == avg[1:], (block[-1], avg)
print("vdbench table: %d intervals, %s" % (len(rows), " ".join(avg[1:])))
PY

# vdbench's host and SD reports: run.json's tables per agent and per volume add up to the
# total second by second, each avg line is its own window; summary.md lists them
python3 - "$R" <<'PY' || fail "the per-host / per-sd vdbench tables do not match the run"
import json, sys
d = sys.argv[1]
st = json.load(open(d + "/run.json"))["steps"][0]
v = st["vdbench"]
hosts, sds = v["hosts"], v["sds"]
assert [h["name"] for h in hosts] == ["a1", "a2"], [h["name"] for h in hosts]
assert [(s["name"], s["host"]) for s in sds] == [(x["name"], x["name"].split(":")[0])
                                                for x in st["volumes"]], sds
for tabs in (hosts, sds):
    for k, tot in enumerate(v["intervals"]):
        parts = [t["intervals"][k] for t in tabs]
        if tot is None:
            continue
        got = sum(p["rate"] for p in parts if p)
        assert abs(got - tot["rate"]) < 1e-3, (k, got, tot["rate"])
        mb = sum(p["mb_s"] for p in parts if p)
        assert abs(mb - tot["mb_s"]) < 1e-3, (k, mb, tot["mb_s"])
        # no per-second histogram of a host or sd: no stddev, said as null
        assert all(p["resp_stddev_ms"] is None for p in parts if p), parts
for s, vol in zip(sds, st["volumes"]):
    a = s["avg"]
    assert abs(a["rate"] - vol["ios"] / vol["seconds"]) < 1e-3, (a, vol["ios"], vol["seconds"])
    assert abs(a["read_max_ms"] - vol["read"]["lat_us"]["max"] / 1e3) < 1e-3, (a, vol["read"])
    assert a["resp_stddev_ms"] is not None and a["resp_stddev_ms"] > 0, a
for h in hosts:
    assert h["avg"]["cpu_pct"] is None or 0 <= h["avg"]["cpu_pct"] <= 100, h["avg"]
md = open(d + "/summary.md").read()
assert "Per host and per sd (vdbench's host and SD reports" in md, md
lines = md.splitlines()
for t in hosts + sds:
    row = [l for l in lines if l.startswith(t["name"] + " ") and " avg_2-4 " in l]
    assert len(row) == 1, (t["name"], row)
    assert abs(float(row[0].split()[2]) - t["avg"]["rate"]) <= 0.051, (row, t["avg"]["rate"])
for h in hosts:
    assert "\nhost %s:\n" % h["name"] in md, h["name"]
for s in sds:
    assert "\nsd %s (host %s):\n" % (s["name"], s["host"]) in md, s["name"]
print("per host and sd: %s; %s" % (", ".join("%s %.1f" % (t["name"], t["avg"]["rate"]) for t in hosts),
                                   ", ".join("%s %.1f" % (t["name"], t["avg"]["rate"]) for t in sds)))
PY

# rebuilt from events.jsonl (a coordinator that died): the same tables
cp "$R/summary.md" "$T/summary.before"
rm "$R/run.json"
"$COORD" report "$R" >/dev/null || fail "report of a run without run.json failed"
diff <(sed -n '/^```text/,/^```/p' "$T/summary.before") <(sed -n '/^```text/,/^```/p' "$R/summary.md") ||
	fail "the rebuilt run's vdbench table differs"

# a run without the option: summary.md has no table until `report --format vdbench`
"$COORD" run -q -o "$T/out2" "$T/p.json" >/dev/null 2>"$T/stderr2" || {
	cat "$T/stderr2"
	fail "second run failed"
}
R2=$(run_dir "$T/out2")
grep -q '^vdbench interval table' "$R2/summary.md" && fail "table without --format vdbench"
"$COORD" report --format vdbench "$R2" >/dev/null || fail "report --format vdbench failed"
grep -q '^vdbench interval table' "$R2/summary.md" || fail "report --format vdbench: no table"
grep -Eq '^[0-9:.]{12} +avg_2-4 ' "$R2/summary.md" || fail "report --format vdbench: no avg_2-4"
"$COORD" report --format nope "$R2" >/dev/null 2>&1 && fail "report --format nope accepted"
"$COORD" run --format nope "$T/p.json" >/dev/null 2>&1 && fail "run --format nope accepted"
echo "ok"
