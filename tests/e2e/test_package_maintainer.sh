#!/bin/bash
# test_package_maintainer: the packages' Maintainer (BC_MAINTAINER) is checked when configuring:
# the values lintian reports as errors (no name, a malformed address, localhost, root) stop
# cmake with a message naming the value; a real one configures and reaches the CPack config
# (Maintainer of the .deb, Packager of the .rpm, the changelog's signature).
. "$(dirname "$0")/lib.sh"

command -v cmake >/dev/null || { echo "skip: no cmake"; exit 77; }
# each a full configure: one of each kind lintian rejects
for bad in "<jane@example.org>" "Jane <jane@localhost>" "root <ops@example.org>"; do
	rm -rf "$T/b"
	if cmake -S "$BC_SRC" -B "$T/b" -DBC_MAINTAINER="$bad" >"$T/out" 2>&1; then
		fail "BC_MAINTAINER='$bad' configured"
	fi
	grep -qF "BC_MAINTAINER: expected" "$T/out" || fail "no BC_MAINTAINER message for '$bad': $(tail "$T/out")"
	grep -qF -e "$bad" "$T/out" || fail "the message does not show '$bad'"
done
rm -rf "$T/b"
good="Jane Doe <jane.doe@example.org>"
cmake -S "$BC_SRC" -B "$T/b" -DBC_MAINTAINER="$good" >"$T/out" 2>&1 || { cat "$T/out"; fail "'$good' did not configure"; }
grep -qF "set(CPACK_PACKAGE_CONTACT \"$good\")" "$T/b/CPackConfig.cmake" || fail "the .deb's Maintainer is not '$good'"
grep -qF "%define packager $good" "$T/b/CPackConfig.cmake" || fail "the .rpm's Packager is not '$good'"
grep -qF -e "-- $good  " "$T/b/pkg/changelog" || fail "the changelog is not signed by '$good'"
echo PASS
