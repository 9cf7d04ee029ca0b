#!/bin/bash
# test_report_window: `bench-coord report --window A-B` re-windows a finished run from its
# record log: every volume's, agent's, node's and the total's I/Os, bytes, seconds, IOPS and
# latency percentiles (all ops and each op) over seconds [A, B) of each step equal an
# independent recomputation from events.jsonl (records summed, histograms merged and ranked in
# Python, JSON and compact base64 records alike), the agents' totals still check, the run's own
# files are untouched, and `--out -` prints the window's summary.md and leaves nothing behind.
. "$(dirname "$0")/lib.sh"

start_agent a1
start_agent a2
cat >"$T/p.json" <<JSON
{"name": "window",
 "agents": [{"name": "a1", "endpoint": "$EP_a1"}, {"name": "a2", "endpoint": "$EP_a2"}],
 "nodes": [{"name": "n1"}, {"name": "n2"}],
 "volumes": [{"agent": "a1", "path": "$T/a1-x.dat", "size": "16m", "node": "n1"},
             {"agent": "a1", "path": "$T/a1-y.dat", "size": "16m", "node": "n2"},
             {"agent": "a2", "path": "$T/a2-x.dat", "size": "16m", "node": "n1"},
             {"agent": "a2", "path": "null", "node": "n2", "workload": {"rate_iops": 400}}],
 "steps": [{"name": "mix", "rw": "randrw", "rwmixread": 70, "bs": "4k", "iodepth": 2,
            "ramp": "1s", "runtime": "5s"},
           {"name": "sw", "rw": "randread", "bs": "4k", "ramp": "1s", "runtime": "3s",
            "sweep": {"iodepth": [1, 4]}}]}
JSON

