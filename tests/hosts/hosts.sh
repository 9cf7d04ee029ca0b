# hosts.sh - test hosts for the multihost tests (sourced, not run): N network
# namespaces joined by veth pairs to a bridge in the root namespace, each
# running a bench-agent over CURVE on its own address; the coordinator runs in
# the root namespace, which has an address on the bridge.
#
#   hosts_up N        start N hosts; sets, for i in 1..N:
#                       HOST_NS[i] HOST_IP[i] HOST_EP[i] HOST_KEY[i] HOST_PID[i]
#                       HOST_LOG[i] HOST_DIR[i] (its scratch directory is $HOST_DIR/scratch)
#                     and COORD_CERT (the coordinator key the agents authorize,
#                     in $XDG_CONFIG_HOME/bench-coord, where `bench-coord run` looks)
#                     Before hosts_up: HOST_ARGS[i]="--allow-destructive ..." adds
#                     agent options, HOST_ALLOW[i]="/dev/loop3 ..." allowlist globs.
#   hosts_down        stop everything (also run by the EXIT trap, even on failure)
#   hosts_on_exit CMD run CMD (eval'd) at teardown, before the namespaces go,
#                     in reverse order of registration (umount, losetup -d, ...)
#   host_restart I    restart host I's agent (e.g. after changing HOST_ARGS[I])
#
# Addresses come from 198.18.0.0/15 (RFC 2544, benchmark testing): one /24
# per test run, picked under a lock so parallel ctest runs never share one.
# The bridge has no physical port and the namespaces no default route, so no
# packet can leave these namespaces. Names carry a per-run id (IFNAMSIZ is 16).
# Needs root, ip (iproute2) and nsenter (util-linux); skips (exit 77) without.
#
# The agents enter only the network namespace (nsenter --net), not a mount
# namespace as `ip netns exec` would: they must see the host's mounts as a
# real agent does, or a device mounted after they start would look unmounted.
set -euo pipefail

: "${BC_BIN:?set BC_BIN to the build directory}"
: "${BC_SRC:?set BC_SRC to the source directory}"
# shellcheck source=../common.sh
. "$BC_SRC/tests/common.sh"
COORD="$BC_BIN/bench-coord"
AGENT="$BC_BIN/bench-agent"

hosts_skip() {
	echo "skip: $*" >&2
	exit 77
}

[ "$(id -u)" = 0 ] || hosts_skip "multihost tests need root (network namespaces, veth, bridge)"
command -v ip >/dev/null || hosts_skip "ip (iproute2) is not installed"
command -v nsenter >/dev/null || hosts_skip "nsenter (util-linux) is not installed"
command -v flock >/dev/null || hosts_skip "flock (util-linux) is not installed"

HOSTS_ID=$(printf '%04x' $(((RANDOM << 1 ^ $$) & 0xffff)))
HOSTS_DIR=$(mktemp -d "/var/tmp/bc-hosts-$HOSTS_ID.XXXXXX")
HOSTS_BR="bcb$HOSTS_ID"
HOSTS_NET=""
HOSTS_N=0
HOSTS_EXIT_CMDS=()
declare -a HOST_NS HOST_IP HOST_EP HOST_KEY HOST_PID HOST_LOG HOST_DIR HOST_ARGS HOST_ALLOW

hosts_on_exit() {
	HOSTS_EXIT_CMDS+=("$1")
}

