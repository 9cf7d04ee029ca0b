#!/bin/bash
# test_e2e_vdbench_fileset: vdbench file system parameter files (fsd=, fwd=) import clean and
# the load the agents run is the one vdbench would run, as the kernel saw it (the
# iomap_dio_rw_begin tracepoint, in a tracing instance of this test's own, each direct I/O
# with its inode and flags, mapped to the tree's files by their inodes after the run):
#  - openflags=o_sync on an fsd: every write to its files carries DSYNC (vdbench opens them
#    with O_DSYNC on Linux), and none to the files of an fsd without it, in the same run;
#  - shared=yes with a fwd on each of two hosts (two local agents, one tree): each agent
#    makes and does I/O to every second file only, its own half (vdbench gives each of n
#    slaves every nth file), and between them every file is used;
#  - totalsize=: a random subset of the tree's files whose sizes reach it is made, at their
#    sizes, and only those are used; totalsize= beyond the tree is refused, naming its line;
#  - forxfersize= and forrdpct= in an rd with fwd=: a step per combination, each doing only
#    the reads or writes of its rdpct at its size (the agents' own counts).
# Needs root and tracefs with the iomap events (skips otherwise); about 25 s.
. "$(dirname "$0")/lib.sh"

SCR="$T/scr"
mkdir -p "$SCR"
need_iomap_trace "$SCR" bc-e2e-vdbfs
# the I/Os of this filesystem only; which of them are the tree's is told by their inodes
DEV=$(python3 -c 'import os,sys; d=os.stat(sys.argv[1]).st_dev; print(os.major(d) << 20 | os.minor(d))' "$SCR")
echo "dev == $DEV" >"$I/$EV/filter"
# each event with its process: the agent's pid (run.json's agents[].hello.pid)
echo 1 >"$I/options/record-tgid"

# trace RUN_DIR PROFILE: run PROFILE with the trace on; $T/trace.txt holds its I/Os
trace_run() {
	echo >"$I/trace"
	echo 1 >"$I/$EV/enable"
	"$COORD" run --plain -o "$T/$1" --scratch-dir "$SCR" "$2" >"$T/$1.out" 2>&1 || {
		echo 0 >"$I/$EV/enable"
		cat "$T/$1.out"
		fail "$2 did not run"
	}
	echo 0 >"$I/$EV/enable"
	cat "$I/trace" >"$T/trace.txt"
	! grep -q LOST "$T/trace.txt" || fail "the trace lost events"
}

# inodes DIR...: "inode relative-path" of every file under each DIR, in $T/inodes.txt
inodes() {
	: >"$T/inodes.txt"
	for d in "$@"; do
		find "$d" -type f -printf "%i $d/%P\n" >>"$T/inodes.txt"
	done
}

# --- openflags=o_sync: DSYNC on every write to the fsd's files, none on the other fsd's
cat >"$T/sync.parm" <<EOF
fsd=fsync,anchor=synced,depth=1,width=2,files=2,size=64k,openflags=(o_direct,o_sync)
fsd=fplain,anchor=plain,depth=1,width=2,files=2,size=64k,openflags=o_direct
fwd=fw,fsd=(fsync,fplain),operation=write,xfersize=4k,fileio=random,fileselect=random,threads=4
rd=rd1,fwd=fw,fwdrate=max,format=yes,elapsed=3,interval=1
EOF
"$COORD" import-vdbench -o "$T/sync.json" "$T/sync.parm" 2>"$T/sync.err" ||
	fail "o_sync did not import clean: $(cat "$T/sync.err")"
