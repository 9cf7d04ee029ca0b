#!/bin/bash
# test_vmlab_nvme_tcp_discover: an "nvme_tcp" volume with "discover": true against the guest
# kernel's NVMe/TCP target. The agent connects to the discovery controller (nvmet answers the
# discovery NQN on its I/O port, 10.0.2.15:4420), reads the discovery log (Get Log Page 70h over
# the admin ioctl on /dev/nvmeN), deletes that controller, connects to the log's entry for the
# subsystem's NQN and runs a read step on its namespace; READY records the address as
# discovered, and afterwards the guest has no NVMe/TCP controller (neither the discovery one
# nor the I/O one). A subsystem NQN the log does not list fails PREPARE with a message naming it.
# Last, the agent itself gets SIGTERM mid-step: it disconnects what it connected on the way out.
. "$(dirname "$0")/lib.sh"
vmlab_init
vmlab_have_nvme_tcp_volume ||
	vm_skip "bench-coord does not accept the \"nvme_tcp\" volume form: $(head -n1 "$VT/probe-nvme-tcp.out")"

NQN=nqn.2026-11.io.bench-coord:vmlab-disc
vm_nvme_tcp_guest g1 "$NQN"
profile() { # NAME SUBNQN
	cat >"$VT/$1.json" <<JSON
{"name": "vmlab-$1",
 "agents": [{"name": "g1", "endpoint": "${VM_EP[g1]}"}],
 "nodes": [{"name": "target-g1", "addresses": ["10.0.2.15"]}],
 "volumes": [{"agent": "g1", "nvme_tcp": {"traddr": "10.0.2.15", "trsvcid": "4420",
              "subnqn": "$2", "discover": true, "nr_io_queues": 1}}],
 "defaults": {"direct": true, "ramp": "0s", "runtime": "2s"},
 "steps": [{"name": "randread-4k", "rw": "randread", "bs": "4k", "iodepth": 4}]}
JSON
}

[ -z "$(vm_tcp_ctrls g1)" ] || fail "an NVMe/TCP controller exists before the run"
profile disc "$NQN"
"$COORD" run --plain -o "$VT/out" "$VT/disc.json" >"$VT/run.out" 2>&1 ||
	{ cat "$VT/run.out"; fail "bench-coord run failed"; }
cat "$VT/run.out"
R=$(run_dir "$VT/out")
python3 - "$R" <<'EOF' || fail "run checks"
import json, sys
d = sys.argv[1]
r = json.load(open(d + "/run.json"))
s = r["steps"][0]
assert s["status"] == "ok" and s["total"]["errors"] == 0 and s["total"]["iops"] > 0, s["total"]
ready = [json.loads(l) for l in open(d + "/events.jsonl") if '"event":"ready"' in l.replace(" ", "")]
att = ready[0]["agents"]["g1"]["volumes"][0]["nvme_tcp"]
print("attached", att)
assert att["discovered"] and att["connected_by_agent"] and att["traddr"] == "10.0.2.15", att
v = s["volumes"][0]
print("volume", v["name"], "node", v.get("node"), v.get("node_source"))
assert v.get("node") == "target-g1", v
EOF
left=$(vm_tcp_ctrls g1)
[ -z "$left" ] || fail "controllers left attached: $left"
echo "discovered, attached, ran, detached"

profile nosuch "nqn.2026-11.io.bench-coord:not-exported"
rc=0
"$COORD" run --plain -o "$VT/out2" "$VT/nosuch.json" >"$VT/run2.out" 2>&1 || rc=$?
cat "$VT/run2.out"
[ "$rc" = 1 ] || fail "an unknown subsystem: exit $rc, expected 1"
grep -q "discovery at 10.0.2.15:4420: no TCP entry for subsystem nqn.2026-11.io.bench-coord:not-exported" \
	"$VT/run2.out" || fail "the error does not name the subsystem and the discovery address"
left=$(vm_tcp_ctrls g1)
[ -z "$left" ] || fail "a failed discovery left controllers attached: $left"

# SIGTERM to the agent mid-step (a long step, so the controller is attached when it comes)
sed 's/"runtime": "2s"/"runtime": "120s"/' "$VT/disc.json" >"$VT/term.json"
"$COORD" run --plain -o "$VT/out3" "$VT/term.json" >"$VT/run3.out" 2>&1 &
cpid=$!
attached=""
for _ in $(seq 60); do
	attached=$(vm_tcp_ctrls g1)
	[ -n "$attached" ] && break
	sleep 0.5
done
[ -n "$attached" ] || { kill "$cpid"; cat "$VT/run3.out"; fail "the agent never attached"; }
sleep 2
vm_exec g1 'kill -TERM $(pidof bench-agent)' || fail "cannot signal the agent"
for _ in $(seq 30); do
	[ -z "$(vm_tcp_ctrls g1)" ] && break
	sleep 0.5
done
left=$(vm_tcp_ctrls g1)
kill "$cpid" 2>/dev/null || true
wait "$cpid" 2>/dev/null || true
[ -z "$left" ] || fail "15 s after SIGTERM the agent's controller is still attached: $left"
echo "agent SIGTERM: detached on the way out"
echo "PASS"
