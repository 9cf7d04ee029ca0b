#!/bin/bash
# test_multihost_mounted_loop: an allowlisted loop device on namespace hosts. While it is mounted
# a write step is refused before any I/O, naming the device and "mounted" (a read step runs);
# unmounted, its ext4 signature still refuses writes; "destructive" in the profile alone, or
# --allow-destructive on the agent alone, is not enough; both together allow the write.
. "$(dirname "$0")/../hosts/hosts.sh"
command -v losetup >/dev/null || hosts_skip "losetup (util-linux) is not installed"
command -v mkfs.ext4 >/dev/null || hosts_skip "mkfs.ext4 (e2fsprogs) is not installed"

IMG="$HOSTS_DIR/disk.img"
MNT="$HOSTS_DIR/mnt"
truncate -s 64M "$IMG"
mkfs.ext4 -q -F "$IMG"
LOOP=$(losetup -f --show "$IMG" 2>/dev/null) || hosts_skip "no free loop device (losetup -f failed)"
hosts_on_exit "losetup -d $LOOP"
mkdir -p "$MNT"
mount "$LOOP" "$MNT"
hosts_on_exit "umount $MNT"

# h1: the device allowed; h2: the same, and --allow-destructive
HOST_ALLOW[1]=$LOOP
HOST_ALLOW[2]=$LOOP
HOST_ARGS[2]=--allow-destructive
hosts_up 2

# step AGENT RW [DESTRUCTIVE]: one small step on the loop device; exit code in RC, output in OUT
step() {
	local agent=$1 rw=$2 destructive=${3:-false} n=$((++NSTEP))
	cat >"$HOSTS_DIR/p$n.json" <<JSON
{"name": "mh-loop-$n", "agents": $(agents_json "${agent#h}"),
 "volumes": [{"agent": "$agent", "path": "$LOOP", "destructive": $destructive}],
 "steps": [{"name": "s", "rw": "$rw", "bs": "4k", "iodepth": 2, "runtime": "1s"}]}
JSON
	RC=0
	OUT=$("$COORD" run -q -o "$HOSTS_DIR/out$n" "$HOSTS_DIR/p$n.json" 2>&1) || RC=$?
	echo "== step $n: $agent $rw destructive=$destructive: exit $RC"
	echo "$OUT" | grep -E "error|results" || true
}
NSTEP=0

step h1 randwrite
[ "$RC" = 1 ] || fail "write to a mounted device: exit $RC, expected 1"
echo "$OUT" | grep -q "refusing to write to $LOOP: mounted on $MNT (ext4)" ||
	fail "the refusal does not name $LOOP and \"mounted\""
grep -q "refusing to write to $LOOP: mounted" "${HOST_LOG[1]}" || fail "h1 did not log the refusal"
step h2 randwrite true
[ "$RC" = 1 ] && echo "$OUT" | grep -q "$LOOP: mounted" || fail "a mounted device was written with both consents"

step h1 randread
[ "$RC" = 0 ] || fail "a read step on an allowed, mounted device was refused"

umount "$MNT"
step h1 randwrite
[ "$RC" = 1 ] || fail "write to an ext4 device: exit $RC, expected 1"
echo "$OUT" | grep -q "refusing to write to $LOOP: carries a signature: ext2/3/4 filesystem" ||
	fail "the refusal does not name the ext4 signature"
echo "$OUT" | grep -q '"destructive": true' || fail "the refusal does not say how to override it"
step h1 randwrite true
[ "$RC" = 1 ] && echo "$OUT" | grep -q "not started with --allow-destructive" ||
	fail "\"destructive\" in the profile alone allowed the write"
step h2 randwrite
[ "$RC" = 1 ] && echo "$OUT" | grep -q "profile does not mark the volume" ||
	fail "--allow-destructive on the agent alone allowed the write"
step h2 randwrite true
[ "$RC" = 0 ] || fail "both consents given, yet the write was refused"
grep -q "writing anyway" "${HOST_LOG[2]}" || fail "h2 did not log that it destroys the signature"
# nothing was written before the refusals: the device was still ext4 until the last step
echo "PASS"
