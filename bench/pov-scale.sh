#!/bin/bash
# pov-scale.sh - the product's headline job at PoV size, end to end: a real `bench-coord run` of
# an iodepth sweep against bench_swarm (one process playing POV_AGENTS agents x POV_VOLUMES
# "null" volumes over CURVE, bench/swarm.c) plus one real bench-agent on "null" volumes with its
# default dead-man switch. Prints one figure per line as `name: value`:
#   run_ok                          1 when the run exited 0 and run.json says "ok", else 0
#   max_silence_ms                  longest gap between two messages the real agent received
#                                   from the coordinator (its log, at the session's end)
#   peak_rss_mb                     the coordinator's VmHWM (high-water mark) over the run
#   step_rss_mb                     the coordinator's largest VmRSS while a point's seconds ran
#                                   (sampled every 0.5 s; results phases excluded)
#   rundir_bytes_per_volume_second  size of the run directory / (volumes x points x seconds)
#   results_phase_s                 after each point: from its last STEP_DONE to the next
#                                   point's READY (so it includes that PREPARE, fast on null),
#                                   and after the last to the coordinator's exit; summed
#   report_open_s                   headless Chromium: load report.html and run its scripts
#                                   (--dump-dom), wall time, Chromium's own start included
#   chromium_blank_s                the same for an empty page: Chromium's start alone
#   lag_p99_ms                      p99 over every point's seconds of the time from a second's
#                                   end until the coordinator had aggregated and written it
#
# usage: bench/pov-scale.sh
#   POV_AGENTS=N     swarm agents (default 100)      POV_VOLUMES=M  volumes each (default 16)
#   POV_POINTS=P     sweep points, iodepth 1,2,4,... (default 4)
#   POV_SECONDS=S    seconds per point (default 60)
#   POV_REAL_VOLUMES=R  the real agent's volumes (default 2, 5,000 IOPS each: a small load)
#   BC_BIN=DIR       build directory (default build); POV_COORD / POV_AGENT: other binaries
#                    (e.g. another branch's bench-coord, to compare)
#   POV_PORT=P       first TCP port (default 18000; the swarm uses P..P+N-1, the agent P+N)
#   POV_KEEP=1       keep the work directory
#   POV_FAULT=F      a fault at an awkward moment (on_agent_loss "continue"), chosen by waiting
#                    on events.jsonl, never on sleeps:
#                      kill_real:K  SIGKILL the real agent once point K's results phase began
#                                   (its step_done; between sweep points)
#                      restart_real:K  the same, then start it again at once on the same
#                                   endpoint and keys (a host's agent restarted between points:
#                                   the coordinator HELLOs it again before point K+1)
#                      sigint:K     SIGINT the coordinator at the same moment (Ctrl-C while it
#                                   writes point K's results)
#                    run_ok is then 1 when the run ended as the fault should make it: exit 3
#                    and "degraded" (kill_real), exit 1 and "aborted" (sigint), exit 0, "ok" and
#                    real0 in point K+1's rejoined_agents (restart_real); after kill_real and
#                    sigint the real agent logs no session end, so max_silence_ms is nan;
#                    after restart_real it is the restarted agent's
#   POV_BUSY=B       B busy loops (nice 0) on the host for the whole run: a shared client host
#   POV_CHECK=1      then recompute the run's figures from its record log with the
#                    ground-truth checker (tests/faults/check_run.py): check_agrees 1/0
# Loopback only. The figures depend on the machine: everything shares its CPUs.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
. "$SRC/bench/lib.sh"
BIN=$(cd "${BC_BIN:-$SRC/build}" && pwd)
COORD=${POV_COORD:-$BIN/bench-coord}
AGENT=${POV_AGENT:-$BIN/bench-agent}
SWARM=$BIN/bench/bench_swarm
for b in "$COORD" "$AGENT" "$SWARM"; do
	[ -x "$b" ] || { echo "pov-scale.sh: $b missing: build first" >&2; exit 2; }
