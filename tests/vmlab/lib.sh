# shellcheck shell=bash
# lib.sh - the VM lab for tests and dry runs (sourced, not run): QEMU guests
# booted under TCG from the cached Debian cloud kernel and busybox initramfs
# (build-guest.sh), each with an emulated NVMe controller, QEMU user networking
# (restrict=on: the guest reaches nothing; the host reaches the guest's agent,
# command channel and node_exporter through forwarded ports on 127.0.0.1) and
# optional point-to-point links to other guests (-netdev socket on 127.0.0.1).
#
#   vmlab_init            checks (skip 77 with the reason), the guest pieces,
#                         $VT (this run's directory), the coordinator's keys
#                         in $XDG_CONFIG_HOME (where `bench-coord run` looks)
#   vm_new NAME [MEM_MB]  define a guest (bench-agent and the command channel on)
#   vm_ns NAME LBS SIZE [DRIVE_OPTS]
#                         one more namespace (nsid 1, 2, ...) on its NVMe
#                         controller: LBS 512 or 4096, SIZE for truncate, a
#                         sparse raw file; DRIVE_OPTS added to -drive (e.g.
#                         throttling.bps-total=4194304)
#   vm_qemu NAME 10       this guest needs QEMU 10 (Debian trixie's, fetched and
#                         cached by fetch-qemu.sh; skip 77 when it cannot be). Every
#                         guest prefers QEMU 10 anyway, falling back to the host's
#                         QEMU when it cannot be fetched; VMLAB_QEMU=host forces that
#   vm_fdp NAME [SUBSYS_OPTS]
#                         the guest's NVMe controller in an FDP subsystem (QEMU 10;
#                         default fdp.runs=1M,fdp.nrg=1,fdp.nruh=8, ocp=on): its
#                         namespaces get every handle (fdp.ruhs=0-<nruh-1>)
#   vm_ctrl NAME          the next namespaces on a new controller of their own
#                         (no subsystem, no FDP; the guest's next nvmeN)
#   vm_conf NAME 'K=V'    a line of /etc/vmlab.conf (guest-init.sh lists keys)
#   vm_setup NAME 'sh'    a line of the guest's setup script (before services)
#   vm_fio NAME           the host's fio in the guest (/usr/bin/fio, its own initramfs
#                         piece; export BC_VMLAB_FIO=1 before vmlab_init, which builds
#                         it); vm_boot skips (77) with the reason when it cannot be had
#   vm_nice NAME N        run its QEMU at nice N (a CPU-hungry client yields to the
#                         storage nodes' node_exporter scrapes)
#   vm_link NODE CLIENT   a point-to-point link; NODE listens, CLIENT connects;
#                         sets LINK_NODE_IP and LINK_CLIENT_IP (a /24 of its own)
#   vm_boot NAME          start QEMU; sets VM_EP[NAME] (tcp://127.0.0.1:PORT),
#                         VM_KEY[NAME] (the agent's server key, in known_hosts),
#                         VM_METRICS[NAME] (node_exporter URL, when on)
#   vm_wait NAME [SEC]    until the guest printed "vmlab: ready"; a guest whose
#                         kernel never started skips (77), one that started but
#                         did not get ready fails
#   vm_exec NAME 'sh'     run a script in the guest (command channel), print
#                         its output; returns its exit status (VMLAB_EXEC_TIMEOUT,
#                         default 300 s, bounds each wait for its output)
#   vm_console NAME       the guest's console log so far
#   vm_diag NAME          the guest's kernel log lines about NVMe and hangs, its NVMe
#                         controllers' states, bench-agent's kernel stacks (shown for
#                         every guest when a test fails)
#   nvmet_export_sh NQN DEV ADDR [PORT], nvme_connect_sh NQN ADDR
#                         guest shell lines: the kernel NVMe/TCP target exports
#                         DEV; the host side connects (for vm_setup / vm_exec)
#   vmlab_have_nvme_tcp_volume   bench-coord accepts "nvme_tcp" volumes
# Every QEMU started here is killed on exit (trap), failure or not, and by a
# watchdog if the test shell is SIGKILLed. VMLAB_KEEP=1 keeps $VT (consoles,
# run directories); VMLAB_BOOT_TIMEOUT (default 180 s) bounds each boot;
# VMLAB_QEMU=host boots every guest on the host's qemu instead of QEMU 10.
set -euo pipefail

