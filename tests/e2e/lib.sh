# lib.sh - shared helpers for the end-to-end tests (sourced, not run).
# BC_BIN (build dir) and BC_SRC (source dir) come from ctest.
set -euo pipefail

: "${BC_BIN:?set BC_BIN to the build directory}"
: "${BC_SRC:?set BC_SRC to the source directory}"
# shellcheck source=../common.sh
. "$BC_SRC/tests/common.sh"
COORD="$BC_BIN/bench-coord"
AGENT="$BC_BIN/bench-agent"
export BC_AGENT_BIN="$AGENT"

T=$(mktemp -d /var/tmp/bc-e2e.XXXXXX)
AGENT_PIDS=()
EXIT_CMDS=()

# on_exit CMD: run CMD (eval'd) at cleanup, after the agents are stopped and before the work
# directory goes, in reverse order of registration (umount, losetup -d, ...)
on_exit() {
	EXIT_CMDS+=("$1")
}

# BC_KEEP=DIR: a copy of the work directory (logs, run directory) is left there, to debug
cleanup() {
	local rc=$? i
	for p in "${AGENT_PIDS[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	for p in "${AGENT_PIDS[@]}"; do
		wait "$p" 2>/dev/null || true
	done
	for ((i = ${#EXIT_CMDS[@]} - 1; i >= 0; i--)); do
		eval "${EXIT_CMDS[$i]}" >/dev/null 2>&1 || true
	done
	# a failure shows what the agents said: a CI host's run directory is gone afterwards
	if [ "$rc" != 0 ] && [ "$rc" != 77 ]; then
		find "$T" -name 'agent-*.log' -print 2>/dev/null | sort | while read -r log; do
			echo "--- the last lines of $log:"
			tail -n 20 "$log"
		done
	fi
	if [ -n "${BC_KEEP:-}" ]; then cp -a "$T" "$BC_KEEP" || true; fi
	rm -rf "$T"
	exit $rc
}
trap cleanup EXIT

# CURVE everywhere, as in production: this test's own coordinator key pair and
# known_hosts live in the default place (XDG_CONFIG_HOME), so `bench-coord run`
# finds them without options; each agent gets its own pair (start_agent).
export XDG_CONFIG_HOME="$T/config"
"$COORD" keygen >/dev/null
COORD_CERT="$XDG_CONFIG_HOME/bench-coord/coord.cert"
KNOWN_HOSTS="$XDG_CONFIG_HOME/bench-coord/known_hosts"
: >"$KNOWN_HOSTS"

# add_known_host ENDPOINT-OR-NAME KEY: the coordinator trusts KEY for it
add_known_host() {
	echo "$1 $2" >>"$KNOWN_HOSTS"
}

# start_agent NAME [ARGS...]: a bench-agent on an ephemeral loopback port, over
# CURVE with its own key pair, authorizing this test's coordinator and allowing
# every path under $T; sets EP_<NAME> and KEY_<NAME>, and adds it to known_hosts
start_agent() {
	local name=$1 epfile="$T/ep-$1" keys="$T/keys-$1" key
	shift
	mkdir -p "$T/scratch-$name"
	key=$("$AGENT" keygen "$keys" | sed -n "s/^server key: '\\(.*\\)'\$/\\1/p")
	cp "$COORD_CERT" "$keys/authorized_keys/"
	printf -v "KEY_$name" '%s' "$key"
	"$AGENT" --listen 'tcp://127.0.0.1:*' --ready-fd 3 --scratch-dir "$T/scratch-$name" \
		--cert "$keys/agent.cert" --authorized-keys "$keys/authorized_keys" --allow "$T/**" \
		"$@" 3>"$epfile" 2>"$T/agent-$name.log" &
	AGENT_PIDS+=($!)
	for _ in $(seq 50); do
		[ -s "$epfile" ] && break
		sleep 0.1
	done
	[ -s "$epfile" ] || fail "agent $name did not start: $(cat "$T/agent-$name.log")"
	printf -v "EP_$name" '%s' "$(head -n1 "$epfile")"
	add_known_host "$(head -n1 "$epfile")" "$key"
}


# no bench-agent whose command line mentions $1 is left running
assert_no_agents() {
	if pgrep -f "bench-agent.*$1" >/dev/null; then
		pgrep -af "bench-agent.*$1" >&2
		fail "bench-agent processes left running"
	fi
}

# hold_connections PORT N: N idle TCP connections to 127.0.0.1:PORT opened in the background
# (HOLD_PID), held until hold_release or 120 s; returns once all are open
hold_connections() {
	python3 - "$1" "$2" "$T/hold.ready" "$T/hold.stop" <<'PY' &
import os, resource, socket, sys, time
port, n, ready, stop = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
held = []
for _ in range(n):
    for attempt in range(3): # a loaded host may be slow to accept: no timing assertion
        try:
            held.append(socket.create_connection(("127.0.0.1", port), timeout=20))
            break
        except OSError as e:
            err = e
    else:
        raise err
open(ready, "w").write("%d\n" % len(held))
deadline = time.time() + 120 # bounded even if the test dies
while not os.path.exists(stop) and time.time() < deadline:
    time.sleep(0.1)
for s in held:
    s.close()
PY
	HOLD_PID=$!
	AGENT_PIDS+=("$HOLD_PID")
	for _ in $(seq 900); do [ -s "$T/hold.ready" ] && return 0; sleep 0.1; done
	fail "could not open $2 connections to port $1"
}

hold_release() {
	touch "$T/hold.stop"
	wait "$HOLD_PID" || true
}

# need_block_fs DIR: skip (77) unless DIR's filesystem sits on a block device the kernel
# counts in /proc/diskstats (tmpfs, overlay and network filesystems have none: the check
# that the device moved the bytes cannot be made there, and says so)
need_block_fs() {
	python3 - "$1" <<'PY' || { echo "skip: $1 is not on a block device (tmpfs, overlay?): nothing to count"; exit 77; }
import os, sys
d = os.stat(sys.argv[1]).st_dev
maj, mnr = os.major(d), os.minor(d)
if maj == 0:
    # btrfs and the like: the mount's source
    for line in open("/proc/self/mountinfo"):
        f = line.split()
        if f[2] == "%d:%d" % (maj, mnr):
            src = line.split(" - ")[1].split()[1]
            if src.startswith("/dev/"):
                sys.exit(0)
    sys.exit(1)
sys.exit(0 if os.path.exists("/sys/dev/block/%d:%d" % (maj, mnr)) else 1)
PY
}
