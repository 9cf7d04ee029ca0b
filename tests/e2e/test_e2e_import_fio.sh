#!/bin/bash
# test_e2e_import_fio: fio job files - a PoV-style one (tests/data/fio/pov.fio) and those genfio
# writes (several disks, block sizes and modes; stonewall sequencing) - become profiles that
# validate, with every unmapped option listed; the PoV profile runs on files.
. "$(dirname "$0")/lib.sh"

# the PoV job file: two phases, one job per volume
"$COORD" import-fio "$BC_SRC/tests/data/fio/pov.fio" -o "$T/pov.json" 2>"$T/pov.err" || {
	cat "$T/pov.err"
	fail "import-fio pov.fio failed"
}
cat "$T/pov.err"
"$COORD" validate "$T/pov.json" || fail "imported pov profile does not validate"
python3 - "$T/pov.json" <<'PY' || fail "pov.fio imported wrongly"
import json, sys
p = json.load(open(sys.argv[1]))
assert [s["name"] for s in p["steps"]] == ["randread-4k-qd16", "write-128k-qd4"], p["steps"]
s = p["steps"][0]
assert (s["rw"], s["bs"], s["iodepth"], s["numjobs"], s["ramp"], s["runtime"], s["direct"]) == \
    ("randread", "4k", 16, 2, 1, 2, True), s
assert [v["path"] for v in p["volumes"]] == ["pov-vol%d.dat" % i for i in (1, 2, 3)]
assert all(v["size"] == "16m" and v["agent"] == "local" for v in p["volumes"])
PY
grep -q 'ioengine=libaio: bench-coord drives the same reads and writes through io_uring' "$T/pov.err" ||
	fail "ioengine not reported"

# and it runs: every volume did I/O in both steps
"$COORD" run -q -o "$T/out" "$T/pov.json" >"$T/run.out" 2>&1 || {
	cat "$T/run.out"
	fail "the imported profile did not run"
}
R=$(run_dir "$T/out")
json "$R/run.json" "r['status'] == 'ok' and all(v['ios'] > 0 for s in r['steps'] for v in s['volumes'])" |
	grep -qx True || fail "not every volume did I/O"

# the same with an agent on another host
"$COORD" import-fio --agent client-04 --endpoint tcp://10.0.0.4:7470 --name pov-remote \
	"$BC_SRC/tests/data/fio/pov.fio" >"$T/remote.json" 2>/dev/null || fail "import-fio --agent failed"
json "$T/remote.json" "r['name'] == 'pov-remote' and r['agents'] == [{'name': 'client-04', 'endpoint': 'tcp://10.0.0.4:7470'}]" |
	grep -qx True || fail "--agent/--endpoint/--name not applied"

# genfio: sequential (-s: stonewall before every job) and parallel (-p: a group per mode)
command -v genfio >/dev/null || fail "genfio missing (fio package)"
mkdir -p "$T/gen"
for mode in s p; do
	(cd "$T/gen" && genfio -d "$T/gen/d1,$T/gen/d2" -z 16m -b 4k,64k -m randread,write -r 2 \
		-$mode >"$T/genfio-$mode.log" 2>&1) || {
		cat "$T/genfio-$mode.log"
		fail "genfio -$mode failed"
	}