trace_run out-sync "$T/sync.json"
inodes "$SCR/local/synced" "$SCR/local/plain"
python3 - "$T/trace.txt" "$T/inodes.txt" <<'PY' || fail "the writes' flags are not the fsds' openflags"
import re, sys
files = dict(l.split(" ", 1) for l in open(sys.argv[2]).read().splitlines())
assert len(files) == 8, files
ev = re.compile(r"ino 0x([0-9a-f]+) .* flags (\S*)")
n = {"synced": [0, 0], "plain": [0, 0]}  # writes, writes with DSYNC
for line in open(sys.argv[1]):
    m = ev.search(line)
    if not m or str(int(m.group(1), 16)) not in files:
        continue
    fl = m.group(2).split("|")
    if "WRITE" not in fl:
        continue
    k = "synced" if "/synced/" in files[str(int(m.group(1), 16))] else "plain"
    n[k][0] += 1
    n[k][1] += "DSYNC" in fl
print(n)
assert n["synced"][0] > 50 and n["synced"][1] == n["synced"][0], n
assert n["plain"][0] > 50 and n["plain"][1] == 0, n
PY

# --- shared=yes: each host every second file of the one tree
cat >"$T/shared.parm" <<EOF
hd=default,vdbench=/opt/vdbench,user=root,shell=ssh
hd=hd1,system=h1.example
hd=hd2,system=h2.example
fsd=fsd1,anchor=$T/shared,depth=2,width=2,files=3,size=64k,shared=yes,openflag=o_direct
fwd=default,xfersize=4k,fileio=random,fileselect=random,rdpct=60,threads=2
fwd=fwd1,fsd=fsd1,host=hd1
fwd=fwd2,fsd=fsd1,host=hd2
rd=rd1,fwd=fwd*,fwdrate=max,format=restart,elapsed=3,interval=1
EOF
"$COORD" import-vdbench -o "$T/shared.json" "$T/shared.parm" 2>"$T/shared.err" ||
	fail "shared=yes did not import clean: $(cat "$T/shared.err")"
# the two hosts as two local agents (one machine, the one tree)
python3 - "$T/shared.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
shares = [v["fileset"]["share"] for v in p["volumes"]]
assert [v["agent"] for v in p["volumes"]] == ["hd1", "hd2"], p["volumes"]
assert shares == [{"count": 2, "index": 0}, {"count": 2, "index": 1}], shares
for a in p["agents"]:
    a["endpoint"] = "local"
json.dump(p, open(sys.argv[1], "w"))
PY
mkdir -p "$T/shared"
trace_run out-shared "$T/shared.json"
inodes "$T/shared"
RJ="$(run_dir "$T/out-shared")/run.json"
python3 - "$T/trace.txt" "$T/inodes.txt" "$RJ" <<'PY' ||
import json, re, sys
files = dict(l.split(" ", 1) for l in open(sys.argv[2]).read().splitlines())
run = json.load(open(sys.argv[3]))
pids = {a["hello"]["pid"]: a["name"] for a in run["agents"]}
# vdbench's file order over the 4 leaves (vdb.1_1/vdb.2_1, vdb.1_2/vdb.2_1, ...), 3 in each
order = ["vdb.1_%d.dir/vdb.2_%d.dir/vdb_f%04d.file" % (a, b, f)
         for b in (1, 2) for a in (1, 2) for f in (1, 2, 3)]
num = {ino: order.index(p.split("/shared/", 1)[1]) for ino, p in files.items()}
assert sorted(num.values()) == list(range(12)), files
ev = re.compile(r"\(\s*(\d+)\).* ino 0x([0-9a-f]+) ")
touched = {"hd1": set(), "hd2": set()}
for line in open(sys.argv[1]):
    m = ev.search(line)
    if not m or str(int(m.group(2), 16)) not in num:
        continue
    agent = pids.get(int(m.group(1)))
    assert agent, "an I/O on the tree from pid %s, no agent's: %s" % (m.group(1), line)
    touched[agent].add(num[str(int(m.group(2), 16))])
print({a: sorted(t) for a, t in touched.items()})
assert touched["hd1"] == {0, 2, 4, 6, 8, 10}, touched
assert touched["hd2"] == {1, 3, 5, 7, 9, 11}, touched
PY
	fail "the hosts did not each use their own half of the shared tree"
json "$RJ" "sorted((b['files'], b['created']) for b in r['steps'][0]['backing'])" |
	grep -qx "\[(6, 6), (6, 6)\]" ||
	fail "each agent should make its 6 files: $(json "$RJ" "r['steps'][0]['backing']")"