done
N=${POV_AGENTS:-100}
M=${POV_VOLUMES:-16}
P=${POV_POINTS:-4}
S=${POV_SECONDS:-60}
R=${POV_REAL_VOLUMES:-2}
PORT=${POV_PORT:-18000}
FAULT=${POV_FAULT:-}
FAULT_AT=${FAULT#*:}
case $FAULT in
'' | kill_real:[1-9]* | restart_real:[1-9]* | sigint:[1-9]*) ;;
*)
	echo "pov-scale.sh: POV_FAULT='$FAULT': expected kill_real:K, restart_real:K or sigint:K (K a point, 1..$P)" >&2
	exit 2
	;;
esac
if [ -n "$FAULT" ] && [ "$FAULT_AT" -ge "$P" ]; then
	echo "pov-scale.sh: POV_FAULT='$FAULT': point $FAULT_AT must come before the last ($P)" >&2
	exit 2
fi
W=$(mktemp -d /var/tmp/bc-pov.XXXXXX)
SWARM_PID='' COORD_PID='' AGENT_PID='' BUSY_PIDS=''
cleanup() {
	# the agent restart_real started (not a child of this shell)
	[ -s "$W/agent2.pid" ] && kill "$(cat "$W/agent2.pid")" 2>/dev/null || true
	for p in $COORD_PID $SWARM_PID $AGENT_PID $BUSY_PIDS; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	if [ "${POV_KEEP:-0}" = 1 ]; then echo "kept $W" >&2; else rm -rf "$W"; fi
}
trap cleanup EXIT

# keys as on a real fleet: the coordinator's pair, one for the swarm, one for the real agent
export XDG_CONFIG_HOME=$W/config
"$COORD" keygen >/dev/null
COORD_CERT=$XDG_CONFIG_HOME/bench-coord/coord.cert
SKEY=$("$AGENT" keygen "$W/swarm-keys" | sed -n "s/^server key: '\\(.*\\)'\$/\\1/p")
RKEY=$("$AGENT" keygen "$W/real-keys" | sed -n "s/^server key: '\\(.*\\)'\$/\\1/p")
cp "$COORD_CERT" "$W/real-keys/authorized_keys/"

python3 - "$N" "$M" "$P" "$S" "$R" "$PORT" "$SKEY" "$RKEY" "$W/profile.json" <<'EOF'
import json, sys
n, m, pts, secs, r, port = map(int, sys.argv[1:7])
skey, rkey, out = sys.argv[7:10]
agents = [{"name": "a%04d" % i, "endpoint": "tcp://127.0.0.1:%d" % (port + i), "server_key": skey}
          for i in range(n)]
agents.append({"name": "real0", "endpoint": "tcp://127.0.0.1:%d" % (port + n), "server_key": rkey})
nodes = [{"name": "node-%d" % j} for j in range(8)]
vols = [{"agent": a["name"], "path": "null", "node": nodes[(i * m + v) % 8]["name"]}
        for i, a in enumerate(agents[:-1]) for v in range(m)]
vols += [{"agent": "real0", "path": "null", "node": nodes[v % 8]["name"],
          "workload": {"rate_iops": 5000}} for v in range(r)]
json.dump({"name": "pov-%dx%d" % (n, m), "agents": agents, "nodes": nodes, "volumes": vols,
           "on_agent_loss": "continue",
           "defaults": {"rw": "randrw", "rwmixread": 70, "bs": "4k"},
           "steps": [{"name": "qd", "sweep": {"iodepth": [2 ** i for i in range(pts)],
                                             "ramp": "0s", "runtime": "%ds" % secs}}]},
          open(out, "w"))
EOF

"$SWARM" -n "$N" -m "$M" -p "$PORT" --cert "$W/swarm-keys/agent.cert" \
	--authorized "$COORD_CERT" >"$W/swarm.out" 2>"$W/swarm.err" &
SWARM_PID=$!
# the real agent; $1: its log
real_agent() {
	"$AGENT" --listen "tcp://127.0.0.1:$((PORT + N))" --scratch-dir "$W/scratch" \
		--cert "$W/real-keys/agent.cert" --authorized-keys "$W/real-keys/authorized_keys" \
		2>"$1" &
}
real_agent "$W/agent.log"
AGENT_PID=$!
for _ in $(seq 300); do
	grep -q ready "$W/swarm.out" 2>/dev/null && grep -q listening "$W/agent.log" && break
	sleep 0.1
