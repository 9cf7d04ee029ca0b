#!/bin/bash
# test_vmlab_seed002: seed 002 on its own lun, a partition. The guest's namespace (512-byte
# LBAs; QEMU's controller also lists a 4096-byte format) carries a GPT with one partition,
# bytes 1 MiB..63 MiB, written on the host before boot. Then, against bench-agent in the guest:
#   1. the seed's vdbench parameter file, its lun set to /dev/nvme0n1p1 and elapsed shortened,
#      imported and run: the partition's identity is its namespace's (model, LBA formats,
#      format in use) with where the partition lies, and its SMART delta and temperature are
#      read from the namespace;
#   2. profiles/seed002-512e-4kn.json (the path, agent and runtime changed): a step that formats
#      to 512-byte LBAs and runs, a step that formats to 4096 and runs. The partition table is
#      kept across each format (the same byte range, re-read by the kernel);
#   3. bench-coord compare RUN@512e RUN@4kn says the device changed (LBA data size, format in
#      use, kind) beside the figures and the temperatures.
# And a format is refused while the partition is mounted, naming it. About 60 s.
. "$(dirname "$0")/lib.sh"
vmlab_init

vm_new g1
vm_ns g1 512 64M
python3 - "$VT/g1/ns1.img" <<'PY' || fail "cannot write the GPT"
# a GPT on 512-byte blocks: protective MBR, header at LBA 1, 128 entries at LBA 2, one
# partition from LBA 2048 (1 MiB) to 129023 (63 MiB - 1), and the backup array and header
import struct, sys, uuid, zlib
img, lbs = sys.argv[1], 512
size = 64 << 20
last = size // lbs - 1
ent = bytearray(128 * 128)
ent[0:128] = (uuid.UUID("0fc63daf-8483-4772-8e79-3d69d8477de4").bytes_le +
              uuid.uuid4().bytes_le + struct.pack("<QQQ", 2048, 129023, 0) +
              "vdbench".encode("utf-16-le").ljust(72, b"\0"))
crc = zlib.crc32(bytes(ent)) & 0xffffffff
def header(at, alt, entries):
    h = bytearray(struct.pack("<8sIIIIQQQQ16sQIII", b"EFI PART", 0x10000, 92, 0, 0, at, alt,
                              34, last - 33, uuid.UUID(int=0x1234).bytes_le, entries, 128, 128, crc))
    h[16:20] = struct.pack("<I", zlib.crc32(bytes(h)) & 0xffffffff)
    return bytes(h).ljust(lbs, b"\0")
mbr = bytearray(512)
mbr[446:462] = struct.pack("<BBBBBBBBII", 0, 0, 2, 0, 0xEE, 0xFF, 0xFF, 0xFF, 1, min(last, 0xffffffff))
mbr[510:512] = b"\x55\xaa"
with open(img, "r+b") as f:
    f.write(mbr)
    f.seek(lbs); f.write(header(1, last, 2))
    f.seek(2 * lbs); f.write(ent)
    f.seek((last - 32) * lbs); f.write(ent)
    f.seek(last * lbs); f.write(header(last, 1, last - 32))
PY
vm_conf g1 'VM_AGENT_ARGS="--allow /dev/nvme* --allow /dev/ng* --allow-destructive"'
vm_boot g1
vm_wait g1
out=$(vm_exec g1 'cat /sys/class/block/nvme0n1p1/start /sys/class/block/nvme0n1p1/size') ||
	fail "the guest has no nvme0n1p1: $out"
[ "$(echo $out)" = "2048 126976" ] || fail "nvme0n1p1 is not sectors 2048 + 126976: $out"

# 1. the seed's parameter file as its user would edit it for this machine
sed -e 's|lun=/dev/nvme5n1p1|lun=/dev/nvme0n1p1|' -e 's|elapsed=600|elapsed=5|' \
	"$BC_SRC/tests/data/vdbench/seed002.parm" >"$VT/scenario"
grep -q 'lun=/dev/nvme0n1p1' "$VT/scenario" || fail "the seed's parameter file changed"
"$COORD" import-vdbench --agent g1 --endpoint "${VM_EP[g1]}" -o "$VT/p.json" "$VT/scenario" \
	>"$VT/import.out" 2>&1 || { cat "$VT/import.out"; fail "import-vdbench failed"; }
"$COORD" run --plain -o "$VT/out-seed" "$VT/p.json" >"$VT/seed.out" 2>&1 ||
	{ cat "$VT/seed.out"; fail "the seed's run failed"; }
