#!/bin/bash
# test_e2e_import_vdbench: every vdbench parameter file of tests/data/vdbench/ imports to the
# profile its mapping says (hosts, luns, sizes, ranges, xfersize distributions, seek patterns,
# skews as streams, iorate, curves and for*= loops as sweeps or steps, warmup, fsd=/fwd= as
# file sets with format= and fwdrate=), every refusal
# names its file:line and exits 2, --lenient imports anyway and lists what differs; and seed
# 002's file, with only its lun changed to a local file (and elapsed shortened to 4 s by sed),
# imports, validates and runs, its vdbench table ending in avg_2-4.
. "$(dirname "$0")/lib.sh"

D="$BC_SRC/tests/data/vdbench"
for f in "$D"/*.parm; do
	b=$(basename "$f" .parm)
	case $b in
	refuse_*)
		rc=0
		"$COORD" import-vdbench "$f" >"$T/$b.json" 2>"$T/$b.err" || rc=$?
		[ "$rc" = 2 ] || fail "$b: exit $rc, expected 2 (refused)"
		grep -q "refused: vdbench would run" "$T/$b.err" || fail "$b: no refusal: $(cat "$T/$b.err")"
		"$COORD" import-vdbench --lenient "$f" >"$T/$b.json" 2>/dev/null ||
			fail "$b: --lenient did not import"
		;;
	*)
		"$COORD" import-vdbench -o "$T/$b.json" "$f" 2>"$T/$b.err" ||
			fail "$b: import failed: $(cat "$T/$b.err")"
		"$COORD" validate "$T/$b.json" >/dev/null 2>"$T/$b.verr" ||
			fail "$b: the imported profile is invalid: $(cat "$T/$b.verr")"
		;;
	esac
done

python3 - "$T" "$D" <<'PY' || fail "an imported profile is not what the parameter file says"
import json, os, re, sys
t, d = sys.argv[1], sys.argv[2]
def prof(b):
    return json.load(open("%s/%s.json" % (t, b)))
def err(b):
    return open("%s/%s.err" % (t, b)).read()
def step(p, name):
    return [s for s in p["steps"] if s["name"] == name][0]

p = prof("seed002")
assert p["name"] == "seed002", p["name"]
assert p["volumes"] == [{"agent": "local", "path": "/dev/nvme5n1p1"}]
assert p["defaults"]["direct"] is True   # openflags=o_direct
s = p["steps"][0]
assert (s["name"], s["rw"], s["rwmixread"], s["bs"], s["iodepth"], s["numjobs"]) == \
    ("run1", "randrw", 50, "4k", 32, 1), s
# vdbench's avg_2-600: the first interval is the ramp
assert (s["ramp"], s["runtime"]) == (1, 599), s
assert "sweep" not in s and "rate_iops" not in s

p = prof("hosts")
assert [(a["name"], a["endpoint"]) for a in p["agents"]] == \
    [("h1", "tcp://10.0.0.1:7470"), ("h2", "tcp://10.0.0.2:7470")]
assert [(v["agent"], v["path"]) for v in p["volumes"]] == \
    [("h1", "/dev/sdb"), ("h2", "/dev/sdb"), ("h2", "/dev/sdc")], p["volumes"]
s = p["steps"][0]
# threads=16 per sd: sd1 on both hosts has 8 on each (vdbench round-robins an sd's threads
# over its hosts), sd2 on h2 alone all 16
assert (s["rw"], s["rwmixread"], s["bs"], s["iodepth"], s["runtime"]) == ("randrw", 70, "8k", 8, 59)
assert s["volume_workloads"]["2"]["iodepth"] == 16, s
assert "hosts.parm:3: hd=h1: agent h1 at tcp://10.0.0.1:7470" in err("hosts")

p = prof("sd_size_offset")
v = p["volumes"][0]
assert (v["path"], v["size"], v["offset"]) == ("/var/tmp/vdb.file", 64 << 20, 1 << 20), v
assert p["defaults"]["direct"] is False  # no openflags: buffered
st = p["steps"][0]["streams"]
assert st == [{"name": "wd1", "share": 100, "rw": "randread", "bs": "4k",
               "range": {"offset": "25%", "size": "50%"}}], st

assert prof("xfer_dist")["steps"][0]["bs"] == "4k/50:8k/30:64k/20"
assert prof("xfer_dist")["steps"][0]["rw"] == "randwrite"

p = prof("seekpct")
assert [(s["name"], s["rw"], s["bs"]) for s in p["steps"]] == [
    ("r_seq", "read", "1m"), ("r_seqw", "write", "1m"), ("r_once", "read", "128k"),
    ("r_rand", "randwrite", "4k")], p["steps"]
assert step(p, "r_once").get("size_based") is True  # seekpct=eof: one pass
assert "size_based" not in step(p, "r_seq")

p = prof("skew")
s = p["steps"][0]
assert s["streams"] == [{"name": "small", "share": 70, "rw": "randread", "bs": "4k"},
                        {"name": "large", "share": 30, "rw": "write", "bs": "64k"}], s
assert s["iodepth"] == 32

p = prof("iorate")
assert step(p, "fixed")["rate_iops"] == 500       # 1000 over two volumes
assert step(p, "curve")["sweep"] == {"curve": [50, 90, 100]}
assert [step(p, n)["rate_iops"] for n in ("rates_iorate-200", "rates_iorate-400")] == [100, 200]
assert "iorate=1000 is the total over 2 volumes" in err("iorate")

p = prof("loops")
assert step(p, "qd")["sweep"] == {"iodepth": [1, 2, 4, 8]}
assert step(p, "qd2")["sweep"] == {"iodepth": [1, 2, 4, 8, 16]}
assert step(p, "bs")["sweep"] == {"bs": ["4k", "64k", "1m"]}
grid = [(s["name"], s["rw"], s["iodepth"]) for s in p["steps"] if s["name"].startswith("grid")]
assert sorted(grid) == [("grid_threads-1_rdpct-0", "randwrite", 1),
                        ("grid_threads-1_rdpct-100", "randread", 1),
                        ("grid_threads-4_rdpct-0", "randwrite", 4),
                        ("grid_threads-4_rdpct-100", "randread", 4)], grid
# lone forseekpct / forrdpct loops: real sweeps of rw and of a mix's read share
assert step(p, "seek")["sweep"] == {"rw": ["read", "randread"]} and step(p, "seek")["rw"] == "read"
m = step(p, "mix")
assert (m["rw"], m["rwmixread"], m["sweep"]) == ("randrw", 50, {"rwmixread": [0, 50, 100]}), m
assert not [s for s in p["steps"] if s["name"].startswith(("seek_", "mix_"))], p["steps"]
# luns with workloads of their own: a sweep would change only the step's, so a step per value
p = prof("loops_steps")
assert [s["name"] for s in p["steps"]] == ["seek_seekpct-0", "seek_seekpct-100"], p["steps"]
assert [(s["rw"], s["volume_workloads"]["1"]["rw"]) for s in p["steps"]] == \
    [("read", "write"), ("randread", "randwrite")], p["steps"]
assert "sweep" not in p["steps"][0]

p = prof("warmup")
assert (step(p, "rd1")["ramp"], step(p, "rd1")["runtime"]) == (60, 600)   # warmup=60, then elapsed=10m
assert (step(p, "rd2")["ramp"], step(p, "rd2")["runtime"]) == (5, 3595)   # first 5 s interval
assert "interval=5" in err("warmup")

# maxdata= as stop_bytes: bytes, or a multiple of the rd's sds' size= (2.5 x 128 MiB)
p = prof("maxdata")
assert (step(p, "bytes")["stop_bytes"], step(p, "times")["stop_bytes"]) == (1 << 30, 320 << 20), p["steps"]
assert "checked every second" in err("maxdata")
# on devices without size=: a percent of the windows the agents find (maxdata=0.125: 12.5%, rounded)
p = prof("maxdata_devices")
assert [(s.get("stop_window_pct"), s.get("stop_bytes")) for s in p["steps"]] == [(200, None), (13, None)], p["steps"]
assert "200% of their I/O windows" in err("maxdata_devices") and "rounded to a whole percent" in err("maxdata_devices")

# sd= in an rd: its own workload from the wd=default values, its keys the for- forms; with
# wd= too, those wds on the rd's sds
p = prof("rd_sd")
got = [(s["name"], s["rw"], s.get("rwmixread"), s["bs"], s["iodepth"], s.get("sweep")) for s in p["steps"]]
assert got == [("own", "randrw", 70, "4k", 8, None), ("defaults", "read", None, "8k", 8, None),
               ("loop", "read", None, "8k", 8, {"bs": ["4k", "64k"]}), ("moved", "write", None, "64k", 8, None),
               ("named", "write", None, "64k", 4, None)], got
assert all("volume_workloads" not in s and "streams" not in s for s in p["steps"]), p["steps"]

# align= on an sd: its volume's blockalign
p = prof("align")
assert [v.get("workload", {}).get("blockalign") for v in p["volumes"]] == [512, 8192], p["volumes"]
assert "blockalign" not in p["steps"][0], p["steps"]

# an rd on some of the sds: the others idle in its step ([]), iorate= split over the rest
p = prof("unused_sd")
got = [(s["name"], s["bs"], s.get("rate_iops"), s["volume_workloads"]) for s in p["steps"]]
assert got == [("rd1", "4k", None, {"1": [], "2": []}), ("rd2", "64k", 500, {"0": []})], got

# loop=N: the rds N times in rounds, the profile's top-level repeat
p = prof("loop")
assert (p["repeat"], [s["name"] for s in p["steps"]]) == (3, ["first", "second"]), p
assert "loop=3: every step runs 3 times" in err("loop")

# rhpct/whpct between 0 and 100: a stream per class, hits in the first hitarea bytes, misses
# in the rest: 70% reads x 40% hits = 28, read misses 42, writes 30 x 20% = 6 hits, 24 misses
p = prof("hits_mix")
got = [(s["name"], round(s["share"], 6), s["rw"], s["bs"], s["range"]) for s in p["steps"][0]["streams"]]
assert got == [("read_hit", 28, "randread", "4k", {"offset": "0", "size": "8m"}),
               ("read_miss", 42, "randread", "4k", {"offset": "8m", "size": "0"}),
               ("write_hit", 6, "randwrite", "4k", {"offset": "0", "size": "8m"}),
               ("write_miss", 24, "randwrite", "4k", {"offset": "8m", "size": "0"})], got

p = prof("defaults")
assert [v["path"] for v in p["volumes"]] == ["/dev/sdb", "/dev/sdc"]
assert p["defaults"]["direct"] is True  # sd=default openflags
s = p["steps"][0]
assert (s["rw"], s["bs"], s["iodepth"], s["runtime"]) == ("randread", "8k", 12, 29), s

p = prof("two_luns")
s = p["steps"][0]
assert (s["rw"], s["bs"], s["volume_workloads"]) == ("write", "64k", {"1": {"rw": "randread", "bs": "8k"}}), s

p = prof("direct_mixed")
assert [v.get("workload") for v in p["volumes"]] == [{"direct": True}, None], p["volumes"]
assert p["defaults"]["direct"] is False and p["volumes"][1]["size"] == 16 << 20

# file system definitions: the fsd a volume with a "fileset", each rd a step on it (format=only
# one sequential write pass over every file, format=yes a fresh tree, fwdrate= a rate)
p = prof("fileset")
assert p["defaults"]["direct"] is True   # the fsd's openflags=o_direct, every file set alike
assert p["volumes"] == [{"agent": "local", "path": "tree",
                         "fileset": {"depth": 2, "width": 2, "files": 8,
                                     "sizes": [{"size": 32768, "pct": 50}, {"size": 65536, "pct": 50}]}}], p["volumes"]
got = [(s["name"], s["rw"], s.get("fileselect"), s.get("fileset_format"), s.get("size_based"),
        s["numjobs"], s["iodepth"]) for s in p["steps"]]
# the format step: vdbench's format run, 8 threads of 128k (no fwd=format in the file)
assert got == [("format", "write", None, "fresh", True, 8, 1), ("read", "read", None, None, None, 2, 1),
               ("write", "randwrite", "random", "fresh", None, 2, 1)], got
assert step(p, "write")["volume_workloads"]["0"]["rate_iops"] == 200, step(p, "write")
assert "format=only: a step that deletes and rebuilds the file sets" in err("fileset")

# seekpct 1-99: that share of I/Os seek, the rest continue sequentially
p = prof("seekpct_mix")
assert (p["steps"][0]["rw"], p["steps"][0]["seq_pct"]) == ("randread", 50), p["steps"][0]

# refusals: the line of the parameter that has no equivalent
want = {
    "refuse_openflags": ":1: openflags=0x4000",
    "refuse_xfer_range": ":2: xfersize=(4k,64k,512)", "refuse_fwd_copy": ":2: operation=copy",
    "refuse_maxdata": ":3: maxdata=0.001: less than 1% of the sds' size", "refuse_rhpct": ":3: rhpct=50: hits and misses of a wd that is not random",
    "refuse_distribution": ":3: distribution=uniform", "refuse_range_wrap": ":2: range=(90,110)",
    "refuse_compratio": ":1: compratio=0.5", 
    "refuse_skew_sum": ":4: rd=rd1: the skews", "refuse_rd_sd_single": ":4: sd=single: one run per sd", "refuse_align": ":2: align=100: a multiple of 512", "refuse_loop_time": ":4: loop=2h: repeating the rds until a time", "refuse_skew_luns": ":3: skew=80: wd=a and wd=b",
}
for b, w in want.items():
    e = err(b)
    assert "%s/%s.parm%s" % (d, b, w) in e, (b, w, e)
    desc = prof(b)["description"]          # the --lenient import says what differs
    assert "--lenient; not as vdbench would run it" in desc and w.split(": ", 1)[1][:12] in desc, desc
missing = {os.path.basename(f)[:-5] for f in os.listdir(d) if f.startswith("refuse_")} - set(want)
assert not missing, missing
print("corpus: %d files checked" % len(os.listdir(d)))
PY

# bad input: not key=value, a missing include
printf 'sd=sd1,lun=/dev/sdb\nwd=wd1,sd=sd1,xfersize\n' >"$T/bad.parm"
rc=0
"$COORD" import-vdbench "$T/bad.parm" >/dev/null 2>"$T/bad.err" || rc=$?
[ "$rc" = 2 ] && grep -q "bad.parm:2: 'xfersize' is not keyword=value" "$T/bad.err" ||
	fail "bad syntax: exit $rc: $(cat "$T/bad.err")"
printf 'include=nothere.inc\n' >"$T/inc.parm"
rc=0
"$COORD" import-vdbench "$T/inc.parm" >/dev/null 2>"$T/inc.err" || rc=$?
# an unreadable include is an error (exit 1, as import-fio's), not a refusal
[ "$rc" = 1 ] && grep -q "inc.parm:1: include=nothere.inc: cannot read" "$T/inc.err" ||
	fail "missing include: exit $rc: $(cat "$T/inc.err")"

# a Windows raw device: refused, the message names --lun; --lun by sd or by lun value
# imports it clean onto the named path, a --lun naming nothing is an error
printf 'sd=sd1,lun=\\\\.\\PHYSICALDRIVE1,openflags=directio\nsd=sd2,lun=\\\\.\\d:\n%s\n%s\n' \
	'wd=wd1,sd=*,xfersize=4k,rdpct=100' 'rd=rd1,wd=wd1,iorate=max,elapsed=10,threads=4' >"$T/win.parm"
rc=0
"$COORD" import-vdbench "$T/win.parm" >/dev/null 2>"$T/win.err" || rc=$?
[ "$rc" = 2 ] && grep -qF 'win.parm:1: lun=\\.\PHYSICALDRIVE1: a Windows raw device' "$T/win.err" &&
	grep -qF -- "--lun '\\\\.\\PHYSICALDRIVE1=/dev/...'" "$T/win.err" &&
	grep -qF -- "--lun 'sd2=/dev/...'" "$T/win.err" || fail "windows lun: exit $rc: $(cat "$T/win.err")"
"$COORD" import-vdbench --lun '\\.\physicaldrive1=/dev/sdb' --lun sd2=/dev/sdc \
	-o "$T/win.json" "$T/win.parm" 2>"$T/win.err" || fail "--lun: $(cat "$T/win.err")"
"$COORD" validate "$T/win.json" >/dev/null || fail "--lun: the profile does not validate"
python3 - "$T/win.json" <<'PY' || fail "--lun: not the named devices"
import json, sys
p = json.load(open(sys.argv[1]))
assert [v["path"] for v in p["volumes"]] == ["/dev/sdb", "/dev/sdc"], p["volumes"]
PY
rc=0
"$COORD" import-vdbench --lun sd9=/dev/sdb "$T/win.parm" >/dev/null 2>"$T/win.err" || rc=$?
[ "$rc" = 1 ] && grep -qF -- "--lun sd9=/dev/sdb: no sd= of that name" "$T/win.err" ||
	fail "--lun naming nothing: exit $rc: $(cat "$T/win.err")"

# seed 002 on a local file: only the lun changes (and elapsed, shortened here)
truncate -s 64M "$T/nvme5n1p1.dat"
sed -e "s|/dev/nvme5n1p1|$T/nvme5n1p1.dat|" -e 's/elapsed=600/elapsed=4/' "$D/seed002.parm" >"$T/seed.parm"
diff <(sed -e "s|/dev/nvme5n1p1|X|" -e 's/elapsed=600/elapsed=4/' "$D/seed002.parm") \
	<(sed "s|$T/nvme5n1p1.dat|X|" "$T/seed.parm") >/dev/null || fail "seed file changed beyond the path"
"$COORD" import-vdbench -o "$T/seed.json" "$T/seed.parm" 2>"$T/seed.err" ||
	fail "seed 002 did not import: $(cat "$T/seed.err")"
"$COORD" validate "$T/seed.json" >"$T/validate.out" 2>&1 || {
	cat "$T/validate.out"
	fail "seed 002's profile does not validate"
}
TZ=UTC "$COORD" run --plain --format vdbench -o "$T/out" "$T/seed.json" >"$T/run.out" 2>&1 || {
	cat "$T/run.out"
	fail "seed 002's profile did not run"
}
grep -Eq '^[0-9:.]{12} +avg_2-4 +[0-9.]+ +[0-9.]+ +4096 +[0-9.]+ ' "$T/run.out" ||
	fail "no avg_2-4 line of 4096-byte I/Os: $(cat "$T/run.out")"
R=$(run_dir "$T/out")
python3 - "$R" <<'PY' || fail "seed 002's run is not vdbench's workload"
import json, sys
r = json.load(open(sys.argv[1] + "/run.json"))
s = r["steps"][0]
w = s["workload"]
assert (w["rw"], w["rwmixread"], w["bs"], w["iodepth"], w["direct"]) == ("randrw", 50, 4096, 32, True), w
t = s["total"]
assert t["ios"] > 0 and 40 <= t["read_pct"] <= 60, t["read_pct"]
assert s["vdbench"]["avg_label"] == "avg_2-4"
PY
echo "ok"