: "${BC_BIN:?set BC_BIN to the build directory}"
: "${BC_SRC:?set BC_SRC to the source directory}"
# shellcheck source=../common.sh
. "$BC_SRC/tests/common.sh"
COORD="$BC_BIN/bench-coord"
VMLAB_DIR="$BC_SRC/tests/vmlab"
VMLAB_BOOT_TIMEOUT=${VMLAB_BOOT_TIMEOUT:-180}

VT=""
VM_NAMES=()
VM_WD=()
declare -A VM_EP VM_KEY VM_METRICS VM_PID VM_NSN VM_MEM VM_EXECPORT VM_LINKN VM_NICE
declare -A VM_QEMU VM_CTRL VM_CTRLNS VM_CTRLOPTS VM_NSOPTS VM_FIO
VM_LINKS=0

vm_skip() {
	echo "skip: $*" >&2
	exit 77
}

vmlab_down() {
	local n
	set +e
	for n in "${VM_NAMES[@]}"; do
		stop_pid "${VM_PID[$n]:-}" 50
	done
	for n in "${VM_WD[@]}"; do
		kill "$n" 2>/dev/null
		wait "$n" 2>/dev/null
	done
	if [ -n "$VT" ] && [ -z "${VMLAB_KEEP:-}" ]; then
		rm -rf "$VT"
	elif [ -n "$VT" ]; then
		echo "vmlab: kept $VT" >&2
	fi
	set -e
}

# what the console does not show (it gets only loglevel < 4: no nvme timeouts or resets)
# and where bench-agent's threads wait in the kernel; bounded, best effort
# shellcheck disable=SC2016 # expanded in the guest
S_DIAG_SH='echo "uptime $(cut -d" " -f1 /proc/uptime) s"
dmesg | grep -iE "nvme|blk_|hung|blocked|rcu|watchdog|clocksource" | tail -n 40
for c in /sys/class/nvme/nvme*; do
	[ -d "$c" ] && echo "${c##*/} $(cat $c/transport) $(cat $c/state)"
