#!/bin/bash
# test_e2e_vdbench_fileset: vdbench file system parameter files (fsd=, fwd=) import clean and
# the load the agents run is the one vdbench would run, as the kernel saw it (the
# iomap_dio_rw_begin tracepoint, in a tracing instance of this test's own, each direct I/O
# with its inode and flags, mapped to the tree's files by their inodes after the run):
#  - openflags=o_sync on an fsd: every write to its files carries DSYNC (vdbench opens them
#    with O_DSYNC on Linux), and none to the files of an fsd without it, in the same run;
# Needs root and tracefs with the iomap events (skips otherwise); about 10 s.
. "$(dirname "$0")/lib.sh"

SCR="$T/scr"
mkdir -p "$SCR"
need_iomap_trace "$SCR" bc-e2e-vdbfs
# the I/Os of this filesystem only; which of them are the tree's is told by their inodes
DEV=$(python3 -c 'import os,sys; d=os.stat(sys.argv[1]).st_dev; print(os.major(d) << 20 | os.minor(d))' "$SCR")
echo "dev == $DEV" >"$I/$EV/filter"

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
echo "ok"
