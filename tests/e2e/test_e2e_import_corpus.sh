#!/bin/bash
# test_e2e_import_corpus: every job file of the real-world corpus (tests/data/corpus: fio job
# files and vdbench parameter files other people wrote) imports without a crash, and no
# profile it writes - plain or --lenient - is one validate refuses (bench/import-corpus.sh
# does the counting); the cases that once gave invalid --lenient profiles (step names with
# '/' and ':', a read share finer than four decimals, several hd=, an rd name twice, two sds on one lun);
# fio's kb_base; and seed 001's hot and cold fio jobs on one device imported without
# --lenient and run on a file. About 40 s.
. "$(dirname "$0")/lib.sh"

out=$(bash "$BC_SRC/bench/import-corpus.sh" "$BC_BIN" 2>"$T/corpus.err") ||
	fail "import-corpus.sh: $(tail -3 "$T/corpus.err")"
echo "$out"
for k in fio_invalid vdbench_invalid vdbench_pov_invalid fio_crash vdbench_crash vdbench_pov_crash; do
	grep -qx "$k: 0" <<<"$out" || fail "$k is not 0: $(cat "$T/corpus.err")"
done
for k in fio_files vdbench_files; do
	n=$(sed -n "s/^$k: //p" <<<"$out")
	[ "${n:-0}" -ge 30 ] || fail "$k: $n (the corpus is not where it should be)"
done

# --lenient never writes what validate refuses; without it each of these is refused (exit 2)
printf '[a/b:c]\nfilename=%s/n.dat\nsize=1m\nrw=read\nruntime=2\ntime_based\nsync_file_range=write:4\n' "$T" \
	>"$T/names.fio"
printf 'sd=sd1,lun=/dev/sdb\nwd=wd1,sd=sd1,rdpct=50\nrd=rd1,wd=wd1,forrdpct=(83.14159,50),elapsed=10\n' \
	>"$T/frac.parm"
printf 'hd=default,vdbench=/opt/vdbench\nhd=hd1,system=host1\nhd=hd2,system=host2\n%s\n%s\n%s\n' \
	'sd=sd1,lun=/dev/sdb' 'wd=wd1,sd=sd1' 'rd=rd1,wd=wd1,elapsed=10,iorate=100,distribution=uniform' \
	>"$T/hosts.parm"
printf 'sd=sd1,lun=/dev/sdb\nwd=wd1,sd=sd1,rdpct=33.33333\nrd=rd/1:x,wd=wd1,elapsed=10\nrd=rd/1:x,wd=wd1,elapsed=20\n' \
	>"$T/duprd.parm"
printf 'sd=sd1,lun=/dev/sdb,range=(0,50)\nsd=sd2,lun=/dev/sdb,range=(50,100)\nwd=wd1,sd=sd*\nrd=rd1,wd=wd1,elapsed=10\n' \
	>"$T/lun.parm"
for f in names.fio frac.parm hosts.parm duprd.parm lun.parm; do
	tool=vdbench
	[ "${f##*.}" = fio ] && tool=fio
	rc=0
	"$COORD" "import-$tool" "$T/$f" >/dev/null 2>"$T/$f.err" || rc=$?
	[ "$rc" = 2 ] || fail "$f: expected a refusal (exit 2), got $rc: $(cat "$T/$f.err")"
	grep -q "$f:[0-9]*: " "$T/$f.err" || fail "$f: the refusal names no file:line"
	"$COORD" "import-$tool" --lenient -o "$T/$f.json" "$T/$f" 2>"$T/$f.len" ||
		fail "$f --lenient: $(cat "$T/$f.len")"
	"$COORD" validate "$T/$f.json" >/dev/null 2>"$T/$f.val" ||
		fail "$f --lenient wrote an invalid profile: $(cat "$T/$f.val")"
done
python3 - "$T" <<'PY' || fail "lenient profiles"
import json, sys
t = sys.argv[1]
p = json.load(open(t + "/duprd.parm.json"))
assert [s["name"] for s in p["steps"]] == ["rd-1-x", "rd-1-x-2"], p["steps"]
assert p["steps"][0]["rwmixread"] == 33.3333, p["steps"][0]
p = json.load(open(t + "/frac.parm.json"))
assert p["steps"][0]["sweep"]["rwmixread"] == [83.1416, 50], p["steps"][0]
assert len(json.load(open(t + "/lun.parm.json"))["volumes"]) == 1
assert len(json.load(open(t + "/hosts.parm.json"))["agents"]) == 2
PY

