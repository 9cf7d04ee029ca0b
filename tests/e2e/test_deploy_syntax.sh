#!/bin/bash
# test_deploy_syntax - the deploy/ files are valid for their own tools: the
# systemd unit (systemd-analyze verify, no warnings), the agent config example
# (bench-agent starts with it), the Ansible playbooks (ansible-playbook
# --syntax-check, and profile.yml really renders a profile that bench-coord
# validates), the Kubernetes manifests (YAML, kinds and the fields that matter),
# profile generation from a Service's endpoints, and the Containerfile's shape.
# A part whose tool is missing is skipped with the reason; exit 77 only when
# every part was skipped.
. "$(dirname "$0")/lib.sh"
D=$BC_SRC/deploy
ran=0 skipped=()

# --- systemd: verify a copy whose ExecStart points at this build's binary
if command -v systemd-analyze >/dev/null; then
	mkdir -p "$T/unit"
	U=$T/unit/bench-agent.service
	sed "s|/usr/local/bin/bench-agent|$AGENT|" "$D/systemd/bench-agent.service" >"$U"
	grep -q "^ExecStart=$AGENT " "$U" || fail "ExecStart is not /usr/local/bin/bench-agent"
	if systemd-analyze verify "$U" >"$T/verify.out" 2>&1; then
		# unknown keys and bad values are warnings with exit 0: any line naming the unit fails
		if grep -F "$U" "$T/verify.out"; then
			fail "systemd-analyze verify warns about the unit"
		fi
		ran=$((ran + 1))
	elif grep -qiE "not been booted with systemd|Failed to (connect|initialize)|Operation not permitted" \
		"$T/verify.out"; then
		skipped+=("systemd-analyze cannot run here: $(head -n1 "$T/verify.out")")
	else
		cat "$T/verify.out" >&2
		fail "systemd-analyze verify failed"
	fi
	for k in NoNewPrivileges=yes ProtectSystem=strict ProtectHome=yes ProtectKernelModules=yes \
		CapabilityBoundingSet= LimitMEMLOCK=infinity; do
		grep -q "^$k" "$U" || fail "the unit lacks $k"
	done
	# each of these turns on a device allowlist that denies the block devices
	grep -qE '^(PrivateDevices=yes|ProtectClock=yes|DeviceAllow=|DevicePolicy=(closed|strict))' "$U" &&
		fail "the unit restricts devices: block devices would be denied"
else
	skipped+=("systemd-analyze not installed")
fi

# --- the config example: a bench-agent starts with it (unknown keys are errors)
mkdir -p "$T/cfg"
"$AGENT" keygen "$T/cfg/keys" >/dev/null
"$AGENT" --config "$D/systemd/bench-agent.json" --listen 'tcp://127.0.0.1:*' --ready-fd 3 \
	--scratch-dir "$T/cfg/scratch" --cert "$T/cfg/keys/agent.cert" \
	--authorized-keys "$T/cfg/keys/authorized_keys" 3>"$T/cfg/ep" 2>"$T/cfg/log" &
AGENT_PIDS+=($!)
for _ in $(seq 50); do
	[ -s "$T/cfg/ep" ] && break
	sleep 0.1
done
[ -s "$T/cfg/ep" ] || fail "bench-agent rejects deploy/systemd/bench-agent.json: $(cat "$T/cfg/log")"
python3 - "$D/systemd/bench-agent.json" "$D/k8s/bench-agent.yaml" <<'EOF' || fail "agent configs"
import json, sys, yaml
known = {"allow", "listen", "scratch_dir", "cert", "authorized_keys", "key_announce"}
sysd = json.load(open(sys.argv[1]))
cm = [d for d in yaml.safe_load_all(open(sys.argv[2])) if d and d["kind"] == "ConfigMap"][0]
k8s = json.loads(cm["data"]["bench-agent.json"])
for name, c in (("systemd", sysd), ("k8s", k8s)):
    assert set(c) <= known, (name, set(c) - known)
    assert "destructive" not in json.dumps(c), name
