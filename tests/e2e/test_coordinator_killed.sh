#!/bin/bash
# test_coordinator_killed: kill -9 of the coordinator mid-run. Every agent stops its I/O within
# 6 s (the kernel counters of its loop device stop moving), accepts a new run afterwards, and
# `bench-coord report DIR` rebuilds run.json and summary.md from events.jsonl, marked incomplete.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || { echo "skip: needs root for losetup"; exit 77; }
LOOPS=()
trap 'for l in "${LOOPS[@]}"; do losetup -d "$l" 2>/dev/null; done; cleanup' EXIT
for a in a1 a2 a3; do
	truncate -s 32M "$T/$a.img"
	l=$(losetup -f --show "$T/$a.img" 2>/dev/null) || { echo "skip: losetup failed"; exit 77; }
	LOOPS+=("$l")
	start_agent $a
done
profile() { # profile NAME RUNTIME
	cat <<JSON
{"name": "$1",
 "agents": [{"name": "a1", "endpoint": "$EP_a1"}, {"name": "a2", "endpoint": "$EP_a2"},
            {"name": "a3", "endpoint": "$EP_a3"}],
 "volumes": [{"agent": "a1", "path": "${LOOPS[0]}"}, {"agent": "a2", "path": "${LOOPS[1]}"},
             {"agent": "a3", "path": "${LOOPS[2]}"}],
 "steps": [{"name": "rr", "rw": "randread", "bs": "4k", "iodepth": 4, "runtime": "$2"}]}
JSON
}
sectors() { # total sectors read on our three loop devices
	local n
	n=$(for l in "${LOOPS[@]}"; do echo "${l#/dev/}"; done)
	awk -v names="$n" 'BEGIN { split(names, a, "\n"); for (i in a) want[a[i]] = 1 }
		($3 in want) { s += $6 } END { print s + 0 }' /proc/diskstats
}

profile long 60s >"$T/long.json"
"$COORD" run -o "$T/out" "$T/long.json" >"$T/stdout" 2>"$T/stderr" &
CPID=$!
for _ in $(seq 100); do
	grep -qE '^[0-9:]{8} +3 ' "$T/stdout" 2>/dev/null && break
	sleep 0.1
done
grep -qE '^[0-9:]{8} +3 ' "$T/stdout" || { cat "$T/stdout" "$T/stderr"; fail "run did not start"; }
kill -9 $CPID
wait $CPID 2>/dev/null || true
t0=$(date +%s.%N)
prev=$(sectors)
stopped=""
for _ in $(seq 20); do
	sleep 0.5
	now=$(sectors)
	if [ "$now" = "$prev" ]; then
		stopped=$(date +%s.%N)
		break
	fi
	prev=$now
done
[ -n "$stopped" ] || fail "agents still doing I/O 10 s after the coordinator died"
took=$(python3 -c "print(round($stopped - $t0, 1))")
echo "I/O stopped ${took}s after the coordinator was killed"
python3 -c "import sys; sys.exit(0 if $stopped - $t0 <= 6.5 else 1)" || fail "took ${took}s (> 6 s)"
grep -q "silent for 5000 ms: stopping all I/O" "$T/agent-a1.log" || fail "agent a1 did not log its dead-man stop"

# the run directory holds every second received; report rebuilds the results from it
R=$(run_dir "$T/out")
[ ! -e "$R/run.json" ] || mv "$R/run.json" "$R/run.json.before"
"$COORD" report "$R" || fail "bench-coord report failed"
[ "$(json "$R/run.json" 'r["status"]')" = incomplete ] || fail "rebuilt run.json is not marked incomplete"
json "$R/run.json" "r['steps'][0]['status'] == 'incomplete' and r['steps'][0]['total']['all_intervals']['bytes'] > 0 and len(r['steps'][0]['agents']) == 3" |
	grep -qx True || fail "rebuilt step lacks the measured seconds"
recs=$(grep -c '"event":"stats"' "$R/events.jsonl")
sum=$(json "$R/run.json" "sum(r['steps'][0]['total']['series']['agents_reported'])")
[ "$recs" = "$sum" ] || fail "events.jsonl has $recs stats records, rebuilt series counts $sum"
[ -s "$R/summary.md" ] || fail "no summary.md"

# the agents serve a new coordinator
profile again 2s >"$T/again.json"
"$COORD" run -q -o "$T/out2" "$T/again.json" >"$T/stdout2" 2>&1 || {
	cat "$T/stdout2"
	fail "agents did not accept a new run"
}
echo "PASS"
