#!/bin/bash
# import-corpus.sh - how many of the real-world job files in tests/data/corpus import with the
# same load. Each fio job file and vdbench parameter file is imported as a user would
# (bench-coord import-fio / import-vdbench), then, when refused, again with --lenient; every
# profile written is checked with `bench-coord validate`.
#   clean    imported without --lenient and valid: the same load as the tool's own run
#   refused  exit 2: at least one difference, each named file:line
#   lenient  refused, and --lenient wrote a valid profile
#   invalid  a profile was written that validate refuses (a defect: must be 0)
#   error    exit 1: the file could not be read or mapped at all
#   crash    killed by a signal (a defect: must be 0)
#   clean_given_duration (fio) clean once --until-stopped 3600 says how long the jobs that
#            run until their harness stops them (time_based without runtime) ran
#   templates a file with placeholders its harness fills in before the tool sees it (${VAR}
#            environment references, jinja {{ }} / {% %}, python %(name)s / %%, and in vdbench
#            files a value $name that vdbench's command line fills in, lun=$lun): neither fio
#            nor vdbench can run it as it is; counted in the other classes as well, and
#            clean_pct_runnable is the clean share of the files that are not templates
#   tool_rejects a file that is not a template, is not clean, and whose every difference or
#            error says the tool itself stops at it too (a wd=/fwd= pattern that matches
#            nothing, a name that is not a fio option, ...): nobody runs it as written;
#            clean_pct_tool_runs is the clean share of the files neither templates nor these
# vdbench_pov: the same counts for tests/data/vdbench/pov, parameter files bench-coord's
# developers wrote as PoV engineers write them (not the corpus; left out of the totals).
# Prints `name: value` lines per tool and in total; with -v also the differences named most
# often (option=value stripped to the option), for choosing what to build next.
# Usage: bench/import-corpus.sh [-v] [BUILD_DIR]
set -uo pipefail
VERBOSE=0
[ "${1:-}" = -v ] && {
	VERBOSE=1
	shift
}
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build}
COORD="$BUILD/bench-coord"
CORPUS="$SRC/tests/data/corpus"
[ -x "$COORD" ] || {
	echo "build first: cmake -S $SRC -B $BUILD && cmake --build $BUILD" >&2
	exit 1
}
T=$(mktemp -d /tmp/bc-import-corpus.XXXXXX)
trap 'rm -rf "$T"' EXIT

