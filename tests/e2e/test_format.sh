#!/bin/bash
# test_format: every tracked C file is as the repository's .clang-format writes it (the tree is
# clean, so a change that is not formatted fails here, with the file and line named).
. "$(dirname "$0")/lib.sh"

command -v clang-format >/dev/null || { echo "skip: clang-format is not installed"; exit 77; }
cd "$BC_SRC"
if git rev-parse --git-dir >/dev/null 2>&1; then
	mapfile -t files < <(git ls-files '*.c' '*.h')
else
	mapfile -t files < <(find agent common coordinator tests bench tools -name '*.[ch]' | sort)
fi
[ "${#files[@]}" -gt 100 ] || fail "only ${#files[@]} C files found under $BC_SRC"
if ! clang-format --dry-run -Werror "${files[@]}" >"$T/out" 2>&1; then
	grep -E "^[^ ].*: (error|warning):" "$T/out" | head -n 20
	fail "$(grep -cE ': (error|warning):' "$T/out") places not formatted (clang-format -i FILE fixes them)"
fi
echo "$(clang-format --version | head -n1): ${#files[@]} files clean"
echo "PASS"