check() { # check EVENTS_FORMAT
	local fmt=$1 R W sum0 sum1
	"$COORD" run -q --events-format "$fmt" -o "$T/out-$fmt" "$T/p.json" >"$T/stdout" 2>"$T/stderr" || {
		cat "$T/stdout" "$T/stderr"
		fail "the $fmt run failed"
	}
	R=$(run_dir "$T/out-$fmt")
	W="$T/win-$fmt"
	sum0=$(cd "$R" && sha256sum run.json seconds.bin events.jsonl summary.md report.html)
	"$COORD" report --window 2-5 --out "$W" "$R" >"$T/wout" 2>&1 || {
		cat "$T/wout"
		fail "report --window 2-5 failed ($fmt)"
	}
	sum1=$(cd "$R" && sha256sum run.json seconds.bin events.jsonl summary.md report.html)
	[ "$sum0" = "$sum1" ] || fail "report --window changed the run's own files ($fmt)"
	for f in run.json seconds.bin summary.md report.html volumes.html volumes.csv timeseries.csv fio.json; do
		[ -s "$W/$f" ] || fail "no $f in the window's directory ($fmt)"
	done
	python3 - "$R/events.jsonl" "$R/profile.json" "$W/run.json" 2 5 <<'PY' || fail "the window's figures differ from events.jsonl ($fmt, above)"
import base64, json, math, sys
evp, profp, runp, A, B = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
OPS = ("read", "write", "trim")
prof = json.load(open(profp))
run = json.load(open(runp))
agents = [a["name"] for a in prof["agents"]]
nodes = [n["name"] for n in prof["nodes"]]
vnode = [nodes.index(v["node"]) for v in prof["volumes"]]
vagent = [agents.index(v["agent"]) for v in prof["volumes"]]
avols = {a: [i for i, v in enumerate(vagent) if v == a] for a in range(len(agents))}

def varint(b, off):
    r = sh = 0
    while True:
        x = b[off]
        off += 1
        r |= (x & 0x7f) << sh
        sh += 7
        if x < 0x80:
            return r, off

def body(b):
    """a compact record's STATS body (wire/stats.h) as the JSON form's volumes"""
    off = 1
    _, off = varint(b, off)
    sec, off = varint(b, off)
    _, off = varint(b, off)
    nvol, off = varint(b, off)
    vols = []
    for _ in range(nvol):
        vi, off = varint(b, off)
        mask, off = varint(b, off)
        v = {"volume": vi}
        for o, op in enumerate(OPS):
            if not mask & (1 << o):
                continue
            f = []
            for _ in range(8):
                x, off = varint(b, off)
                f.append(x)
            pairs, off = varint(b, off)
            hist, at = [], 0
            for _ in range(pairs):
                d, off = varint(b, off)
                c, off = varint(b, off)
                at += d
                hist.append([at, c])
            v[op] = {"ios": f[0], "bytes": f[1], "hist": hist}
        if mask & 0x80:
            _, off = varint(b, off)
        if mask & 0x40:  # the agent's percentile buckets (protocol 2): not needed here
            for _ in range(5):
                _, off = varint(b, off)
        vols.append(v)
    return sec, vols

def mid(i):
    if i < 256:
        return i
    sh = i // 128 - 1
    return ((i - sh * 128) << sh) + ((1 << sh) >> 1)

def pct(h, p):
    n = sum(h.values())
    if not n:
        return None
    if p >= 100:
        return mid(max(h))
    want = p / 100.0 * n
    rank = int(want)
    if rank < want:
        rank += 1
    rank = max(rank, 1)
    seen = 0
    for i in sorted(h):
        seen += h[i]
        if seen >= rank:
            return mid(i)

class Fig:
    def __init__(self):
        self.ios = {op: 0 for op in OPS}
        self.bytes = {op: 0 for op in OPS}
        self.hist = {op: {} for op in OPS}
        self.secs = set()
    def add(self, k, v):
        self.secs.add(k)
        for op in OPS:
            if op not in v:
                continue
            self.ios[op] += v[op]["ios"]
            self.bytes[op] += v[op]["bytes"]
            for i, c in v[op]["hist"]:
                self.hist[op][i] = self.hist[op].get(i, 0) + c

steps, cur = [], None
for line in open(evp):
    ev = json.loads(line)
    t = ev.get("event")
    if t == "step_start":
        wl = ev.get("workload", {})
        cur = {"name": ev["name"], "len": wl.get("ramp", 0) + wl.get("runtime", 0), "f": {}}
        steps.append(cur)
    elif t == "stats":
        if "body_b64" in ev:
            k, vols = body(base64.b64decode(ev["body_b64"]))
            a = agents.index(ev["agent"])
            for v in vols:
                v["volume"] = avols[a][v["volume"]]
        else:
            k, vols = ev["second"], ev["volumes"]
        if not (A <= k < min(B, cur["len"])):
            continue
        a = agents.index(ev["agent"])
        for v in vols:
            gv = v["volume"]
            for key in (("volume", gv), ("agent", a), ("node", vnode[gv]), ("total", 0)):
                cur["f"].setdefault(key, Fig()).add(k, v)

bad = []
def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-3 + 1e-9 * abs(b)

def cmp(where, e, f):
    ios = sum(f.ios.values())
    byt = sum(f.bytes.values())
    n = len(f.secs)
    if e["ios"] != ios or e["bytes"] != byt or e["seconds"] != n:
        bad.append("%s: %s I/Os %s bytes over %s s, events %d / %d over %d s"
                   % (where, e["ios"], e["bytes"], e["seconds"], ios, byt, n))
    if not close(e["iops"], ios / n if n else None):
        bad.append("%s: IOPS %s, events %s" % (where, e["iops"], ios / n if n else None))
    merged = {}
    for op in OPS:
        for i, c in f.hist[op].items():
            merged[i] = merged.get(i, 0) + c
    for p, key in ((50, "p50"), (90, "p90"), (99, "p99"), (99.9, "p99.9")):
        want = pct(merged, p)
        got = e["lat_us"][key]
        if not close(got, want / 1000.0 if want is not None else None):
            bad.append("%s: %s %s us, events' merged histogram %s ns" % (where, key, got, want))
        for op in OPS:
            if op in e and f.ios[op]:
                w = pct(f.hist[op], p)
                if not close(e[op]["lat_us"][key], w / 1000.0):
                    bad.append("%s %s: %s %s us, events %s ns" % (where, op, key, e[op]["lat_us"][key], w))
                if e[op]["ios"] != f.ios[op]:
                    bad.append("%s %s: %s I/Os, events %d" % (where, op, e[op]["ios"], f.ios[op]))

if run.get("window") != {"from_second": A, "to_second": B, "run_dir": run["window"]["run_dir"]}:
    bad.append("run.json window: %s" % run.get("window"))
if [s["name"] for s in run["steps"]] != [s["name"] for s in steps]:
    bad.append("steps %s, events %s" % ([s["name"] for s in run["steps"]], [s["name"] for s in steps]))
for js, st in zip(run["steps"], steps):
    w = st["name"]
    if js["measured_from_second"] != A or js["seconds"] != min(B, st["len"]):
        bad.append("%s: measured from %s to %s" % (w, js["measured_from_second"], js["seconds"]))
    ents = [("total", 0, js["total"])]
    ents += [("volume", i, e) for i, e in enumerate(js["volumes"])]
    ents += [("agent", i, e) for i, e in enumerate(js["agents"])]
    ents += [("node", i, e) for i, e in enumerate(js["nodes"])]
    if len(js["volumes"]) != len(vagent) or len(js["nodes"]) != len(nodes):
        bad.append("%s: %d volumes %d nodes" % (w, len(js["volumes"]), len(js["nodes"])))
    for lvl, i, e in ents:
        cmp("%s %s %s" % (w, lvl, e["name"]), e, st["f"].get((lvl, i), Fig()))
    for c in js["checks"]:
        if c["name"].startswith("agent totals") and c.get("pass") is not True:
            bad.append("%s: %s" % (w, c))
    if not st["f"].get(("total", 0)) or not sum(st["f"][("total", 0)].ios.values()):
        bad.append("%s: no I/O in the window: nothing was proved" % w)
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
}

check json
check compact

# --out -: the window's summary.md on stdout, no directory left
R=$(run_dir "$T/out-json")
before=$(ls /tmp | grep -c '^bench-coord-window' || true)
"$COORD" report --window 1s-3s --out - "$R" >"$T/win.md" 2>"$T/win.err" || {
	cat "$T/win.err"
	fail "report --window --out - failed"
}
grep -q "^#" "$T/win.md" || fail "no summary.md on stdout: $(head -5 "$T/win.md")"
after=$(ls /tmp | grep -c '^bench-coord-window' || true)
[ "$before" = "$after" ] || fail "report --window --out - left its directory in /tmp"
# the default directory, and bad windows refused as usage errors
"$COORD" report --window 3- "$R" >/dev/null 2>"$T/err" || fail "report --window 3- failed: $(cat "$T/err")"
[ -s "$R/window-3-end/run.json" ] || fail "no $R/window-3-end/run.json"
for bad in 5-2 2-2 -3 x-4 1500ms-3; do
	rc=0
	"$COORD" report --window "$bad" "$R" >/dev/null 2>"$T/err" || rc=$?
	[ "$rc" = 2 ] || fail "--window $bad: exit $rc, expected 2"
done
rc=0
"$COORD" report --window 2-4 --out "$R" "$R" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" = 1 ] && grep -q "other than the run's" "$T/err" || fail "--out RUN_DIR was not refused (exit $rc): $(cat "$T/err")"
echo "PASS: report --window figures equal events.jsonl's at every level, json and compact"
