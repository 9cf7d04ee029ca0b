#!/bin/bash
# test_vmlab_nvme_trim_temp: through the real kernel NVMe driver and QEMU's emulated controller,
# passthrough trims (/dev/ngXnY, Dataset Management deallocate over IORING_OP_URING_CMD,
# agent/target/nvme.c) complete without errors on a 512-byte- and a 4096-byte-LBA namespace and
# deallocate exactly the window: a verified fill, a trim pass, and the window then reads as
# zeros through the block devices (the drives are discard=unmap, so QEMU punches the holes);
# the bytes after the window keep the fill. And the composite temperature arrives each second
# (run.json steps[].volumes[].nvme_temp) and summary.md's NVMe table shows it with the WAF
# status (QEMU has neither FDP statistics nor the OCP C0 log: unavailable, with the reason).
. "$(dirname "$0")/lib.sh"
vmlab_init

vm_new g1
vm_ns g1 512 64M discard=unmap
vm_ns g1 4096 64M discard=unmap
vm_boot g1
vm_wait g1

LEN=4m
cat >"$VT/trim.json" <<JSON
{"name": "vmlab-trim",
 "agents": [{"name": "g1", "endpoint": "${VM_EP[g1]}"}],
 "volumes": [{"agent": "g1", "path": "/dev/ng0n1", "length": "$LEN"},
             {"agent": "g1", "path": "/dev/ng0n2", "length": "$LEN"}],
 "defaults": {"direct": true, "ramp": "0s"},
 "steps": [
  {"name": "fill", "rw": "write", "bs": "64k", "iodepth": 4, "verify": true, "size_based": true,
   "runtime": "60s"},
  {"name": "trim", "rw": "trim", "bs": "64k", "iodepth": 4, "size_based": true, "runtime": "60s"},
  {"name": "read", "rw": "randread", "bs": "4k", "iodepth": 4, "runtime": "3s"}]}
JSON
# a second fill, 8m long, first: the bytes past the trimmed window must survive the trim
cat >"$VT/fill8.json" <<JSON
{"name": "vmlab-fill8",
 "agents": [{"name": "g1", "endpoint": "${VM_EP[g1]}"}],
 "volumes": [{"agent": "g1", "path": "/dev/ng0n1", "length": "8m"},
             {"agent": "g1", "path": "/dev/ng0n2", "length": "8m"}],
 "defaults": {"direct": true, "ramp": "0s"},
 "steps": [{"name": "fill8", "rw": "write", "bs": "64k", "iodepth": 4, "verify": true,
            "size_based": true, "runtime": "60s"}]}
JSON
for p in fill8 trim; do
	"$COORD" run --plain -o "$VT/out-$p" "$VT/$p.json" >"$VT/$p.out" 2>&1 ||
		{ cat "$VT/$p.out"; fail "bench-coord run $p failed"; }
	cat "$VT/$p.out"
done
R=$(run_dir "$VT/out-trim")
python3 - "$R/run.json" <<'EOF' || fail "run.json checks"
import json, sys
r = json.load(open(sys.argv[1]))
s = {x["name"]: x for x in r["steps"]}
for name, x in s.items():
    assert x["status"] == "ok" and x["total"]["errors"] == 0, (name, x["status"], x["total"]["errors"])
for v in s["trim"]["volumes"]:
    print("trim", v["name"], "ios", v["trim"]["ios"], "errors", v["trim"]["errors"])
    assert v["trim"]["ios"] > 0 and v["trim"]["errors"] == 0, v["trim"]
for v in s["read"]["volumes"]:
    t = v.get("nvme_temp")
    assert t, f"{v['name']}: no nvme_temp"
    vals = [c for c in t["celsius"] if c is not None]
    print("temperature", v["name"], vals, "min", t["min_c"], "max", t["max_c"])
    assert len(vals) >= 2 and 0 < t["min_c"] <= t["max_c"] < 150, t
    w = v["nvme_counters"]["waf"]
    print("waf", v["name"], w["status"])
    assert w["status"].startswith("unavailable"), w
EOF
# which of the agent's two temperature sources this guest kernel offers (informational)
echo "hwmon of nvme0: $(vm_exec g1 'ls -d /sys/class/nvme/nvme0/hwmon* /sys/class/nvme/nvme0/device/hwmon/hwmon* 2>/dev/null || echo "none: the SMART log is read"')"
grep -q "^NVMe devices" "$R/summary.md" || fail "summary.md has no NVMe table"
grep -E "^\| g1:/dev/ng0n2 \| - \| - \| unavailable: .* \| [0-9.]+ \| [0-9.]+ \|$" "$R/summary.md" >/dev/null ||
	{ grep "ng0n" "$R/summary.md"; fail "summary.md's NVMe row for ng0n2 is not as expected"; }

# the trimmed 4 MiB (every block carried a verify header before the trim) read as zeros through
# the block devices; the next 4 MiB keep the fill
zero=$(head -c $((4 << 20)) /dev/zero | md5sum | cut -d' ' -f1)
for dev in nvme0n1 nvme0n2; do
	got=$(vm_exec g1 "dd if=/dev/$dev bs=1M count=4 iflag=direct 2>&1 >/tmp/w.bin; md5sum /tmp/w.bin; rm -f /tmp/w.bin" 2>&1) ||
		fail "reading $dev: $got"
	case "$got" in
	*"$zero"*) ;;
	*) fail "/dev/$dev: the trimmed window does not read as zeros: $got" ;;
	esac
	magic=$(vm_exec g1 "dd if=/dev/$dev bs=4096 skip=1024 count=1 iflag=direct 2>/dev/null |
		dd bs=1 skip=24 count=4 2>/dev/null; echo" 2>&1) || fail "reading $dev: $magic"
	[ "$magic" = bcv1 ] || fail "/dev/$dev: the block after the window lost its fill ($magic)"
	echo "/dev/$dev: window deallocated (zeros), the block after it intact"
done
echo "PASS"
