#!/bin/bash
# test_e2e_vdbench_streams: a vdbench parameter file with four wds on one sd, each with its own
# skew, xfersize, rdpct, seekpct and range (seekpct 30 and 70 beside a sequential and a random
# one), imports clean into four streams and runs on a local file (~5 s of I/O at 4000 IOPS,
# QD 1); the kernel's own record of every direct I/O on that file (the iomap_dio_rw_begin
# tracepoint, in a tracing instance of this test's own, filtered on the file's inode) gives per
# wd's range the share of the I/Os, the share of reads and the share of I/Os that begin where
# the wd's previous one ended, and each matches what the file asks within 0.05 (or 4.5
# standard deviations of that many I/Os).
# Needs root and tracefs with the iomap events (skips otherwise); about 7 s.
. "$(dirname "$0")/lib.sh"

LUN="$T/lun.dat"
# written out first: reads of it measure the file, and the agent lays nothing out
dd if=/dev/zero of="$LUN" bs=1M count=64 oflag=direct status=none
INO=$(stat -c %i "$LUN")
need_iomap_trace "$T" bc-e2e-streams

cat >"$T/streams.parm" <<EOF
sd=sd1,lun=$LUN,threads=1,openflags=o_direct
wd=wa,sd=sd1,xfersize=4k,rdpct=80,seekpct=30,skew=40,range=(0,25)
wd=wb,sd=sd1,xfersize=4k,rdpct=20,seekpct=70,skew=30,range=(25,50)
wd=wc,sd=sd1,xfersize=8k,rdpct=100,seekpct=0,skew=20,range=(50,75)
wd=wd,sd=sd1,xfersize=4k,rdpct=0,seekpct=100,skew=10,range=(75,100)
rd=run,wd=w*,iorate=4000,elapsed=5,interval=1
EOF
"$COORD" import-vdbench -o "$T/streams.json" "$T/streams.parm" 2>"$T/import.err" ||
	fail "the file did not import clean: $(cat "$T/import.err")"
python3 - "$T/streams.json" <<'PY' || fail "the imported streams are not the wds"
import json, sys
p = json.load(open(sys.argv[1]))
s = p["steps"][0]
got = [(x["name"], x["share"], x["rw"], x.get("rwmixread"), x.get("seq_pct"), x["bs"])
       for x in s["streams"]]
assert got == [("wa", 40, "randrw", 80, 70, "4k"), ("wb", 30, "randrw", 20, 30, "4k"),
               ("wc", 20, "read", None, None, "8k"), ("wd", 10, "randwrite", None, None, "4k")], got
# threads=1 on the sd (the rd gives none): one I/O at a time on its volume, so the trace
# keeps the issue order
assert (s["iodepth"], s["numjobs"], s["rate_iops"]) == (1, 1, 4000), p
PY

# this test's own tracing instance (need_iomap_trace): nobody else's events or settings
echo "ino == $INO" >"$I/$EV/filter"
echo 1 >"$I/$EV/enable"
"$COORD" run --plain -o "$T/out" "$T/streams.json" >"$T/run.out" 2>&1 || {
	cat "$T/run.out"
	fail "the imported profile did not run"
}
echo 0 >"$I/$EV/enable"
cat "$I/trace" >"$T/trace.txt"

python3 - "$T/trace.txt" "$LUN" <<'PY' || fail "the I/Os on the file are not the wds'"
import os, re, sys
size = os.path.getsize(sys.argv[2])
ev = re.compile(r"offset 0x([0-9a-f]+) length 0x([0-9a-f]+) done_before 0x[0-9a-f]+ flags (\S*)")
ios, prev = [], None
for line in open(sys.argv[1]):
    m = ev.search(line)
    if not m:
        continue
    e = (int(m.group(1), 16), int(m.group(2), 16), "WRITE" in m.group(3).split("|"))
    # an I/O io_uring retries from a worker (after a NOWAIT attempt) is seen twice in a row
    if e != prev:
        ios.append(e)
    prev = e
assert "LOST" not in open(sys.argv[1]).read(), "the trace lost events"
# wd's range: a quarter of the file each; share, reads, continuing from the wd's last I/O
want = {0: (0.40, 0.80, 0.70), 1: (0.30, 0.20, 0.30), 2: (0.20, 1.00, 1.00), 3: (0.10, 0.00, 0.00)}
n, rd, cont, last = [0] * 4, [0] * 4, [0] * 4, [None] * 4
for off, ln, w in ios:
    k = min(off * 4 // size, 3)
    assert off + ln <= (k + 1) * size // 4, "an I/O crosses its wd's range: %d+%d" % (off, ln)
    n[k] += 1
    rd[k] += not w
    cont[k] += last[k] == off
    last[k] = off + ln
total = sum(n)
assert total >= 3000 and min(n) > 0, "only %s I/Os traced" % n
bad = []
for k in range(4):
    got = (n[k] / total, rd[k] / n[k], cont[k] / n[k])
    print("wd%s: %.3f of the I/Os, %.3f reads, %.3f continue the wd's last (want %s)"
          % ("abcd"[k], got[0], got[1], got[2], want[k]))
    # 0.05, or 4.5 standard deviations of a share of that many I/Os on a slow machine
    for g, w, m in zip(got, want[k], (total, n[k], n[k])):
        if abs(g - w) > max(0.05, 4.5 * (w * (1 - w) / m) ** 0.5):
            bad.append(k)
assert not bad, "wds %s off" % sorted(set(bad))
PY
echo "ok"
