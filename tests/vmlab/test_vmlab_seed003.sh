#!/bin/bash
# test_vmlab_seed003: seed 003's PoV scaled into the VM lab. Three storage-node guests export
# an emulated NVMe namespace each over NVMe/TCP (kernel nvmet), run node_exporter with the
# textfile collector fed by deploy/node-facts/bench-node-facts.sh (NUMA, NIC NUMA node, NVMe
# model/firmware, the target's version), and node-3's drive is throttled by QEMU as a slow
# drive would be. Three client guests, each linked to every node, run bench-agent with one
# "nvme_tcp" volume per node (the seed's 3 clients x 6 volumes, scaled to x 3). The profile is
# the seed's plan scaled: a 4k random read/write step (numjobs 1, iodepth 1, 4, 16: the seed's
# x4 step twice) and a sequential read step in fio's clone layout (seq_regions shared) at 128k
# over iodepth 1, 2, 4 (1 MiB reads at iodepth 4 and up, 72 MiB in flight, stalled the TCG
# guests' NVMe/TCP controllers into reconnects on a loaded host). Checked: every point ran clean; each sweep's analysis holds the suspects table
# with every suspect the seed excluded either judged or "not measured" with what would measure
# it; NUMA (one NUMA node), kernel, the target's version and NVMe firmware are judged from the
# nodes' facts; every node the verdict names has its own counters at a limit (a disk queue over
# 10, a CPU at 90%), and node-3 is named whenever its queue is. 2-4 minutes (six TCG guests);
# on a host loaded past its cores a client can be lost on the way (exit 3, said, the rest
# judged) and a node guest's own CPU can be the ceiling the verdict names.
. "$(dirname "$0")/lib.sh"
vmlab_init
[ -n "$VMLAB_INITRD_NODEEXP" ] ||
	vm_skip "prometheus-node-exporter is not installed on the host (deploy/install-deps.sh --test)"
THROTTLE_IOPS=${VMLAB_POV_THROTTLE_IOPS:-40}
NODES=(node-1 node-2 node-3)
CLIENTS=(client-1 client-2 client-3)
declare -A NQN ADDR NODE_ADDRS
for c in "${CLIENTS[@]}"; do
	vm_new "$c" 448
	vm_setup "$c" "modprobe nvme-tcp"
done
for n in "${NODES[@]}"; do
	vm_new "$n" 320
	vm_conf "$n" VM_AGENT=0
	vm_conf "$n" VM_NODE_EXPORTER=1
	vm_conf "$n" 'VM_NODE_EXPORTER_ARGS="--collector.textfile --collector.textfile.directory=/var/lib/node-facts"'
	install -D -m 0755 "$BC_SRC/deploy/node-facts/bench-node-facts.sh" \
		"$VT/$n/overlay/usr/bin/bench-node-facts.sh"
	vm_setup "$n" 'mkdir -p /var/lib/node-facts &&
		bench-node-facts.sh --version "nvmet=$(uname -r)" --output /var/lib/node-facts/facts.prom'
	# every drive bounded, so the one-vCPU clients keep up with their own I/O (an agent starved
	# for 3 s is lost); node-3's far below the others'
	if [ "$n" = node-3 ]; then
		vm_ns "$n" 4096 64M "throttling.iops-total=$THROTTLE_IOPS,throttling.bps-total=1048576"
	else
		vm_ns "$n" 4096 64M "throttling.iops-total=1000,throttling.bps-total=8388608"
	fi
	NQN[$n]="nqn.2026-12.io.bench-coord:vmlab-seed003-$n"
	j=0
	for c in "${CLIENTS[@]}"; do
		j=$((j + 1))
		vm_link "$n" "$c"
		ADDR[$n/$c]=$LINK_NODE_IP
		NODE_ADDRS[$n]="${NODE_ADDRS[$n]:-}${NODE_ADDRS[$n]:+, }\"$LINK_NODE_IP\""
		vm_setup "$n" "$(nvmet_export_sh "${NQN[$n]}" /dev/nvme0n1 "$LINK_NODE_IP" "$j")"
	done
done
# the clients attach the namespaces at boot and the agent reuses the controllers: six PREPAREs
# that each connected and deleted nine NVMe/TCP controllers starved the guests on a loaded host
for c in "${CLIENTS[@]}"; do
	for n in "${NODES[@]}"; do
		vm_setup "$c" "$(nvme_connect_sh "${NQN[$n]}" "${ADDR[$n/$c]}")"
	done
done
vmlab_have_nvme_tcp_volume || fail "the \"nvme_tcp\" volume form is refused: $(head -n1 "$VT/probe-nvme-tcp.out")"
for n in "${NODES[@]}"; do
	vm_boot "$n"
done
sleep 1
for c in "${CLIENTS[@]}"; do
	vm_boot "$c"
done
for n in "${NODES[@]}" "${CLIENTS[@]}"; do
	vm_wait "$n" "${VMLAB_POV_BOOT_TIMEOUT:-360}"
done