# --- totalsize=: a random subset up to the size, the rest never made
cat >"$T/total.parm" <<EOF
fsd=fsd1,anchor=total,depth=2,width=3,files=4,size=(64k,50,256k,50),totalsize=2m,openflags=o_direct
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,fileio=random,fileselect=random,threads=2
rd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=3,interval=1
EOF
"$COORD" import-vdbench -o "$T/total.json" "$T/total.parm" 2>"$T/total.err" ||
	fail "totalsize= did not import clean: $(cat "$T/total.err")"
trace_run out-total "$T/total.json"
inodes "$SCR/local/total"
python3 - "$T/trace.txt" "$T/inodes.txt" <<'PY' || fail "the totalsize subset is not what vdbench makes"
import os, re, sys
files = dict(l.split(" ", 1) for l in open(sys.argv[2]).read().splitlines())
sizes = [os.path.getsize(p) for p in files.values()]
# 36 files in the tree; those made hold 2m or just over (the last one drawn may pass it)
assert 0 < len(files) < 36, len(files)
assert all(s in (65536, 262144) for s in sizes), sizes
assert 2 << 20 <= sum(sizes) < (2 << 20) + 262144, sum(sizes)
ev = re.compile(r" ino 0x([0-9a-f]+) ")
seen = set(str(int(m.group(1), 16)) for m in map(ev.search, open(sys.argv[1])) if m)
assert set(files) <= seen, "files made but never read: %s" % (set(files) - seen)
print(len(files), "files of", sum(sizes), "bytes, all read")
PY
sed 's/totalsize=2m/totalsize=20m/' "$T/total.parm" >"$T/big.parm"
rc=0
"$COORD" import-vdbench -o "$T/big.json" "$T/big.parm" 2>"$T/big.err" || rc=$?
[ "$rc" = 2 ] && grep -q "big.parm:1: .*totalsize.*vdbench stops at that too" "$T/big.err" ||
	fail "totalsize beyond the tree: exit $rc: $(cat "$T/big.err")"

# --- forrdpct= and forxfersize= in an rd with fwd=: a run each, as vdbench runs them
cat >"$T/loops.parm" <<EOF
fsd=fsd1,anchor=loops,depth=1,width=2,files=4,size=256k,openflags=o_direct
fwd=fwd1,fsd=fsd1,xfersize=4k,fileio=random,fileselect=random,threads=2
rd=rd1,fwd=fwd1,fwdrate=max,format=restart,elapsed=2,interval=1,forxfersize=(4k,16k),forrdpct=(0,100)
EOF
"$COORD" import-vdbench -o "$T/loops.json" "$T/loops.parm" 2>"$T/loops.err" ||
	fail "the loops did not import clean: $(cat "$T/loops.err")"
"$COORD" run --plain -o "$T/out-loops" --scratch-dir "$SCR" "$T/loops.json" >"$T/loops.out" 2>&1 || {
	cat "$T/loops.out"
	fail "the loops did not run"
}
python3 - "$(run_dir "$T/out-loops")/run.json" <<'PY' || fail "the loops' runs are not vdbench's"
import json, sys
run = json.load(open(sys.argv[1]))
got = []
for st in run["steps"]:
    v = st["agent_totals"]["local"]["volumes"][0]
    r, w = v["read"], v["write"]
    op = "read" if r["ios"] and not w["ios"] else "write" if w["ios"] and not r["ios"] else "both"
    ios = r["ios"] + w["ios"]
    got.append((st["name"], op, (r["bytes"] + w["bytes"]) // max(ios, 1)))
print(got)
assert got == [("rd1_xfersize-4k_rdpct-0", "write", 4096), ("rd1_xfersize-4k_rdpct-100", "read", 4096),
               ("rd1_xfersize-16k_rdpct-0", "write", 16384),
               ("rd1_xfersize-16k_rdpct-100", "read", 16384)], got
PY
echo "ok"