EOF
# the key announcement port: every deploy file says what the agent does (control port + 1)
"$AGENT" --help | grep -q 'default: the --listen port + 1' || fail "bench-agent --help: the announce default changed"
grep -q '^EXPOSE 7470 7471$' "$D/container/Containerfile" || fail "Containerfile: EXPOSE is not 7470 7471"
grep -q -- '--key-announce' "$D/container/Containerfile" || fail "Containerfile: --key-announce not documented"
grep -q -- '--key-announce' "$D/systemd/bench-agent.service" || fail "the unit does not document --key-announce"
grep -q -- '--key-announce' "$D/systemd/bench-agent.default" || fail "/etc/default/bench-agent does not show --key-announce"
grep -qF 'bench_agent_key_announce: "tcp://*:{{ bench_agent_port | int + 1 }}"' \
	"$D/ansible/roles/bench_agent/defaults/main.yml" || fail "Ansible role: key announce default is not port + 1"
grep -qF '"key_announce": {{ bench_agent_key_announce | to_json }}' \
	"$D/ansible/roles/bench_agent/templates/bench-agent.json.j2" || fail "Ansible role: key_announce not in the config"
grep -qE 'name: keyscan' "$D/k8s/bench-agent.yaml" && grep -qE 'containerPort: 7471' "$D/k8s/bench-agent.yaml" ||
	fail "k8s: no keyscan port 7471"
ran=$((ran + 1))

# --- Ansible: syntax, then profile.yml for real on localhost
if command -v ansible-playbook >/dev/null; then
	export ANSIBLE_LOCAL_TEMP=$T/ansible-tmp ANSIBLE_NOCOLOR=1
	(cd "$D/ansible" && ansible-playbook --syntax-check -i inventory.example.ini site.yml) \
		>"$T/ansible.out" 2>&1 || { cat "$T/ansible.out" >&2; fail "ansible-playbook --syntax-check"; }
	K1=$("$AGENT" keygen "$T/k1" | sed -n "s/^server key: '\\(.*\\)'\$/\\1/p")
	K2=$("$AGENT" keygen "$T/k2" | sed -n "s/^server key: '\\(.*\\)'\$/\\1/p")
	# a Z85 key may hold "{#", "{{" or "{%", which Ansible would template: !unsafe (a YAML
	# inventory), as inventory.example.ini says; BC_TEST_KEY1 forces such a key
	K1=${BC_TEST_KEY1:-$K1}
	cat >"$T/inv.yml" <<EOF
all:
  children:
    bench_agents:
      hosts:
        client-01:
          ansible_host: 10.0.0.11
          bench_agent_server_key: !unsafe '$K1'
        client-02:
          bench_agent_server_key: !unsafe '$K2'
          bench_agent_port: 7471
EOF
	(cd "$D/ansible" && ansible-playbook -i "$T/inv.yml" profile.yml \
		-e bench_profile_agents="$T/agents.json") >"$T/ansible.out" 2>&1 ||
		{ cat "$T/ansible.out" >&2; fail "profile.yml"; }
	python3 - "$T/agents.json" "$K1" "$K2" "$T/from-ansible.json" <<'EOF' || fail "agents.json"
import json, sys
a = json.load(open(sys.argv[1]))["agents"]
assert [x["name"] for x in a] == ["client-01", "client-02"], a
assert a[0]["endpoint"] == "tcp://10.0.0.11:7470" and a[1]["endpoint"] == "tcp://client-02:7471", a
assert a[0]["server_key"] == sys.argv[2] and a[1]["server_key"] == sys.argv[3], a
prof = {"name": "pov", "agents": a, "volumes": [{"agent": x["name"], "path": "/dev/nvme1n1"} for x in a],
        "steps": [{"name": "read", "rw": "randread"}]}
json.dump(prof, open(sys.argv[4], "w"))
EOF
	"$COORD" validate "$T/from-ansible.json" >/dev/null || fail "the Ansible profile does not validate"
	ran=$((ran + 1))
else
	skipped+=("ansible-playbook not installed (Debian: ansible-core)")
fi

# --- Kubernetes manifests: YAML, kinds, and the fields a working DaemonSet needs
if python3 -c 'import yaml' 2>/dev/null; then
	python3 - "$D/k8s/bench-agent.yaml" <<'EOF' || fail "k8s manifests"
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
by = {d["kind"]: d for d in docs}
assert set(by) == {"ConfigMap", "DaemonSet", "Service"}, set(by)
for d in docs:
    assert d.get("apiVersion") and d["metadata"].get("name"), d["kind"]