done
for t in /proc/$(pidof bench-agent)/task/*; do
	[ -d "$t" ] && echo "bench-agent thread $(cat $t/comm): $(tr "\n" " " <$t/stack)"
done
true'

vm_diag() {
	local n=$1
	kill -0 "${VM_PID[$n]:-}" 2>/dev/null || return 0
	echo "---- $n: kernel log (nvme, hangs), controllers, bench-agent's kernel stacks ----"
	VMLAB_EXEC_TIMEOUT=20 vm_exec "$n" "$S_DIAG_SH" 2>&1 ||
		echo "(the command channel did not answer in 20 s)"
}

s_vmlab_trap() {
	local rc=$?
	trap - EXIT INT TERM
	# on failure, the guests' consoles say most; their kernel logs the rest
	if [ "$rc" != 0 ] && [ "$rc" != 77 ] && [ -n "$VT" ]; then
		for n in "${VM_NAMES[@]}"; do
			echo "---- console of $n (last 40 lines) ----" >&2
			tail -n 40 "$VT/$n/console.log" >&2 2>/dev/null || true
			vm_diag "$n" >&2 || true
		done
	fi
	vmlab_down
	exit "$rc"
}

vmlab_init() {
	local out rc=0
	command -v qemu-system-x86_64 >/dev/null ||
		vm_skip "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
	command -v python3 >/dev/null || vm_skip "python3 is not installed"
	[ -x "$BC_BIN/bench-agent" ] || fail "no bench-agent in $BC_BIN"
	out=$(bash "$VMLAB_DIR/build-guest.sh" --print "$BC_BIN") || rc=$?
	[ "$rc" = 77 ] && exit 77
	[ "$rc" = 0 ] || fail "build-guest.sh failed (exit $rc)"
	eval "$out"
	VT=$(mktemp -d /var/tmp/bc-vmlab.XXXXXX)
	trap s_vmlab_trap EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	export XDG_CONFIG_HOME="$VT/config"
	"$COORD" keygen >/dev/null
	COORD_CERT="$XDG_CONFIG_HOME/bench-coord/coord.cert"
	KNOWN_HOSTS="$XDG_CONFIG_HOME/bench-coord/known_hosts"
	: >"$KNOWN_HOSTS"
}

# N free TCP ports on 127.0.0.1, one a line (a small race with other users: vm_boot retries)
s_free_ports() {
	python3 -c '
import socket, sys
ss = []
for _ in range(int(sys.argv[1])):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); ss.append(s)
print("\n".join(str(s.getsockname()[1]) for s in ss))' "$1"
}

vm_new() {
	local n=$1
	[[ "$n" =~ ^[a-z][a-z0-9-]*$ ]] || fail "vm_new: bad name '$n'"
	mkdir -p "$VT/$n/overlay/etc/vmlab" "$VT/$n/overlay/etc/bench-agent/authorized_keys"
	VM_NAMES+=("$n")
	VM_NSN[$n]=0
	VM_LINKN[$n]=0
	VM_CTRL[$n]=0
	VM_CTRLNS[$n]=0
	VM_CTRLOPTS[$n]=""
	VM_NSOPTS[$n]=""
	# Every guest runs on QEMU 10 unless VMLAB_QEMU=host: QEMU 7.2's emulated NVMe holds a
	# batch of commands uncompleted until the guest's 30 s io_timeout now and then (its
	# shadow-doorbell code, new in 7.1), which QEMU 10 does not (bench/vmlab-stall.sh,
	# docs/vmlab.md). "10?" falls back to the host's QEMU, saying so, when QEMU 10 cannot be
	# fetched; vm_fdp needs 10 itself and skips instead.
	case ${VMLAB_QEMU:-10} in
	10) VM_QEMU[$n]="10?" ;;
	host) VM_QEMU[$n]=host ;;
	*) fail "VMLAB_QEMU='${VMLAB_QEMU}': 10 (the default) or host" ;;
	esac
	VM_MEM[$n]=${2:-384}
	: >"$VT/$n/qemu.args"
	{
		echo "VM_NAME=$n"
		echo "VM_AGENT=1"
		echo "VM_EXEC=1"
		echo "VM_AGENT_ARGS=\"--allow /dev/nvme* --allow /dev/ng*\""
	} >"$VT/$n/overlay/etc/vmlab.conf"
	: >"$VT/$n/overlay/etc/vmlab/setup.sh"
	# the user-network NIC: MAC 52:54:00:00:00:01 in every guest (each has its own slirp)
	echo "VM_NICS=\"52:54:00:00:00:01=10.0.2.15/24\"" >>"$VT/$n/overlay/etc/vmlab.conf"
}

vm_nice() {
	VM_NICE[$1]=$2
}

vm_fio() {
	VM_FIO[$1]=1
}

vm_conf() {
	echo "$2" >>"$VT/$1/overlay/etc/vmlab.conf"
}

vm_setup() {
	echo "$2" >>"$VT/$1/overlay/etc/vmlab/setup.sh"
}

s_args() {
	local n=$1
	shift
	printf '%s\n' "$@" >>"$VT/$n/qemu.args"
}

vm_ns() {
	local n=$1 lbs=$2 size=$3 opts=${4:-} i img c=nv${VM_CTRL[$1]} k
	i=$((VM_NSN[$n] + 1))
	VM_NSN[$n]=$i
	k=$((VM_CTRLNS[$n] + 1))
	VM_CTRLNS[$n]=$k
	img="$VT/$n/ns$i.img"
	truncate -s "$size" "$img"
	[ "$k" = 1 ] && s_args "$n" -device "nvme,serial=vmlab-$n-$c,id=$c${VM_CTRLOPTS[$n]}"
	s_args "$n" -drive "file=$img,if=none,id=ns$i,format=raw,cache=writeback,aio=threads${opts:+,$opts}" \
		-device "nvme-ns,drive=ns$i,bus=$c,nsid=$k,logical_block_size=$lbs,physical_block_size=$lbs${VM_NSOPTS[$n]}"
}

vm_qemu() {
	[ "$2" = 10 ] || fail "vm_qemu: only QEMU 10 can be chosen (got '$2')"
	VM_QEMU[$1]=$2
}

vm_fdp() {
	local n=$1 opts=${2:-fdp.runs=1M,fdp.nrg=1,fdp.nruh=8} nruh
	[ "${VM_CTRLNS[$n]}" = 0 ] || fail "vm_fdp $n: before the controller's first vm_ns"
	nruh=$(sed -n 's/.*fdp\.nruh=\([0-9]*\).*/\1/p' <<<"$opts")
	vm_qemu "$n" 10
	s_args "$n" -device "nvme-subsys,id=fdp${VM_CTRL[$n]},fdp=on,$opts"
	VM_CTRLOPTS[$n]=",subsys=fdp${VM_CTRL[$n]},ocp=on"
	VM_NSOPTS[$n]=",fdp.ruhs=0-$((${nruh:-8} - 1))"
}

