#!/bin/bash
# escape.sh CASE: a volume that tries to leave the agent's scratch directory or its allowlist,
# on loopback with one agent allowing only this test's work directory ($T/**): each is refused
# at PREPARE with an error naming the volume and the reason, and nothing outside is written.
# Cases:
#   hardlink   a hard link in the scratch directory to a file outside it (and the same link
#              allowed by name: then it runs)
#   devnode    a block device node made in the scratch directory (of a loop device of this
#              test's), a char device node, a FIFO, a socket, a directory, /dev/loopN by a
#              relative path
#   nul_path   NUL and control characters in a volume path: refused by `validate` (JSON path
#              named) and by the agent itself (a PREPARE sent past the coordinator)
#   mount      a file bind-mounted over a scratch file, and a tmpfs mounted inside scratch
#   symlink    a symlink in a path component inside scratch, and a dangling symlink to be
#              created through
#   fileset    a file set's tree (a "fileset" volume) with, in place of one of its files, a
#              symlink to a file outside, a hard link to it, a FIFO, a device node (root); in
#              place of one of its directories, a symlink to a directory outside: each refused
#              at PREPARE naming the file, nothing outside written or deleted (also with
#              "fileset_format": "fresh", which deletes the tree's own names: a planted symlink
#              goes, never what it points to)
#   scratch_swap  the scratch directory itself replaced by a symlink to a directory outside
#              after the agent started (and a scratch path through another user's symlink)
. "$BC_SRC/tests/e2e/lib.sh"
CASE=${1:?case}
GARBAGE="$BC_BIN/tests/bc_garbage"

need_root() {
	[ "$(id -u)" = 0 ] || { echo "skip: $CASE needs root ($*)"; exit 77; }
}

# outside: a directory of ours that is neither scratch nor allowed (same filesystem as $T,
# so hard links work)
OUTSIDE=$(mktemp -d /var/tmp/bc-outside.XXXXXX)
on_exit "rm -rf '$OUTSIDE'"
dd if=/dev/urandom of="$OUTSIDE/target.dat" bs=1M count=16 2>/dev/null
SUM0=$(sha256sum <"$OUTSIDE/target.dat")
start_agent a1
S="$T/scratch-a1"

# try PATH [RW]: one 2 s step on PATH (relative paths live in scratch); sets RC, OUTPUT.
# VOLX and STEPX add keys to the volume and the step (', "fileset": {...}')
try() {
	local sz=""
	[ -z "${SIZE:-}" ] || sz=", \"size\": \"$SIZE\""
	cat >"$T/p.json" <<JSON
{"name": "escape", "agents": [{"name": "a1", "endpoint": "$EP_a1"}],
 "volumes": [{"agent": "a1", "path": "$1"$sz${VOLX:-}}],
 "steps": [{"name": "s", "rw": "${2:-randwrite}", "bs": "4k", "iodepth": 2, "runtime": "2s"${STEPX:-}}]}
JSON
	RC=0
	timeout 60 "$COORD" run -q -o "$T/out" "$T/p.json" >"$T/run.out" 2>&1 || RC=$?
	OUTPUT=$(cat "$T/run.out")
}

# refused PATH REGEX [RW]: the run of PATH is refused at PREPARE with REGEX in the message
refused() {
	try "$1" "${3:-randwrite}"
	[ "$RC" = 1 ] || fail "$1: exit $RC, expected a refusal: $OUTPUT"
	# a here-string, not a pipe: grep -q quitting early would SIGPIPE echo (pipefail)
	grep -q "error: step s: agent a1" <<<"$OUTPUT" || fail "$1: not refused by the agent: $OUTPUT"
	grep -qE "$2" <<<"$OUTPUT" || fail "$1: the refusal does not say /$2/: $OUTPUT"
	echo "$1: refused: $(echo "$OUTPUT" | grep -E "$2" | head -n1)"
}

untouched() {
	[ "$(sha256sum <"$OUTSIDE/target.dat")" = "$SUM0" ] || fail "the file outside scratch was written"
}

case $CASE in
hardlink)
	ln "$OUTSIDE/target.dat" "$S/hard.dat"
	refused hard.dat "hard.dat.*(2 links|hard link)"
	untouched
	refused hard.dat "hard.dat.*(2 links|hard link)" randread
	# allowed by name (not by a glob): the operator said this very file
	start_agent a2 --allow "$T/scratch-a2/hard.dat"
	ln "$OUTSIDE/target.dat" "$T/scratch-a2/hard.dat"
	EP_a1=$EP_a2 try hard.dat randwrite
	[ "$RC" = 0 ] || fail "a hard link allowed by name is refused: $OUTPUT"
	;;