nodes_json="" vols_json="" agents_json=""
for n in "${NODES[@]}"; do
	nodes_json="$nodes_json${nodes_json:+,
  }{\"name\": \"$n\", \"addresses\": [${NODE_ADDRS[$n]}], \"metrics\": [\"${VM_METRICS[$n]}\"],
    \"series\": [{\"name\": \"target\", \"role\": \"version\", \"metric\": \"bench_node_software_info\", \"labels\": {\"name\": \"nvmet\"}}]}"
done
for c in "${CLIENTS[@]}"; do
	agents_json="$agents_json${agents_json:+, }{\"name\": \"$c\", \"endpoint\": \"${VM_EP[$c]}\"}"
	for n in "${NODES[@]}"; do
		vols_json="$vols_json${vols_json:+,
  }{\"agent\": \"$c\", \"nvme_tcp\": {\"traddr\": \"${ADDR[$n/$c]}\", \"subnqn\": \"${NQN[$n]}\", \"nr_io_queues\": 1}}"
	done
done
cat >"$VT/seed003.json" <<JSON
{"name": "vmlab-seed003",
 "description": "seed 003 scaled: 3 NVMe/TCP nodes (node-3's drive throttled to $THROTTLE_IOPS IOPS), 3 clients x 3 volumes",
 "agents": [$agents_json],
 "nodes": [$nodes_json],
 "volumes": [$vols_json],
 "on_agent_loss": "continue",
 "defaults": {"direct": true, "numjobs": 1, "ramp": "1s", "runtime": "5s"},
 "steps": [{"name": "4k-randrw", "rw": "randrw", "rwmixread": 70, "bs": "4k",
            "sweep": {"iodepth": [1, 4, 16]}},
           {"name": "128k-seqread", "rw": "read", "bs": "128k", "numjobs": 1,
            "seq_regions": "shared", "sweep": {"iodepth": [1, 2, 4]}}]}
JSON
"$COORD" validate "$VT/seed003.json" || fail "the scaled profile does not validate"
# exit 3: the run completed without an agent lost on the way (a one-vCPU TCG client starved
# for 3 s by a host loaded past its cores; on_agent_loss continue): the rest is judged
rc=0
"$COORD" run --plain --connect-timeout 60 -o "$VT/out" "$VT/seed003.json" >"$VT/run.out" 2>&1 || rc=$?
cat "$VT/run.out"
[ "$rc" = 0 ] || [ "$rc" = 3 ] || fail "bench-coord run failed (exit $rc)"
R=$(run_dir "$VT/out")
[ -n "${VMLAB_SEED003_KEEP:-}" ] && cp -r "$R" "$VMLAB_SEED003_KEEP"
python3 - "$R/run.json" <<'PY' || fail "the scaled PoV's sweeps, suspects or verdict are wrong"
import json, re, sys
r = json.load(open(sys.argv[1]))
steps = r["steps"]
print("points:", [s["name"] for s in steps])
for s in steps:
    # "degraded": a point that went on without a lost agent (said below)
    assert s["status"] in ("ok", "degraded") and s["total"]["errors"] == 0, (s["name"], s["status"])
    assert s["total"]["iops"] > 0, s["name"]
    # a client guest starved for 3 s on a loaded host is lost (on_agent_loss: continue): said
    if s.get("lost_agents"):
        print(f"{s['name']}: lost {s['lost_agents']}")
for base in ("4k-randrw", "128k-seqread"):
    pts = [s for s in steps if s["name"].startswith(base + "@")]
    assert len(pts) == 3, [s["name"] for s in pts]
    last = pts[-1]
    a = last["analysis"]
    print(f"\n{base}: verdict: {a['verdict']}\n  bottleneck: {a['bottleneck']}")
    rows = {row["suspect"]: row for row in a["suspects"]}
    for row in a["suspects"]:
        print(f"  {row['state']:<12} {row['suspect']:<24} {row['figures'][:160]}")
        # nothing is left unjudged without saying what would judge it
        if row["state"] == "not measured":
            assert "to measure:" in row["figures"] or "not measured (" in row["figures"], row
    # the seed's excluded suspects, each judged here from the nodes' and clients' own figures
    for k in ("node CPU", "node core group", "node disk/GC", "client CPU", "load/queue depth",
              "NUMA locality", "software/kernel version"):
        assert rows[k]["state"] in ("excluded", "implicated"), rows[k]
    assert "nodes: highest: node node-1: one NUMA node" in rows["NUMA locality"]["figures"] or \
        "one NUMA node" in rows["NUMA locality"]["figures"], rows["NUMA locality"]
    v = rows["software/kernel version"]["figures"]
    assert "NVMe model/firmware QEMU NVMe Ctrl" in v and "storage software" in v, v
    # every node the verdict names, its own counters put at a limit: a disk queue over 10
    # (aqu-sz) or a CPU at 90%; the throttled node-3 is the one with the fewest IOPS
    for w in ("node-1", "node-2", "node-3"):
        if w not in a["verdict"]:
            continue
        m = re.search(w + r": disk queue ([0-9.]+)", rows["node disk/GC"]["figures"])
        c = re.search(w + r"[^;]*CPU ([0-9.]+)% busy", rows["node CPU"]["figures"])
        assert (m and float(m.group(1)) > 10) or (c and float(c.group(1)) >= 90), \
            (w, a["verdict"], rows["node disk/GC"], rows["node CPU"])
    iops = {n["name"]: n["iops"] for n in last["nodes"]}
    for n in last["nodes"]:
        f = n.get("counters", {}).get("facts", {})
        assert f.get("numa_nodes") == 1 and "nvmet" in f.get("software", {}), (n["name"], f)
    # node-3's drive is throttled to 40 IOPS, the others' to 1,000
    if base == "4k-randrw":
        assert iops["node-3"] <= 45, iops
    # node-3 named by its disk queue exactly when that queue was over 10 at the point judged
    m = re.search(r"node-3: disk queue ([0-9.]+)", rows["node disk/GC"]["figures"])
    if rows["node disk/GC"]["state"] == "implicated" and "node-3" in rows["node disk/GC"].get("hosts", ""):
        assert m and float(m.group(1)) > 10 and "node-3" in a["verdict"], (rows["node disk/GC"], a["verdict"])
PY
grep -q "## Suspects" "$R/summary.md" || fail "summary.md has no suspects"
echo "PASS"
