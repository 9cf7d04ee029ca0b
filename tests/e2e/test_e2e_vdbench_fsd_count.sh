#!/bin/bash
# test_e2e_vdbench_fsd_count: vdbench's fsd sequence and rate list imported and run on a local
# agent, as vdbench runs them:
#  - fsd=fsd,anchor=tree$,count=(1,2) is two file sets, fsd1 in tree1 and fsd2 in tree2: the
#    agent made each one's 6 files of 64k there, and the fwd on fsd* read from both;
#  - fwdrate=(100,300) is a run per rate, the rd's total split over the two file sets: each
#    step's volumes did 50 and 150 reads a second (within 15%, by run.json's measured window);
#  - totalsize=1m,wss=512k on a 20-file tree of 64k: 16 files made, and the random writes of
#    the step changed exactly 8 of them (mtime after the step began), the working set;
#  - fwdrate=curve,curve=(50): a max run, then one at half its rate (70-110% of that, the
#    limiter holding it under what the max run did).
# About 20 s.
. "$(dirname "$0")/lib.sh"

SCR="$T/scr"
# imp_run NAME WHAT: $T/NAME.parm imported clean and run, into $T/out-NAME
imp_run() {
	"$COORD" import-vdbench -o "$T/$1.json" "$T/$1.parm" 2>"$T/$1.err" ||
		fail "$2 did not import clean: $(cat "$T/$1.err")"
	"$COORD" run --plain -o "$T/out-$1" --scratch-dir "$SCR" "$T/$1.json" >"$T/$1.out" 2>&1 || {
		cat "$T/$1.out"
		fail "$2 did not run"
	}
}
cat >"$T/c.parm" <<EOF2
fsd=default,depth=1,width=2,files=3,size=64k
fsd=fsd,anchor=tree\$,count=(1,2)
fwd=fwd1,fsd=fsd*,operation=read,xfersize=4k,fileio=random,fileselect=random,threads=2
rd=rd1,fwd=fwd1,fwdrate=(100,300),format=yes,elapsed=4,interval=1
EOF2
imp_run c "the fsd sequence and rate list"
python3 - "$(run_dir "$T/out-c")/run.json" "$SCR/local" <<'PY' || fail "not what vdbench runs"
import json, os, sys
run, scr = json.load(open(sys.argv[1])), sys.argv[2]
for t in ("tree1", "tree2"):
    files = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(scr, t)) for f in fs]
    assert len(files) == 6, (t, files)
    assert all(os.path.getsize(f) == 65536 for f in files), (t, files)
names = [st["name"] for st in run["steps"]]
assert names == ["rd1_fwdrate-100", "rd1_fwdrate-300"], names
for st, rate in zip(run["steps"], (100, 300)):
    vols = {v["path"]: v for v in st["volumes"]}
    assert sorted(vols) == ["tree1", "tree2"], sorted(vols)
    for p, v in vols.items():
        want = rate / 2
        print(st["name"], p, v["read"]["iops"], "want", want)
        assert v["read"]["ios"] and not v.get("write", {}).get("ios"), (p, v)
        assert 0.85 * want <= v["read"]["iops"] <= 1.15 * want, (st["name"], p, v["read"]["iops"])
PY

# --- workingsetsize=: only the working set's files are written
cat >"$T/w.parm" <<EOF2
fsd=fsd1,anchor=wss,depth=1,width=2,files=10,size=64k,totalsize=1m,wss=512k
fwd=fwd1,fsd=fsd1,operation=write,xfersize=4k,fileio=random,fileselect=random,threads=2
rd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=3,interval=1
EOF2
imp_run w "wss="
python3 - "$(run_dir "$T/out-w")/run.json" "$SCR/local/wss" <<'PY' || fail "not vdbench's working set"
import json, os, sys
st = json.load(open(sys.argv[1]))["steps"][0]
t0 = st["start_ns"] / 1e9
files = [os.path.join(d, f) for d, _, fs in os.walk(sys.argv[2]) for f in fs]
assert len(files) == 16 and all(os.path.getsize(f) == 65536 for f in files), files
written = [f for f in files if os.path.getmtime(f) > t0]
print(len(written), "of", len(files), "written in the step")
assert len(written) == 8, sorted(written)
assert st["volumes"][0]["write"]["ios"] > 0
PY

# --- fwdrate=curve: the max run, then a run at curve='s share of its rate
cat >"$T/cv.parm" <<EOF2
fsd=fsd1,anchor=cv,depth=1,width=2,files=4,size=256k
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,fileio=random,threads=2
rd=rd1,fwd=fwd1,fwdrate=curve,curve=(50),format=yes,elapsed=3,interval=1
EOF2
imp_run cv "fwdrate=curve"
python3 - "$(run_dir "$T/out-cv")/run.json" <<'PY' || fail "not vdbench's curve"
import json, sys
st = json.load(open(sys.argv[1]))["steps"]
got = [(s["name"], s["volumes"][0]["read"]["iops"]) for s in st]
print(got)
assert [n for n, _ in got] == ["rd1@curve=max", "rd1@curve=50%"], got
assert 0.7 * got[0][1] / 2 <= got[1][1] <= 1.1 * got[0][1] / 2, got
PY
echo "ok"
