#!/bin/bash
# reattach-scale.sh - a step taken up by a resumed coordinator, at PoV size: one step of
# RA_SECONDS against bench_swarm (RA_AGENTS agents x RA_VOLUMES "null" volumes over CURVE,
# bench/swarm.c, which hands a step in flight over as bench-agent does with an orphan_grace);
# the coordinator is killed with -9 once every agent's record of second RA_KILL is in its log,
# and `bench-coord run --resume` follows RA_GAP seconds later. Compares the resumed
# coordinator's taken-up step with the dead one's live part, from their own second_closed
# events (events.jsonl) and /proc. Prints one figure per line as `name: value`:
#   run_ok                1 when the resume exited 0, re-attached, and run.json says "ok" with
#                         every second measured
#   live_pool_cpu_ms_per_s  of it, the aggregation workers' (agg/pool.c; 0: the loop thread
#                         aggregates), median
#   takeup_pool_cpu_ms_per_s  the same for the taken-up step
#   live_cpu_ms_per_s     the live part's coordinator CPU per closed second (loop thread +
#                         aggregation workers + event writer, from second_closed), median
#   takeup_cpu_ms_per_s   the same for the taken-up step's seconds after its catch-up
#   live_lag_p99_ms       p99 of second_closed lag_ms (a second's end to aggregated and
#                         written) over the live part
#   takeup_lag_p99_ms     the same over the taken-up seconds after the catch-up
#   replay_s              the resume's start to its coordinator_gap event (the log replayed twice,
#                         the agents HELLOed and handed over)
#   catchup_s             the coordinator_gap event to the close of the last second of the gap
#                         (the records the agents sent again, aggregated)
#   gap_seconds           seconds whose records came again (coordinator_gap replayed_seconds)
#   live_rss_mb           the dead coordinator's largest VmRSS in the step (sampled every 0.5 s)
#   takeup_rss_mb         the resumed one's largest VmRSS from the re-attach to the step's end
#   live_rss_anon_mb / takeup_rss_anon_mb, live_rss_file_mb / takeup_rss_file_mb  the same for
#                         the two parts of VmRSS: RssAnon (heap, stacks: memory the process
#                         holds) and RssFile (pages of mapped files the kernel can drop)
#   resume_peak_rss_mb    the resumed one's VmHWM over its whole life (replays, step, results)
#
# usage: bench/reattach-scale.sh
#   RA_AGENTS=N (64: at 64 and more a live step aggregates on a worker pool)  RA_VOLUMES=M (16)
#   RA_SECONDS=S (90)   RA_KILL=K (30)   RA_GAP=G seconds (10)   RA_PORT=P (19000)
#   RA_AGG_THREADS=T     --agg-threads T for both coordinators (default: automatic)
#   BC_BIN=DIR (build)   RA_COORD=FILE another bench-coord (e.g. another branch's, to compare)
#   RA_KEEP=1 keep the work directory
# Loopback only. The figures depend on the machine: the swarm shares its CPUs.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BIN=$(cd "${BC_BIN:-$SRC/build}" && pwd)
COORD=${RA_COORD:-$BIN/bench-coord}
AGENT=$BIN/bench-agent
SWARM=$BIN/bench/bench_swarm
for b in "$COORD" "$AGENT" "$SWARM"; do
	[ -x "$b" ] || { echo "reattach-scale.sh: $b missing: build first" >&2; exit 2; }
done
N=${RA_AGENTS:-64}
M=${RA_VOLUMES:-16}
S=${RA_SECONDS:-90}
K=${RA_KILL:-30}
G=${RA_GAP:-10}
PORT=${RA_PORT:-19000}
THR=()
[ -z "${RA_AGG_THREADS:-}" ] || THR=(--agg-threads "$RA_AGG_THREADS")
[ "$K" -lt "$((S - G - 10))" ] || { echo "reattach-scale.sh: RA_KILL must leave RA_GAP + 10 s of the step" >&2; exit 2; }
W=$(mktemp -d /var/tmp/bc-reattach.XXXXXX)
SWARM_PID='' COORD_PID=''
cleanup() {
	for p in $COORD_PID $SWARM_PID; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	if [ "${RA_KEEP:-0}" = 1 ]; then echo "kept $W" >&2; else rm -rf "$W"; fi
}
trap cleanup EXIT