# fio's kb_base: with the default 1024, "1MiB" is 10^6 bytes (IEC prefixes read as powers of
# ten) and "4k" 4096; kb_base=1000 turns both around ("4KiB" 4096, "1MB" 10^6); a file's size
# is whole 512-byte sectors (999936)
printf '[a]\nfilename=%s/k.dat\nrw=read\nbs=%s\nsize=%s\nruntime=1\ntime_based\n%s' "$T" 4k 1MiB '' \
	>"$T/kb1.fio"
printf '[a]\nfilename=%s/k.dat\nrw=read\nbs=%s\nsize=%s\nruntime=1\ntime_based\nkb_base=1000\n' \
	"$T" 4KiB 1MB >"$T/kb2.fio"
printf '[a]\nfilename=%s/k.dat\nrw=read\nbs=4KB\nsize=1m\nruntime=1\ntime_based\n' "$T" >"$T/kb3.fio"
"$COORD" import-fio -o "$T/kb3.json" "$T/kb3.fio" 2>/dev/null || fail "kb3"
"$COORD" import-fio -o "$T/kb1.json" "$T/kb1.fio" 2>/dev/null || fail "kb1"
"$COORD" import-fio -o "$T/kb2.json" "$T/kb2.fio" 2>/dev/null || fail "kb2"
python3 - "$T" <<'PY' || fail "kb_base"
import json, sys
t = sys.argv[1]
a, b = json.load(open(t + "/kb1.json")), json.load(open(t + "/kb2.json"))
c = json.load(open(t + "/kb3.json"))
assert a["steps"][0]["bs"] == "4k" and a["volumes"][0]["size"] == "999936", a
assert b["steps"][0]["bs"] == "4k" and b["volumes"][0]["size"] == "999936", b
assert c["steps"][0]["bs"] == "4k" and c["volumes"][0]["size"] == "1m", c
PY

# seed 001: four hot 4k random writers (Zipf 0.99) and one cold 128k sequential writer on one
# device at once, as its two fio commands give them (here one job file, on a file, 3 s)
cat >"$T/femu.fio" <<EOF
[global]
filename=$T/femu.dat
size=64m
ioengine=libaio
direct=1
iodepth=32
runtime=3
time_based

[hot]
rw=randwrite
bs=4k
numjobs=4
random_distribution=zipf:0.99

[cold]
rw=write
bs=128k
numjobs=1
EOF
"$COORD" import-fio -o "$T/femu.json" "$T/femu.fio" 2>"$T/femu.err" ||
	fail "seed 001's jobs refused: $(cat "$T/femu.err")"
python3 - "$T/femu.json" <<'PY' || fail "seed 001 imported wrongly"
import json, sys
p = json.load(open(sys.argv[1]))
s = p["steps"][0]
runs = s["volume_workloads"]["0"]
assert s["numjobs"] == 4 and len(p["volumes"]) == 1, s
assert len(runs) == 2, runs
assert runs[1]["rw"] == "write" and runs[1]["bs"] == "128k" and runs[1]["jobs"] == 1, runs
assert s["rw"] == "randwrite" and s["random_distribution"] == "zipf:0.99" and s["iodepth"] == 32
PY
"$COORD" run "$T/femu.json" -o "$T/runs" >"$T/femu.log" 2>&1 || fail "seed 001 run: $(tail -5 "$T/femu.log")"
python3 - "$T"/runs/*/run.json <<'PY' || fail "seed 001 ran wrongly"
import json, sys
r = json.load(open(sys.argv[1]))
st = r["steps"][0]
assert st["status"] == "ok", st["status"]
w = st["total"]["window"]["write"] if "window" in st["total"] else st["total"]["write"]
ios, b = w["ios"], w["bytes"]
# both ran: an average write between 4k and 128k
assert ios > 0 and 4096 < b / ios < 131072, (ios, b)
print("seed 001: %d writes, %.1f KiB average" % (ios, b / ios / 1024))
PY
echo "PASS"