vm_ctrl() {
	VM_CTRL[$1]=$((VM_CTRL[$1] + 1))
	VM_CTRLNS[$1]=0
	VM_CTRLOPTS[$1]=""
	VM_NSOPTS[$1]=""
}

# the QEMU command for guest NAME into the array QEMU_CMD
s_qemu_cmd() {
	local out rc=0
	QEMU_CMD=(qemu-system-x86_64)
	case ${VM_QEMU[$1]:-} in
	10 | "10?") ;;
	*) return 0 ;;
	esac
	if [ -z "${VMLAB_QEMU10_ROOT:-}" ]; then
		out=$(bash "$VMLAB_DIR/fetch-qemu.sh" --print) || rc=$?
		if [ "$rc" = 77 ] && [ "${VM_QEMU[$1]}" = "10?" ]; then
			echo "vmlab: QEMU 10 cannot be fetched; guest $1 runs on the host's $(qemu-system-x86_64 --version | head -n1) (its emulated NVMe may stall, docs/vmlab.md)" >&2
			return 0
		fi
		[ "$rc" = 77 ] && exit 77
		[ "$rc" = 0 ] || fail "fetch-qemu.sh failed (exit $rc)"
		eval "$out"
		echo "vmlab: QEMU $VMLAB_QEMU10_VERSION for guest $1 ($VMLAB_QEMU10_ROOT)" >&2
	fi
	local r=$VMLAB_QEMU10_ROOT
	QEMU_CMD=("$r/usr/lib64/ld-linux-x86-64.so.2" --library-path "$r/usr/lib/x86_64-linux-gnu"
		"$r/usr/bin/qemu-system-x86_64" -L "$r/usr/share/qemu" -L "$r/usr/share/seabios")
}

# point-to-point link k: 10.(100+k).0.1 (NODE) <-> 10.(100+k).0.2 (CLIENT)
vm_link() {
	local node=$1 client=$2 port k mn mc
	VM_LINKS=$((VM_LINKS + 1))
	k=$VM_LINKS
	port=$(s_free_ports 1)
	VM_LINKN[$node]=$((VM_LINKN[$node] + 1))
	VM_LINKN[$client]=$((VM_LINKN[$client] + 1))
	mn=$(printf '52:54:00:01:%02x:01' "$k")
	mc=$(printf '52:54:00:01:%02x:02' "$k")
	LINK_NODE_IP="10.$((100 + k)).0.1"
	LINK_CLIENT_IP="10.$((100 + k)).0.2"
	s_args "$node" -netdev "socket,id=l$k,listen=127.0.0.1:$port" \
		-device "virtio-net-pci,netdev=l$k,mac=$mn,romfile="
	s_args "$client" -netdev "socket,id=l$k,connect=127.0.0.1:$port" \
		-device "virtio-net-pci,netdev=l$k,mac=$mc,romfile="
	sed -i "s|^VM_NICS=\"\(.*\)\"$|VM_NICS=\"\1 $mn=$LINK_NODE_IP/24\"|" "$VT/$node/overlay/etc/vmlab.conf"
	sed -i "s|^VM_NICS=\"\(.*\)\"$|VM_NICS=\"\1 $mc=$LINK_CLIENT_IP/24\"|" "$VT/$client/overlay/etc/vmlab.conf"
}