ds, svc = by["DaemonSet"], by["Service"]
assert ds["apiVersion"] == "apps/v1"
sel = ds["spec"]["selector"]["matchLabels"]
tpl = ds["spec"]["template"]
assert all(tpl["metadata"]["labels"].get(k) == v for k, v in sel.items()), "selector vs labels"
pod = tpl["spec"]
c = pod["containers"][0]
assert c["image"] and c["securityContext"]["privileged"] is True
assert pod["hostNetwork"] is True
mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
vols = {v["name"]: v for v in pod["volumes"]}
assert set(mounts) <= set(vols), set(mounts) - set(vols)
assert vols["dev"]["hostPath"]["path"] == "/dev" and mounts["dev"] == "/dev"
assert "--config" in c["args"]
cfg = c["args"][c["args"].index("--config") + 1]
assert any(m["mountPath"] == cfg for m in c["volumeMounts"]), "config not mounted where --config says"
ports = {p["name"]: p["containerPort"] for p in c["ports"]}
assert svc["apiVersion"] == "v1" and svc["spec"]["clusterIP"] == "None", "service must be headless"
assert all(sel.get(k) == v for k, v in svc["spec"]["selector"].items())
assert svc["spec"]["ports"][0]["targetPort"] in ports
EOF
	for f in "$D"/ansible/*.yml "$D"/ansible/roles/*/*/*.yml; do
		python3 -c 'import sys, yaml; list(yaml.safe_load_all(open(sys.argv[1])))' "$f" ||
			fail "$f is not YAML"
	done
	ran=$((ran + 1))
else
	skipped+=("python3-yaml not installed")
fi

# --- profile generation from a Service's endpoints (kubectl's JSON, no cluster)
KEY=$("$AGENT" keygen "$T/kk" | sed -n "s/^server key: '\\(.*\\)'\$/\\1/p")
bash "$D/k8s/profile-agents.sh" --endpoints-json "$D/k8s/endpoints.example.json" --key "$KEY" \
	--volume /dev/nvme1n1 >"$T/k8s-agents.json" || fail "profile-agents.sh"
python3 - "$T/k8s-agents.json" "$T/from-k8s.json" <<'EOF' || fail "k8s agents"
import json, sys
p = json.load(open(sys.argv[1]))
assert [a["name"] for a in p["agents"]] == ["client-01", "client-02", "client-03"], p["agents"]
assert p["agents"][2]["endpoint"] == "tcp://10.0.0.13:7470"
assert len(p["volumes"]) == 3
p.update({"name": "k8s", "steps": [{"name": "read"}]})
json.dump(p, open(sys.argv[2], "w"))
EOF
"$COORD" validate "$T/from-k8s.json" >/dev/null || fail "the k8s profile does not validate"
ran=$((ran + 1))

# --- Containerfile: Debian 12, two stages, runtime stage without toolchain
CF=$D/container/Containerfile
[ "$(grep -c '^FROM debian:12' "$CF")" = 2 ] || fail "Containerfile: expected two Debian 12 stages"
grep -q '^FROM debian:12 AS build' "$CF" || fail "Containerfile: no build stage"
grep -q '^COPY --from=build .*\(bench-agent\|bench-coord_.*\.deb\)' "$CF" || fail "Containerfile: binaries not copied"
sed -n '/^FROM debian:12-slim/,$p' "$CF" | grep -q -- '-dev\|build-essential' &&
	fail "Containerfile: build packages in the runtime stage"
for d in $(sed -n 's|^COPY \([a-zA-Z.]*\) /src/.*|\1|p' "$CF"); do
	[ -e "$BC_SRC/$d" ] || fail "Containerfile copies '$d', which does not exist"
done
ran=$((ran + 1))

for s in "${skipped[@]}"; do
	echo "skipped part: $s"
done
echo "deploy syntax: $ran part(s) checked, ${#skipped[@]} skipped"
[ "$ran" -gt 0 ] || exit 77
