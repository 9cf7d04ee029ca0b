#!/bin/bash
# test_e2e_fileselect_poisson: a vdbench fwd with fileselect=(poisson,5) over a tree of 20 files
# (depth 2, width 2, 5 files per leaf, 4 KiB each, read whole with 4 KiB transfers: one read
# per file picked) imports clean and runs; the kernel's own record of every direct read (the
# iomap_dio_rw_begin tracepoint, in a tracing instance of this test's own, filtered on the
# tree's inodes) gives each file's share of the reads, and each matches vdbench's draw: the
# file's index in vdbench's list order (directories by level, then by their number among their
# siblings, stably over a depth-first build; computed here from that rule, not from
# bench-coord's) is an exponential variate of mean 20 / 5 wrapped at 20, so index i has
# (e^(-i/4) - e^(-(i+1)/4)) / (1 - e^(-5)). Each share within 0.015 or 4.5 standard
# deviations of that many reads.
# Needs root and tracefs with the iomap events (skips otherwise); about 8 s.
. "$(dirname "$0")/lib.sh"

need_iomap_trace "$T" bc-e2e-poisson

# the tree made first (the names vdbench gives), so its inodes are known before the run; a
# relative anchor is in the agent's scratch directory
SCR="$T/scratch"
TREE="$SCR/local/tree"
for a in 1 2; do
	for b in 1 2; do
		mkdir -p "$TREE/vdb.1_$a.dir/vdb.2_$b.dir"
		for f in 1 2 3 4 5; do
			dd if=/dev/urandom of="$TREE/vdb.1_$a.dir/vdb.2_$b.dir/vdb_f000$f.file" bs=4k \
				count=1 status=none
		done
	done
done
sync

cat >"$T/poisson.parm" <<EOF
fsd=f,anchor=tree,depth=2,width=2,files=5,size=4k
fwd=w,fsd=f,operation=read,fileio=sequential,xfersize=4k,threads=1,fileselect=(poisson,5),openflags=o_direct
rd=r,fwd=w,fwdrate=3000,format=no,elapsed=4,interval=1
EOF
"$COORD" import-vdbench -o "$T/poisson.json" "$T/poisson.parm" 2>"$T/import.err" ||
	fail "the file did not import clean: $(cat "$T/import.err")"
python3 - "$T/poisson.json" <<'PY' || fail "the imported workload is not fileselect poisson 5"
import json, sys
s = json.load(open(sys.argv[1]))["steps"][0]
assert (s["fileselect"], s["fileselect_midpoint"], s["rw"], s["numjobs"]) == \
    ("poisson", 5, "read", 1), s
PY

find "$TREE" -type f -printf '%i %P\n' >"$T/inodes"
FILTER=$(awk '{ printf "%sino == %s", (NR > 1 ? " || " : ""), $1 }' "$T/inodes")
echo "$FILTER" >"$I/$EV/filter"
echo 1 >"$I/$EV/enable"
"$COORD" run --plain -o "$T/out" --scratch-dir "$SCR" "$T/poisson.json" >"$T/run.out" 2>&1 || {
	cat "$T/run.out"
	fail "the imported profile did not run"
}
echo 0 >"$I/$EV/enable"
cat "$I/trace" >"$T/trace.txt"

python3 - "$T/trace.txt" "$T/inodes" <<'PY' || fail "the files read are not vdbench's poisson draw"
import math, re, sys

# vdbench's list order: directories built depth-first, sorted stably by (level, number)
dirs = []
def build(path, level, width, depth):
    for w in range(width):
        p = path + ["vdb.%d_%d.dir" % (level, w + 1)]
        dirs.append((level, w, "/".join(p)))
        if level < depth:
            build(p, level + 1, width, depth)
build([], 1, 2, 2)
dirs.sort(key=lambda d: (d[0], d[1]))
order = ["%s/vdb_f%04d.file" % (d[2], f + 1) for d in dirs if d[0] == 2 for f in range(5)]
n_files = len(order)
ino = {}
for line in open(sys.argv[2]):
    i, p = line.split()
    ino[int(i)] = p
ev = re.compile(r"ino 0x([0-9a-f]+) .*offset 0x([0-9a-f]+) length 0x([0-9a-f]+) .*flags (\S*)")
text = open(sys.argv[1]).read()
assert "LOST" not in text, "the trace lost events"
count, prev = {}, None
for line in text.splitlines():
    m = ev.search(line)
    if not m or "WRITE" in m.group(4).split("|"):
        continue
    e = (int(m.group(1), 16), int(m.group(2), 16))
    nowait = "NOWAIT" in m.group(4).split("|")
    # an I/O io_uring retries from a worker after a NOWAIT attempt is seen twice in a row, the
    # second time without NOWAIT; a file picked twice in a row is two reads at its offset 0
    retry = prev == (e, True) and not nowait
    prev = (e, nowait)
    if retry:
        continue
    count[ino[e[0]]] = count.get(ino[e[0]], 0) + 1
total = sum(count.values())
assert total >= 2000, "only %d reads traced" % total
m = n_files / 5.0
norm = 1 - math.exp(-n_files / m)
bad = []
for i, f in enumerate(order):
    want = (math.exp(-i / m) - math.exp(-(i + 1) / m)) / norm
    got = count.get(f, 0) / total
    tol = max(0.015, 4.5 * (want * (1 - want) / total) ** 0.5)
    print("%2d %-45s %.4f (want %.4f)" % (i, f, got, want))
    if abs(got - want) > tol:
        bad.append(f)
assert not bad, "off: %s" % bad
PY
echo "ok"
