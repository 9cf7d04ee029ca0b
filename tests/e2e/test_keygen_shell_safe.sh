#!/bin/bash
# test_keygen_shell_safe: every key and command `bench-agent keygen` and `bench-coord keygen`
# print survives a shell when pasted: keys are generated until some hold '$' and some begin
# with '-' (Z85 keys may), and for each the printed key line, read back by a shell and by the
# sed the test scripts use, gives exactly the certificate's key; the suggested trust command
# names a directory with a space, '$' and '!' correctly.
. "$(dirname "$0")/lib.sh"

# shell_words LINE: the words of LINE as a shell reads it, one per line
shell_words() {
	eval "set -- $1"
	printf '%s\n' "$@"
}
cert_key() { sed -n 's/^ *public-key = "\(.*\)"/\1/p' "$1"; }

# check_line WHAT OUT PREFIX KEY: OUT's line "PREFIX <key>" gives KEY back, read by a shell
check_line() {
	local what=$1 out=$2 prefix=$3 key=$4 line rest
	line=$(grep "^$prefix: " <<<"$out") || fail "$what: no '$prefix:' line in: $out"
	rest=${line#"$prefix: "}
	[ "$(shell_words "$rest")" = "$key" ] || fail "$what: '$line' pasted into a shell is not the key $key"
	[ "$(sed -n "s/^$prefix: '\\(.*\\)'\$/\\1/p" <<<"$out")" = "$key" ] ||
		fail "$what: the scripts' sed does not read the key from '$line'"
}

dollar=0 dash=0 cdollar=0 cdash=0 n=0
dir="$T/keys \$HOME !x"
while [ $((dollar * dash * cdollar * cdash)) = 0 ]; do
	n=$((n + 1))
	[ "$n" -le 3000 ] || fail "no key with '\$' and one beginning with '-' in 3000 keys"
	out=$("$AGENT" keygen --force "$dir")
	key=$(cert_key "$dir/agent.cert")
	[ ${#key} = 40 ] || fail "agent.cert holds no 40-character key: $key"
	check_line "bench-agent keygen" "$out" "server key" "$key"
	case $key in *'$'*) dollar=$((dollar + 1)) ;; esac
	case $key in -*) dash=$((dash + 1)) ;; esac

	out=$("$COORD" keygen --force "$T/coord")
	key=$(cert_key "$T/coord/coord.cert")
	check_line "bench-coord keygen" "$out" "coordinator key" "$key"
	case $key in *'$'*) cdollar=$((cdollar + 1)) ;; esac
	case $key in -*) cdash=$((cdash + 1)) ;; esac
done
echo "$n key pairs each side; agent keys with \$: $dollar, beginning with -: $dash;" \
	"coordinator keys with \$: $cdollar, beginning with -: $cdash"

# the suggested trust command names the certificate, whatever the directory is called
out=$("$AGENT" keygen --force "$dir")
cmd=$(sed -n 's/^ *bench-coord trust //p' <<<"$out")
[ "$(shell_words "$cmd" | tail -n1)" = "$dir/agent.cert" ] || fail "keygen's trust command is not shell-safe: $cmd"
echo PASS