done
n=0
for f in "$T"/gen/*.fio; do
	n=$((n + 1))
	lenient=
	"$COORD" import-fio "$f" -o "$T/gen-$n.json" 2>"$T/gen-$n.err" || {
		cat "$T/gen-$n.err"
		fail "import-fio $(basename "$f") failed"
	}
	# genfio -s runs each job on one disk, leaving the other idle: so do its steps ("[]")
	if grep -q -- '-seq]' "$f"; then
		grep -q "is idle (no job of the group uses it)" "$T/gen-$n.err" ||
			fail "$(basename "$f"): the idle disk is not said"
	fi
	"$COORD" validate "$T/gen-$n.json" >/dev/null || fail "$(basename "$f"): profile invalid"
	# reporting options change no load: accepted, listed once among the inert ones
	for opt in invalidate write_bw_log write_iops_log; do
		if grep -q "$opt" "$f"; then
			grep "$opt" "$T/gen-$n.err" | grep -q "note: inert (" ||
				fail "$(basename "$f"): $opt not listed as inert"
			! grep "$opt" "$T/gen-$n.err" | grep -vq "note: inert (" ||
				fail "$(basename "$f"): $opt named other than as inert"
		fi
	done
	python3 - "$f" "$T/gen-$n.json" "$lenient" <<'PY' || fail "$(basename "$f") imported wrongly"
import json, re, sys
src, p = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
jobs = len(re.findall(r"^\[(?!global\])", src, re.M))
groups = src.count("stonewall")
steps = p["steps"]
# sequential: one step per job; parallel: one per stonewalled group
assert len(steps) == (jobs if "-seq]" in src else groups), (len(steps), jobs, groups)
assert {s["bs"] for s in steps} == {"4k", "64k"} and {s["rw"] for s in steps} == {"randread", "write"}
assert all(s["runtime"] == 2 and s["ramp"] == 5 for s in steps)
assert sorted(v["path"].rsplit("/", 1)[1] for v in p["volumes"]) == ["d1", "d2"]
assert ("--lenient" in p["description"]) == (sys.argv[3] == "--lenient"), p["description"]
print("%s: %d jobs -> %d steps" % (sys.argv[1].rsplit("/", 1)[1], jobs, len(steps)))
PY
done
[ "$n" = 2 ] || fail "expected two genfio job files, got $n"

# concurrent jobs with their own workloads run in one step, each volume its own
"$COORD" import-fio "$BC_SRC/tests/data/fio/concurrent.fio" -o "$T/con.json" 2>"$T/con.err" || {
	cat "$T/con.err"
	fail "import-fio concurrent.fio failed"
}
"$COORD" run -q -o "$T/con" "$T/con.json" >"$T/con.out" 2>&1 || {
	cat "$T/con.out"
	fail "the concurrent profile did not run"
}
R=$(run_dir "$T/con")
python3 - "$R/run.json" <<'PY' || fail "concurrent jobs did not keep their workloads"
import json, sys
r = json.load(open(sys.argv[1]))
s = r["steps"][0]
v = {x["path"].rsplit("/", 1)[-1]: x for x in s["volumes"]}
def n(x, op, k):
    return x.get(op, {}).get(k, 0)
a, b, c = v["con-a.dat"], v["con-b.dat"], v["con-c.dat"]
# log-writer: 64k writes only; db-reader: 8k reads only; db-writer: 8k writes at 500 IOPS
assert n(a, "write", "ios") > 0 and n(a, "read", "ios") == 0, a
assert n(a, "write", "bytes") == 65536 * n(a, "write", "ios"), a
assert n(b, "read", "ios") > 0 and n(b, "write", "ios") == 0, b
assert n(b, "read", "bytes") == 8192 * n(b, "read", "ios"), b
secs = s.get("seconds") or 2
assert n(c, "write", "ios") <= 500 * (secs + 1), (c, secs)
print("concurrent: a %d x 64k writes, b %d x 8k reads, c %d x 8k writes" %
      (n(a, "write", "ios"), n(b, "read", "ios"), n(c, "write", "ios")))
PY

# write_iolog only records what fio issued: clean, listed among the inert options
printf '[j]\nfilename=j.dat\nsize=16m\nrw=randread\nwrite_iolog=j.iolog\n' >"$T/iolog.fio"
"$COORD" import-fio -o "$T/iolog.json" "$T/iolog.fio" 2>"$T/iolog.err" &&
	grep "note: inert (" "$T/iolog.err" | grep -q "write_iolog" ||
	fail "write_iolog not imported as inert: $(cat "$T/iolog.err")"

# not storage: refused with the engine's line
set +e
"$COORD" import-fio "$BC_SRC/tests/data/fio/engine-net.fio" >/dev/null 2>"$T/net.err"
rc=$?
set -e
[ "$rc" = 2 ] && grep -q "engine-net.fio:3: ioengine=net: not block or file read/write I/O" "$T/net.err" ||
	{ cat "$T/net.err"; fail "ioengine=net not refused (rc $rc)"; }

# fio command lines on standard input, as a README shows them: imported and run (~3 s)
printf '%s\n' "F=$T/cmd.dat" \
	'fio --name=w --filename=$F --size=8m --rw=write --bs=64k --direct=1 --runtime=1 \' \
	'    --time_based --output-format=json > fio.log &' \
	'fio --name=r --filename=$F --size=8m --rw=randread --bs=4k --direct=1 --runtime=1 \' \
	'    --time_based' | "$COORD" import-fio -o "$T/cmd.json" - 2>"$T/cmd.err" ||
	{ cat "$T/cmd.err"; fail "import-fio - (commands) failed"; }
python3 - "$T/cmd.json" <<'PY' || fail "the commands imported wrongly"
import json, sys
p = json.load(open(sys.argv[1]))
assert p["name"] == "stdin", p["name"]
assert len(p["steps"]) == 1 and len(p["volumes"]) == 1, p
st = p["steps"][0]
assert st["rw"] == "write" and st["bs"] == "64k", st
assert p["steps"][0]["volume_workloads"]["0"][1]["rw"] == "randread", st
PY
grep -q 'note: stdin:3: --output-format: fio' "$T/cmd.err" ||
	{ cat "$T/cmd.err"; fail "--output-format not noted at its line"; }
"$COORD" run -q -o "$T/cmdout" "$T/cmd.json" >"$T/cmdrun.out" 2>&1 ||
	{ cat "$T/cmdrun.out"; fail "the imported commands did not run"; }
echo "PASS"
