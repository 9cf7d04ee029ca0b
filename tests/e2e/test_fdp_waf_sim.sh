#!/bin/bash
# test_fdp_waf_sim: profiles/fdp-waf-3mode-sim.json, scaled down (1 GiB simulated SSD, 1 warmup
# and 2 measurement iterations), runs all three placement modes end to end: every precondition,
# warmup and measurement step is its own run.json entry, each mode has host and media write
# deltas and a WAF from the device counters, summary.md has the verdict table, and a second run
# compares itself with the first as its reference. Which mode wins is an outcome, never asserted.
. "$(dirname "$0")/lib.sh"

python3 - "$BC_SRC/profiles/fdp-waf-3mode-sim.json" "$T/p.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["volumes"][0]["sim"].update({"capacity": "1GiB", "ru": "4MiB"})
p["defaults"]["runtime"] = "1s"
x = p["steps"][0]["experiment"]
x["warmup_iterations"] = 1
x["measure_iterations"] = 2
json.dump(p, open(sys.argv[2], "w"))
PY
"$COORD" validate "$T/p.json" >/dev/null || fail "the scaled profile does not validate"
start=$(date +%s)
"$COORD" run --plain -o "$T/out" --scratch-dir "$T/scr" "$T/p.json" >"$T/stdout" 2>"$T/stderr" || {
	cat "$T/stdout" "$T/stderr"
	fail "the experiment run failed"
}
echo "experiment ran in $(($(date +%s) - start)) s"
R=$(run_dir "$T/out")
RJ="$R/run.json"
json "$RJ" "len(r['steps']) == 3 * (3 + 1 + 2) and all(s['status'] == 'ok' for s in r['steps'])" |
	grep -qx True || fail "expected 18 ok steps: $(json "$RJ" "[(s['name'], s['status']) for s in r['steps']]")"
json "$RJ" "[s['name'] for s in r['steps'][:6]] == ['fdp-waf@no_fdp/discard-1', 'fdp-waf@no_fdp/seq_fill-1', 'fdp-waf@no_fdp/random-1', 'fdp-waf@no_fdp/warmup-1', 'fdp-waf@no_fdp/measure-1', 'fdp-waf@no_fdp/measure-2']" |
	grep -qx True || fail "steps are not named mode/phase-iteration: $(json "$RJ" "[s['name'] for s in r['steps']]")"
json "$RJ" "all(s['experiment_of'] == 'fdp-waf' and s['mode'] in ('no_fdp', 'mixed', 'separated') and s['phase'] in ('precondition', 'warmup', 'measure') for s in r['steps'])" |
	grep -qx True || fail "steps do not carry experiment_of/mode/phase"
# the precondition's pass really wrote the whole simulated capacity
json "$RJ" "[s for s in r['steps'] if s['name'] == 'fdp-waf@mixed/seq_fill-1'][0]['total']['write']['bytes'] == 1 << 30" |
	grep -qx True || fail "the sequential fill did not write the capacity once"
X="r['steps'][-1]['experiment']"
json "$RJ" "[m['mode'] for m in $X['modes']] == ['no_fdp', 'mixed', 'separated']" | grep -qx True ||
	fail "run.json has no experiment summary with the three modes"
json "$RJ" "all(m['waf_status'] == 'available' and m['waf'] >= 1 and m['host_write_bytes'] > 0 and m['media_write_bytes'] >= m['host_write_bytes'] and len(m['waf_iterations']) == 2 and m['write_p99_ms'] > 0 for m in $X['modes'])" |
	grep -qx True || fail "a mode lacks its WAF or write figures: $(json "$RJ" "$X['modes']")"
json "$RJ" "$X['gc']['reached'] in (True, False) and len($X['verdict']) == 3 and all(v['outcome'] in ('as expected', 'not observed', 'inconclusive') for v in $X['verdict'])" |
	grep -qx True || fail "no verdict rows: $(json "$RJ" "$X['verdict']")"
json "$RJ" "$X['modes'][2]['placement'] == {'hot_churn': [0, 1], 'large_model': [3, 4], 'cold_rag': [3, 4], 'metadata': [6]} and $X['modes'][0]['placement']['hot_churn'] == 'none'" |
	grep -qx True || fail "placements per class not recorded: $(json "$RJ" "[m.get('placement') for m in $X['modes']]")"
grep -q '^## FDP experiment: fdp-waf' "$R/summary.md" || fail "summary.md has no experiment section"
grep -q '^| expected | observed | verdict |' "$R/summary.md" || fail "summary.md has no verdict table"
grep -q '^| WAF: separated lower than mixed | ' "$R/summary.md" || fail "the verdict table lacks separated vs mixed"
grep -Eq '^\| (no_fdp|mixed|separated) \| .* \| [0-9]+\.[0-9]{4} \| available \|' "$R/summary.md" ||
	fail "summary.md has no WAF per mode"
grep -q '^experiment fdp-waf:' "$T/stdout" || fail "the terminal shows no experiment table"
grep -q 'data-chart="waf-fdp-waf"' "$R/report.html" || fail "report.html has no WAF chart"
# a crashed coordinator's run rebuilt from events.jsonl has the same figures
cp -r "$R" "$T/rebuilt"
"$COORD" report --rebuild "$T/rebuilt" >/dev/null 2>&1 || fail "report --rebuild failed"
[ "$(json "$T/rebuilt/run.json" "[m['waf'] for m in $X['modes']]")" = "$(json "$RJ" "[m['waf'] for m in $X['modes']]")" ] ||
	fail "the rebuilt run.json has other WAFs: $(json "$T/rebuilt/run.json" "$X")"

# a second, shorter run (separated only, no precondition) against the first as reference
python3 - "$T/p.json" "$T/p2.json" "$R" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
x = p["steps"][0]["experiment"]
x.update({"modes": ["separated"], "precondition": False, "warmup_iterations": 0,
          "measure_iterations": 1, "reference": sys.argv[3]})
del x["placements"]["mixed"]
del x["expect"]
json.dump(p, open(sys.argv[2], "w"))
PY
"$COORD" run --plain -o "$T/out2" --scratch-dir "$T/scr" "$T/p2.json" >"$T/stdout2" 2>&1 || {
	cat "$T/stdout2"
	fail "the reference run failed"
}
R2=$(run_dir "$T/out2")
json "$R2/run.json" "r['steps'][-1]['experiment']['reference']['modes'][0]['mode'] == 'separated' and 'waf_delta' in r['steps'][-1]['experiment']['reference']['modes'][0]" |
	grep -qx True || fail "no per-mode comparison with the reference: $(json "$R2/run.json" "r['steps'][-1]['experiment'].get('reference')")"
grep -q '^### Reference run: ' "$R2/summary.md" || fail "summary.md has no reference table"
"$COORD" compare "$R" "$R2" >"$T/cmp" 2>&1 || true
grep -q 'fdp-waf: WAF per mode' "$T/cmp" || { cat "$T/cmp"; fail "compare shows no per-mode WAF"; }
echo "PASS"