devnode)
	need_root "mknod, losetup"
	command -v losetup >/dev/null || { echo "skip: no losetup"; exit 77; }
	truncate -s 16M "$T/loop.img"
	LOOP=$(losetup -f --show "$T/loop.img") || { echo "skip: cannot attach a loop device"; exit 77; }
	on_exit "losetup -d '$LOOP'"
	SUML=$(sha256sum <"$T/loop.img")
	read -r MAJ MIN < <(stat -c '%t %T' "$LOOP")
	mknod "$S/blk2" b "$((16#$MAJ))" "$((16#$MIN))"
	refused blk2 "blk2.*(block device|device node)"
	refused blk2 "blk2.*(block device|device node)" randread
	[ "$(sha256sum <"$T/loop.img")" = "$SUML" ] || fail "the loop device was written through scratch/blk2"
	mknod "$S/chr" c 1 3
	refused chr "chr.*(char(acter)? device|device node)"
	mkfifo "$S/fifo"
	refused fifo "fifo.*FIFO" randread
	python3 -c "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$S/sock"
	refused sock "sock.*socket" randread
	mkdir "$S/dir"
	refused dir "dir.*directory" randread
	# the loop device by a path relative to scratch: not below it, not allowed
	refused "../../../../../../..$LOOP" "not in this agent's allowlist|beneath|outside"
	[ "$(sha256sum <"$T/loop.img")" = "$SUML" ] || fail "the loop device was written"
	;;
nul_path)
	for bad in 'v.dat\u0000/../../etc/passwd' 'v.dat\n' 'a\u001b[2Jb.dat' 'v\u007f.dat'; do
		cat >"$T/p.json" <<JSON
{"name": "escape", "agents": [{"name": "a1", "endpoint": "$EP_a1"}],
 "volumes": [{"agent": "a1", "path": "ok.dat", "size": "1m"}, {"agent": "a1", "path": "$bad", "size": "1m"}],
 "steps": [{"name": "s", "rw": "randwrite", "bs": "4k", "runtime": "1s"}]}
JSON
		rc=0
		"$COORD" validate "$T/p.json" >"$T/v.out" 2>&1 || rc=$?
		[ "$rc" = 2 ] || fail "validate accepts path '$bad' (exit $rc): $(cat "$T/v.out")"
		grep -q 'volumes\[1\]\.path' "$T/v.out" || fail "validate does not name volumes[1].path: $(cat "$T/v.out")"
		grep -qi "control character\|NUL" "$T/v.out" || fail "validate does not say why: $(cat "$T/v.out")"
		rc=0
		"$COORD" run -q -o "$T/out" "$T/p.json" >"$T/r.out" 2>&1 || rc=$?
		[ "$rc" = 2 ] || fail "run accepts path '$bad' (exit $rc)"
		echo "validate: $(head -n1 "$T/v.out")"
	done
	# the agent on its own: a PREPARE sent past the coordinator, with a path holding a NUL
	[ -x "$GARBAGE" ] || fail "$GARBAGE not built"
	printf '%s' '{"step":0,"name":"s","workload":{"rw":"randwrite","bs":4096,"iodepth":1,"runtime":1},"volumes":[{"path":"v.dat\u0000/../../../../etc/passwd","size":1048576}]}' >"$T/prep.json"
	"$GARBAGE" --prepare "$EP_a1" "$KEY_a1" "$COORD_CERT" "$T/prep.json" >"$T/prep.out" 2>&1 ||
		fail "no answer to PREPARE: $(cat "$T/prep.out")"
	cat "$T/prep.out"
	grep -q '^ERROR' "$T/prep.out" || fail "the agent accepted a path with a NUL"
	grep -qi "control character\|NUL" "$T/prep.out" || fail "the agent does not say why"
	[ ! -e "$S/v.dat" ] || fail "the agent created v.dat from a path cut at its NUL"
	;;
