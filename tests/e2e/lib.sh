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
	# what the test left running in the background when it failed (a coordinator it meant to
	# kill, a server): this shell's own jobs, nothing else
	for p in $(jobs -p); do
		kill "$p" 2>/dev/null || true
	done
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

# free_port: a TCP port on loopback nobody listens on (now)
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# start_node_exporter [ARGS...]: a real prometheus-node-exporter on a free loopback port, its
# /metrics at $NE_URL, stopped at exit; the test is skipped (77) when it is not installed
start_node_exporter() {
	local port pid
	command -v prometheus-node-exporter >/dev/null ||
		{ echo "skip: prometheus-node-exporter not installed (deploy/install-deps.sh --test)"; exit 77; }
	port=$(free_port)
	prometheus-node-exporter --web.listen-address="127.0.0.1:$port" "$@" >"$T/ne.log" 2>&1 &
	pid=$!
	on_exit "kill $pid; wait $pid"
	NE_URL="http://127.0.0.1:$port/metrics"
	for _ in $(seq 50); do
		python3 -c "import urllib.request; urllib.request.urlopen('$NE_URL')" 2>/dev/null && break
		sleep 0.1
	done
}

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

# loop_image MIB: a loop device over $T/disk.img of MIB MiB of random data (written and synced,
# direct I/O on when the kernel allows it), detached at cleanup; sets LOOP. Skips (77) without
# root or a free loop device.
loop_image() {
	[ "$(id -u)" = 0 ] || { echo "skip: needs root for losetup"; exit 77; }
	dd if=/dev/urandom of="$T/disk.img" bs=1M count="$1" status=none
	sync "$T/disk.img"
	LOOP=$(losetup -f --show --direct-io=on "$T/disk.img" 2>/dev/null) ||
		LOOP=$(losetup -f --show "$T/disk.img" 2>/dev/null) ||
		{ echo "skip: losetup failed"; exit 77; }
	on_exit "losetup -d $LOOP 2>/dev/null"
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

# need_iomap_trace DIR NAME: skip (77) unless this test can record the kernel's direct I/Os on
# files under DIR (root, tracefs with the iomap_dio_rw_begin event, a filesystem whose direct
# I/O goes through iomap); then I is a tracing instance of the test's own named NAME (removed at
# exit) and EV the event's path in it
need_iomap_trace() {
	local tr=/sys/kernel/tracing
	EV=events/iomap/iomap_dio_rw_begin
	[ "$(id -u)" = 0 ] || { echo "skip: needs root for tracefs"; exit 77; }
	[ -d "$tr/instances" ] && [ -e "$tr/$EV/format" ] ||
		{ echo "skip: no tracefs with iomap_dio_rw_begin"; exit 77; }
	case $(stat -f -c %T "$1") in
	ext2/ext3 | xfs | btrfs) ;;
	*) echo "skip: $(stat -f -c %T "$1") under $1: direct I/O there does not go through iomap"
		exit 77 ;;
	esac
	I="$tr/instances/$2-$$"
	mkdir "$I" || { echo "skip: cannot create a tracing instance"; exit 77; }
	on_exit "echo 0 > '$I/$EV/enable'; rmdir '$I'"
	echo 8192 >"$I/buffer_size_kb"
}

# wait_run_when CPID PYTHON: wait until the run directory of coordinator CPID (the only one
# under $T/out) has an events.jsonl for which the python code PYTHON (events.jsonl's path in
# sys.argv[1]) exits 0; sets R to the run directory
wait_run_when() {
	local cpid=$1 cond=$2
	R=""
	for _ in $(seq 900); do
		R=$(find "$T/out" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | head -n1 || true)
		if [ -n "$R" ] && [ -s "$R/events.jsonl" ] && python3 -c "$cond" "$R/events.jsonl"; then
			break
		fi
		kill -0 "$cpid" 2>/dev/null || fail "the run ended before it got there: $(cat "$T/stderr")"
		sleep 0.1
	done
	[ -n "$R" ] || fail "no run directory"
}

# kill_run_when CPID PYTHON: wait_run_when, then kill -9 the coordinator; keeps what it wrote up
# to the kill in $T/events.before (its whole lines) and $T/records.before
kill_run_when() {
	wait_run_when "$1" "$2"
	kill -9 "$1"
	wait "$1" 2>/dev/null || true
	python3 - "$R/events.jsonl" "$T/events.before" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(b[:b.rfind(b"\n") + 1])
PY
	cp "$R/records.bin" "$T/records.before"
}

