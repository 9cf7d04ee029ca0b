#!/bin/sh
# guest-exec.sh - the VM lab's command channel in the guest (run by
# `nc -ll -p 7471 -e`, the socket on stdin and stdout): reads a shell script
# until the host half-closes, runs it, and answers with its output and a last
# line "vmlab-status: N". Reachable only through the host's forwarded loopback
# port (QEMU user networking with restrict=on) and from the lab's own linked
# guests: a test tool, not a service.
f=/tmp/vmlab-exec.$$
cat >"$f"
# log() as in /init, so setup snippets run here too
sh -c 'log() { echo "vmlab: $*"; }; . "$1"' vmlab-exec "$f" 2>&1
echo "vmlab-status: $?"
rm -f "$f"
