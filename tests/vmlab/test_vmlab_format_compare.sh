#!/bin/bash
# test_vmlab_format_compare: seed 002's experiment as a user runs it. Its vdbench parameter file
# (tests/data/vdbench/seed002.parm: 4k random, 50% reads, 32 threads, o_direct; the lun changed
# to the guest's namespace and elapsed shortened, nothing else) is imported once, and the one
# profile runs twice by a real `bench-coord run` against bench-agent in the guest: on a
# namespace with 512-byte LBAs, then after a Format NVM to the 4096-byte LBA format (the guest
# has no nvme-cli: tests/vmlab/vmlab_nvme_format.c sends the admin command, the index taken
# from the formats the first run's identity lists, as a user reads them off `nvme id-ns -H`).
# `bench-coord compare RUN1 RUN2` must then say that the device changed (LBA data size 512 vs
# 4096, format in use #0 vs #4, LBA format kind) and give the drive temperature min/max/mean of
# the step per run beside the IOPS/latency comparison; run.json agrees with what compare says.
# No timed assertion: the figures are only checked to be there.
. "$(dirname "$0")/lib.sh"
vmlab_init

FMT="$BC_BIN/tests/vmlab_nvme_format"
[ -x "$FMT" ] || fail "no $FMT (built with the tests)"
vm_new g1
vm_ns g1 512 64M
install -D -m 0755 "$FMT" "$VT/g1/overlay/usr/bin/vmlab_nvme_format"
vm_boot g1
vm_wait g1

# the seed's file, as its user would edit it for this machine: the lun and a short elapsed
# (5 s: ramp 1 s + 4 measured; compare's interval rule wants 8, so compare runs with the
# fixed-threshold rule, which states every figure's difference in percent)
sed -e 's|lun=/dev/nvme5n1p1|lun=/dev/nvme0n1|' -e 's|elapsed=600|elapsed=5|' \
	"$BC_SRC/tests/data/vdbench/seed002.parm" >"$VT/scenario"
grep -q 'lun=/dev/nvme0n1' "$VT/scenario" && grep -q 'elapsed=5' "$VT/scenario" ||
	fail "the seed's parameter file changed: $(cat "$VT/scenario")"
"$COORD" import-vdbench --agent g1 --endpoint "${VM_EP[g1]}" -o "$VT/p.json" "$VT/scenario" \
	>"$VT/import.out" 2>&1 || { cat "$VT/import.out"; fail "import-vdbench failed"; }

run() {
	"$COORD" run --plain -o "$VT/out-$1" "$VT/p.json" >"$VT/$1.out" 2>&1 ||
		{ cat "$VT/$1.out"; fail "bench-coord run ($1) failed"; }
	cat "$VT/$1.out"
}

# what a user would read off `nvme id-ns -H`: the 4096-byte, metadata-free format's index
run before
R1=$(run_dir "$VT/out-before")
LBAF=$(python3 - "$R1/run.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
n = [p["nvme"] for p in r["agents"][0]["hello"]["paths"] if p.get("path") == "/dev/nvme0n1"][0]
assert n["lba_bytes"] == 512 and n["format_index"] == 0, n
print([f["index"] for f in n["formats"] if f["lba_bytes"] == 4096 and f["metadata_bytes"] == 0][0])
EOF
) || fail "run 1: no 512-byte identity with a 4096-byte format to go to"
out=$(vm_exec g1 "vmlab_nvme_format /dev/nvme0 1 $LBAF 2>&1
	for i in \$(seq 100); do
		[ \"\$(cat /sys/block/nvme0n1/queue/logical_block_size)\" = 4096 ] && break
		sleep 0.2
	done
	echo lbs \$(cat /sys/block/nvme0n1/queue/logical_block_size)") ||
	fail "formatting nvme0n1 failed: $out"
echo "$out"
case "$out" in
*"lbs 4096"*) ;;
*) fail "nvme0n1 does not have 4096-byte blocks after the format: $out" ;;
esac
run after
R2=$(run_dir "$VT/out-after")