hosts_down() {
	local i
	set +e
	for ((i = 1; i <= HOSTS_N; i++)); do
		stop_pid "${HOST_PID[$i]:-}"
	done
	for ((i = ${#HOSTS_EXIT_CMDS[@]} - 1; i >= 0; i--)); do
		eval "${HOSTS_EXIT_CMDS[$i]}" >/dev/null 2>&1
	done
	HOSTS_EXIT_CMDS=()
	for ((i = 1; i <= HOSTS_N; i++)); do
		ip netns del "${HOST_NS[$i]}" 2>/dev/null # takes its veth pair along
	done
	ip link del "$HOSTS_BR" 2>/dev/null
	HOSTS_N=0
	rm -rf "$HOSTS_DIR"
	set -e
}

s_hosts_trap() {
	local rc=$?
	trap - EXIT INT TERM
	hosts_down
	exit "$rc"
}
trap s_hosts_trap EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# the coordinator's key pair, where `bench-coord run` looks by default
export XDG_CONFIG_HOME="$HOSTS_DIR/config"
"$COORD" keygen >/dev/null
COORD_CERT="$XDG_CONFIG_HOME/bench-coord/coord.cert"

# pick a free 198.18.X.0/24 and bring the bridge up with .1 on it, under a lock
s_bridge_up() {
	local x lock=/run/lock/bc-hosts.lock
	mkdir -p /run/lock
	exec {lockfd}>"$lock"
	flock -w 30 "$lockfd" || hosts_skip "cannot take $lock"
	for x in $(shuf -i 1-254); do
		if ! ip -4 -o addr show | grep -q " 198\.18\.$x\."; then
			HOSTS_NET="198.18.$x"
			break
		fi
	done
	[ -n "$HOSTS_NET" ] || { flock -u "$lockfd"; hosts_skip "no free /24 in 198.18.0.0/16"; }
	if ! ip link add "$HOSTS_BR" type bridge 2>/dev/null; then
		flock -u "$lockfd"
		hosts_skip "cannot create a bridge (no CAP_NET_ADMIN?)"
	fi
	sysctl -qw "net.ipv6.conf.$HOSTS_BR.disable_ipv6=1" 2>/dev/null || true
	ip addr add "$HOSTS_NET.1/24" dev "$HOSTS_BR"
	ip link set "$HOSTS_BR" up
	flock -u "$lockfd"
	exec {lockfd}>&-
}

s_host_net() {
	local i=$1 ns="bch$HOSTS_ID-$1" veth="bcv$HOSTS_ID$1"
	HOST_NS[$i]=$ns
	HOST_IP[$i]="$HOSTS_NET.$((10 + i))"
	ip netns add "$ns" || hosts_skip "cannot create network namespace $ns"
	ip link add "$veth" type veth peer name eth0 netns "$ns"
	sysctl -qw "net.ipv6.conf.$veth.disable_ipv6=1" 2>/dev/null || true
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 2>/dev/null || true
	ip link set "$veth" master "$HOSTS_BR" up
	ip -n "$ns" addr add "${HOST_IP[$i]}/24" dev eth0
	ip -n "$ns" link set eth0 up
	ip -n "$ns" link set lo up
}

# host_start I: the agent of host I (keys and config made once)
host_start() {
	local i=$1 d="$HOSTS_DIR/h$1" allow g
	HOST_DIR[$i]=$d
	HOST_LOG[$i]="$d/agent.log"
	if [ ! -e "$d/keys/agent.cert" ]; then
		mkdir -p "$d/scratch"
		HOST_KEY[$i]=$("$AGENT" keygen "$d/keys" | sed -n "s/^server key: '\\(.*\\)'\$/\\1/p")
		cp "$COORD_CERT" "$d/keys/authorized_keys/"
	fi
	allow="\"$d/**\""
	for g in ${HOST_ALLOW[$i]:-}; do
		allow="$allow, \"$g\""
	done
	echo "{\"allow\": [$allow]}" >"$d/agent.json"
	HOST_EP[$i]="tcp://${HOST_IP[$i]}:7470"
	# shellcheck disable=SC2086
	nsenter --net="/run/netns/${HOST_NS[$i]}" -- "$AGENT" --listen "${HOST_EP[$i]}" \
		--cert "$d/keys/agent.cert" --authorized-keys "$d/keys/authorized_keys" \
		--config "$d/agent.json" --scratch-dir "$d/scratch" ${HOST_ARGS[$i]:-} \
		>>"${HOST_LOG[$i]}" 2>&1 &
	HOST_PID[$i]=$!
	for _ in $(seq 100); do
		grep -q "listening on ${HOST_EP[$i]}" "${HOST_LOG[$i]}" 2>/dev/null && return 0
		kill -0 "${HOST_PID[$i]}" 2>/dev/null || break
		sleep 0.05
	done
	cat "${HOST_LOG[$i]}" >&2
	fail "agent of host $i did not start"
}

host_restart() {
	stop_pid "${HOST_PID[$1]}"
	host_start "$1"
}

hosts_up() {
	local n=$1 i
	s_bridge_up
	for ((i = 1; i <= n; i++)); do
		HOSTS_N=$i # before creating it, so a half-made host is torn down too
		s_host_net "$i"
	done
	for ((i = 1; i <= n; i++)); do
		host_start "$i"
	done
}

# agents_json [I...]: the "agents" array for a profile (hosts I..., default all), host i
# named h<i>, with its server key
agents_json() {
	local i sep="" out="["
	for i in ${@:-$(seq "$HOSTS_N")}; do
		out="$out$sep{\"name\": \"h$i\", \"endpoint\": \"${HOST_EP[$i]}\", \"server_key\": \"${HOST_KEY[$i]}\"}"
		sep=", "
	done
	echo "$out]"
}
