#!/bin/bash
# test_e2e_fleet_scale: a sweep at a size where every file summarises its large levels
# (docs/results.md, "What is listed whole"): bench_swarm playing 70 agents x 4 "null" volumes
# plus one real bench-agent with a short dead-man switch (2 volumes), 282 volumes and 71 client
# hosts - above the 256-volume and 64-host limits - in a two-point iodepth sweep, run by a real
# `bench-coord run`. Checked:
#   - the run ends ok, every point ran, the real agent's session ended with BYE (its switch
#     never fired), and the ground-truth checker (tests/faults/check_run.py, from events.jsonl
#     and records.bin alone) agrees with run.json: totals, per-second IOPS, every agent's and
#     every volume's window;
#   - run.json has every volume's and agent's window figures but no per-second series for
#     those two levels (the nodes and the total keep theirs); timeseries.csv has no volume or
#     agent rows; the vdbench block keeps every host's and sd's avg line, no interval rows;
#     summary.md lists the 10 lowest-IOPS and 10 highest-p99 volumes and agents with the
#     level's spread, and a per-volume check as one line of counts;
#   - nothing is lost: the same run re-reported with BC_FULL_VOLUMES=all BC_FULL_AGENTS=all
#     (report --rebuild) lists every volume's series, and each one equals, second by second, what
#     `bench-coord dump-seconds --level volume` reads from seconds.bin and what the checker
#     sums from the raw records.
. "$(dirname "$0")/lib.sh"

SWARM="$BC_BIN/bench/bench_swarm"
[ -x "$SWARM" ] || fail "bench_swarm missing: $SWARM"
N=70
M=4
SKEY=$("$AGENT" keygen "$T/swarm-keys" | sed -n "s/^server key: '\\(.*\\)'\$/\\1/p")
start_agent real0 --deadman-ms 3000

# the swarm binds N consecutive loopback ports: try a few bases until one range is free
SWARM_PID=
for try in 1 2 3 4 5; do
	BASE=$((20000 + (RANDOM % 400) * 100))
	"$SWARM" -n $N -m $M -p $BASE --cert "$T/swarm-keys/agent.cert" \
		--authorized "$COORD_CERT" >"$T/swarm.out" 2>"$T/swarm.err" &
	SWARM_PID=$!
	for _ in $(seq 100); do
		grep -q ready "$T/swarm.out" && break
		kill -0 $SWARM_PID 2>/dev/null || break
		sleep 0.1
	done
	grep -q ready "$T/swarm.out" && break
	kill $SWARM_PID 2>/dev/null || true
	wait $SWARM_PID 2>/dev/null || true
	SWARM_PID=
done
[ -n "$SWARM_PID" ] || fail "bench_swarm did not start: $(cat "$T/swarm.err")"
AGENT_PIDS+=("$SWARM_PID")

python3 - "$N" "$M" "$BASE" "$SKEY" "$EP_real0" "$T/fleet.json" <<'EOF'
import json, sys
n, m, base = map(int, sys.argv[1:4])
skey, ep, out = sys.argv[4:7]
agents = [{"name": "a%03d" % i, "endpoint": "tcp://127.0.0.1:%d" % (base + i), "server_key": skey}
          for i in range(n)]
agents.append({"name": "real0", "endpoint": ep})
nodes = [{"name": "node-%d" % j} for j in range(3)]
vols = [{"agent": a["name"], "path": "null", "node": nodes[(i * m + v) % 3]["name"]}
        for i, a in enumerate(agents[:-1]) for v in range(m)]
vols += [{"agent": "real0", "path": "null", "node": nodes[v % 3]["name"],
          "workload": {"rate_iops": 2000}} for v in range(2)]
json.dump({"name": "fleet", "agents": agents, "nodes": nodes, "volumes": vols,
           "defaults": {"rw": "randrw", "rwmixread": 70, "bs": "4k"},
           "steps": [{"name": "qd", "sweep": {"iodepth": [1, 4], "ramp": "1s",
                                             "runtime": "4s"}}]}, open(out, "w"))
EOF
"$COORD" run -q -o "$T/out" --connect-timeout 60 --format vdbench "$T/fleet.json" \
	>"$T/stdout" 2>"$T/stderr" || {
	tail -20 "$T/stderr" "$T/agent-real0.log"
	fail "the fleet sweep failed"
}
R=$(run_dir "$T/out")
json "$R/run.json" "(r['status'], [(s['name'], s['status']) for s in r['steps']])" |
	grep -qx "('ok', \[('qd@iodepth=1', 'ok'), ('qd@iodepth=4', 'ok')\])" ||
	fail "not every point ran ok: $(json "$R/run.json" "[(s['name'], s['status']) for s in r['steps']]")"
for _ in $(seq 50); do
	grep -q "ended: BYE" "$T/agent-real0.log" && break
	sleep 0.1
done
! grep -q "silent for" "$T/agent-real0.log" || fail "the real agent's dead-man switch fired"
grep -q "session with .* ended: BYE" "$T/agent-real0.log" ||
	fail "the real agent's session did not end with BYE: $(tail -5 "$T/agent-real0.log")"
python3 "$BC_SRC/tests/faults/check_run.py" "$R" || fail "run.json disagrees with the raw records"

