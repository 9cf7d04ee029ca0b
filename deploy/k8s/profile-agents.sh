#!/bin/bash
# profile-agents.sh - the "agents" (and optionally "volumes") section of a
# bench-coord profile from the bench-agent headless Service's endpoints: one
# agent per endpoint address, named after its node, at tcp://IP:PORT, with
# the fleet's server key read from the bench-agent-keys Secret.
#
# usage: profile-agents.sh [-n NAMESPACE] [--service NAME] [--secret NAME]
#                          [--volume PATH]... [--endpoints-json FILE --key KEY]
#   --volume PATH        also write "volumes": PATH on every agent (repeatable)
#   --endpoints-json F   read `kubectl get endpoints -o json` output from F
#                        (with --key: no cluster needed; the tests use it)
# Output (stdout): {"agents": [...]} or {"agents": [...], "volumes": [...]}; merge
# with the rest of a profile: jq -s '.[0] * .[1]' base.json agents.json
set -euo pipefail
NS=default SVC=bench-agent SECRET=bench-agent-keys EPJSON= KEY=
VOLS=()
while [ $# -gt 0 ]; do
	case $1 in
	-n | --namespace) NS=$2; shift 2 ;;
	--service) SVC=$2; shift 2 ;;
	--secret) SECRET=$2; shift 2 ;;
	--volume) VOLS+=("$2"); shift 2 ;;
	--endpoints-json) EPJSON=$2; shift 2 ;;
	--key) KEY=$2; shift 2 ;;
	-h | --help) sed -n '2,15p' "$0"; exit 0 ;;
	*) echo "profile-agents.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
if [ -z "$EPJSON" ]; then
	EPJSON=$(mktemp)
	trap 'rm -f "$EPJSON"' EXIT
	kubectl -n "$NS" get endpoints "$SVC" -o json >"$EPJSON"
fi
if [ -z "$KEY" ]; then
	# czmq certificate: public-key = "<40 Z85 characters>"
	KEY=$(kubectl -n "$NS" get secret "$SECRET" -o jsonpath='{.data.agent\.cert}' | base64 -d |
		sed -n 's/^ *public-key = "\(.\{40\}\)"$/\1/p')
fi
[ ${#KEY} = 40 ] || { echo "profile-agents.sh: no 40-character server key (secret $SECRET?)" >&2; exit 1; }
python3 - "$EPJSON" "$KEY" "${VOLS[@]}" <<'PY'
import json, re, sys
ep, key, vols = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3:]
agents, seen = [], set()
for sub in ep.get("subsets") or []:
    port = next((p["port"] for p in sub.get("ports", []) if p.get("name") in ("control", None)), 7470)
    for a in (sub.get("addresses") or []) + (sub.get("notReadyAddresses") or []):
        name = a.get("nodeName") or (a.get("targetRef") or {}).get("name") or a["ip"]
        # profile names: [A-Za-z0-9._-]{1,63}
        name = re.sub(r"[^A-Za-z0-9._-]", "-", name)[:63]
        if name in seen:
            continue
        seen.add(name)
        host = "[%s]" % a["ip"] if ":" in a["ip"] else a["ip"]
        agents.append({"name": name, "endpoint": "tcp://%s:%d" % (host, port), "server_key": key})
if not agents:
    sys.exit("profile-agents.sh: the service has no endpoints (are the pods scheduled?)")
agents.sort(key=lambda a: a["name"])
out = {"agents": agents}
if vols:
    out["volumes"] = [{"agent": a["name"], "path": v} for a in agents for v in vols]
json.dump(out, sys.stdout, indent=2)
print()
PY