R0=$(run_dir "$VT/out-seed")
python3 - "$R0/run.json" <<'PY' || fail "the partition's identity, SMART or temperature is missing"
import json, sys
r = json.load(open(sys.argv[1]))
n = [p["nvme"] for p in r["agents"][0]["hello"]["paths"] if p.get("path") == "/dev/nvme0n1p1"][0]
assert n["block"] == "nvme0n1" and n["lba_bytes"] == 512 and n["format_index"] == 0, n
assert n["source"] == "identify" and any(f["lba_bytes"] == 4096 for f in n["formats"]), n
assert n["partition"] == {"device": "nvme0n1p1", "number": 1, "start": 1 << 20, "size": 62 << 20}, n
st = r["steps"][0]
assert st["status"] == "ok" and st["total"]["read"]["ios"] > 0 and st["total"]["write"]["ios"] > 0
v = st["agent_totals"]["g1"]["volumes"][0]
sm = v["nvme"]["smart"]
assert sm["data_units_written"] > 0 and sm["temp_k_end"] > 0, sm
t = [c for c in st["volumes"][0]["nvme_temp"]["celsius"] if c is not None]
assert t, st["volumes"][0]["nvme_temp"]
print("seed run: %.0f IOPS, SMART +%d data units written, %d temperature samples (%s C)" %
      (st["total"]["iops"], sm["data_units_written"], len(t), t[0]))
PY

# 2. the shipped profile on this guest: format 512, run, format 4096, run
python3 - "$BC_SRC/profiles/seed002-512e-4kn.json" "$VT/f.json" "${VM_EP[g1]}" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["agents"] = [{"name": "g1", "endpoint": sys.argv[3]}]
p["volumes"][0].update(agent="g1", path="/dev/nvme0n1p1")
p["defaults"]["runtime"] = 4
json.dump(p, open(sys.argv[2], "w"), indent=1)
PY
"$COORD" run --plain -o "$VT/out-fmt" "$VT/f.json" >"$VT/fmt.out" 2>&1 ||
	{ cat "$VT/fmt.out"; fail "the format profile's run failed"; }
R1=$(run_dir "$VT/out-fmt")
python3 - "$R1" <<'PY' || fail "the formats or the kept partition are not what run.json says"
import json, sys
d = sys.argv[1]
r = json.load(open(d + "/run.json"))
assert [s["name"] for s in r["steps"]] == ["512e", "4kn"] and all(s["status"] == "ok" for s in r["steps"])
ready = [json.loads(l) for l in open(d + "/events.jsonl") if '"event":"ready"' in l]
assert len(ready) == 2, len(ready)
for ev, lba in zip(ready, (512, 4096)):
    a = ev["agents"]["g1"]
    f = a["formats"][0]
    assert f["namespace"] == "/dev/nvme0n1" and f["to_lba_bytes"] == lba, f
    assert f["partition_table"] == "gpt" and f["partitions"] == 1, f
    n = a["volumes"][0]["nvme"]
    assert n["lba_bytes"] == lba and n["format_index"] == f["to_index"], n
    # the partition is back where it was, in bytes, whatever the block size
    assert n["partition"]["start"] == 1 << 20 and n["partition"]["size"] == 62 << 20, n
    print("step %s: formatted #%d -> #%d (%d B), %s table kept, %.2f s" %
          (ev["step"], f["from_index"], f["to_index"], lba, f["partition_table"], f["seconds"]))
PY
out=$(vm_exec g1 'cat /sys/block/nvme0n1/queue/logical_block_size /sys/class/block/nvme0n1p1/start /sys/class/block/nvme0n1p1/size')
[ "$(echo $out)" = "4096 2048 126976" ] || fail "after the 4kn step: $out (sysfs counts 512-byte sectors)"

# 3. the two steps side by side
rc=0
"$COORD" compare --threshold 25 "$R1@512e" "$R1@4kn" >"$VT/cmp.out" 2>&1 || rc=$?
cat "$VT/cmp.out"
[ "$rc" -le 1 ] || fail "bench-coord compare exit $rc"
want() {
	grep -qF -- "$1" "$VT/cmp.out" || fail "compare does not say: $1"
}
want "g1 /dev/nvme0n1p1: LBA data size: A 512, B 4096"
want "LBA format kind: A 512n, B 4Kn"
want "step 512e / 4kn"
want "drive temperature, C (min/max/mean over the step):"

# a format with the partition mounted is refused, naming it; nothing is erased
vm_exec g1 'mke2fs -q -b 4096 /dev/nvme0n1p1 && mkdir -p /mnt/p && mount /dev/nvme0n1p1 /mnt/p && echo ok' |
	grep -q ok || fail "cannot mount an ext2 on nvme0n1p1"
if "$COORD" run --plain -o "$VT/out-busy" "$VT/f.json" >"$VT/busy.out" 2>&1; then
	fail "a format ran with the partition mounted"
fi
grep -q "nvme0n1p1 is mounted" "$VT/busy.out" || { cat "$VT/busy.out"; fail "the refusal does not name the mount"; }
out=$(vm_exec g1 'cat /sys/block/nvme0n1/queue/logical_block_size; ls /mnt/p')
case "$out" in 4096*lost+found*) ;; *) fail "the mounted filesystem did not survive: $out" ;; esac
echo "PASS"
