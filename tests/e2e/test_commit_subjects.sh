#!/bin/bash
# test_commit_subjects: every commit after BASE has a subject of at most 72 characters
# (docs/style.md, "Docs and commits"), and tools/git-hooks/commit-msg refuses a longer one
# and accepts one at the limit. BASE is the last commit whose subject is longer: the history
# before it stays as it was written. Under a second.
. "$(dirname "$0")/lib.sh"

BASE=c582713
MAX=72
HOOK="$BC_SRC/tools/git-hooks/commit-msg"

# 1. the hook, on messages written here (comments and leading blank lines are not the subject)
msg() { printf '%s\n' "$@" >"$T/msg"; }
python3 -c "print('x' * $MAX)" >"$T/at"
python3 -c "print('é' * ($MAX + 1))" >"$T/over"
msg "# a comment line longer than seventy-two characters is not the subject, whatever its length" \
	"" "$(cat "$T/at")" "" "The body may be as long as it likes, and carries the why and the figures."
"$HOOK" "$T/msg" || fail "the hook refused a subject of $MAX characters"
msg "$(cat "$T/over")" "" "body"
if "$HOOK" "$T/msg" 2>"$T/hook.err"; then fail "the hook accepted a subject of $((MAX + 1)) characters"; fi
grep -q "$((MAX + 1)) characters" "$T/hook.err" || fail "the hook's message does not say the length: $(cat "$T/hook.err")"
echo "hook: $MAX characters accepted, $((MAX + 1)) refused"

# 2. the history after BASE
git -C "$BC_SRC" rev-parse --git-dir >/dev/null 2>&1 || {
	echo "SKIP: $BC_SRC is not a git checkout (a source tarball has no history)"
	exit 77
}
if ! git -C "$BC_SRC" cat-file -e "$BASE^{commit}" 2>/dev/null; then
	if [ "$(git -C "$BC_SRC" rev-parse --is-shallow-repository)" = true ]; then
		echo "SKIP: a shallow clone without $BASE (git fetch --unshallow to check the subjects)"
		exit 77
	fi
	fail "$BASE is not in this repository's history"
fi
git -C "$BC_SRC" merge-base --is-ancestor "$BASE" HEAD || fail "$BASE is not an ancestor of HEAD"
git -C "$BC_SRC" log --format='%h%x09%s' "$BASE..HEAD" >"$T/subjects"
python3 - "$T/subjects" "$MAX" <<'PY' || fail "commit subjects over $MAX characters (docs/style.md)"
import sys
path, limit = sys.argv[1], int(sys.argv[2])
rows = [l.rstrip("\n").split("\t", 1) for l in open(path, encoding="utf-8") if l.strip()]
bad = [(h, s) for h, s in rows if len(s) > limit]
for h, s in bad:
    print(f"{h}: {len(s)} characters: {s}")
print(f"{len(rows)} commits after the base, {len(bad)} with a subject over {limit} characters")
sys.exit(1 if bad else 0)
PY
echo "PASS"
