#!/bin/bash
# test_e2e_seed001: seed 001 (a hot/cold FTL in FEMU) from its own inputs, through bench-coord
# and a local agent on the simulated SSD (docs/seed001.md): the shipped profiles (the README's
# Zipf 0.99 shape) on the baseline and the hot/cold FTL, and the seed's two fio commands
# imported as they are (uniform 4 KiB writes) on both. Every figure is the device's own
# counters in run.json: the FTLs' WAF, GC overhead = WAF - 1, the hot/cold FTL's pools and
# classifier, the per-128 MiB log in summary.md. ~40 s (six runs of a few seconds each).
. "$(dirname "$0")/lib.sh"

SCR="$T/scratch"

# run NAME PROFILE: run it, keep the run directory's run.json as $T/NAME.json
run() {
	"$COORD" run -o "$T/out-$1" --scratch-dir "$SCR" "$2" >"$T/$1.out" 2>&1 || {
		cat "$T/$1.out"
		fail "$1: run failed"
	}
	cp "$(run_dir "$T/out-$1")/run.json" "$T/$1.json"
	cp "$(run_dir "$T/out-$1")/summary.md" "$T/$1.md"
	cp "$(run_dir "$T/out-$1")/report.html" "$T/$1.html"
	[ "$(json "$T/$1.json" 'r["status"]')" = ok ] || fail "$1: status is not ok"
}

V="r['steps'][1]['agent_totals']['local']['volumes'][0]"
N="${V}['nvme']"
# figure NAME EXPR: EXPR over the measured step's volume of run NAME
figure() {
	json "$T/$1.json" "$2"
}

# the checks every run shares: the FTL named, the device's WAF (OCP C0 and the exact FDP
# statistics) from the bytes the agent wrote, GC overhead = GC copies / host writes = WAF - 1
common() {
	figure "$1" "${N}['sim']['ftl'] == '$2' and ${N}['sim']['host_write_bytes'] == ${V}['write']['bytes']
	  and ${V}['write']['errors'] == 0 and ${V}['write']['bytes'] > 0
	  and abs(${N}['waf']['value'] - ${N}['wafs']['fdp']['value']) < 0.01
	  and abs(${N}['sim']['gc_overhead_pct'] - 100 * (${N}['wafs']['fdp']['value'] - 1)) < 0.01" |
		grep -qx True || fail "$1: counters disagree: $(figure "$1" "${N}['sim']")"
	if ! grep -q "^### Simulated SSD local:sim:seed001, FTL $2$" "$T/$1.md" ||
		! grep -q "^GC overhead [0-9.]*% (GC copies / host writes); free units" "$T/$1.md" ||
		! grep -q "Simulated SSD local:sim:seed001, FTL $2<" "$T/$1.html"; then
		fail "$1: no FTL section in summary.md and report.html"
	fi
	grep -q "^  local:sim:seed001: WAF [0-9.]* (device counters), FTL $2, GC overhead" \
		"$T/$1.out" || fail "$1: no FTL line at the step's end on the terminal"
	# the seed's log: host pages, NAND pages, WAF, GC overhead, free units, every 128 MiB
	[ "$(grep -c '^| [0-9,]* | [0-9,]* | [0-9.]* | [0-9.]* | [0-9.]*% | [0-9]*\( (hot [0-9]*, cold [0-9]*)\)* |$' "$T/$1.md")" -gt 10 ] ||
		fail "$1: no WAF log in summary.md"
}

# the shipped profiles: the README's Zipf 0.99, bounded by bytes (20 device-writes)
run zb "$BC_SRC/profiles/seed001-baseline.json"
run zh "$BC_SRC/profiles/seed001-hotcold.json"
common zb baseline
common zh hotcold
# both jobs end with their bytes: the window ends with the pass, not at the 120 s cap
figure zb "r['steps'][1]['seconds'] < 120 and r['steps'][1]['workload']['rw'] == 'randwrite'" |
	grep -qx True || fail "the pass's window: $(figure zb "r['steps'][1]['seconds']") seconds"
wb=$(figure zb "${N}['wafs']['fdp']['value']")
wh=$(figure zh "${N}['wafs']['fdp']['value']")
echo "Zipf 0.99: baseline WAF $wb, hot/cold WAF $wh"
# FEMU's stock background GC (victims 1/8 invalid while a quarter is free) copies much
figure zb "${N}['wafs']['fdp']['value'] > 5 and ${N}['sim']['gc_background'] > ${N}['sim']['gc_forced']" |
	grep -qx True || fail "baseline: WAF $wb, not FEMU's background GC"
