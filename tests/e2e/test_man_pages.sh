#!/bin/bash
# test_man_pages: bench-coord(1), bench-agent(8) and bench-coord-profile(5) pass a man linter
# (mandoc -Tlint, else groff -ww -z) and stay in step with the binaries: every subcommand of
# `bench-coord --help` has a section in bench-coord(1) and back, each section lists exactly the
# options of `bench-coord CMD --help`, and bench-agent(8)'s synopsis and options are exactly
# `bench-agent --help`'s. The bash completion scripts parse and complete from the same --help.
. "$(dirname "$0")/lib.sh"
MAN="$BC_SRC/man"

# 1. lint
if command -v mandoc >/dev/null; then
	for m in "$MAN"/*.[158]; do
		out=$(mandoc -Tlint -W warning "$m" 2>&1 || true)
		[ -z "$out" ] || fail "mandoc -Tlint $m: $out"
	done
	echo "mandoc -Tlint: clean"
elif command -v groff >/dev/null; then
	for m in "$MAN"/*.[158]; do
		out=$(groff -man -ww -z "$m" 2>&1 || true)
		[ -z "$out" ] || fail "groff -ww $m: $out"
	done
	echo "groff -man -ww -z: clean (mandoc not installed)"
else
	echo "SKIP: neither mandoc nor groff is installed"; exit 77
fi

# 2. --help against the pages
python3 - "$COORD" "$AGENT" "$MAN" <<'PY' || fail "the man pages and --help differ (see above)"
import re, subprocess, sys
coord, agent, man = sys.argv[1:]

def help_text(*argv):
    r = subprocess.run(list(argv), capture_output=True, text=True)
    return r.stdout + r.stderr

def opts(text):
    long = set(re.findall(r"(?<![\w-])--[a-zA-Z][\w-]*", text))
    short = set(re.findall(r"(?<![\w-])-[a-zA-Z](?=[ ,\]])", text))
    return (long | short) - {"--help", "-h"}

def sections(src, macro):
    """{heading: body} of a man source, split at .SH or .SS"""
    out, name = {}, None
    for line in src.splitlines():
        m = re.match(r"\.%s\s+\"?([^\"]+)\"?" % macro, line)
        if m:
            name = m.group(1).strip()
            out[name] = ""
        elif line.startswith(".SH") and macro == "SS":
            name = None
        elif name:
            out[name] += line + "\n"
    return out

def unescape(s):
    return s.replace("\\-", "-").replace("\\fB", "").replace("\\fR", "").replace("\\fI", "")

bad = 0
src = open(f"{man}/bench-coord.1").read()
ss = {k: unescape(v) for k, v in sections(src, "SS").items()}
cmds = re.findall(r"^  ([a-z][\w-]*) ", help_text(coord, "--help"), re.M)
if set(cmds) != set(ss):
    print("bench-coord --help commands", sorted(cmds), "vs bench-coord.1 sections", sorted(ss))
    bad = 1
for c in cmds:
    want = opts(help_text(coord, c, "--help")) if c != "version" else set()
    have = opts(ss.get(c, ""))
    if want != have:
        print(f"bench-coord {c}: only in --help: {sorted(want - have)}; only in the man page: {sorted(have - want)}")
        bad = 1
sh = {k: unescape(v) for k, v in sections(open(f"{man}/bench-agent.8").read(), "SH").items()}
want = opts(help_text(agent, "--help"))
have = opts(sh.get("SYNOPSIS", "") + sh.get("OPTIONS", ""))
if want != have:
    print(f"bench-agent: only in --help: {sorted(want - have)}; only in the man page: {sorted(have - want)}")
    bad = 1
# the profile page names every top-level key the parser knows
prof = unescape(open(f"{man}/bench-coord-profile.5").read())
for key in ["name", "agents", "nodes", "volumes", "defaults", "steps", "expect", "destructive",
            "on_agent_loss", "server_key", "endpoint", "sweep", "experiment", "streams"]:
    if not re.search(r"\b%s\b" % key, prof):
        print("bench-coord-profile.5 does not describe", key)
        bad = 1
sys.exit(bad)
PY
echo "help and man pages agree"

# 3. bash completion: subcommands, a subcommand's options, profile files
[ -r /usr/share/bash-completion/bash_completion ] || echo "note: bash-completion not installed (compopt etc. still work)"
mkdir -p "$T/c/sub"
: >"$T/c/p1.json"
: >"$T/c/notes.txt"
complete_words() {
	bash -c '
		. "$1/deploy/bash-completion/bench-coord"
		shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_bench_coord
		printf "%s\n" "${COMPREPLY[@]}"' _ "$BC_SRC" "$@"
}
cd "$T/c"
# (into variables: grep -q on a pipe would end the writer early under pipefail)
out=$(complete_words "$COORD" "")
grep -qx keyscan <<<"$out" && grep -qx run <<<"$out" || fail "completion: subcommands: $out"
out=$(complete_words "$COORD" run "--pre")
grep -qx -- "--prepare-timeout" <<<"$out" || fail "completion: run --pre: $out"
out=$(complete_words "$COORD" keyscan "--tr")
grep -qx -- "--trust-on-first-use" <<<"$out" || fail "completion: keyscan --tr: $out"
out=$(complete_words "$COORD" run "")
grep -qx p1.json <<<"$out" && grep -qx sub/ <<<"$out" || fail "completion: profiles not offered: $out"
! grep -qx notes.txt <<<"$out" || fail "completion: a non-profile offered for run"
out=$(bash -c ". '$BC_SRC/deploy/bash-completion/bench-agent'
	COMP_WORDS=('$AGENT' --key); COMP_CWORD=1; _bench_agent; printf '%s\n' \"\${COMPREPLY[@]}\"")
grep -qx -- --key-announce <<<"$out" || fail "completion: bench-agent --key-announce: $out"
echo "PASS"
