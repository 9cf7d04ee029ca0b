# lib.sh - shared helpers for the end-to-end tests (sourced, not run).
# BC_BIN (build dir) and BC_SRC (source dir) come from ctest.
set -euo pipefail

: "${BC_BIN:?set BC_BIN to the build directory}"
: "${BC_SRC:?set BC_SRC to the source directory}"
COORD="$BC_BIN/bench-coord"
AGENT="$BC_BIN/bench-agent"
export BC_AGENT_BIN="$AGENT"

T=$(mktemp -d /var/tmp/bc-e2e.XXXXXX)
AGENT_PIDS=()

cleanup() {
	local rc=$?
	for p in "${AGENT_PIDS[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	for p in "${AGENT_PIDS[@]}"; do
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$T"
	exit $rc
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# start_agent NAME: a bench-agent on an ephemeral loopback port; sets EP_<NAME>
start_agent() {
	local name=$1 epfile="$T/ep-$1"
	mkdir -p "$T/scratch-$name"
	"$AGENT" --listen 'tcp://127.0.0.1:*' --ready-fd 3 --scratch-dir "$T/scratch-$name" \
		3>"$epfile" 2>"$T/agent-$name.log" &
	AGENT_PIDS+=($!)
	for _ in $(seq 50); do
		[ -s "$epfile" ] && break
		sleep 0.1
	done
	[ -s "$epfile" ] || fail "agent $name did not start: $(cat "$T/agent-$name.log")"
	printf -v "EP_$name" '%s' "$(head -n1 "$epfile")"
}

# json FILE EXPR: evaluate a python expression over run.json loaded as `r`
json() {
	python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"
}

# the single run directory under $1
run_dir() {
	local d
	d=$(find "$1" -mindepth 1 -maxdepth 1 -type d | head -n1)
	[ -n "$d" ] || fail "no run directory under $1"
	echo "$d"
}

# no bench-agent whose command line mentions $1 is left running
assert_no_agents() {
	if pgrep -f "bench-agent.*$1" >/dev/null; then
		pgrep -af "bench-agent.*$1" >&2
		fail "bench-agent processes left running"
	fi
}