# the seed's direction and at least its size (-48.6%)
python3 -c "import sys; sys.exit(0 if $wh < 0.6 * $wb else 1)" ||
	fail "hot/cold WAF $wh is not 40% under the baseline's $wb"
# both pools wrote and collected, the classifier promoted a few pages that take many writes
figure zh "${N}['sim']['pools']['hot']['host_pages'] > 0.1 * (${N}['sim']['pools']['hot']['host_pages']
  + ${N}['sim']['pools']['cold']['host_pages']) and ${N}['sim']['pools']['hot']['victims'] > 0
  and ${N}['sim']['pools']['cold']['victims'] > 0 and 0 < ${N}['sim']['promotions'] < 1310
  and ${N}['sim']['pools']['hot']['rus'] + ${N}['sim']['pools']['cold']['rus'] == ${N}['sim']['rus']" |
	grep -qx True || fail "hot/cold: pools or classifier: $(figure zh "${N}['sim']")"
# compare puts the device's WAF of both FTLs side by side (exit 1: IOPS not comparable)
"$COORD" compare "$(run_dir "$T/out-zb")" "$(run_dir "$T/out-zh")" >"$T/cmp.out" 2>&1 || true
grep -Eq "^    local:sim:seed001  A [0-9.]+ \(baseline, GC overhead [0-9.]+%\)  B [0-9.]+ \(hotcold, GC overhead [0-9.]+%\) -[0-9.]+%$" \
	"$T/cmp.out" || fail "compare: no device WAF: $(cat "$T/cmp.out")"

# the seed's own commands: imported as they are, the volume made the same simulated drive,
# scaled from an hour to bytes (4 GiB hot, 1 GiB cold), after the same sequential fill
"$COORD" import-fio "$BC_SRC/tests/data/fio/seed001.fio" -o "$T/imp.json" 2>"$T/imp.err" || {
	cat "$T/imp.err"
	fail "import-fio refused the seed's commands"
}
grep -q "both workloads run on it at once" "$T/imp.err" || fail "import-fio: $(cat "$T/imp.err")"
for f in baseline hotcold; do
	python3 - "$T/imp.json" "$BC_SRC/profiles/seed001-$f.json" "$T/imp-$f.json" <<'PY'
import json, sys
imp, shipped = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
step = imp["steps"][0]
assert step["rw"] == "randwrite" and step["bs"] == "4k" and step["numjobs"] == 4, step
assert [w.get("rw") for w in step["volume_workloads"]["0"]] == [None, "write"], step
imp["volumes"] = shipped["volumes"]
step["runtime"] = 120
step["volume_workloads"]["0"][0]["io_size"] = "4g"
step["volume_workloads"]["0"][1]["io_size"] = "1g"
imp["steps"] = [shipped["steps"][0], step]
json.dump(imp, open(sys.argv[3], "w"))
PY
done
run ub "$T/imp-baseline.json"
run uh "$T/imp-hotcold.json"
common ub baseline
common uh hotcold
ub=$(figure ub "${N}['wafs']['fdp']['value']")
uh=$(figure uh "${N}['wafs']['fdp']['value']")
echo "the seed's commands (uniform): baseline WAF $ub, hot/cold WAF $uh"
# uniform writes: nothing is rewritten twice running within 64 host pages, nothing is hot
figure uh "${N}['sim']['promotions'] <= 2 and ${N}['sim']['pools']['hot']['host_pages'] <= 2" |
	grep -qx True || fail "uniform: pages classified hot: $(figure uh "${N}['sim']")"
figure ub "${N}['wafs']['fdp']['value'] > 5" | grep -qx True || fail "uniform baseline WAF $ub"
# ... so the reduction is the cold pool's 30% gate: with the baseline's 1/8 it is gone
python3 - "$T/imp-hotcold.json" "$T/imp-gates.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["volumes"][0]["sim"]["ftl"] = {"name": "hotcold", "hot_min_invalid": 0.125,
                                 "cold_min_invalid": 0.125, "cold_gc": "age-invalid"}
json.dump(p, open(sys.argv[2], "w"))
PY
run ug "$T/imp-gates.json"
common ug hotcold
ug=$(figure ug "${N}['wafs']['fdp']['value']")
echo "the seed's commands, hot/cold with the baseline's 1/8 gates: WAF $ug"
python3 -c "import sys; sys.exit(0 if $uh < 0.7 * $ub and $ug > 0.9 * $ub else 1)" ||
	fail "uniform: hot/cold $uh, with 1/8 gates $ug, baseline $ub"
sleep 0.2
assert_no_agents "$SCR"
echo "PASS"