export XDG_CONFIG_HOME=$W/config
"$COORD" keygen >/dev/null
COORD_CERT=$XDG_CONFIG_HOME/bench-coord/coord.cert
SKEY=$("$AGENT" keygen "$W/swarm-keys" | sed -n "s/^server key: '\\(.*\\)'\$/\\1/p")
python3 - "$N" "$M" "$S" "$PORT" "$SKEY" "$W/profile.json" <<'EOF'
import json, sys
n, m, secs, port = map(int, sys.argv[1:5])
skey, out = sys.argv[5:7]
agents = [{"name": "a%04d" % i, "endpoint": "tcp://127.0.0.1:%d" % (port + i), "server_key": skey}
          for i in range(n)]
nodes = [{"name": "node-%d" % j} for j in range(8)]
vols = [{"agent": a["name"], "path": "null", "node": nodes[(i * m + v) % 8]["name"]}
        for i, a in enumerate(agents) for v in range(m)]
json.dump({"name": "reattach-%dx%d" % (n, m), "agents": agents, "nodes": nodes, "volumes": vols,
           "orphan_grace": "5m", "defaults": {"rw": "randrw", "rwmixread": 70, "bs": "4k"},
           "steps": [{"name": "soak", "iodepth": 4, "runtime": "%ds" % secs}]}, open(out, "w"))
EOF
"$SWARM" -n "$N" -m "$M" -p "$PORT" --cert "$W/swarm-keys/agent.cert" \
	--authorized "$COORD_CERT" >"$W/swarm.out" 2>"$W/swarm.err" &
SWARM_PID=$!
for _ in $(seq 300); do
	grep -q ready "$W/swarm.out" 2>/dev/null && break
	sleep 0.1
done
grep -q ready "$W/swarm.out" || { cat "$W/swarm.err" >&2; exit 1; }

# sample PID into FILE ("<realtime ns> <VmRSS kB> <VmHWM kB> <RssAnon kB> <RssFile kB>" every
# 0.5 s) while it runs
sample() {
	while kill -0 "$1" 2>/dev/null; do
		awk -v t="$(date +%s%N)" '/^VmRSS/ {r = $2} /^VmHWM/ {h = $2} /^RssAnon/ {a = $2}
			/^RssFile/ {f = $2} END { if (r) print t, r, h, a, f }' "/proc/$1/status" \
			>>"$2" 2>/dev/null || true
		sleep 0.5
	done
}
"$COORD" run -q -o "$W/reports" --connect-timeout 60 "${THR[@]}" "$W/profile.json" \
	>"$W/coord.out" 2>"$W/coord.err" &