# the guest's own initramfs piece: config, setup script, the agent's keys
s_overlay() {
	local n=$1 d="$VT/$1" key
	key=$("$BC_BIN/bench-agent" keygen "$d/keys" | sed -n "s/^server key: '\\(.*\\)'\$/\\1/p")
	[ -n "$key" ] || fail "bench-agent keygen gave no key"
	VM_KEY[$n]=$key
	cp "$d/keys/agent.cert" "$d/keys/agent.cert_secret" "$d/overlay/etc/bench-agent/"
	cp "$COORD_CERT" "$d/overlay/etc/bench-agent/authorized_keys/"
	chmod 0600 "$d/overlay/etc/bench-agent/agent.cert_secret"
	(cd "$d/overlay" && find . -mindepth 1 | LC_ALL=C sort | busybox cpio -o -H newc 2>/dev/null) |
		gzip -1 >"$d/overlay.cpio.gz"
}

vm_boot() {
	local n=$1 d="$VT/$1" ports p_agent p_exec p_ne fwd initrd args=()
	s_overlay "$n"
	initrd="$d/initrd.cpio.gz"
	cat "$VMLAB_INITRD_BASE" "$VMLAB_INITRD_AGENT" >"$initrd"
	if grep -q '^VM_NODE_EXPORTER=1' "$d/overlay/etc/vmlab.conf"; then
		[ -n "$VMLAB_INITRD_NODEEXP" ] ||
			vm_skip "prometheus-node-exporter is not installed on the host (deploy/install-deps.sh --test)"
		cat "$VMLAB_INITRD_NODEEXP" >>"$initrd"
	fi
	if [ -n "${VM_FIO[$n]:-}" ]; then
		[ -n "${VMLAB_INITRD_FIO:-}" ] || vm_skip "no fio for guest $n: ${VMLAB_FIO_SKIP:-}"
		cat "$VMLAB_INITRD_FIO" >>"$initrd"
	fi
	cat "$d/overlay.cpio.gz" >>"$initrd"
	mapfile -t args <"$d/qemu.args"
	s_qemu_cmd "$n"
	for _ in 1 2 3; do
		mapfile -t ports < <(s_free_ports 3)
		p_agent=${ports[0]} p_exec=${ports[1]} p_ne=${ports[2]}
		fwd="hostfwd=tcp:127.0.0.1:$p_agent-:7470,hostfwd=tcp:127.0.0.1:$p_exec-:7471"
		fwd="$fwd,hostfwd=tcp:127.0.0.1:$p_ne-:9100"
		: >"$d/console.log"
		# -cpu max: RDRAND for the guest's early entropy (libsodium), and
		# the ISA the host-built binaries may use. no_timer_check: a TCG guest
		# on a busy host fails the IO-APIC timer check and panics ("IO-APIC +
		# timer doesn't work!"), seen with four guests booting on two cores
		nice -n "${VM_NICE[$n]:-0}" "${QEMU_CMD[@]}" -name "vmlab-$n" -accel tcg -cpu max -smp 1 -m "${VM_MEM[$n]}" \
			-nodefaults -no-user-config -display none -no-reboot \
			-kernel "$VMLAB_KERNEL" -initrd "$initrd" \
			-append "console=ttyS0 quiet panic=-1 loglevel=4 no_timer_check" \
			-serial "file:$d/console.log" -monitor none \
			-netdev "user,id=u0,restrict=on,$fwd" \
			-device "virtio-net-pci,netdev=u0,mac=52:54:00:00:00:01,romfile=" \
			-device virtio-rng-pci \
			"${args[@]}" >"$d/qemu.log" 2>&1 &
		VM_PID[$n]=$!
		sleep 0.5
		if kill -0 "${VM_PID[$n]}" 2>/dev/null; then
			break
		fi
		wait "${VM_PID[$n]}" 2>/dev/null || true
		VM_PID[$n]=""
		if ! grep -q 'host forwarding' "$d/qemu.log"; then
			cat "$d/qemu.log" >&2
			vm_skip "qemu-system-x86_64 did not start guest $n (see above)"
		fi
	done
	[ -n "${VM_PID[$n]}" ] || vm_skip "no free ports for guest $n's forwarding"
	# the EXIT trap cannot run when this shell is SIGKILLed (a ctest timeout): a
	# watchdog then stops the guest within 2 s and removes the run's directory
	(
		trap - EXIT INT TERM
		while kill -0 $$ 2>/dev/null; do
			sleep 2
		done
		kill "${VM_PID[$n]}" 2>/dev/null
		sleep 1
		[ -n "${VMLAB_KEEP:-}" ] || rm -rf "$VT"
	) >/dev/null 2>&1 </dev/null &
	VM_WD+=($!)
	VM_EP[$n]="tcp://127.0.0.1:$p_agent"
	VM_EXECPORT[$n]=$p_exec
	# shellcheck disable=SC2034 # for the tests that source this file
	VM_METRICS[$n]="http://127.0.0.1:$p_ne/metrics"
	echo "${VM_EP[$n]} ${VM_KEY[$n]}" >>"$KNOWN_HOSTS"
	echo "$n ${VM_KEY[$n]}" >>"$KNOWN_HOSTS"
}