total_files=0 total_clean=0 total_invalid=0 total_crash=0 total_tpl=0 total_tpl_clean=0 total_rej=0
for set in fio vdbench vdbench_pov; do
	tool=${set%_pov}
	if [ "$set" = vdbench_pov ]; then
		# not the corpus: the PoV-style files bench-coord's developers wrote (their README)
		ls "$SRC"/tests/data/vdbench/pov/*.parm >"$T/list"
	else
		# the files the manifest lists as this tool's (not the ones only included by them)
		awk -F '\t' -v k="$tool" -v d="$CORPUS" '$1 == k { print d "/" $2 }' \
			"$CORPUS/MANIFEST.tsv" >"$T/list"
	fi
	n=0 clean=0 refused=0 lenient=0 invalid=0 error=0 crash=0 dur=0 tpl=0 tpl_clean=0 rej=0
	: >"$T/diffs"
	while read -r -u 3 f; do
		n=$((n + 1))
		is_tpl=0
		if grep -q -E '\$\{[A-Za-z_][A-Za-z0-9_]*\}|\{\{|\{%|%\([A-Za-z_]+\)[sd]|%%' "$f" ||
			{ [ "$tool" = vdbench ] && grep -v -E '^[[:space:]]*[*#/]' "$f" |
				grep -q -E '=[(]?\$[A-Za-z_]'; }; then
			is_tpl=1 tpl=$((tpl + 1))
		fi
		# the corpus's ${VAR} references stay unset, as on a machine that did not set them
		env -i PATH="$PATH" timeout 60 "$COORD" "import-$tool" -o "$T/p.json" "$f" </dev/null \
			>/dev/null 2>"$T/err"
		rc=$?
		if [ $rc -ge 124 ]; then
			crash=$((crash + 1))
			echo "crash ($rc): $f" >&2
			continue
		fi
		if [ $rc -eq 0 ]; then
			if "$COORD" validate "$T/p.json" >/dev/null 2>&1; then
				clean=$((clean + 1)) tpl_clean=$((tpl_clean + is_tpl))
			else
				invalid=$((invalid + 1))
				echo "invalid (clean import): $f" >&2
			fi
			continue
		fi
		# every difference (or the error) says the tool stops at it too
		if [ $is_tpl = 0 ] && [ $rc -ne 0 ] && grep -E '^bench-coord: (warning|error): ' "$T/err" |
			grep -v -E ': note: |: refused: ' | awk '!/ stops (at|there|with) / { bad = 1 }
				END { exit bad || !NR }'; then
			rej=$((rej + 1))
		fi
		if [ $rc -eq 1 ]; then
			error=$((error + 1))
			[ $VERBOSE = 1 ] && sed -nE 's/^bench-coord: error: [^ ]+: /error: /p' "$T/err" | head -1 >>"$T/diffs"
			continue
		fi
		refused=$((refused + 1))
		if [ "$tool" = fio ] && env -i PATH="$PATH" timeout 60 "$COORD" import-fio \
			--until-stopped 3600 -o "$T/d.json" "$f" </dev/null >/dev/null 2>&1 &&
			"$COORD" validate "$T/d.json" >/dev/null 2>&1; then
			dur=$((dur + 1))
		fi
		sed -nE 's/^bench-coord: warning: [^ ]+:[0-9]+: //p' "$T/err" >>"$T/diffs"
		rm -f "$T/p.json"
		env -i PATH="$PATH" timeout 60 "$COORD" "import-$tool" --lenient -o "$T/p.json" "$f" </dev/null \
			>/dev/null 2>"$T/err"
		rc=$?
		if [ $rc -ge 124 ]; then
			crash=$((crash + 1))
			echo "crash (--lenient, $rc): $f" >&2
		elif [ $rc -eq 0 ]; then
			if "$COORD" validate "$T/p.json" >/dev/null 2>"$T/verr"; then
				lenient=$((lenient + 1))
			else
				invalid=$((invalid + 1))
				echo "invalid (--lenient): $f: $(head -1 "$T/verr")" >&2
			fi
		fi
	done 3<"$T/list"
	echo "${set}_files: $n"
	echo "${set}_clean: $clean"
	echo "${set}_refused: $refused"
	echo "${set}_lenient: $lenient"
	echo "${set}_invalid: $invalid"
	echo "${set}_error: $error"
	echo "${set}_crash: $crash"
	echo "${set}_clean_pct: $(awk -v c=$clean -v n=$n 'BEGIN { printf "%.1f", n ? 100 * c / n : 0 }')"
	echo "${set}_templates: $tpl"
	echo "${set}_clean_pct_runnable: $(awk -v c=$((clean - tpl_clean)) -v n=$((n - tpl)) \
		'BEGIN { printf "%.1f", n ? 100 * c / n : 0 }')"
	echo "${set}_tool_rejects: $rej"
	echo "${set}_clean_pct_tool_runs: $(awk -v c=$((clean - tpl_clean)) -v n=$((n - tpl - rej)) \
		'BEGIN { printf "%.1f", n ? 100 * c / n : 0 }')"
	if [ "$tool" = fio ]; then
		echo "fio_clean_given_duration: $((clean + dur))"
		echo "fio_clean_given_duration_pct: $(awk -v c=$((clean + dur)) -v n=$n 'BEGIN { printf "%.1f", n ? 100 * c / n : 0 }')"
	fi
	if [ $VERBOSE = 1 ]; then
		echo "== $set: differences by option (files may name several)" >&2
		sed -E 's/^(error: .{0,60}).*/\1/; s/^([^=: ]+)[=: ].*/\1/' "$T/diffs" | sort | uniq -c |
			sort -rn | head -40 >&2
	fi
	[ "$set" = vdbench_pov ] && continue # the totals are the corpus's
	total_files=$((total_files + n)) total_clean=$((total_clean + clean))
	total_invalid=$((total_invalid + invalid)) total_crash=$((total_crash + crash))
	total_tpl=$((total_tpl + tpl)) total_tpl_clean=$((total_tpl_clean + tpl_clean))
	total_rej=$((total_rej + rej))
done
echo "total_files: $total_files"
echo "total_clean: $total_clean"
echo "total_invalid: $total_invalid"
echo "total_crash: $total_crash"
echo "total_clean_pct: $(awk -v c=$total_clean -v n=$total_files 'BEGIN { printf "%.1f", 100 * c / n }')"
echo "total_templates: $total_tpl"
echo "total_clean_pct_runnable: $(awk -v c=$((total_clean - total_tpl_clean)) \
	-v n=$((total_files - total_tpl)) 'BEGIN { printf "%.1f", n ? 100 * c / n : 0 }')"
echo "total_tool_rejects: $total_rej"
echo "total_clean_pct_tool_runs: $(awk -v c=$((total_clean - total_tpl_clean)) \
	-v n=$((total_files - total_tpl - total_rej)) 'BEGIN { printf "%.1f", n ? 100 * c / n : 0 }')"
