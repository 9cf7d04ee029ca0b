#!/bin/bash
# test_vmlab_nvme_tcp_stall: the agent detaches an "nvme_tcp" volume in bounded time when its
# target stops answering mid-step. The guest's kernel target drops the subsystem from its port
# during a long step: the host side loses the connection, requeues the step's I/O and retries
# the connect every 10 s, so the I/O would wait in the kernel for ctrl_loss_tmo (600 s). Then
# the coordinator is killed: the agent notices the silence (5 s), gives the I/O 2 s to drain,
# deletes the controller it connected (which fails the I/O) and ends the session. The same
# with SIGTERM to the agent instead. Both within 30 s, where waiting for the I/O took minutes.
. "$(dirname "$0")/lib.sh"
vmlab_init
vmlab_have_nvme_tcp_volume ||
	vm_skip "bench-coord does not accept the \"nvme_tcp\" volume form: $(head -n1 "$VT/probe-nvme-tcp.out")"

NQN=nqn.2026-11.io.bench-coord:vmlab-stall
PORT=/sys/kernel/config/nvmet/ports/1/subsystems/$NQN
vm_nvme_tcp_guest g1 "$NQN"
cat >"$VT/long.json" <<JSON
{"name": "vmlab-stall",
 "agents": [{"name": "g1", "endpoint": "${VM_EP[g1]}"}],
 "volumes": [{"agent": "g1", "nvme_tcp": {"traddr": "10.0.2.15", "trsvcid": "4420",
              "subnqn": "$NQN", "nr_io_queues": 1}}],
 "defaults": {"direct": true, "ramp": "0s", "runtime": "120s"},
 "steps": [{"name": "randrw-4k", "rw": "randrw", "bs": "4k", "iodepth": 8}]}
JSON

# start the long step and wait until the agent attached; sets CPID
start_step() { # TAG
	local attached=""
	"$COORD" run --plain -o "$VT/out-$1" "$VT/long.json" >"$VT/run-$1.out" 2>&1 &
	CPID=$!
	for _ in $(seq 60); do
		attached=$(vm_tcp_ctrls g1)
		[ -n "$attached" ] && break
		sleep 0.5
	done
	[ -n "$attached" ] || { cat "$VT/run-$1.out"; fail "$1: the agent never attached"; }
	sleep 2
}
# the target stops answering: its subsystem leaves the port (the host reconnects in vain)
stall_target() {
	vm_exec g1 "rm $PORT" || fail "cannot take the subsystem off the port"
	sleep 2
}
# seconds until the guest has no NVMe/TCP controller, at most $1
wait_detached() {
	local t0=$SECONDS
	while [ -n "$(vm_tcp_ctrls g1)" ]; do
		((SECONDS - t0 < $1)) || return 1
		sleep 0.5
	done
	echo $((SECONDS - t0))
}

start_step kill
stall_target
kill -9 "$CPID"
wait "$CPID" 2>/dev/null || true
s=$(wait_detached 30) || fail "30 s after the coordinator died the controller of the stalled target is still attached: $(vm_tcp_ctrls g1)"
vm_console g1 | grep -q "did not drain within" ||
	fail "the agent did not say why it disconnected under the I/O"
echo "coordinator killed, target stalled: detached after $s s"

vm_exec g1 "ln -s /sys/kernel/config/nvmet/subsystems/$NQN $PORT" || fail "cannot put the subsystem back"
start_step term
stall_target
vm_exec g1 'kill -TERM $(pidof bench-agent)' || fail "cannot signal the agent"
s=$(wait_detached 30) || fail "30 s after SIGTERM the controller of the stalled target is still attached: $(vm_tcp_ctrls g1)"
kill "$CPID" 2>/dev/null || true
wait "$CPID" 2>/dev/null || true
echo "agent SIGTERM, target stalled: detached after $s s"
echo "PASS"