# assert_kept: what kill_run_when kept is still the start of $R's events.jsonl and records.bin,
# byte for byte (its whole lines, its whole frames)
assert_kept() {
	local n
	n=$(stat -c %s "$T/events.before")
	cmp -n "$n" "$T/events.before" "$R/events.jsonl" || fail "events.jsonl before the kill changed"
	python3 - "$T/records.before" "$R/records.bin" <<'PY' || fail "records.bin before the kill changed"
import struct, sys
old, new = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
off = 16  # the whole frames the dead coordinator wrote must be the new file's start
while off + 8 <= len(old):
    n = struct.unpack("<I", old[off:off + 4])[0]
    if off + 8 + n > len(old):
        break
    off += 8 + n
sys.exit(0 if new[:off] == old[:off] else 1)
PY
}

# at_second K: the python condition "every agent of the profile $T/p.json has a record of its
# second K or later" for wait_run_when and kill_run_when
at_second() {
	echo "
import json, sys
want = len(json.load(open('$T/p.json'))['agents'])
got = set()
for line in open(sys.argv[1]):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    if e.get('event') == 'stats' and e.get('second', -1) >= $1:
        got.add(e['agent'])
sys.exit(0 if len(got) == want else 1)"
}

# kill_run_at CPID K: kill_run_when every agent has a record of its second K or later
kill_run_at() {
	kill_run_when "$1" "$(at_second "$2")"
}

# two_agent_profile NAME TOP STEPS: $T/p.json, agents a1 and a2 (start_agent) with a 16 MiB
# file volume each, the top-level keys TOP ('"orphan_grace": "30s", ' or '') and STEPS
two_agent_profile() {
	cat >"$T/p.json" <<JSON
{"name": "$1", $2
 "agents": [{"name": "a1", "endpoint": "$EP_a1"}, {"name": "a2", "endpoint": "$EP_a2"}],
 "volumes": [{"agent": "a1", "path": "$T/a1.dat", "size": "16m"},
             {"agent": "a2", "path": "$T/a2.dat", "size": "16m"}],
 "steps": $3}
JSON
}

# resume_run [OPTIONS]: bench-coord run --resume $R (and OPTIONS) into $T/stdout2 and
# $T/stderr2, failing with both
resume_run() {
	"$COORD" run --plain --resume "$R" "$@" >"$T/stdout2" 2>"$T/stderr2" || {
		cat "$T/stdout2" "$T/stderr2"
		fail "run --resume failed"
	}
}

# resume_said PATTERN WHAT: the resume's output has PATTERN (grep -E), else fail showing it
resume_said() {
	grep -qE "$1" "$T/stdout2" || {
		cat "$T/stdout2" "$T/stderr2"
		fail "$2"
	}
}

# assert_each_once SECONDS GAPS: in $R/events.jsonl, step 0 has a record of every second
# 0..SECONDS-1 and the drain of agents a1 and a2 exactly once each, one step_done per agent
# and GAPS coordinator_gap events, each from a later second than the one before
assert_each_once() {
	python3 - "$R/events.jsonl" "$1" "$2" <<'PY' || fail "the step's records are not each there once"
import collections, json, sys
seen, done, gaps = collections.Counter(), collections.Counter(), []
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("step") != 0:
        continue
    if e["event"] == "stats":
        seen[(e["agent"], e["second"])] += 1
    elif e["event"] == "step_done":
        done[e["agent"]] += 1
    elif e["event"] == "coordinator_gap":
        gaps.append(e)
want = {(a, k) for a in ("a1", "a2") for k in list(range(int(sys.argv[2]))) + [-1]}
bad = {k: v for k, v in seen.items() if v != 1}
if set(seen) != want or bad:
    print("missing", sorted(want - set(seen)), "extra", sorted(set(seen) - want), "twice", bad)
    sys.exit(1)
froms = [g["from_second"] for g in gaps]
if done != {"a1": 1, "a2": 1} or len(gaps) != int(sys.argv[3]) or froms != sorted(set(froms)):
    print("step_done", done, "gaps", gaps)
    sys.exit(1)
for g in gaps:
    print("gap %.1f s from second %d, %d second(s) sent again" %
          (g["gap_s"], g["from_second"], g["replayed_seconds"]))
PY
}

# assert_agents_stopped WHY: no agent has a job thread left and the volumes $T/a1.dat and
# $T/a2.dat are not written for 2 s (WHY: after what, for the failure message)
assert_agents_stopped() {
	local before p
	for p in "${AGENT_PIDS[@]}"; do
		if grep -qs '^bc-job' /proc/"$p"/task/*/comm; then
			fail "agent pid $p still has job threads after $1"
		fi
	done
	before=$(stat -c '%Y.%y %s' "$T/a1.dat" "$T/a2.dat")
	sleep 2
	[ "$(stat -c '%Y.%y %s' "$T/a1.dat" "$T/a2.dat")" = "$before" ] ||
		fail "a volume was written after $1"
}
