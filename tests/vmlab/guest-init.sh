#!/bin/sh
# guest-init.sh - /init of a VM lab guest (busybox sh, PID 1). Mounts the
# pseudo filesystems, loads the NIC driver, gives each NIC listed in
# /etc/vmlab.conf its address (found by MAC), runs the guest's setup script,
# then starts the command channel, node_exporter and bench-agent as the
# config says, prints "vmlab: ready" on the console and waits forever (PID 1
# must not exit; the host kills QEMU).
#
# /etc/vmlab.conf (written by vm.sh into the guest's own initramfs piece):
#   VM_NAME           hostname
#   VM_NICS           "MAC=ADDR/PREFIX ..." (the first is QEMU user networking)
#   VM_AGENT          1: run bench-agent on :7470 with /etc/bench-agent keys
#   VM_AGENT_ARGS     more bench-agent options
#   VM_NODE_EXPORTER  1: run prometheus-node-exporter on :9100
#   VM_NODE_EXPORTER_ARGS  more node_exporter options (a textfile collector's directory)
#   VM_EXEC           1: the command channel on :7471 (guest-exec.sh)
# /etc/vmlab/setup.sh, when present, is sourced before the services start.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /var/tmp

VM_NAME=guest VM_NICS="" VM_AGENT=0 VM_AGENT_ARGS="" VM_NODE_EXPORTER=0 VM_NODE_EXPORTER_ARGS=""
VM_EXEC=1
[ -f /etc/vmlab.conf ] && . /etc/vmlab.conf
hostname "$VM_NAME"

log() {
	echo "vmlab: $*"
}

# entropy for libsodium's key handling: virtio-rng when QEMU has one
modprobe virtio-rng 2>/dev/null
# the cloud kernel has no built-in NIC driver: virtio_pci then virtio_net
# (modprobe pulls virtio, virtio_ring, the pci_*_dev helpers, net_failover)
modprobe virtio_pci || log "modprobe virtio_pci failed"
modprobe virtio_net || log "modprobe virtio_net failed"
modprobe configfs 2>/dev/null
mount -t configfs none /sys/kernel/config 2>/dev/null

ip link set lo up
for nic in $VM_NICS; do
	mac=${nic%%=*}
	addr=${nic#*=}
	dev=""
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		for d in /sys/class/net/*; do
			[ "$(cat "$d/address" 2>/dev/null)" = "$mac" ] && dev=${d##*/}
		done
		[ -n "$dev" ] && break
		sleep 0.2
	done
	if [ -z "$dev" ]; then
		log "no interface with MAC $mac"
		continue
	fi
	ip addr add "$addr" dev "$dev"
	ip link set "$dev" up
	log "$dev $mac $addr"
done

if [ -f /etc/vmlab/setup.sh ]; then
	log "setup"
	. /etc/vmlab/setup.sh
	log "setup done (status $?)"
fi

if [ "$VM_EXEC" = 1 ]; then
	# -ll: keep listening after each connection; one shell per connection
	nc -ll -p 7471 -e /sbin/vmlab-exec &
fi
if [ "$VM_NODE_EXPORTER" = 1 ] && [ -x /usr/bin/prometheus-node-exporter ]; then
	# Only what the ceiling analysis reads most (CPU, disks, NICs, load,
	# memory), without the exporter's own Go metrics: under TCG a scrape of
	# the default set takes 0.6-1.8 s of the guest's CPU, this one ~0.25 s,
	# and bench-coord gives a scrape 800 ms.
	prometheus-node-exporter --web.listen-address=:9100 --collector.disable-defaults \
		--web.disable-exporter-metrics --collector.cpu --collector.diskstats \
		--collector.netdev --collector.loadavg --collector.meminfo \
		$VM_NODE_EXPORTER_ARGS >/tmp/node-exporter.log 2>&1 &
	# the Go runtime takes seconds to start here: "ready" means scrapeable
	# (port 9100 = 0x238C in LISTEN state, 0A, in /proc/net/tcp6 or tcp)
	for _ in $(seq 100); do
		grep -q ':238C [0-9A-F:]* 0A' /proc/net/tcp6 /proc/net/tcp 2>/dev/null && break
		sleep 0.2
	done
	log "node_exporter on :9100"
fi
if [ "$VM_AGENT" = 1 ]; then
	mkdir -p /var/tmp/bench-agent
	set -f # VM_AGENT_ARGS holds globs for --allow: split, never expand
	# shellcheck disable=SC2086
	bench-agent --listen 'tcp://*:7470' --scratch-dir /var/tmp/bench-agent \
		--cert /etc/bench-agent/agent.cert --authorized-keys /etc/bench-agent/authorized_keys \
		$VM_AGENT_ARGS >/dev/console 2>&1 &
	log "bench-agent pid $!"
	set +f
fi
log "ready"
while :; do
	sleep 3600
done
