#!/bin/bash
# test_package_deb: the .deb as a user gets it. CPack builds it from this build tree; lintian
# finds no error in it; dpkg installs it; the installed binaries run (--version, a short local
# run that finds /usr/bin/bench-agent beside /usr/bin/bench-coord); the installed unit passes
# `systemd-analyze verify`; the installed man pages pass the linter; dpkg --purge removes
# every file again. Root only, and only on a machine without bench-coord installed (the test
# leaves the machine as it found it); skipped without dpkg-deb, dpkg or lintian.
. "$(dirname "$0")/lib.sh"

skip() {
	echo "SKIP: $*"
	exit 77
}
[ "$(id -u)" = 0 ] || skip "not root (dpkg -i needs it)"
for t in dpkg dpkg-deb lintian cpack; do
	command -v $t >/dev/null || skip "$t is not installed (deploy/install-deps.sh --test)"
done
dpkg -s bench-coord >/dev/null 2>&1 && skip "a bench-coord package is installed already; not touching it"
for f in /usr/bin/bench-coord /usr/bin/bench-agent /etc/bench-agent.json /etc/default/bench-agent \
	/usr/lib/systemd/system/bench-agent.service; do
	[ ! -e "$f" ] || skip "$f exists (not from a package); not overwriting it"
done

INSTALLED=""
undo() {
	local rc=$?
	[ -z "$INSTALLED" ] || dpkg --purge bench-coord >/dev/null 2>&1 || true
	(exit $rc)
	cleanup
}
trap undo EXIT

# 1. build the package (the build tree's targets are built already; CPack installs them)
(cd "$BC_BIN" && cpack -G DEB -B "$T/pkg") >"$T/cpack.log" 2>&1 || {
	cat "$T/cpack.log"
	fail "cpack -G DEB failed"
}
DEB=$(ls "$T"/pkg/bench-coord_*.deb)
echo "package: $DEB"
dpkg-deb -I "$DEB"
dpkg-deb -c "$DEB" | awk '{print $6}' | sort >"$T/contents"
cat "$T/contents"
for f in ./usr/bin/bench-coord ./usr/bin/bench-agent ./usr/lib/systemd/system/bench-agent.service \
	./etc/bench-agent.json ./etc/default/bench-agent ./usr/share/man/man1/bench-coord.1.gz \
	./usr/share/man/man8/bench-agent.8.gz ./usr/share/man/man5/bench-coord-profile.5.gz \
	./usr/share/bash-completion/completions/bench-coord ./usr/share/doc/bench-coord/copyright \
	./usr/share/doc/bench-coord/changelog.gz \
	./usr/share/doc/bench-coord/examples/profiles/local-quickstart.json; do
	grep -qxF "$f" "$T/contents" || fail "the package lacks $f"
done
dpkg-deb -e "$DEB" "$T/control"
grep -qxF /etc/bench-agent.json "$T/control/conffiles" || fail "/etc/bench-agent.json is not a conffile"

# 2. lintian: no errors (warnings are printed)
lintian --tag-display-limit 0 "$DEB" >"$T/lintian" 2>&1 || true
cat "$T/lintian"
! grep -q '^E: ' "$T/lintian" || fail "lintian reports errors"

# 3. install and use it
dpkg -i "$DEB" >"$T/dpkg.log" 2>&1 || {
	cat "$T/dpkg.log"
	dpkg --purge bench-coord >/dev/null 2>&1 || true
	fail "dpkg -i failed (runtime libraries missing? deploy/install-deps.sh)"
}
INSTALLED=1
/usr/bin/bench-coord --version | grep -q "^bench-coord [0-9]" || fail "installed bench-coord --version"
/usr/bin/bench-agent --version | grep -q "^bench-agent [0-9]" || fail "installed bench-agent --version"
cat >"$T/p.json" <<'JSON'
{"name": "pkg-smoke", "agents": [{"name": "l1", "endpoint": "local"}],
 "volumes": [{"agent": "l1", "path": "null"}],
 "steps": [{"name": "s", "rw": "randread", "bs": "4k", "iodepth": 4, "ramp": "0s", "runtime": "1s"}]}
JSON
# the installed coordinator starts the installed agent beside it, not the build tree's
(unset BC_AGENT_BIN; cd "$T" && /usr/bin/bench-coord run -q -o "$T/runs" "$T/p.json") >"$T/run.log" 2>&1 || {
	cat "$T/run.log"
	fail "a local run with the installed binaries failed"
}
R=$(run_dir "$T/runs")
json "$R/run.json" "r['status']" | grep -qx ok || fail "the installed run's status is not ok"
json "$R/run.json" "r['steps'][0]['status']" | grep -qx ok || fail "the installed run's step is not ok"
grep -q '"event":"stats"' "$R/events.jsonl" || fail "the installed run recorded no per-second stats"
[ -s "$R/summary.md" ] || fail "the installed run wrote no summary.md"
systemd-analyze verify /usr/lib/systemd/system/bench-agent.service >"$T/verify" 2>&1 || {
	cat "$T/verify"
	fail "systemd-analyze verify failed on the installed unit"
}
grep -q "^ExecStart=/usr/bin/bench-agent " /usr/lib/systemd/system/bench-agent.service ||
	fail "the installed unit does not run /usr/bin/bench-agent"
if command -v mandoc >/dev/null; then
	for m in /usr/share/man/man1/bench-coord.1.gz /usr/share/man/man8/bench-agent.8.gz \
		/usr/share/man/man5/bench-coord-profile.5.gz; do
		out=$(mandoc -Tlint -W warning "$m" 2>&1 || true)
		[ -z "$out" ] || fail "installed $m: $out"
	done
fi

# 4. remove it: nothing of it is left
dpkg --purge bench-coord >"$T/purge.log" 2>&1 || { cat "$T/purge.log"; fail "dpkg --purge failed"; }
INSTALLED=""
while read -r f; do
	f=${f#.}
	[ -d "$f" ] && continue
	[ ! -e "$f" ] || fail "$f is left after dpkg --purge"
done <"$T/contents"
echo "PASS"