vm_console() {
	cat "$VT/$1/console.log"
}

vm_wait() {
	local n=$1 t=${2:-$VMLAB_BOOT_TIMEOUT} start=$SECONDS log="$VT/$1/console.log"
	while ((SECONDS - start < t)); do
		if grep -q '^vmlab: ready' "$log" 2>/dev/null; then
			echo "vmlab: guest $n ready after $((SECONDS - start)) s" >&2
			return 0
		fi
		if ! kill -0 "${VM_PID[$n]}" 2>/dev/null; then
			cat "$VT/$n/qemu.log" >&2
			tail -n 30 "$log" >&2
			grep -q 'Linux version\|Run /init\|Kernel panic\|^vmlab: ' "$log" 2>/dev/null &&
				fail "guest $n stopped during boot"
			vm_skip "QEMU exited before guest $n's kernel started"
		fi
		sleep 0.5
	done
	tail -n 30 "$log" >&2
	# "quiet": the kernel prints little, but init's own lines show it ran
	grep -q '^vmlab: \|Kernel panic' "$log" 2>/dev/null &&
		fail "guest $n booted but was not ready within $t s"
	vm_skip "guest $n did not boot within $t s under TCG (no output from its kernel)"
}

vm_exec() {
	local n=$1 script=$2
	python3 - "${VM_EXECPORT[$n]}" "$script" "${VMLAB_EXEC_TIMEOUT:-300}" <<'EOF'
import socket, sys, time
port, script, tmo = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
for attempt in range(50):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        break
    except OSError:
        time.sleep(0.2)
else:
    sys.exit("vm_exec: cannot connect to the guest's command channel")
s.settimeout(tmo)
s.sendall(script.encode() + b"\n")
s.shutdown(socket.SHUT_WR)
out = b""
while True:
    b = s.recv(65536)
    if not b:
        break
    out += b
text = out.decode(errors="replace")
lines = text.rstrip("\n").split("\n")
status = 255
if lines and lines[-1].startswith("vmlab-status: "):
    status = int(lines[-1].split()[1])
    lines = lines[:-1]
sys.stdout.write("\n".join(lines) + ("\n" if lines and lines != [""] else ""))
sys.exit(status)
EOF
}

# VMLAB_NVMET_RAM: the file in the guest's RAM (tmpfs) that NVMe/TCP tests export. Not an
# emulated NVMe namespace: QEMU 7.2's NVMe under TCG now and then leaves a batch of commands
# without completion until the guest's nvme_core.io_timeout (30 s) aborts them ("nvme nvme0:
# I/O 818 (I/O Cmd) QID 1 timeout, aborting", no "completion polled": the device never
# answered; docs/vmlab.md), and under nvmet that stalls the NVMe/TCP I/O above it past the
# coordinator's 30 s drain. nvmet gives a file on tmpfs 4 KiB LBAs (i_blkbits, capped at 12)
# and needs buffered_io for it (tmpfs has no O_DIRECT).
VMLAB_NVMET_RAM=/tmp/nvmet-ns1.img

