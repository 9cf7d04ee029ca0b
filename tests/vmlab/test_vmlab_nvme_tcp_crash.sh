#!/bin/bash
# test_vmlab_nvme_tcp_crash: the agent's ledger against the guest kernel's NVMe/TCP target. The
# agent attaches an "nvme_tcp" volume for a long step and is SIGKILLed in the guest mid-step:
# its controller stays connected (nothing ran its teardown), the ledger in its scratch
# directory names it; the agent is started again and disconnects it at start-up, saying so in
# one line. Then the same kill, but before the restart the controller is deleted and a new one
# connected by hand to the same subsystem (the kernel gives it the same name): the restarted
# agent must leave that one alone.
. "$(dirname "$0")/lib.sh"
vmlab_init
vmlab_have_nvme_tcp_volume ||
	vm_skip "bench-coord does not accept the \"nvme_tcp\" volume form: $(head -n1 "$VT/probe-nvme-tcp.out")"

NQN=nqn.2026-11.io.bench-coord:vmlab-crash
LEDGER=/var/tmp/bench-agent/nvme-tcp-connected
vm_nvme_tcp_guest g1 "$NQN"
# the agent as the guest's /init starts it (guest-init.sh), in the background
start_agent() {
	vm_exec g1 'set -f; bench-agent --listen "tcp://*:7470" --scratch-dir /var/tmp/bench-agent \
		--cert /etc/bench-agent/agent.cert --authorized-keys /etc/bench-agent/authorized_keys \
		--allow /dev/nvme* --allow /dev/ng* </dev/null >/dev/console 2>&1 &
	echo "restarted bench-agent pid $!"'
}
cat >"$VT/long.json" <<JSON
{"name": "vmlab-crash",
 "agents": [{"name": "g1", "endpoint": "${VM_EP[g1]}"}],
 "volumes": [{"agent": "g1", "nvme_tcp": {"traddr": "10.0.2.15", "trsvcid": "4420",
              "subnqn": "$NQN", "nr_io_queues": 1}}],
 "defaults": {"direct": true, "ramp": "0s", "runtime": "120s"},
 "steps": [{"name": "randread-4k", "rw": "randread", "bs": "4k", "iodepth": 4}]}
JSON
# start the long step, wait until attached, SIGKILL the agent, stop the coordinator; prints the
# controller's name
run_and_kill() { # TAG
	local cpid attached=""
	"$COORD" run --plain -o "$VT/out-$1" "$VT/long.json" >"$VT/run-$1.out" 2>&1 &
	cpid=$!
	for _ in $(seq 60); do
		attached=$(vm_tcp_ctrls g1)
		[ -n "$attached" ] && break
		sleep 0.5
	done
	[ -n "$attached" ] || { kill -9 "$cpid"; cat "$VT/run-$1.out" >&2; fail "$1: the agent never attached"; }
	sleep 1
	vm_exec g1 "kill -9 \$(pidof bench-agent)" || fail "$1: cannot SIGKILL the agent"
	kill -9 "$cpid" 2>/dev/null || true
	wait "$cpid" 2>/dev/null || true
	echo "${attached%% *}"
}

[ -z "$(vm_tcp_ctrls g1)" ] || fail "an NVMe/TCP controller exists before the run"
t0=$SECONDS
ctrl=$(run_and_kill kill1)
echo "attached $ctrl, agent SIGKILLed"
sleep 1
vm_tcp_ctrls g1 | grep -q "^$ctrl .*$NQN" || fail "the controller went away without the agent?"
vm_exec g1 "cat $LEDGER" | tee "$VT/ledger" | grep -q "^$ctrl $NQN 10.0.2.15 4420 " ||
	fail "the ledger does not name $ctrl: $(cat "$VT/ledger")"
start_agent
for _ in $(seq 30); do
	[ -z "$(vm_tcp_ctrls g1)" ] && break
	sleep 0.5
done
left=$(vm_tcp_ctrls g1)
[ -z "$left" ] || fail "the restarted agent left the killed agent's controller connected: $left"
grep -q "disconnected $ctrl (10.0.2.15:4420, $NQN): left connected by a bench-agent that did not exit cleanly" \
	"$VT/g1/console.log" || fail "the restarted agent did not log the clean-up"
vm_exec g1 "[ ! -e $LEDGER ]" || fail "the ledger still exists with nothing connected"
echo "killed agent's controller disconnected by the next start ($((SECONDS - t0)) s)"

# the name reused by someone else before the restart: left alone
ctrl=$(run_and_kill kill2)
echo "attached $ctrl, agent SIGKILLed again"
vm_exec g1 "echo 1 >/sys/class/nvme/$ctrl/delete_controller; sleep 0.5; $(nvme_connect_sh "$NQN" 10.0.2.15)" ||
	fail "cannot replace $ctrl by hand"
mine=$(vm_tcp_ctrls g1)
echo "connected by hand: $mine"
[ -n "$mine" ] || fail "the connect by hand made no controller"
vm_exec g1 "grep -v '^#' $LEDGER | sed 's/^/ledger: /'; c=/sys/class/nvme/${mine%% *}
	echo \"now: ${mine%% *} cntlid \$(cat \$c/cntlid) sysfs inode \$(ls -idL \$c | awk '{print \$1}')\"" || true
# the restarted agent cleans up before it listens: wait for one more "listening on" line
n=$(grep -c "listening on" "$VT/g1/console.log" || true)
start_agent
for _ in $(seq 40); do
	[ "$(grep -c "listening on" "$VT/g1/console.log" || true)" -gt "$n" ] && break
	sleep 0.5
done
[ "$(vm_tcp_ctrls g1)" = "$mine" ] || fail "the restarted agent touched a controller it did not connect: now '$(vm_tcp_ctrls g1)'"
if [ "${mine%% *}" = "$ctrl" ]; then
	grep -q "left $ctrl alone: it is no longer the controller" "$VT/g1/console.log" ||
		fail "no word of leaving the reused $ctrl alone"
	echo "same name $ctrl reused by hand: left alone"
else
	echo "the kernel named the new controller ${mine%% *}, not $ctrl: left alone"
fi
vm_exec g1 "echo 1 >/sys/class/nvme/${mine%% *}/delete_controller"
echo "PASS ($((SECONDS - t0)) s after boot)"
