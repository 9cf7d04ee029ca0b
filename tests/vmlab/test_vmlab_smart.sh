#!/bin/bash
# test_vmlab_smart: the agent reads the SMART / Health log (Get Log Page 02h over the admin
# ioctl, agent/nvme/counters.c) after PREPARE and at the step's end, through the real kernel
# NVMe driver; the data-units-written delta it reports (STEP_DONE -> run.json
# agent_totals[].volumes[].nvme.smart) matches the bytes the agent wrote, for block-device
# writes and for passthrough (/dev/ngXnY) writes, which the block layer's diskstats never see.
#
# Tolerance, from QEMU 7.2 hw/nvme/ctrl.c: nvme_smart_info() with nsid FFFFFFFFh (what the agent
# asks for) sums every namespace's block-accounting bytes >> 9, then reports
# DIV_ROUND_UP(sum, 1000) - data units of 1000 x 512 bytes rounded up, as the spec says. Two
# rounded-up samples of values W/512 apart differ by W/512000 +- 1 (strictly less than 1), so
# |units x 512000 - W| < 512000, where W is every byte written to the controller's namespaces
# between the samples (both volumes here; nothing else writes to them). Host write commands
# are counted exactly (nr_ops of BLOCK_ACCT_WRITE): through the block device the kernel
# merges adjacent O_DIRECT writes (a sequential 4 KiB fill becomes 32 KiB commands, a random
# one merges a few neighbours), so that delta equals the block layer's completed writes
# (/proc/diskstats, which the agent reports per volume); passthrough commands reach the
# device one for one, so there it equals the agent's write I/Os.
. "$(dirname "$0")/lib.sh"
vmlab_init

vm_new g1
vm_ns g1 512 64M
vm_ns g1 4096 64M
vm_boot g1
vm_wait g1

# check RUN_DIR: every step's SMART delta against the bytes and I/Os written in it
check() {
	python3 - "$1/run.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
for s in r["steps"]:
    assert s["status"] == "ok", (s["name"], s["status"])
    vols = s["agent_totals"]["g1"]["volumes"]
    # the measured window and the ramp: every byte between PREPARE and the step's end
    w_bytes = sum(v["all_intervals"]["write_bytes"] for v in s["volumes"])
    w_ios = sum(v["write"]["ios"] for v in vols)
    passthrough = all(x["name"].split(":", 1)[1].startswith("/dev/ng") for x in s["volumes"])
    # what reached the controller as commands: see the header
    w_cmds = w_ios if passthrough else sum(v["diskstats"]["write_ios"] for v in vols)
    assert w_bytes > 0, f"{s['name']}: nothing written"
    for name, v in zip([x["name"] for x in s["volumes"]], vols):
        sm = v.get("nvme", {}).get("smart")
        assert sm, f"{s['name']} {name}: no SMART delta: {v.get('nvme')}"
        duw = sm["data_units_written"]
        print(f"{s['name']} {name}: wrote {w_bytes} bytes in {w_ios} I/Os, {w_cmds} commands "
              f"(controller total); SMART data units written +{duw:.0f} "
              f"(= {duw * 512000:.0f} bytes), host write commands "
              f"+{sm['host_write_commands']:.0f}")
        assert abs(duw * 512000 - w_bytes) < 512000, \
            f"{name}: {duw} data units vs {w_bytes} bytes: more than one unit apart"
        assert sm["host_write_commands"] == w_cmds, \
            f"{name}: {sm['host_write_commands']} write commands vs {w_cmds} expected"
        assert sm["media_errors"] == 0 and sm["temp_k_end"] > 0, sm
EOF
}

# run NAME PATHS: a random 4 KiB write step (ramp included in the window) and a one-pass
# sequential fill of 12 MiB per volume
run() {
	cat >"$VT/$1.json" <<JSON
{"name": "vmlab-smart-$1",
 "agents": [{"name": "g1", "endpoint": "${VM_EP[g1]}"}],
 "volumes": [{"agent": "g1", "path": "$2", "length": "16m"},
             {"agent": "g1", "path": "$3", "length": "16m"}],
 "defaults": {"direct": true},
 "steps": [{"name": "randwrite-4k", "rw": "randwrite", "bs": "4k", "iodepth": 8,
            "ramp": "1s", "runtime": "3s"},
           {"name": "fill", "rw": "write", "bs": "4k", "iodepth": 8, "io_size": "12m",
            "size_based": true, "ramp": "0s", "runtime": "60s"}]}
JSON
	"$COORD" run --plain -o "$VT/out-$1" "$VT/$1.json" >"$VT/$1.out" 2>&1 ||
		{ cat "$VT/$1.out"; fail "bench-coord run $1 failed"; }
	check "$(run_dir "$VT/out-$1")" || fail "$1: SMART data units written do not match the writes"
}

run blk /dev/nvme0n1 /dev/nvme0n2
run ng /dev/ng0n1 /dev/ng0n2
echo "PASS"
