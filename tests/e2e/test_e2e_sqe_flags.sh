#!/bin/bash
# test_e2e_sqe_flags: the workload keys the engine puts on each SQE reach the kernel, proved by
# what the kernel answers (a run on a 16 MiB file, ~10 s):
# - "nowait": buffered reads of a file the page cache does not hold fail with EAGAIN (RWF_NOWAIT)
#   instead of waiting for the device;
# - "ioprio_class": "rt" without CAP_SYS_NICE/CAP_SYS_ADMIN fails every read with EPERM (the
#   kernel checks sqe->ioprio), "be" does not; "cmdprio_pct": 25 (class rt) fails about a
#   quarter of them: the share of SQEs that carry the other priority;
# - "force_async" runs clean; "nice": -5 without CAP_SYS_NICE fails the step naming setpriority.
# The per-SQE values themselves, byte for byte: tests/unit/test_sqeflags.c.
. "$(dirname "$0")/lib.sh"

SCR="$T/scratch"
# the capabilities that allow a real-time I/O priority and a negative nice, dropped for the run
NOCAP=()
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null || {
		echo "skip: setpriv (util-linux) needed to drop CAP_SYS_NICE as root"
		exit 77
	}
	NOCAP=(setpriv --inh-caps=-sys_nice,-sys_admin --bounding-set=-sys_nice,-sys_admin)
fi

cat >"$T/p.json" <<'JSON'
{"name": "sqe-flags",
 "agents": [{"name": "local", "endpoint": "local"}],
 "volumes": [{"agent": "local", "path": "v0.dat", "size": "16m"}],
 "steps": [{"name": "fill", "rw": "write", "bs": "256k", "iodepth": 4, "direct": true,
            "size_based": true, "runtime": "30s"},
           {"name": "nowait", "rw": "randread", "bs": "4k", "iodepth": 4, "direct": false,
            "nowait": true, "runtime": "1s"},
           {"name": "be", "rw": "randread", "bs": "4k", "iodepth": 4, "direct": true,
            "ioprio_class": "be", "ioprio": 7, "force_async": 3, "runtime": "1s"},
           {"name": "rt", "rw": "randread", "bs": "4k", "iodepth": 4, "direct": true,
            "ioprio_class": "rt", "ioprio": 0, "runtime": "1s"},
           {"name": "cmdprio", "rw": "randread", "bs": "4k", "iodepth": 4, "direct": true,
            "cmdprio_pct": 25, "runtime": "1s"}]}
JSON
"${NOCAP[@]}" "$COORD" run -o "$T/out" --scratch-dir "$SCR" "$T/p.json" >"$T/stdout" \
	2>"$T/stderr" || {
	cat "$T/stdout" "$T/stderr"
	fail "run failed"
}
RJ="$(run_dir "$T/out")/run.json"
python3 - "$RJ" <<'EOF' || fail "the kernel did not answer as the SQE flags ask"
import json, sys
r = json.load(open(sys.argv[1]))
rd = {s["name"]: s["agent_totals"]["local"]["volumes"][0]["read"] for s in r["steps"]}
for n, v in rd.items():
    print("%s: %d reads, %d errors" % (n, v["ios"], v["errors"]))
ok = True
def need(cond, what):
    global ok
    if not cond:
        print("FAIL: " + what)
        ok = False
# written with O_DIRECT, so not cached: RWF_NOWAIT reads of it get EAGAIN
need(rd["nowait"]["errors"] > 0, "nowait: no EAGAIN on uncached buffered reads")
need(rd["be"]["errors"] == 0 and rd["be"]["ios"] > 0, "be 7 with force_async: errors")
need(rd["rt"]["errors"] > 0 and rd["rt"]["ios"] == 0, "rt without CAP_SYS_NICE: not refused")
t = rd["cmdprio"]["ios"] + rd["cmdprio"]["errors"]
share = rd["cmdprio"]["errors"] / t if t else 0
print("cmdprio 25: %.1f%% of %d reads carried rt" % (100 * share, t))
# a binomial share of thousands of draws: far inside these bounds
need(t > 400 and 0.15 < share < 0.35, "cmdprio_pct 25: share %.3f" % share)
sys.exit(0 if ok else 1)
EOF
cat >"$T/n.json" <<'JSON'
{"name": "sqe-nice",
 "agents": [{"name": "local", "endpoint": "local"}],
 "volumes": [{"agent": "local", "path": "v0.dat", "size": "16m"}],
 "steps": [{"name": "nice", "rw": "randread", "bs": "4k", "iodepth": 1, "direct": true,
            "nice": -5, "runtime": "1s"}]}
JSON
if "${NOCAP[@]}" "$COORD" run -o "$T/out2" --scratch-dir "$SCR" "$T/n.json" >"$T/stdout" \
	2>"$T/stderr"; then
	fail "nice -5 without CAP_SYS_NICE ran"
fi
grep -q 'nice -5: setpriority' "$T/stderr" || {
	cat "$T/stderr"
	fail "nice -5 refused without naming setpriority"
}
sleep 0.2
assert_no_agents "$SCR"
echo "PASS"