rc=0
"$COORD" compare --threshold 25 --md "$VT/cmp.md" "$R1" "$R2" >"$VT/cmp.out" 2>&1 || rc=$?
cat "$VT/cmp.out"
# 0: no step differs, 1: one does (either is a comparison); 2 is a failure
[ "$rc" -le 1 ] || fail "bench-coord compare exit $rc"
want() {
	grep -qF -- "$1" "$VT/cmp.out" || fail "compare does not say: $1"
}
want "device identity differs (A is the first run):"
want "g1 /dev/nvme0n1: LBA data size: A 512, B 4096"
want "LBA format kind: A 512n, B 4Kn"
want "format in use: A #0 (512 B data, 0 B metadata), B #$LBAF (4096 B data, 0 B metadata)"
want "drive temperature, C (min/max/mean over the step):"
grep -qE "^    g1:/dev/nvme0n1  A [0-9.]+/[0-9.]+/[0-9.]+  B [0-9.]+/[0-9.]+/[0-9.]+ \([-+][0-9.]+\)$" \
	"$VT/cmp.out" || fail "compare has no temperature line for g1:/dev/nvme0n1 in both runs"
want "step run1"
# the figures beside it: IOPS, MB/s and p99 of each run, the second's difference in percent
grep -qE "^  run +IOPS +diff +MB/s +diff +p99 ms +diff$" "$VT/cmp.out" ||
	fail "compare has no IOPS/MB/s/p99 table"
grep -qE "^  $(basename "$R2") +[0-9]+ +[-+][0-9.]+% +[0-9.]+ +[-+][0-9.]+% +[0-9.]+ +[-+][0-9.]+%$" \
	"$VT/cmp.out" || fail "compare gives the second run no differences"
grep -qE "^  verdict: (consistent|INCONSISTENT)" "$VT/cmp.out" || fail "compare has no verdict"
grep -q "| g1 | /dev/nvme0n1 | LBA data size: A 512, B 4096" "$VT/cmp.md" ||
	fail "compare's Markdown has no device row"

# run.json says the same: identity per run, a temperature per second, the figures compared
python3 - "$R1/run.json" "$R2/run.json" "$VT/cmp.out" "$LBAF" <<'EOF' || fail "run.json checks"
import json, re, sys
cmp = open(sys.argv[3]).read()
tot = []
for path, lba, fmt, kind in ((sys.argv[1], 512, 0, "512n"), (sys.argv[2], 4096, int(sys.argv[4]), "4Kn")):
    r = json.load(open(path))
    n = [p["nvme"] for p in r["agents"][0]["hello"]["paths"] if p.get("path") == "/dev/nvme0n1"][0]
    assert (n["lba_bytes"], n["format_index"], n["lba_kind"]) == (lba, fmt, kind), n
    st = r["steps"][0]
    assert st["name"] == "run1" and st["status"] == "ok" and st["total"]["errors"] == 0, st["status"]
    assert st["total"]["read"]["ios"] > 0 and st["total"]["write"]["ios"] > 0, st["total"]
    t = st["volumes"][0]["nvme_temp"]
    c = [x for x in t["celsius"] if x is not None]
    assert c and t["min_c"] == min(c) and t["max_c"] == max(c), t
    # compare's min/max for this run are run.json's
    tag = "A" if lba == 512 else "B"
    m = re.search(r"^    g1:/dev/nvme0n1  .*\b%s ([0-9.]+)/([0-9.]+)/([0-9.]+)" % tag, cmp, re.M)
    assert m and abs(float(m.group(1)) - min(c)) < 0.06 and abs(float(m.group(2)) - max(c)) < 0.06, (m and m.groups(), c)
    assert abs(float(m.group(3)) - sum(c) / len(c)) < 0.06, (m.groups(), c)
    tot.append(st["total"])
    print(f"{kind}: lba {lba} format #{fmt}, iops {st['total']['iops']:.0f}, "
          f"p99 {st['total']['lat_us']['p99'] / 1e3:.3f} ms, temperature {min(c)}..{max(c)} C")
# compare's differences are run.json's: B's IOPS, MB/s and p99 against A's
row = [l.split() for l in cmp.splitlines() if l.startswith("  " + sys.argv[2].split("/")[-2] + " ")]
assert len(row) == 1 and len(row[0]) == 7, row
for (i, key) in ((2, "iops"), (4, "mbps")):
    want = 100 * (tot[1][key] - tot[0][key]) / tot[0][key]
    assert abs(float(row[0][i].rstrip("%")) - want) < 0.051, (key, row[0][i], want)
want = 100 * (tot[1]["lat_us"]["p99"] - tot[0]["lat_us"]["p99"]) / tot[0]["lat_us"]["p99"]
assert abs(float(row[0][6].rstrip("%")) - want) < 0.051, ("p99", row[0][6], want)
EOF
echo "PASS"
