#!/bin/bash
# test_kv_lifetime_sim: separating lifetimes lowers the simulated SSD's WAF by what an independent
# model says. Two KV-cache classes of known lifetimes on a 256 MiB simulated SSD (25% spare,
# 4 MiB reclaim units of 256 16-KiB objects): a short-lived class (50 MiB live, 80% of the
# stores) and a long-lived one (100 MiB live, 20%), FIFO eviction with a trim, paced so the
# stores interleave in that proportion; mode no_fdp puts both on one handle, separated each on its
# own. The experiment's WAF (FDP statistics, exact bytes) of each mode against the object-level
# Monte-Carlo model of tests/unit/mc_flash.h (tests/kv_model), which knows nothing of the
# simulator's code: mixed within 5%, separated 1 (units of one class die whole), and the
# reduction within 10%. The model interleaves the stores exactly by share, the engine's two paced
# workers in small bursts; with 256 objects a unit that costs the mixed WAF 0.2% here (with 16
# it is 5%: bursts of one class are a little separation of their own, docs/sim.md). About 30 s.
. "$(dirname "$0")/lib.sh"

MODEL="$BC_BIN/tests/kv_model"
[ -x "$MODEL" ] || fail "no $MODEL (built with the tests)"
cat >"$T/p.json" <<'JSON'
{"name": "kv-lifetime",
 "agents": [{"name": "local", "endpoint": "local"}],
 "volumes": [{"agent": "local", "path": "sim",
              "sim": {"capacity": "256MiB", "ru": "4MiB", "op": 0.25, "ruhs": 2},
              "fdp": {"pids": [0, 1]}}],
 "defaults": {"iodepth": 8, "numjobs": 2, "runtime": "120s"},
 "steps": [{"name": "kv",
            "streams": [
              {"name": "short", "class": "short", "bs": "16k", "range": {"offset": "0%", "size": "30%"},
               "kv": {"stores": 65536, "capacity": "50m"}},
              {"name": "long", "class": "long", "bs": "16k", "range": {"offset": "30%", "size": "70%"},
               "kv": {"stores": 16384, "capacity": "100m"}}],
            "kv": {"trim": true, "pace": "4s"},
            "experiment": {"modes": ["no_fdp", "separated"],
                           "placements": {"separated": {"short": [0], "long": [1]}},
                           "precondition": false, "warmup_iterations": 1,
                           "measure_iterations": 1, "waf_source": "fdp",
                           "expect": [{"metric": "waf", "lower": "separated", "than": "no_fdp"}]}}]}
JSON
"$COORD" run --plain -o "$T/out" --scratch-dir "$T/scr" "$T/p.json" >"$T/stdout" 2>&1 || {
	cat "$T/stdout"
	fail "the run failed"
}
RJ="$(run_dir "$T/out")/run.json"
# the model: the simulator's geometry (floor(256 MiB x 1.25 / 4 MiB) = 80 units, GC from 3 to
# 6 free), the measured iteration's stores after as many warming ones, the classes' shares of the
# stores and their live objects (capacity / 16 KiB)
read -r mixed sep < <(python3 - "$RJ" "$MODEL" <<'PY'
import json, subprocess, sys
r = json.load(open(sys.argv[1]))
x = r["steps"][-1]["experiment"]
m = {c["name"]: c for c in x["modes"][0]["classes"]}
n = m["short"]["stores"] + m["long"]["stores"]
share = m["short"]["stores"] / n
args = [sys.argv[2], "80", "256", "3", "6", str(n), str(n)]
out = []
for ruh in (0, 1):
    out.append(subprocess.run(args + [f"{share}:3200:0", f"{1 - share}:6400:{ruh}"],
                              check=True, capture_output=True, text=True).stdout.strip())
print(*out)
PY
)
echo "model: mixed $mixed, separated $sep"
python3 - "$RJ" "$mixed" "$sep" <<'PY' || fail "the simulator disagrees with the model"
import json, sys
r = json.load(open(sys.argv[1]))
mixed, sep = float(sys.argv[2]), float(sys.argv[3])
x = r["steps"][-1]["experiment"]
w = {m["mode"]: m for m in x["modes"]}
for m in x["modes"]:
    life = {c["name"]: round(c["lifetime"]["mean_ms"]) for c in m["classes"]}
    print(f"{m['mode']}: WAF {m['waf']} ({m['waf_source']}), OCP over SMART "
          f"{m['wafs']['ocp_c0']['waf']}; mean lifetimes {life} ms")
    assert all(c["resumed_workers"] == 1 for c in
               [cc for s in r["steps"] if s["mode"] == m["mode"] and s["phase"] == "measure"
                for cc in s["agent_totals"]["local"]["volumes"][0]["kv"]["classes"]]), \
        "the measured iteration did not go on with the warmup's store"
got_m, got_s = w["no_fdp"]["waf"], w["separated"]["waf"]
print(f"mixed {got_m} vs model {mixed}; separated {got_s} vs {sep}; "
      f"reduction {got_m - got_s:.4f} vs {mixed - sep:.4f}")
assert mixed > 1.05, f"the model's case has no GC: {mixed}"
assert abs(got_m - mixed) <= 0.05 * mixed, (got_m, mixed)
assert abs(got_s - 1) < 0.005 and abs(sep - 1) < 1e-9, (got_s, sep)
assert abs((got_m - got_s) - (mixed - sep)) <= 0.10 * (mixed - sep), (got_m - got_s, mixed - sep)
assert x["verdict"][0]["outcome"] == "as expected", x["verdict"]
PY
echo "PASS"
