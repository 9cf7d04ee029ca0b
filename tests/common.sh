# shellcheck shell=bash
# common.sh - shell helpers every test library shares (sourced by tests/e2e/lib.sh,
# tests/hosts/hosts.sh and tests/vmlab/lib.sh; not run).

# fail MESSAGE: the test failed; the EXIT traps clean up
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# json FILE EXPR: a python expression over the JSON file loaded as `r`
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

# stop_pid PID [TENTHS]: SIGTERM, up to TENTHS x 0.1 s to exit (default 20), then SIGKILL;
# reaps it when it is this shell's child
stop_pid() {
	local pid=$1
	[ -n "$pid" ] || return 0
	kill "$pid" 2>/dev/null || return 0
	for _ in $(seq "${2:-20}"); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -9 "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}
