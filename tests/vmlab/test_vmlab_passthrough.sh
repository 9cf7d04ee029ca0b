#!/bin/bash
# test_vmlab_passthrough: io_uring NVMe passthrough (IORING_OP_URING_CMD on /dev/ngXnY,
# agent/target/nvme.c) through the real kernel NVMe driver, on a 512-byte-LBA (ng0n1) and a
# 4096-byte-LBA (ng0n2) namespace: a random 4k read/write step completes without errors; a
# sequential verified fill through the char devices then reads back clean through them; and
# the same blocks read through the block devices (/dev/nvme0nY, the kernel's own LBA
# translation) carry the right offsets and checksums - so the SLBA/NLB the agent put in each
# command matched the byte offsets for both LBA sizes. The identity is Identify's.
. "$(dirname "$0")/lib.sh"
vmlab_init

vm_new g1
vm_ns g1 512 64M
vm_ns g1 4096 64M
vm_boot g1
vm_wait g1

LEN=8m
LEN_BYTES=$((8 << 20))
# run NAME VOLUME_PATHS STEPS_JSON: one bench-coord run; sets R (its run directory)
run() {
	local name=$1 paths=$2 steps=$3 vols="" p
	for p in $paths; do
		vols="$vols${vols:+, }{\"agent\": \"g1\", \"path\": \"$p\", \"length\": \"$LEN\"}"
	done
	cat >"$VT/$name.json" <<JSON
{"name": "vmlab-$name",
 "agents": [{"name": "g1", "endpoint": "${VM_EP[g1]}"}],
 "volumes": [$vols],
 "defaults": {"direct": true, "ramp": "0s"},
 "steps": $steps}
JSON
	"$COORD" run --plain -o "$VT/out-$name" "$VT/$name.json" >"$VT/$name.out" 2>&1 ||
		{ cat "$VT/$name.out"; fail "bench-coord run $name failed"; }
	cat "$VT/$name.out"
	R=$(run_dir "$VT/out-$name")
}

run ng "/dev/ng0n1 /dev/ng0n2" '[
  {"name": "randrw-4k", "rw": "randrw", "bs": "4k", "iodepth": 8, "ramp": "1s", "runtime": "3s"},
  {"name": "fill", "rw": "write", "bs": "64k", "iodepth": 4, "verify": true,
   "size_based": true, "runtime": "60s"},
  {"name": "check", "rw": "read", "bs": "64k", "iodepth": 4, "verify": true,
   "size_based": true, "runtime": "60s"}]'
python3 - "$R/run.json" "$LEN_BYTES" <<'EOF' || fail "passthrough run checks"
import json, sys
r, length = json.load(open(sys.argv[1])), int(sys.argv[2])
s = r["steps"]
assert [x["status"] for x in s] == ["ok"] * 3, [x["status"] for x in s]
for x in s:
    assert x["total"]["errors"] == 0, f"{x['name']}: {x['total']['errors']} errors"
for v in s[0]["volumes"]:
    print("randrw", v["name"], "iops", v["iops"], "read", v["read"]["ios"], "write", v["write"]["ios"])
    assert v["read"]["ios"] > 0 and v["write"]["ios"] > 0, v["name"]
for v in s[1]["volumes"]:
    print("fill", v["name"], "bytes", v["all_intervals"]["bytes"])
    assert v["all_intervals"]["bytes"] == length, f"{v['name']}: fill wrote {v['all_intervals']['bytes']}"
for name, v in zip([x["name"] for x in s[2]["volumes"]], s[2]["agent_totals"]["g1"]["volumes"]):
    print("check", name, "verify_errors", v.get("verify_errors"), "read errors", v["read"]["errors"])
    assert v.get("verify_errors") == 0 and v["read"]["errors"] == 0, v
# the identity of a char device comes from Identify too
ids = {p["path"]: p["nvme"] for p in r["agents"][0]["hello"]["paths"] if "nvme" in p}
for p, lba in (("/dev/ng0n1", 512), ("/dev/ng0n2", 4096)):
    n = ids.get(p)
    assert n, f"no identity for {p}: {list(ids)}"
    print(p, "identity", n["lba_bytes"], n["lba_kind"], n["source"], "block", n["block"])
    assert n["lba_bytes"] == lba and n["source"] == "identify", n
EOF

# the fill's blocks seen through the block devices: block k of 4 KiB starts with its
# byte offset (u64) and the magic "bcv1" at byte 24 (agent/engine/verify.h)
for dev in nvme0n1 nvme0n2; do
	out=$(vm_exec g1 "for k in 0 1 7 100 2047; do
		dd if=/dev/$dev bs=4096 skip=\$k count=1 iflag=direct 2>/dev/null |
			od -A n -t u8 -N 8 | tr -d ' '
		dd if=/dev/$dev bs=4096 skip=\$k count=1 iflag=direct 2>/dev/null |
			dd bs=1 skip=24 count=4 2>/dev/null; echo
	done") || fail "reading $dev in the guest"
	want=$(for k in 0 1 7 100 2047; do
		echo $((k * 4096))
		echo bcv1
	done)
	[ "$out" = "$want" ] || fail "/dev/$dev: blocks are not where the passthrough writes put them:
$out"
	echo "/dev/$dev: blocks 0 1 7 100 2047 carry their own offsets"
done

run blk "/dev/nvme0n1 /dev/nvme0n2" '[
  {"name": "check-blk", "rw": "randread", "bs": "4k", "iodepth": 8, "verify": true,
   "size_based": true, "runtime": "60s"}]'
python3 - "$R/run.json" <<'EOF' || fail "block-device read-back checks"
import json, sys
r = json.load(open(sys.argv[1]))
s = r["steps"][0]
assert s["status"] == "ok" and s["total"]["errors"] == 0, (s["status"], s["total"]["errors"])
for name, v in zip([x["name"] for x in s["volumes"]], s["agent_totals"]["g1"]["volumes"]):
    print("block read-back", name, "verify_errors", v.get("verify_errors"), "ios", v["read"]["ios"])
    assert v.get("verify_errors") == 0 and v["read"]["ios"] > 0, v
EOF
echo "PASS"
