#!/bin/bash
# test_e2e_three_agents: coordinator + three bench-agent processes over TCP loopback on files;
# totals add up across levels and the written bytes really reached the files.
. "$(dirname "$0")/lib.sh"

for a in a1 a2 a3; do start_agent $a; done
cat >"$T/p.json" <<JSON
{
  "name": "e2e-three",
  "agents": [
    {"name": "a1", "endpoint": "$EP_a1"},
    {"name": "a2", "endpoint": "$EP_a2"},
    {"name": "a3", "endpoint": "$EP_a3"}
  ],
  "volumes": [
    {"agent": "a1", "path": "$T/a1-0.dat", "size": "8m"},
    {"agent": "a1", "path": "$T/a1-1.dat", "size": "8m"},
    {"agent": "a2", "path": "$T/a2-0.dat", "size": "8m"},
    {"agent": "a2", "path": "$T/a2-1.dat", "size": "8m"},
    {"agent": "a3", "path": "$T/a3-0.dat", "size": "8m"},
    {"agent": "a3", "path": "$T/a3-1.dat", "size": "8m"}
  ],
  "defaults": {"direct": true, "ramp": "1s", "runtime": "3s"},
  "steps": [
    {"name": "fill", "rw": "write", "bs": "64k", "iodepth": 4, "numjobs": 2},
    {"name": "mixed", "rw": "randrw", "rwmixread": 70, "bs": "4k", "iodepth": 8}
  ]
}
JSON
"$COORD" run -o "$T/out" "$T/p.json" >"$T/stdout" 2>"$T/stderr" || {
	cat "$T/stdout" "$T/stderr"
	fail "bench-coord run failed"
}
cat "$T/stdout"
R=$(run_dir "$T/out")
for f in profile.json events.jsonl run.json summary.md; do
	[ -s "$R/$f" ] || fail "missing $R/$f"
done
RJ="$R/run.json"
[ "$(json "$RJ" 'r["status"]')" = ok ] || fail "status is not ok"
[ "$(json "$RJ" 'len(r["agents"])')" = 3 ] || fail "expected 3 agents"
for s in 0 1; do
	# total bytes == sum over agents == sum over volumes, for every interval and the window
	json "$RJ" "all([
	  r['steps'][$s]['total']['all_intervals']['bytes'] == sum(a['all_intervals']['bytes'] for a in r['steps'][$s]['agents']) ==
	  sum(v['all_intervals']['bytes'] for v in r['steps'][$s]['volumes']),
	  r['steps'][$s]['total']['bytes'] == sum(a['bytes'] for a in r['steps'][$s]['agents']) ==
	  sum(v['bytes'] for v in r['steps'][$s]['volumes']),
	  r['steps'][$s]['total']['bytes'] > 0,
	  r['steps'][$s]['total']['errors'] == 0,
	  all(c['pass'] is not False for c in r['steps'][$s]['checks']),
	  len(r['steps'][$s]['total']['series']['iops']) == 4,
	  r['steps'][$s]['incomplete_seconds'] == []])" | grep -qx True || fail "step $s totals do not add up"
	# the window rate is the window bytes over the measured seconds
	json "$RJ" "abs(r['steps'][$s]['total']['mbps'] - r['steps'][$s]['total']['bytes']/3/1e6) < 0.01" |
		grep -qx True || fail "step $s MB/s is not bytes/runtime"
done
json "$RJ" "r['steps'][1]['total']['lat_us']['p99'] >= r['steps'][1]['total']['lat_us']['p50'] > 0" |
	grep -qx True || fail "latency percentiles missing"
json "$RJ" "55 < r['steps'][1]['total']['read_pct'] < 85" | grep -qx True || fail "rwmixread 70 not honoured"
# the write step's bytes reached the files: every 64 KiB block of every file is non-zero
for f in "$T"/a?-?.dat; do
	python3 - "$f" <<'PY' || fail "$f: written blocks missing"
import sys
data = open(sys.argv[1], 'rb').read()
assert len(data) == 8 << 20, len(data)
zero = bytes(65536)
empty = [i for i in range(0, len(data), 65536) if data[i:i + 65536] == zero]
assert not empty, f"{len(empty)} all-zero 64k blocks, first at {empty[0]}"
PY
done
# per-second lines were printed for every second of both steps
[ "$(grep -cE '^[0-9:]{8} +[0-9]+ (ramp|run) ' "$T/stdout")" = 8 ] || fail "expected 8 live lines"
grep -q '| \*\*total\*\* |' "$R/summary.md" || fail "summary.md has no total row"
[ "$(grep -c '"event":"stats"' "$R/events.jsonl")" -ge 24 ] || fail "events.jsonl lacks stats records"
echo "PASS"
