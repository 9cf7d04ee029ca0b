#!/bin/bash
# swarm.sh - how far does one bench-coord scale? A real `bench-coord run`
# against bench_swarm (one process playing N agents x M volumes over CURVE,
# bench/swarm.c) at 10, 100 and 1,000 agents x 16 volumes, reporting per size:
#   lag   how long after the end of second k the coordinator had aggregated
#         and written it ("second_closed" events in events.jsonl), p50/p99/max;
#         sent: when the swarm had sent its last record, arr: when the
#         coordinator's loop received it, own: lag - arr
#   cpu   coordinator utime+stime (/proc/PID/stat) over the step, in cores;
#         per second (p50) the loop thread's, the aggregation workers' (all) and
#         the events.jsonl writer's CPU ms ("second_closed" events)
#   rss   coordinator VmRSS at the step's first minute (or its middle, for
#         shorter steps) and at its end: memory must be flat in run length
# Last line: "lag_p99_ms: X" of the largest size.
#
# usage: bench/swarm.sh [AGENTS...]            default: 10 100 1000
#   BC_BIN=DIR        build directory (default build-swarm, else build)
#   BENCH_SECONDS=S   step length (default 30 s; 60 s at 1,000 agents)
#   BENCH_LONG=1      10-minute step at the largest size (events.jsonl is
#                     truncated every 30 s to bound disk use: ~80 MB/s at 1,000
#                     agents; the coordinator still writes every record), and
#                     the coordinator is stopped (SIGKILL) once the step's last
#                     second is closed: this measures the streaming, and run.json
#                     for 16,000 volume series of 600 s is a problem of its own
#   BENCH_VOLUMES=M   volumes per agent (default 16)
#   BENCH_PORT=P      first TCP port (default 17000; agents use P..P+N-1)
#   BENCH_SWARM_ARGS  more bench_swarm options, e.g. "--iops 1000" (fewer buckets)
#   BENCH_COORD_ARGS  more `bench-coord run` options, e.g. "--agg-threads 0
#                     --events-format json" (the serial path, every record in events.jsonl)
#   BENCH_KEEP=1      keep the work directory (profiles, run directories, samples)
# Loopback only. Figures depend on the machine: the swarm shares its CPUs.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BC_BIN:-}
if [ -z "$BIN" ]; then
	BIN=$SRC/build-swarm
	[ -x "$BIN/bench/bench_swarm" ] || BIN=$SRC/build
fi
BIN=$(cd "$BIN" && pwd)
for b in bench-coord bench-agent bench/bench_swarm; do
	[ -x "$BIN/$b" ] || { echo "swarm.sh: $BIN/$b missing: build first" >&2; exit 2; }
done
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(10 100 1000)
VOLS=${BENCH_VOLUMES:-16}
PORT=${BENCH_PORT:-17000}
W=$(mktemp -d /var/tmp/bc-swarm.XXXXXX)
SWARM_PID=
COORD_PID=
cleanup() {
	[ -n "$COORD_PID" ] && kill "$COORD_PID" 2>/dev/null || true
	[ -n "$SWARM_PID" ] && kill "$SWARM_PID" 2>/dev/null || true
	wait 2>/dev/null || true
	if [ "${BENCH_KEEP:-0}" = 1 ]; then echo "kept $W" >&2; else rm -rf "$W"; fi
}
trap cleanup EXIT

# keys, as on a real fleet: the coordinator's pair, one pair for the swarm's agents
export XDG_CONFIG_HOME=$W/config
"$BIN/bench-coord" keygen >/dev/null
COORD_CERT=$XDG_CONFIG_HOME/bench-coord/coord.cert
AKEY=$("$BIN/bench-agent" keygen "$W/agent" | sed -n "s/^server key: '\\(.*\\)'\$/\\1/p")

