#!/bin/bash
# test_package_rpm: the .rpm as a user gets it, installed. CPack builds it from this build tree;
# its header names the package's maintainer, vendor and description (not CPack's placeholders)
# and marks the configuration files; rpm installs it into a private root (--root, its own
# database: the machine's own packages are not touched); the installed binaries run
# (--version, --help, a short local run that finds the installed bench-agent beside the
# installed bench-coord); rpm -V finds every file as packaged; rpm -e removes every file again.
# Root only (rpm --root chroots); skipped without rpm, rpmbuild or cpack.
. "$(dirname "$0")/lib.sh"

skip() {
	echo "SKIP: $*"
	exit 77
}
[ "$(id -u)" = 0 ] || skip "not root (rpm --root needs chroot)"
for t in rpm rpmbuild cpack; do
	command -v $t >/dev/null || skip "$t is not installed (deploy/install-deps.sh --test)"
done

# 1. build the package (the build tree's targets are built already; CPack installs them)
(cd "$BC_BIN" && cpack -G RPM -B "$T/pkg") >"$T/cpack.log" 2>&1 || {
	cat "$T/cpack.log"
	fail "cpack -G RPM failed"
}
RPM=$(ls "$T"/pkg/bench-coord-*.rpm)
echo "package: $RPM"
rpm -qip "$RPM" | tee "$T/info"
maint=$(sed -n 's/^BC_MAINTAINER:STRING=//p' "$BC_BIN/CMakeCache.txt")
grep -qxF "Packager    : $maint" "$T/info" || fail "the .rpm's Packager is not BC_MAINTAINER ($maint)"
! grep -q "^Vendor *: Humanity" "$T/info" || fail "the .rpm's Vendor is CPack's placeholder"
grep -q "^Vendor *: bench-coord" "$T/info" || fail "the .rpm's Vendor is not bench-coord"
! grep -q "installer created using CPack" "$T/info" || fail "the .rpm's description is CPack's placeholder"
grep -q "per-second statistics with latency histograms" "$T/info" || fail "the .rpm has not the package description"
rpm -qpc "$RPM" | sort >"$T/conf"
printf '%s\n' /etc/bench-agent.json /etc/default/bench-agent | cmp -s - "$T/conf" ||
	fail "the .rpm's configuration files: $(cat "$T/conf")"
rpm -qpl "$RPM" | sort >"$T/contents"
for f in /usr/bin/bench-coord /usr/bin/bench-agent /usr/lib/systemd/system/bench-agent.service \
	/usr/share/man/man1/bench-coord.1.gz /usr/share/man/man8/bench-agent.8.gz \
	/usr/share/man/man5/bench-coord-profile.5.gz /usr/share/bash-completion/completions/bench-coord \
	/usr/share/doc/bench-coord/examples/profiles/local-quickstart.json; do
	grep -qxF "$f" "$T/contents" || fail "the package lacks $f"
done
# no directory the system owns (an RPM that owns /usr/bin conflicts with filesystem)
for d in /etc /etc/default /usr /usr/bin /usr/lib /usr/lib/systemd /usr/lib/systemd/system /usr/share \
	/usr/share/man /usr/share/man/man1 /usr/share/bash-completion/completions; do
	! grep -qxF "$d" "$T/contents" || fail "the package owns the system directory $d"
done

# 2. install it into a private root with its own database; libraries come from this system,
# which the root does not have (--nodeps), the binaries run from outside it
ROOT="$T/root"
mkdir -p "$ROOT"
rpm --root "$ROOT" --initdb
rpm -i --root "$ROOT" --nodeps "$RPM" >"$T/rpm.log" 2>&1 || { cat "$T/rpm.log"; fail "rpm -i failed"; }
rpm -q --root "$ROOT" bench-coord | grep -q "^bench-coord-" || fail "rpm -q does not know the installed package"
rpm -V --root "$ROOT" --nodeps bench-coord >"$T/verify" 2>&1 || { cat "$T/verify"; fail "rpm -V: files differ from the package"; }
[ -x "$ROOT/usr/bin/bench-coord" ] && [ -x "$ROOT/usr/bin/bench-agent" ] || fail "the installed binaries are not there"
"$ROOT/usr/bin/bench-coord" --version | grep -q "^bench-coord [0-9]" || fail "installed bench-coord --version"
"$ROOT/usr/bin/bench-agent" --version | grep -q "^bench-agent [0-9]" || fail "installed bench-agent --version"
"$ROOT/usr/bin/bench-coord" --help | grep -q "^usage: bench-coord" || fail "installed bench-coord --help"
"$ROOT/usr/bin/bench-agent" --help | grep -q "key-announce" || fail "installed bench-agent --help"
grep -q "^ExecStart=/usr/bin/bench-agent " "$ROOT/usr/lib/systemd/system/bench-agent.service" ||
	fail "the installed unit does not run /usr/bin/bench-agent"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$ROOT/etc/bench-agent.json" ||
	fail "the installed /etc/bench-agent.json is not JSON"
cat >"$T/p.json" <<'JSON'
{"name": "rpm-smoke", "agents": [{"name": "l1", "endpoint": "local"}],
 "volumes": [{"agent": "l1", "path": "null"}],
 "steps": [{"name": "s", "rw": "randread", "bs": "4k", "iodepth": 4, "ramp": "0s", "runtime": "1s"}]}
JSON
# the installed coordinator starts the installed agent beside it, not the build tree's
(unset BC_AGENT_BIN; cd "$T" && "$ROOT/usr/bin/bench-coord" run -q -o "$T/runs" "$T/p.json") >"$T/run.log" 2>&1 || {
	cat "$T/run.log"
	fail "a local run with the installed binaries failed"
}
R=$(run_dir "$T/runs")
json "$R/run.json" "r['status']" | grep -qx ok || fail "the installed run's status is not ok"
grep -q '"event":"stats"' "$R/events.jsonl" || fail "the installed run recorded no per-second stats"
if command -v mandoc >/dev/null; then
	out=$(mandoc -Tlint -W warning "$ROOT/usr/share/man/man8/bench-agent.8.gz" 2>&1 || true)
	[ -z "$out" ] || fail "installed bench-agent.8: $out"
fi

# 3. remove it: nothing of it is left
rpm -e --root "$ROOT" --nodeps bench-coord >"$T/erase.log" 2>&1 || { cat "$T/erase.log"; fail "rpm -e failed"; }
while read -r f; do
	[ -d "$ROOT$f" ] && continue
	[ ! -e "$ROOT$f" ] || fail "$f is left after rpm -e"
done <"$T/contents"
echo "PASS"
