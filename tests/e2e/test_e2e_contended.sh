#!/bin/bash
# test_e2e_contended: busy loops beside one agent (as many as the host has CPUs, each a process
# named bc-busy-loop) hold the client host's CPU. The step is marked contended in run.json and
# summary.md, the client CPU suspect is implicated with the other processes' share named, the
# verdict says the run is contended and names bc-busy-loop, and `compare` and `expect` say a
# contended run was compared. About 15 s.
. "$(dirname "$0")/lib.sh"

NCPU=$(nproc)
BUSY=()
stop_busy() {
	for p in "${BUSY[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${BUSY[@]}"; do wait "$p" 2>/dev/null || true; done
	BUSY=()
}
trap 'stop_busy; cleanup' EXIT
for _ in $(seq "$NCPU"); do
	python3 -c 'import ctypes
ctypes.CDLL(None).prctl(15, b"bc-busy-loop", 0, 0, 0)
while True:
    pass' &
	BUSY+=($!)
done

cat >"$T/p.json" <<JSON
{"name": "contended",
 "agents": [{"name": "a1", "endpoint": "local"}],
 "volumes": [{"agent": "a1", "path": "vol.dat", "size": "16m"}],
 "defaults": {"direct": true},
 "steps": [{"name": "rr", "rw": "randread", "bs": "4k", "iodepth": 4, "ramp": "1s", "runtime": "3s"}],
 "expect": [{"step": "rr", "metric": "iops", "min": 1}]}
JSON
"$COORD" run --plain -o "$T/out" --scratch-dir "$T/scr" "$T/p.json" >"$T/out1" 2>&1 || {
	cat "$T/out1"
	fail "run failed"
}
stop_busy
R=$(run_dir "$T/out")
RJ="$R/run.json"
S="r['steps'][0]"
json "$RJ" "$S['contention']"
[ "$(json "$RJ" "$S['contended']")" = True ] || fail "not marked contended"
# named among the top processes (on a loaded CI host, beside whatever else holds the CPU)
json "$RJ" "$S['contention']['why']" | grep -q "processes outside the run held [0-9]*% of it: .*bc-busy-loop" ||
	fail "the busy loops are not named: $(json "$RJ" "$S['contention'].get('why')")"
json "$RJ" "'bc-busy-loop' in [p['comm'] for p in $S['contention']['hosts'][0]['top_processes']]" |
	grep -qx True || fail "bc-busy-loop not among the top processes"
json "$RJ" "[h['others_cpu_pct'] >= 25 and h['contended'] for h in $S['contention']['hosts']]" |
	grep -qx '\[True\]' || fail "other processes' share: $(json "$RJ" "$S['contention']['hosts']")"
# the suspects table: client CPU implicated, whoever held it, with the others named
json "$RJ" "[(x['state'], x['figures']) for x in $S['analysis']['suspects'] if x['suspect'] == 'client CPU']"
json "$RJ" "[x['state'] for x in $S['analysis']['suspects'] if x['suspect'] == 'client CPU']" |
	grep -qx "\['implicated'\]" || fail "client CPU not implicated"
json "$RJ" "[x['figures'] for x in $S['analysis']['suspects'] if x['suspect'] == 'client CPU'][0]" |
	grep -q "other processes [0-9]*% (.*bc-busy-loop" || fail "client CPU figures do not name the others"
json "$RJ" "$S['analysis']['verdict']" | grep -q "Contended run: the figures are the client host's, not the storage's: .*bc-busy-loop" ||
	fail "verdict: $(json "$RJ" "$S['analysis']['verdict']")"
grep -q "warning: step rr: CONTENDED: .*bc-busy-loop" "$T/out1" || fail "terminal: not said"
grep -q "^## Step rr (ok, contended)" "$R/summary.md" || fail "summary.md: step not marked contended"
grep -q "Contended: the figures are the client host's, not the storage's" "$R/summary.md" ||
	fail "summary.md: not said"
grep -q "badge warn\">contended" "$R/report.html" || fail "report.html: no contended mark"
# expect (the acceptance criteria): judged, and said to be a contended host's figure
grep -q "CONTENDED: measured on a client host whose CPU other processes held" "$R/summary.md" ||
	fail "the acceptance criteria do not say it: $(grep -A4 'Acceptance' "$R/summary.md")"
# compare: the run against itself, compared, and said to be contended
"$COORD" compare "$R" "$R" >"$T/cmp" 2>&1 || true
cat "$T/cmp"
grep -q "verdict: .*a CONTENDED run was compared" "$T/cmp" || fail "compare does not say it"
echo "PASS"