# profile N SECONDS FILE: N agents on consecutive loopback ports, VOLS "null" volumes each,
# volumes spread over 8 storage nodes
profile() {
	python3 - "$1" "$2" "$3" "$VOLS" "$PORT" "$AKEY" <<'EOF'
import json, sys
n, secs, out, m, port, key = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
agents = [{"name": "a%04d" % i, "endpoint": "tcp://127.0.0.1:%d" % (port + i), "server_key": key}
          for i in range(n)]
nodes = [{"name": "node-%d" % j} for j in range(8)]
vols = [{"agent": a["name"], "path": "null", "node": nodes[(i * m + v) % 8]["name"]}
        for i, a in enumerate(agents) for v in range(m)]
json.dump({"name": "swarm-%d" % n, "agents": agents, "nodes": nodes, "volumes": vols,
           "defaults": {"rw": "randrw", "rwmixread": 70, "bs": "4k", "iodepth": 1,
                        "ramp": "0s", "runtime": "%ds" % secs},
           "steps": [{"name": "swarm"}]}, open(out, "w"))
EOF
}

# /proc sample: "<realtime ns> <utime+stime ticks> <VmRSS kB>"
sample() {
	local s r
	s=$(cut -d' ' -f14,15 "/proc/$1/stat" 2>/dev/null) || return 1
	r=$(awk '/^VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null) || return 1
	echo "$(date +%s%N) $((${s% *} + ${s#* })) ${r:-0}"
}

RESULTS=()
for n in "${SIZES[@]}"; do
	secs=${BENCH_SECONDS:-$([ "$n" -ge 1000 ] && echo 60 || echo 30)}
	long=0
	if [ "${BENCH_LONG:-0}" = 1 ] && [ "$n" = "${SIZES[-1]}" ]; then secs=600 long=1; fi
	d=$W/n$n
	mkdir -p "$d"
	profile "$n" "$secs" "$d/profile.json"
	"$BIN/bench/bench_swarm" -n "$n" -m "$VOLS" -p "$PORT" --cert "$W/agent/agent.cert" \
		--authorized "$COORD_CERT" ${BENCH_SWARM_ARGS:-} >"$d/swarm.out" 2>"$d/swarm.err" &
	SWARM_PID=$!
	for _ in $(seq 100); do
		grep -q ready "$d/swarm.out" 2>/dev/null && break
		sleep 0.1
	done
	grep -q ready "$d/swarm.out" || { cat "$d/swarm.err" >&2; exit 1; }
	t0=$(date +%s%N)
	# shellcheck disable=SC2086 # BENCH_COORD_ARGS is a list of options
	"$BIN/bench-coord" run -q -o "$d/reports" --connect-timeout 60 ${BENCH_COORD_ARGS:-} "$d/profile.json" \
		>"$d/coord.out" 2>"$d/coord.err" &
	COORD_PID=$!
	: >"$d/samples"
	last_trunc=$(date +%s)
	while kill -0 "$COORD_PID" 2>/dev/null; do
		sample "$COORD_PID" >>"$d/samples" || true
		if [ "$long" = 1 ] && grep -qs "\"second\":$((secs - 1)),\"agents\"" \
			"$d"/reports/*/events.jsonl; then
			kill -9 "$COORD_PID"
			echo "stopped after the step" >"$d/stopped"
			break
		fi
		echo "swarm $(sample "$SWARM_PID" || true)" >>"$d/swarm.samples"
		if [ "$secs" -ge 600 ] && [ $(($(date +%s) - last_trunc)) -ge 30 ]; then
			for e in "$d"/reports/*/events.jsonl; do
				[ -f "$e" ] && grep -h '"event":"\(second_closed\|step_start\)"' "$e" >>"$d/kept.jsonl" || true
				[ -f "$e" ] && truncate -s 0 "$e"
			done
			last_trunc=$(date +%s)
		fi
		sleep 2
	done
	rc=0
	wait "$COORD_PID" || rc=$?
	[ -f "$d/stopped" ] && rc=0
	COORD_PID=
	t1=$(date +%s%N)
	kill "$SWARM_PID" 2>/dev/null || true
	wait "$SWARM_PID" 2>/dev/null || true
	SWARM_PID=
	if [ "$rc" != 0 ]; then
		echo "swarm.sh: bench-coord failed at $n agents (exit $rc):" >&2
		tail -5 "$d/coord.err" >&2
		exit 1
	fi
	ev=$(ls "$d"/reports/*/events.jsonl)
	[ -f "$d/kept.jsonl" ] && { grep -h '"event":"\(second_closed\|step_start\)"' "$ev" >>"$d/kept.jsonl" || true; ev=$d/kept.jsonl; }
	sent=$(sed -n 's/.*sent after its end: p50 \([0-9.]*\) ms.*/\1/p' "$d/swarm.err")
	line=$(python3 - "$n" "$VOLS" "$secs" "$ev" "$d/samples" "$t0" "$t1" "${sent:-nan}" <<'EOF'
import json, sys
n, m, secs, evf, smpf, t0, t1, sent = sys.argv[1:9]
lags, loop, aggc, wrc, arr, own, start = [], [], [], [], [], [], None
for l in open(evf):
    if '"second_closed"' in l:
        j = json.loads(l)
        lags.append(j["lag_ms"])
        if "last_record_ms" in j:
            arr.append(j["last_record_ms"])
            own.append(j["lag_ms"] - j["last_record_ms"])
        if "loop_cpu_ms" in j:
            loop.append(j["loop_cpu_ms"])
        aggc.append(j.get("agg_cpu_ms", 0))
        wrc.append(j.get("writer_cpu_ms", 0))
    elif '"step_start"' in l and start is None:
        start = json.loads(l)["start_ns"]
lags.sort()
loop.sort()
aggc.sort()
wrc.sort()
loop_p50 = loop[len(loop) // 2] if loop else float("nan")
agg_p50 = aggc[len(aggc) // 2] if aggc else float("nan")
wr_p50 = wrc[len(wrc) // 2] if wrc else float("nan")
pctof = lambda a, p: sorted(a)[min(len(a) - 1, int(p / 100 * len(a)))] if a else float("nan")
pct = lambda p: pctof(lags, p)
smp = [tuple(map(int, l.split())) for l in open(smpf) if len(l.split()) == 3]
end = start + int(secs) * 10**9
run = [s for s in smp if start <= s[0] <= end]
cpu = (run[-1][1] - run[0][1]) / 100 / ((run[-1][0] - run[0][0]) / 1e9) if len(run) > 1 else float("nan")
# RSS at one minute into the step (or halfway for shorter steps) and at its end
mark = start + min(60, int(secs) // 2) * 10**9
rss_mid = min(run, key=lambda s: abs(s[0] - mark))[2] if run else 0
rss_end = run[-1][2] if run else 0
peak = max(s[2] for s in smp) if smp else 0
print("%6s %7d %7d %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.0f %7.0f %7.0f %6.2f %9.0f %9.0f %9.0f %7.0f" % (
    n, int(n) * int(m), len(lags), pct(50), pct(99), lags[-1] if lags else float("nan"),
    float(sent), pctof(arr, 50), pctof(own, 99), loop_p50,
    agg_p50, wr_p50, cpu, rss_mid / 1024, rss_end / 1024, peak / 1024, (int(t1) - int(t0)) / 1e9))
EOF
)
	RESULTS+=("$line")
	echo "$line" >&2
done
printf '%6s %7s %7s %8s %8s %8s %8s %8s %8s %8s %7s %7s %6s %9s %9s %9s %7s\n' agents streams \
	seconds lag_p50 lag_p99 lag_max sent_p50 arr_p50 own_p99 loop_ms agg_ms wr_ms cpu rss_1m_MB rss_end_MB \
	peak_MB wall_s
printf '%s\n' "${RESULTS[@]}"
echo "(lag: ms after each second's end until it was aggregated and written; sent_p50: when" \
	"the swarm had handed the second's last record to libzmq (its agents send 0-20 ms after" \
	"the end by design); arr_p50: when the coordinator's loop received it (CURVE, TCP and" \
	"the loop's own queue); own_p99: lag minus arrival, the aggregation after the last" \
	"record; loop_ms: the" \
	"coordinator loop's CPU per second, p50 - the lag on an otherwise idle core; agg_ms," \
	"wr_ms: the aggregation workers' (together) and the events.jsonl writer's; cpu:" \
	"whole process, cores, over the step; rss_1m at one minute or mid-step; peak includes" \
	"connecting and writing run.json)"
echo "lag_p99_ms: $(echo "${RESULTS[-1]}" | awk '{print $5}')"