# vm_nvme_tcp_guest NAME NQN: one guest with a 4 KiB-LBA namespace of 64 MiB in its RAM that
# its own kernel target exports as NQN on 10.0.2.15:4420, nvme-tcp loaded for the agent, and
# an emulated 4 KiB-LBA NVMe namespace (nvme0n1) beside it; booted
vm_nvme_tcp_guest() {
	vm_new "$1"
	vm_ns "$1" 4096 64M
	vm_setup "$1" "truncate -s 64M $VMLAB_NVMET_RAM"
	vm_setup "$1" "$(nvmet_export_sh "$2" "$VMLAB_NVMET_RAM" 10.0.2.15)"
	vm_setup "$1" "modprobe nvme-tcp"
	vm_boot "$1"
	vm_wait "$1"
}

# vm_tcp_ctrls NAME: the guest's NVMe/TCP controllers, "nvmeN ADDRESS SUBSYSNQN" a line
vm_tcp_ctrls() {
	vm_exec "$1" 'for c in /sys/class/nvme/nvme*; do
		[ "$(cat $c/transport 2>/dev/null)" = tcp ] && echo "${c##*/} $(cat $c/address) $(cat $c/subsysnqn)"
	done; true'
}

# nvmet_export_sh NQN DEVICE TRADDR [PORT_ID]: guest shell lines (for vm_setup or vm_exec)
# making the kernel's NVMe/TCP target (configfs) export DEVICE (a block device, or a file
# served with buffered I/O) as namespace 1 of subsystem NQN, open to any host, on
# TRADDR:4420 (port PORT_ID, made by its first user); again with another TRADDR and PORT_ID,
# the same subsystem on one more port
nvmet_export_sh() {
	local nqn=$1 dev=$2 addr=$3 port=${4:-1}
	cat <<SH
modprobe nvmet-tcp || log "modprobe nvmet-tcp failed"
C=/sys/kernel/config/nvmet
if [ ! -d \$C/subsystems/$nqn ]; then
	mkdir \$C/subsystems/$nqn
	echo 1 >\$C/subsystems/$nqn/attr_allow_any_host
	mkdir \$C/subsystems/$nqn/namespaces/1
	echo -n $dev >\$C/subsystems/$nqn/namespaces/1/device_path
	[ -b $dev ] || echo 1 >\$C/subsystems/$nqn/namespaces/1/buffered_io
	echo 1 >\$C/subsystems/$nqn/namespaces/1/enable
fi
if [ ! -d \$C/ports/$port ]; then
	mkdir \$C/ports/$port
	echo ipv4 >\$C/ports/$port/addr_adrfam
	echo tcp >\$C/ports/$port/addr_trtype
	echo $addr >\$C/ports/$port/addr_traddr
	echo 4420 >\$C/ports/$port/addr_trsvcid
fi
ln -s \$C/subsystems/$nqn \$C/ports/$port/subsystems/$nqn
log "nvmet: $dev as $nqn on $addr:4420"
SH
}

# nvme_connect_sh NQN TRADDR: guest shell lines connecting the host side through
# /dev/nvme-fabrics (the kernel answers "instance=N,cntlid=M" on the same fd)
nvme_connect_sh() {
	cat <<SH
modprobe nvme-tcp || log "modprobe nvme-tcp failed"
exec 3<>/dev/nvme-fabrics
printf 'nqn=$1,transport=tcp,traddr=$2,trsvcid=4420' >&3
read -r reply <&3
exec 3>&-
log "nvme-fabrics: \$reply"
SH
}

# the agent understands the "nvme_tcp" volume form (bench-coord validate accepts it)
vmlab_have_nvme_tcp_volume() {
	cat >"$VT/probe-nvme-tcp.json" <<'JSON'
{"name": "probe", "agents": [{"name": "a", "endpoint": "tcp://127.0.0.1:1"}],
 "volumes": [{"agent": "a", "nvme_tcp": {"traddr": "10.0.2.15", "trsvcid": "4420",
              "subnqn": "nqn.2026-11.io.bench-coord:probe"}}],
 "steps": [{"name": "s", "rw": "read", "runtime": "1s"}]}
JSON
	"$COORD" validate "$VT/probe-nvme-tcp.json" >"$VT/probe-nvme-tcp.out" 2>&1
}