done
grep -q ready "$W/swarm.out" || { cat "$W/swarm.err" >&2; exit 1; }
grep -q listening "$W/agent.log" || { cat "$W/agent.log" >&2; exit 1; }

for _ in $(seq "${POV_BUSY:-0}"); do
	(while :; do :; done) &
	BUSY_PIDS+=" $!"
done
"$COORD" run -q -o "$W/reports" --connect-timeout 60 "$W/profile.json" >"$W/coord.out" \
	2>"$W/coord.err" &
COORD_PID=$!
if [ -n "$FAULT" ]; then
	# point K's results phase: every agent's step_done of point K (the last one starts it)
	(
		while kill -0 "$COORD_PID" 2>/dev/null; do
			ev=$(ls "$W"/reports/*/events.jsonl 2>/dev/null | head -n1 || true)
			if [ -n "$ev" ] &&
				[ "$(grep -c '"event":"step_done"' "$ev")" -ge $((FAULT_AT * (N + 1))) ]; then
				case $FAULT in
				kill_real:*) kill -KILL "$AGENT_PID" ;;
				restart_real:*)
					kill -KILL "$AGENT_PID"
					# its sockets close as it dies; the new one binds the same port
					for _ in $(seq 100); do
						[ "$(awk '{print $3}' "/proc/$AGENT_PID/stat" 2>/dev/null)" = Z ] && break
						sleep 0.01
					done
					real_agent "$W/agent2.log"
					echo $! >"$W/agent2.pid"
					;;
				sigint:*) kill -INT "$COORD_PID" ;;
				esac
				echo "$FAULT at point $FAULT_AT: $(grep -c '"event":"step_start"' "$ev") point(s) started" >"$W/fault.log"
				exit 0
			fi
			sleep 0.05
		done
	) &
	BUSY_PIDS+=" $!"
fi
# "<realtime ns> <VmRSS kB> <VmHWM kB>" every 0.5 s
: >"$W/samples"
while kill -0 "$COORD_PID" 2>/dev/null; do
	awk -v t="$(date +%s%N)" '/^VmRSS/ {r = $2} /^VmHWM/ {h = $2}
		END { if (r) print t, r, h }' "/proc/$COORD_PID/status" >>"$W/samples" 2>/dev/null || true
	sleep 0.5
done
rc=0
wait "$COORD_PID" || rc=$?
COORD_PID=
t_exit=$(date +%s%N)
kill "$SWARM_PID" 2>/dev/null || true
wait "$SWARM_PID" 2>/dev/null || true
SWARM_PID=
# the real agent logs the session's longest silence when BYE ends it (the restarted one's)
LOG=$W/agent.log
[ -s "$W/agent2.pid" ] && LOG=$W/agent2.log
for _ in $(seq 50); do
	grep -q "longest coordinator silence" "$LOG" && break
	sleep 0.1
done
kill "$AGENT_PID" 2>/dev/null || true
wait "$AGENT_PID" 2>/dev/null || true
AGENT_PID=
if [ -s "$W/agent2.pid" ]; then
	kill "$(cat "$W/agent2.pid")" 2>/dev/null || true
	: >"$W/agent2.pid"
fi
case $FAULT in
'') want_rc=0 want_status=ok ;;
kill_real:*) want_rc=3 want_status=degraded ;;
restart_real:*) want_rc=0 want_status=ok ;;
sigint:*) want_rc=1 want_status=aborted ;;
esac
[ "$rc" = "$want_rc" ] || { echo "pov-scale.sh: bench-coord exited $rc (expected $want_rc):" >&2; tail -5 "$W/coord.err" >&2; }
[ -z "$FAULT" ] || { [ -s "$W/fault.log" ] && cat "$W/fault.log" >&2; } || echo "pov-scale.sh: the fault $FAULT was never injected" >&2
RD=$(find "$W/reports" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | head -1)

chrome_open "$W" "$RD/report.html"

python3 - "$RD" "$W/samples" "$LOG" "$rc" "$t_exit" "$N" "$M" "$R" "$P" "$S" \
	"$open_s" "$blank_s" "$want_rc" "$want_status" "$( [ -z "$FAULT" ] || [ -s "$W/fault.log" ] && echo 1 || echo 0)" "$FAULT" <<'EOF'
import json, os, re, sys
rd, smpf, logf, rc, t_exit = sys.argv[1:6]
n, m, r, pts, secs = map(int, sys.argv[6:11])
open_s, blank_s, want_rc, want_status, injected, fault = sys.argv[11:17]
try:
    ev = [json.loads(l) for l in open(os.path.join(rd, "events.jsonl"))
          if '"event":"stats"' not in l]
except (OSError, ValueError):
    ev = []
try:
    run = json.load(open(os.path.join(rd, "run.json")))
except (OSError, ValueError):
    run = {}
ok = rc == want_rc and run.get("status") == want_status and injected == "1"
if fault.startswith("restart_real:"):
    # HELLOed again before the next point, in that point only, and nothing lost
    k = int(fault.split(":")[1])
    st = run.get("steps", [])
    ok = ok and len(st) == pts and all(
        [a["name"] for a in s.get("rejoined_agents", [])] == (["real0"] if i == k else [])
        and not s.get("lost_agents") for i, s in enumerate(st))
# points in order: step_start, its step_done events, then the next point's ready
starts = [e for e in ev if e["event"] == "step_start"]
windows, results = [], 0.0
for i, s in enumerate(starts):
    t0 = s["start_ns"]
    windows.append((t0, t0 + s["seconds"] * 10**9))
    nxt = starts[i + 1]["time_ns"] if i + 1 < len(starts) else None
    done = [e["time_ns"] for e in ev if e["event"] == "step_done" and e["time_ns"] >= s["time_ns"]
            and (nxt is None or e["time_ns"] < nxt)]
    if not done:
        continue
    if nxt is None:
        results += (int(t_exit) - max(done)) / 1e9
    else:
        ready = [e["time_ns"] for e in ev if e["event"] == "ready" and max(done) < e["time_ns"] < nxt]
        results += ((min(ready) if ready else nxt) - max(done)) / 1e9
smp = [tuple(map(int, l.split())) for l in open(smpf) if len(l.split()) == 3]
peak = max((s[2] for s in smp), default=0) / 1024
step = max((s[1] for s in smp if any(a <= s[0] <= b for a, b in windows)), default=0) / 1024
size = 0
for d, _, files in os.walk(rd):
    size += sum(os.path.getsize(os.path.join(d, f)) for f in files)
volsec = (n * m + r) * len(starts) * secs
lags = sorted(e["lag_ms"] for e in ev if e["event"] == "second_closed")
sil = re.findall(r"longest coordinator silence (\d+) ms", open(logf).read())
print("agents: %d x %d volumes + 1 real agent x %d, %d point(s) x %d s, %d point(s) ran"
      % (n, m, r, pts, secs, len(starts)))
print("run_ok: %d" % ok)
print("max_silence_ms: %s" % (sil[-1] if sil else "nan"))
print("peak_rss_mb: %.0f" % peak)
print("step_rss_mb: %.0f" % step)
print("rundir_bytes_per_volume_second: %.0f" % (size / volsec if volsec else float("nan")))
print("results_phase_s: %.1f" % results)
print("report_open_s: %s" % open_s)
print("chromium_blank_s: %s" % blank_s)
print("lag_p99_ms: %.1f" % (lags[min(len(lags) - 1, int(0.99 * len(lags)))] if lags else float("nan")))
EOF
if [ "${POV_CHECK:-0}" = 1 ]; then
	t0=$(date +%s)
	if python3 "$SRC/tests/faults/check_run.py" "$RD" >"$W/check.out" 2>&1; then ok=1; else ok=0; fi
	tail -3 "$W/check.out" >&2
	echo "check_agrees: $ok"
	echo "check_s: $(($(date +%s) - t0))"
fi