# the summarised levels: window figures for all, series for none; nodes and the total whole
python3 - "$R" <<'EOF' || fail "run.json or timeseries.csv does not summarise the large levels"
import csv, json, sys
d = sys.argv[1]
r = json.load(open(d + "/run.json"))
for s in r["steps"]:
    assert len(s["volumes"]) == 282 and len(s["agents"]) == 71, (len(s["volumes"]), len(s["agents"]))
    for lvl in ("volumes", "agents"):
        for e in s[lvl]:
            assert "series" not in e, (s["name"], lvl, e["name"])
            assert e["ios"] > 0 and e["iops"] > 0 and e["seconds"] == 4, (s["name"], e)
    assert all(len(n["series"]["iops"]) == s["seconds"] for n in s["nodes"]), s["name"]
    assert len(s["total"]["series"]["iops"]) == s["seconds"]
    v = s["vdbench"]
    assert len(v["hosts"]) == 71 and len(v["sds"]) == 282
    assert all("intervals" not in t and t["avg"]["rate"] > 0 for t in v["hosts"] + v["sds"])
    assert len(v["intervals"]) == s["seconds"]
levels = {row["level"] for row in csv.DictReader(open(d + "/timeseries.csv", newline=""))}
assert levels == {"total", "node"}, levels
md = open(d + "/summary.md").read()
assert "interval tables are left out above 64 hosts and 256 sds" in md
# summary.md: each large level as its distribution and two tables (by IOPS, by p99), each the
# 10 first and 10 last of the order with "... N more ..." between, never every row
lines, step = [], False
for l in md.splitlines():  # the step sections only (the environment lists every host)
    step = l.startswith("## Step ") or (step and not l.startswith("## "))
    if step:
        lines.append(l)
tables, cur = [], None
for l in lines:
    if l.startswith("#### by "):
        cur = {"title": l, "rows": 0, "more": None}
        tables.append(cur)
    elif cur is not None and l.startswith("| ") and not l.startswith("|  |") and not l.startswith("|---"):
        if l.startswith("| _"):
            cur["more"] = int(l.split("… ")[1].split(" more")[0])
        else:
            cur["rows"] += 1
    elif cur is not None and l.strip() == "" and cur["rows"]:
        cur = None
# 2 steps x (agents, volumes) x (by IOPS, by p99)
assert len(tables) == 8, [t["title"] for t in tables]
for t in tables:
    assert t["rows"] == 20, t
    assert t["more"] in (71 - 20, 282 - 20), t
assert sum(t["more"] == 262 for t in tables) == 4 and sum(t["more"] == 51 for t in tables) == 4
assert md.count("282 volumes, too many to list here") == 2
assert md.count("71 client hosts, too many to list here") == 2
# a per-volume check is one line of counts at this size (null completes at once: all SKIP)
assert md.count("Little's law (in flight = IOPS x mean latency): 282 entities: 0 PASS, 0 FAIL, 282 SKIP") == 2
assert not [l for l in lines if l.startswith("- Little's law") and "(a0" in l]
EOF

# nothing lost: every volume's series listed again, equal to seconds.bin's and the records'
cp -r "$R" "$T/all"
BC_FULL_VOLUMES=all BC_FULL_AGENTS=all "$COORD" report --rebuild "$T/all" >/dev/null 2>"$T/report.err" ||
	fail "report with every level listed failed: $(cat "$T/report.err")"
"$COORD" dump-seconds --level volume "$R" >"$T/vol-seconds.csv" || fail "dump-seconds failed"
python3 - "$T/all" "$T/vol-seconds.csv" <<'EOF' || fail "a volume's listed series disagrees"
import csv, json, sys
r = json.load(open(sys.argv[1] + "/run.json"))
rows = {}
for row in csv.DictReader(open(sys.argv[2], newline="")):
    ios = sum(int(row[c]) for c in row if c.endswith("_ios") and c != "short_ios")
    rows[(int(row["step"]), int(row["index"]), int(row["second"]))] = ios
ts = {}
for row in csv.DictReader(open(sys.argv[1] + "/timeseries.csv", newline="")):
    if row["level"] == "volume":
        ts.setdefault((row["step"], row["entity"]), []).append(row["iops"])
n = 0
for s in r["steps"]:
    o = s["seconds_bin_step"]
    for i, v in enumerate(s["volumes"]):
        ser = v["series"]["iops"]
        assert len(ser) == s["seconds"], (s["name"], v["name"])
        for k, x in enumerate(ser):
            want = rows.get((o, i, k), 0)
            assert (x or 0) == want, (s["name"], v["name"], k, x, want)
            n += 1
    assert all(len(a["series"]["iops"]) == s["seconds"] for a in s["agents"])
assert n == 2 * 282 * 5, n
assert sum(len(x) for x in ts.values()) == 2 * 282 * 5, sum(len(x) for x in ts.values())
print("every volume's series equals seconds.bin:", n, "volume-seconds")
EOF
# and the records: a volume's I/Os over its window, recomputed by the checker, are the series'
python3 "$BC_SRC/tests/faults/check_run.py" "$T/all" || fail "the fully listed run.json disagrees"
echo "test_e2e_fleet_scale: ok"