COORD_PID=$!
: >"$W/samples1"
sample "$COORD_PID" "$W/samples1" &
SAMPLER=$!
# every agent's record of second K in the log: then kill -9
for _ in $(seq $(((K + 120) * 10))); do
	EV=$(ls "$W"/reports/*/events.jsonl 2>/dev/null | head -n1 || true)
	if [ -n "$EV" ] && [ "$(grep -c "\"second\":$K,.*\"event\":\"stats\"" "$EV" || true)" -ge "$N" ]; then
		break
	fi
	kill -0 "$COORD_PID" 2>/dev/null || { tail -5 "$W/coord.err" >&2; exit 1; }
	sleep 0.1
done
kill -9 "$COORD_PID"
wait "$COORD_PID" 2>/dev/null || true
COORD_PID=
wait "$SAMPLER" 2>/dev/null || true
RD=$(dirname "$EV")
cp "$EV" "$W/events.dead"
sleep "$G"
t_resume=$(date +%s%N)
"$COORD" run -q --resume "$RD" "${THR[@]}" >"$W/coord2.out" 2>"$W/coord2.err" &
COORD_PID=$!
: >"$W/samples2"
sample "$COORD_PID" "$W/samples2" &
SAMPLER=$!
rc=0
wait "$COORD_PID" || rc=$?
COORD_PID=
wait "$SAMPLER" 2>/dev/null || true
[ "$rc" = 0 ] || { echo "reattach-scale.sh: the resume exited $rc:" >&2; tail -5 "$W/coord2.err" >&2; }

python3 - "$RD" "$W/events.dead" "$W/samples1" "$W/samples2" "$rc" "$t_resume" "$N" "$M" "$S" <<'EOF'
import json, sys
rd, dead, s1, s2, rc, t_resume = sys.argv[1:7]
n, m, secs = map(int, sys.argv[7:10])
def events(path):
    out = []
    for l in open(path):
        if '"event":"stats"' in l:
            continue
        try:
            out.append(json.loads(l))
        except ValueError:
            pass
    return out
ev_dead = events(dead)
ev = events(rd + "/events.jsonl")
gap = next((e for e in ev if e["event"] == "coordinator_gap"), None)
try:
    run = json.load(open(rd + "/run.json"))
    st = run["steps"][0]
except (OSError, ValueError, KeyError, IndexError):
    run, st = {}, {}
ok = (rc == "0" and gap is not None and run.get("status") == "ok"
      and st.get("measured_seconds") == secs and len(run.get("steps", [])) == 1)
closed_dead = [e for e in ev_dead if e["event"] == "second_closed"]
t_gap = gap["time_ns"] if gap else 0
closed_new = [e for e in ev if e["event"] == "second_closed" and e["time_ns"] >= t_gap]
live_from = gap["live_from_second"] if gap else 0
# caught up: the last second of the gap closed; the taken-up live part starts 2 s after that
gap_closed = [e["time_ns"] for e in closed_new if e["second"] < live_from]
t_caught = max(gap_closed) if gap_closed else t_gap
after = [e for e in closed_new if e["second"] >= live_from + 2 and e["time_ns"] > t_caught]
def cpu(e):
    return e.get("loop_cpu_ms", 0) + e.get("agg_cpu_ms", 0) + e.get("writer_cpu_ms", 0)
def median(v):
    v = sorted(v)
    return v[len(v) // 2] if v else float("nan")
def p99(v):
    v = sorted(v)
    return v[min(len(v) - 1, int(len(v) * 0.99))] if v else float("nan")
# the live part: its seconds after the first 5 (start-up) and before the kill
live = [e for e in closed_dead if e["second"] >= 5 and "loop_cpu_ms" in e]
def samples(path, t0=0):
    out = []
    for l in open(path):
        p = l.split()
        if len(p) == 5 and int(p[0]) >= t0:
            out.append(tuple(int(x) for x in p))
    return out
sm1, sm2 = samples(s1), samples(s2)
step_start = next((e["start_ns"] for e in ev_dead if e["event"] == "step_start"), 0)
step_end = step_start + secs * 10**9
print("agents: %d x %d volumes, a %d s step, killed at second %s, re-attached at second %s"
      % (n, m, secs, gap and gap.get("from_second"), live_from))
print("run_ok: %d" % ok)
print("live_cpu_ms_per_s: %.1f" % median([cpu(e) for e in live]))
print("takeup_cpu_ms_per_s: %.1f" % median([cpu(e) for e in after if "loop_cpu_ms" in e]))
print("live_pool_cpu_ms_per_s: %.1f" % median([e.get("agg_cpu_ms", 0) for e in live]))
print("takeup_pool_cpu_ms_per_s: %.1f" % median([e.get("agg_cpu_ms", 0) for e in after
                                                 if "loop_cpu_ms" in e]))
print("live_lag_p99_ms: %.0f" % p99([e["lag_ms"] for e in live]))
print("takeup_lag_p99_ms: %.0f" % p99([e["lag_ms"] for e in after]))
print("replay_s: %.2f" % ((t_gap - int(t_resume)) / 1e9 if gap else float("nan")))
print("catchup_s: %.2f" % ((t_caught - t_gap) / 1e9 if gap else float("nan")))
print("gap_seconds: %s" % (gap.get("replayed_seconds") if gap else "nan"))
def peak(sm, col, lo, hi):
    return max((x[col] for x in sm if lo <= x[0] <= hi), default=0) / 1024
live = (step_start, 1 << 63)
took = (t_gap, step_end + 2 * 10**9)
print("live_rss_mb: %.0f" % peak(sm1, 1, *live))
print("takeup_rss_mb: %.0f" % peak(sm2, 1, *took))
print("live_rss_anon_mb: %.0f" % peak(sm1, 3, *live))
print("takeup_rss_anon_mb: %.0f" % peak(sm2, 3, *took))
print("live_rss_file_mb: %.0f" % peak(sm1, 4, *live))
print("takeup_rss_file_mb: %.0f" % peak(sm2, 4, *took))
print("resume_peak_rss_mb: %.0f" % (max((x[2] for x in sm2), default=0) / 1024))
EOF