mount)
	need_root "mount"
	touch "$S/bound.dat"
	mount --bind "$OUTSIDE/target.dat" "$S/bound.dat" || { echo "skip: cannot bind-mount"; exit 77; }
	on_exit "umount -l '$S/bound.dat'"
	refused bound.dat "bound.dat.*mount"
	untouched
	mkdir "$S/sub"
	mount -t tmpfs -o size=8m bc-escape "$S/sub" || { echo "skip: cannot mount a tmpfs"; exit 77; }
	on_exit "umount -l '$S/sub'"
	SIZE=1m refused sub/v.dat "sub/v.dat.*mount"
	;;
symlink)
	mkdir "$S/real"
	ln -s "$OUTSIDE" "$S/link"
	refused link/target.dat "link/target.dat.*(symlink|symbolic link|allowlist)"
	untouched
	ln -s "$OUTSIDE/new.dat" "$S/dangling.dat"
	try dangling.dat randwrite
	[ "$RC" != 0 ] || fail "a dangling symlink was created through"
	[ ! -e "$OUTSIDE/new.dat" ] || fail "a file was created outside scratch through a dangling symlink"
	;;
fileset)
	# a file set "tree" of 2 x 2 directories, 3 files each; FRESH: "fileset_format": "fresh"
	export VOLX=', "fileset": {"depth": 2, "width": 2, "files": 3, "sizes": "64k"}'
	FRESH=', "fileset_format": "fresh"'
	try tree randwrite
	[ "$RC" = 0 ] || fail "the plain file set run failed: $OUTPUT"
	F="$S/tree/vdb.1_2.dir/vdb.2_1.dir/vdb_f0002.file"
	[ -f "$F" ] || fail "no $F: $(find "$S/tree" | head)"
	rm "$F" && ln -s "$OUTSIDE/target.dat" "$F"
	refused tree "vdb_f0002.file.*symbolic link"
	untouched
	# "fresh" deletes the tree's own names: the link goes, the file outside stays, a file is made
	STEPX=$FRESH try tree randread
	[ "$RC" = 0 ] || fail "fresh over a planted symlink: $OUTPUT"
	[ -f "$F" ] && [ ! -L "$F" ] || fail "fresh left the symlink in place"
	untouched
	rm -f "$F" && ln "$OUTSIDE/target.dat" "$F"
	refused tree "vdb_f0002.file.*(2 links|hard link)"
	refused tree "vdb_f0002.file.*(2 links|hard link)" randread
	untouched
	rm "$F" && mkfifo "$F"
	refused tree "vdb_f0002.file.*FIFO" randread
	rm "$F"
	if [ "$(id -u)" = 0 ]; then
		mknod "$F" c 1 3
		refused tree "vdb_f0002.file.*(char(acter)? device|device node)"
		rm "$F"
	fi
	D="$S/tree/vdb.1_2.dir"
	mv "$D" "$T/moved.dir" && ln -s "$OUTSIDE" "$D"
	refused tree "vdb.1_2.dir.*symbolic link"
	STEPX=$FRESH refused tree "vdb.1_2.dir.*symbolic link"
	untouched
	[ -z "$(ls "$OUTSIDE" | grep -v '^target.dat$')" ] || fail "files made outside: $(ls "$OUTSIDE")"
	rm "$D" && mv "$T/moved.dir" "$D"
	STEPX=$FRESH try tree randread
	[ "$RC" = 0 ] || fail "the tree restored does not run: $OUTPUT"
	;;
scratch_swap)
	need_root "chown"
	cp "$OUTSIDE/target.dat" "$S/target.dat"
	try target.dat randwrite
	[ "$RC" = 0 ] || fail "the plain run failed: $OUTPUT"
	mv "$S" "$S.moved"
	ln -s "$OUTSIDE" "$S"
	refused target.dat "target.dat.*(symlink|replaced|not the directory|allowlist)"
	untouched
	rm "$S"
	mv "$S.moved" "$S"
	# an agent whose scratch path goes through a symlink another user owns does not start
	ln -s "$T" "$T/other-link"
	chown -h nobody "$T/other-link"
	rc=0
	"$AGENT" --listen 'tcp://127.0.0.1:*' --scratch-dir "$T/other-link/scratch-a1" \
		--cert "$T/keys-a1/agent.cert" --authorized-keys "$T/keys-a1/authorized_keys" \
		>"$T/other.log" 2>&1 || rc=$?
	[ "$rc" != 0 ] || fail "an agent started with a scratch path through another user's symlink"
	grep -q "symlink owned by uid" "$T/other.log" || fail "no clear error: $(cat "$T/other.log")"
	;;
*)
	fail "unknown case $CASE"
	;;
esac
echo "PASS: $CASE"
