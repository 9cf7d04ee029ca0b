#!/bin/bash
# test_nvme_tcp_discover_cmd: `bench-coord discover` on a host without the nvme-fabrics module:
# the agent answers DISCOVER with an error naming the discovery address and /dev/nvme-fabrics,
# bench-coord exits 1 and leaves no local agent running; a daemon agent says the same, stays
# up and serves the next coordinator; bad usage exits 2 before any agent is asked. Then the
# agent's ledger of connected controllers at start-up: a leftover line for a controller that
# no longer exists is dropped quietly, and a second agent on the same scratch directory is
# told another agent holds it. Fabric addresses are loopback only; on a host where
# /dev/nvme-fabrics exists the connect to them fails instead (nothing listens).
. "$(dirname "$0")/lib.sh"

# 1. a profile's local agent: the error, exit 1, nothing left running
cat >"$T/p.json" <<'JSON'
{"name": "disc", "agents": [{"name": "c1", "endpoint": "local"}, {"name": "c2", "endpoint": "local"}],
 "volumes": [{"agent": "c1", "path": "v.dat", "size": "1m"}],
 "steps": [{"name": "s0", "rw": "read", "runtime": "1s"}]}
JSON
rc=0
"$COORD" discover "$T/p.json" --agent c1 --traddr 127.0.0.1 --scratch-dir "$T/scr" \
	>"$T/out1" 2>"$T/err1" || rc=$?
cat "$T/err1"
[ "$rc" = 1 ] || fail "local agent: exit $rc, expected 1"
[ ! -s "$T/out1" ] || fail "a failed discover printed on stdout: $(cat "$T/out1")"
grep -Eq "agent c1 \(tcp://127\.0\.0\.1:[0-9]+\): discovery at 127\.0\.0\.1:8009: " "$T/err1" ||
	fail "the error does not name the agent and the discovery address"
grep -Eq "/dev/nvme-fabrics|connect to 127\.0\.0\.1:8009" "$T/err1" || fail "the error gives no reason"
assert_no_agents "$T/scr"

# 2. a daemon agent by endpoint, JSON wanted, an IPv6 address and a port: the same, and it lives on
start_agent c1
rc=0
"$COORD" discover --endpoint "$EP_c1" --traddr ::1 --trsvcid 4420 --json >"$T/out2" 2>"$T/err2" ||
	rc=$?
cat "$T/err2"
[ "$rc" = 1 ] || fail "daemon agent: exit $rc, expected 1"
grep -q "discovery at \[::1\]:4420: " "$T/err2" || fail "daemon agent: the address is not named"
grep -q "warning: discovery at \[::1\]:4420: " "$T/agent-c1.log" ||
	fail "the agent's log does not record the failed discovery"
kill -0 "${AGENT_PIDS[0]}" || fail "the agent died"
"$COORD" discover --endpoint "$EP_c1" --traddr 127.0.0.1 >/dev/null 2>"$T/err3" && fail "second ask succeeded?"
grep -q "discovery at 127.0.0.1:8009" "$T/err3" || fail "the agent does not answer a second DISCOVER"
[ ! -e "$T/scratch-c1/nvme-tcp-connected" ] || fail "a ledger file without a connected controller"

# 3. usage: exit 2 and no agent is started
for args in "--endpoint local" "--endpoint local --traddr 1.2.3.4,nqn=x" \
	"$T/p.json --traddr 127.0.0.1" "$T/p.json --agent nope --traddr 127.0.0.1" \
	"--endpoint local --traddr 127.0.0.1 --timeout 0"; do
	rc=0
	# shellcheck disable=SC2086 # the arguments are split on purpose
	"$COORD" discover $args --scratch-dir "$T/scr4" >/dev/null 2>"$T/err4" || rc=$?
	[ "$rc" = 2 ] || fail "discover $args: exit $rc, expected 2 ($(cat "$T/err4"))"
done
[ ! -e "$T/scr4" ] || fail "bad usage started a local agent"

# 4. the ledger at agent start-up (no controller is touched: nvme99 does not exist here)
[ ! -e /sys/class/nvme/nvme99 ] || { echo "skip: this host has an nvme99"; exit 77; }
mkdir -p "$T/scratch-c2"
printf 'nvme99 nqn.2026-11.io.bench-coord.test:gone 127.0.0.1 4420 1 0 %s\n' \
	"$(cat /proc/sys/kernel/random/boot_id)" >"$T/scratch-c2/nvme-tcp-connected"
start_agent c2 -v
for _ in $(seq 20); do
	[ -e "$T/scratch-c2/nvme-tcp-connected" ] || break
	sleep 0.1
done
[ ! -e "$T/scratch-c2/nvme-tcp-connected" ] || fail "the leftover ledger line was not dropped"
grep -q "ledger: nvme99 is gone already" "$T/agent-c2.log" || fail "no word of the leftover"
if grep -q "disconnected nvme99" "$T/agent-c2.log"; then fail "a missing controller was disconnected"; fi
# a second agent on c2's scratch directory: warned, runs on without a ledger
"$AGENT" --listen 'tcp://127.0.0.1:*' --scratch-dir "$T/scratch-c2" --insecure \
	>"$T/agent-c3.log" 2>&1 &
c3=$!
AGENT_PIDS+=("$c3")
for _ in $(seq 30); do
	grep -q "listening" "$T/agent-c3.log" && break
	sleep 0.1
done
grep -q "another bench-agent uses this directory" "$T/agent-c3.log" ||
	fail "a second agent on the same scratch directory was not told: $(cat "$T/agent-c3.log")"
echo "PASS"
