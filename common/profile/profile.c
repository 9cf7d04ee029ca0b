/*
 * profile/profile.c - the profile's structure: agents, nodes, volumes, defaults
 * and steps, cross-references between them, the JSON syntax error position,
 * loading from a file and freeing: the top of common/profile. Value checks
 * are in profile/value/check.c, the workload keys in profile/workload/keys.c (read through
 * profile/workload/json.c), per-volume overrides in profile/volume_wl.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/counters.h"
#include "profile/expect.h"
#include "profile/experiment.h"
#include "profile/profile.h"
#include "profile/sweep_check.h"
#include "profile/value/units.h"
#include "profile/workload/kv.h"
#include "util/curve.h"
#include "util/json.h"

/* Linux IFNAMSIZ (linux/if.h) counts the terminating NUL */
#define S_NIC_MAX 15

static const char *const s_root_keys[] = {
    "name",   "description", "agents",	      "nodes",	"volumes", "defaults",	   "steps",
    "expect", "destructive", "on_agent_loss", "repeat", "layout",  "orphan_grace", NULL,
};
static const char *const s_agent_keys[] = {"name", "endpoint", "server_key", NULL};
static const char *const s_node_keys[] = {"name",   "addresses",   "metrics",  "nic", "prometheus",
					  "series", "nic_members", "nic_hash", NULL};
static const char *const s_volume_keys[] = {
    "agent",	"path", "size",	    "offset", "length", "node",	   "destructive",
    "workload", "fdp",	"nvme_tcp", "sim",    "layout", "fileset", NULL,
};
/* a step's own keys, beside the workload keys of profile/workload/keys.c */
static const char *const s_step_keys[] = {
    "name",	  "volume_workloads", /* profile/volume_wl.c */
    "sweep",			      /* profile/sweep_check.c */
    "experiment",		      /* profile/experiment.c */
    "repeat",			      /* profile/repeat.c */
    "format",			      /* profile/format.h */
    NULL,
};

static bool s_endpoint_ok(const char *e)
{
	return (!strncmp(e, "tcp://", 6) || !strncmp(e, "ipc://", 6)) && e[6];
}

/* "server_key": the agent's CURVE public key, as bench-agent keygen prints it */
static int s_parse_server_key(struct bc_check *c, const cJSON *item, const char *base,
			      struct bc_agent_spec *a)
{
	char path[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	const cJSON *v;
	int ret;

	ret = bc_check_item(c, item, base, "server_key", false, path, &v);
	if (ret || !v)
		return ret;
	if (a->local)
		return bc_check_fail(
		    c, path,
		    "not used by a \"local\" agent (bench-coord makes its keys for "
		    "each run)");
	if (!cJSON_IsString(v) || !bc_curve_key_valid(v->valuestring))
		return bc_check_fail(c, path,
				     "expected a 40-character Z85 CURVE public key (as printed by "
				     "bench-agent keygen), got %s",
				     bc_check_show(v, shown));
	snprintf(a->server_key, sizeof(a->server_key), "%s", v->valuestring);
	return 0;
}

/* a boolean key of a volume, else of the profile, else left as it is */
static int s_parse_vol_bool(struct bc_check *c, const cJSON *root, const cJSON *item,
			    const char *base, const char *key, bool *out)
{
	char path[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	const cJSON *v;
	int ret;

	ret = bc_check_item(c, item, base, key, false, path, &v);
	if (!ret && !v)
		ret = bc_check_item(c, root, "", key, false, path, &v);
	if (ret || !v)
		return ret;
	if (!cJSON_IsBool(v))
		return bc_check_fail(c, path, "expected true or false, got %s",
				     bc_check_show(v, shown));
	*out = cJSON_IsTrue(v);
	return 0;
}

/*
 * "destructive" (default false) and "layout" (default true: a file the
 * agent creates or extends is written out before a step reads it)
 */
static int s_parse_vol_flags(struct bc_check *c, const cJSON *root, const cJSON *item,
			     const char *base, struct bc_volume_spec *vol)
{
	int ret;

	vol->destructive = false;
	vol->layout = true;
	ret = s_parse_vol_bool(c, root, item, base, "destructive", &vol->destructive);
	return ret ? ret : s_parse_vol_bool(c, root, item, base, "layout", &vol->layout);
}

static int s_parse_agents(struct bc_check *c, const cJSON *root, struct bc_profile *p)
{
	char base[BC_CHECK_PATH_LEN], path[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	const cJSON *arr, *item, *v;
	int j, n, ret;

	n = bc_check_array(c, root, "agents", true, &arr);
	if (n < 0)
		return n;
	p->agents = calloc((size_t)n, sizeof(*p->agents));
	if (!p->agents)
		return -ENOMEM;
	cJSON_ArrayForEach(item, arr)
	{
		struct bc_agent_spec *a = &p->agents[p->nagents];

		snprintf(base, sizeof(base), "agents[%d]", p->nagents);
		ret = bc_check_entry(c, item, base, s_agent_keys, "name", path, &v);
		if (!ret)
			ret = bc_check_name(c, path, v, a->name);
		if (ret)
			return ret;
		for (j = 0; j < p->nagents; j++)
			if (!strcmp(p->agents[j].name, a->name))
				return bc_check_fail(c, path, "duplicate agent name \"%s\"",
						     a->name);

		ret = bc_check_item(c, item, base, "endpoint", true, path, &v);
		if (ret)
			return ret;
		if (!cJSON_IsString(v) || strlen(v->valuestring) >= BC_ENDPOINT_MAX ||
		    (strcmp(v->valuestring, "local") && !s_endpoint_ok(v->valuestring)))
			return bc_check_fail(
			    c, path, "expected \"local\" or a tcp:// or ipc:// endpoint, got %s",
			    bc_check_show(v, shown));
		strcpy(a->endpoint, v->valuestring);
		a->local = !strcmp(a->endpoint, "local");
		ret = s_parse_server_key(c, item, base, a);
		if (ret)
			return ret;
		/* two agents on one endpoint would be one agent counted twice */
		for (j = 0; j < p->nagents && !a->local; j++)
			if (!strcmp(p->agents[j].endpoint, a->endpoint))
				return bc_check_fail(c, path,
						     "duplicate endpoint \"%s\" (agents[%d])",
						     a->endpoint, j);
		p->nagents++;
	}
	return 0;
}

/* an optional array of non-empty strings; with url, each an http(s) URL */
static int s_strings(struct bc_check *c, const cJSON *obj, const char *base, const char *key,
		     bool url)
{
	char path[BC_CHECK_PATH_LEN], ipath[BC_CHECK_PATH_LEN + 16], shown[BC_CHECK_SHOW_LEN];
	const cJSON *arr, *v;
	int i = 0;

	bc_check_path(path, base, key);
	arr = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!arr)
		return 0;
	if (!cJSON_IsArray(arr))
		return bc_check_fail(c, path, "expected an array of strings, got %s",
				     bc_check_show(arr, shown));
	cJSON_ArrayForEach(v, arr)
	{
		snprintf(ipath, sizeof(ipath), "%s[%d]", path, i++);
		if (!cJSON_IsString(v) || !*v->valuestring)
			return bc_check_fail(c, ipath, "expected a non-empty string, got %s",
					     bc_check_show(v, shown));
		if (url && strncmp(v->valuestring, "http://", 7) &&
		    strncmp(v->valuestring, "https://", 8))
			return bc_check_fail(c, ipath,
					     "expected an http:// or https:// URL, got %s",
					     bc_check_show(v, shown));
	}
	return 0;
}

/* Linux bonding's xmit_hash_policy names (Documentation/networking/bonding.rst) */
static bool s_hash_policy(const char *v)
{
	static const char *const names[] = {"layer2",	"layer2+3", "layer3+4",
					    "encap2+3", "encap3+4", "vlan+srcmac"};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(v, names[i]))
			return true;
	return false;
}

/* nodes[i], i = p->nnodes (bc_check_list) */
static int s_parse_node(struct bc_check *c, const cJSON *item, const char *base, void *arg)
{
	struct bc_profile *p = arg;
	struct bc_node_spec *nd = &p->nodes[p->nnodes];
	char path[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	const cJSON *v;
	int j, ret;

	ret = bc_check_entry(c, item, base, s_node_keys, "name", path, &v);
	if (!ret)
		ret = bc_check_name(c, path, v, nd->name);
	if (ret)
		return ret;
	for (j = 0; j < p->nnodes; j++)
		if (!strcmp(p->nodes[j].name, nd->name))
			return bc_check_fail(c, path, "duplicate node name \"%s\"", nd->name);
	ret = s_strings(c, item, base, "addresses", false);
	if (!ret)
		ret = s_strings(c, item, base, "metrics", true);
	if (!ret)
		ret = bc_check_node_counters(c, item, base);
	if (!ret)
		ret = bc_check_item(c, item, base, "nic", false, path, &v);
	if (ret)
		return ret;
	if (v && (!cJSON_IsString(v) || !*v->valuestring || strlen(v->valuestring) > S_NIC_MAX))
		return bc_check_fail(c, path,
				     "expected an interface name of 1..%d characters, got %s",
				     S_NIC_MAX, bc_check_show(v, shown));
	/* the bond's member links, "eth0,eth1": their balance is a suspect of its own */
	ret = bc_check_item(c, item, base, "nic_members", false, path, &v);
	if (ret)
		return ret;
	if (v && (!cJSON_IsString(v) || !*v->valuestring || strlen(v->valuestring) > 127))
		return bc_check_fail(c, path,
				     "expected interface names \"eth0,eth1\" of 1..127 "
				     "characters, got %s",
				     bc_check_show(v, shown));
	/* the bond's transmit hash policy (Linux bonding's names): node_exporter has none */
	ret = bc_check_item(c, item, base, "nic_hash", false, path, &v);
	if (ret)
		return ret;
	if (v && (!cJSON_IsString(v) || !s_hash_policy(v->valuestring)))
		return bc_check_fail(c, path,
				     "expected a bond xmit_hash_policy (layer2, layer2+3, "
				     "layer3+4, encap2+3, encap3+4, vlan+srcmac), got %s",
				     bc_check_show(v, shown));
	nd->json = cJSON_Duplicate(item, true);
	return nd->json ? 0 : -ENOMEM;
}

static int s_parse_nodes(struct bc_check *c, const cJSON *root, struct bc_profile *p)
{
	return bc_check_list(c, root, "nodes", false, sizeof(*p->nodes), (void **)&p->nodes,
			     &p->nnodes, s_parse_node, p);
}

/* "a, b, c" for messages; cut with "..." rather than overflow */
static void s_list_add(char *buf, size_t len, const char *name)
{
	size_t used = strlen(buf);

	if (used >= 3 && !strcmp(buf + used - 3, "..."))
		return;
	if (used + strlen(name) + 2 + 4 >= len)
		snprintf(buf + used, len - used, "%s...", used ? ", " : "");
	else
		snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name);
}

/* index of the agent (what = "agent") or node named by v, or -EINVAL */
static int s_lookup(struct bc_check *c, const char *path, const cJSON *v,
		    const struct bc_profile *p, bool agent)
{
	const char *what = agent ? "agent" : "node";
	int i, n = agent ? p->nagents : p->nnodes;
	char shown[BC_CHECK_SHOW_LEN], list[256] = "";

	if (!cJSON_IsString(v))
		return bc_check_fail(c, path, "expected %s name, got %s",
				     agent ? "an agent" : "a node", bc_check_show(v, shown));
	for (i = 0; i < n; i++) {
		const char *name = agent ? p->agents[i].name : p->nodes[i].name;

		if (!strcmp(name, v->valuestring))
			return i;
		s_list_add(list, sizeof(list), name);
	}
	if (!n)
		return bc_check_fail(c, path, "unknown %s %s (no %ss declared)", what,
				     bc_check_show(v, shown), what);
	return bc_check_fail(c, path, "unknown %s %s (declared: %s)", what, bc_check_show(v, shown),
			     list);
}

/* an optional size key; offset must stay sector-aligned for O_DIRECT */
static int s_volume_size(struct bc_check *c, const cJSON *item, const char *base, const char *key,
			 uint64_t *out)
{
	char path[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	const cJSON *v;
	int ret;

	ret = bc_check_item(c, item, base, key, false, path, &v);
	if (ret || !v)
		return ret;
	ret = bc_check_size(c, path, v, out);
	if (!ret && !strcmp(key, "offset") && *out % BC_SECTOR)
		return bc_check_fail(c, path, "must be a multiple of 512, got %s",
				     bc_check_show(v, shown));
	return ret;
}

/* "sim": a simulated SSD on a "sim" / "sim:NAME" path (profile/volume/sim.c, docs/sim.md) */
static int s_volume_sim(struct bc_check *c, const cJSON *item, const char *base,
			struct bc_volume_spec *vol)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(item, "sim");
	char msg[512];
	int i;

	if (!bc_sim_path(vol->path)) {
		if (v)
			return bc_check_fail(c, base,
					     "\"sim\" needs \"path\": \"sim\" or \"sim:NAME\", got "
					     "\"%.64s\"",
					     vol->path);
		if (!strncmp(vol->path, "sim:", 4))
			return bc_check_fail(c, base,
					     "path \"%.64s\": a simulated SSD's NAME is "
					     "[A-Za-z0-9._-]{1,63}",
					     vol->path);
		return 0;
	}
	if (bc_sim_spec_from_json(v, base, &vol->sim, msg, sizeof(msg)))
		return bc_check_fail(c, "", "%s", msg);
	if (vol->size_bytes)
		return bc_check_fail(c, base,
				     "\"size\" creates files; a simulated SSD's size is "
				     "\"sim\": {\"capacity\"}");
	for (i = 0; i < vol->fdp.npids; i++)
		if (vol->fdp.pids[i] >= vol->sim.ruhs)
			return bc_check_fail(c, "",
					     "%s.fdp.pids[%d]: %u is beyond the simulated SSD's %u "
					     "RUHs (\"sim\": {\"ruhs\"})",
					     base, i, vol->fdp.pids[i], vol->sim.ruhs);
	return 0;
}

/* "fileset": a tree of files under the path (profile/volume/fileset.c, docs/profiles.md) */
static int s_volume_fileset(struct bc_check *c, const cJSON *item, const char *base,
			    struct bc_volume_spec *vol)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(item, "fileset");
	char msg[512];

	if (!v)
		return 0;
	if (bc_fileset_spec_from_json(v, base, &vol->fileset, msg, sizeof(msg)))
		return bc_check_fail(c, "", "%s", msg);
	if (vol->nvme_tcp.set || bc_sim_path(vol->path) || !strcmp(vol->path, "null"))
		return bc_check_fail(c, base,
				     "\"fileset\" needs \"path\": a directory (under the agent's "
				     "scratch directory, or one it allows)");
	if (vol->size_bytes || vol->offset_bytes || vol->length_bytes)
		return bc_check_fail(c, base,
				     "\"size\", \"offset\" and \"length\" apply to one file; a "
				     "file set's files have \"fileset\": {\"sizes\"}");
	if (vol->fdp.policy != BC_FDP_NONE)
		return bc_check_fail(c, base, "\"fdp\" needs an NVMe namespace, not a file set");
	return 0;
}

static int s_parse_volume(struct bc_check *c, const cJSON *item, const char *base,
			  struct bc_profile *p, struct bc_volume_spec *vol)
{
	char path[BC_CHECK_PATH_LEN], sz[3][32];
	const cJSON *v;
	int j, ret;

	ret = bc_check_entry(c, item, base, s_volume_keys, "agent", path, &v);
	if (ret)
		return ret;
	vol->agent = s_lookup(c, path, v, p, true);
	if (vol->agent < 0)
		return vol->agent;

	vol->node = -1;
	ret = bc_check_item(c, item, base, "node", false, path, &v);
	if (!ret && v) {
		vol->node = s_lookup(c, path, v, p, false);
		ret = vol->node < 0 ? vol->node : 0;
	}
	if (!ret)
		ret = s_volume_size(c, item, base, "size", &vol->size_bytes);
	if (!ret)
		ret = s_volume_size(c, item, base, "offset", &vol->offset_bytes);
	if (!ret)
		ret = s_volume_size(c, item, base, "length", &vol->length_bytes);
	if (!ret)
		ret = bc_check_volume_workload(c, item, base, p->nvolumes, &vol->workload,
					       &vol->workload_json);
	/* "fdp": NVMe passthrough placement (profile/volume/fdp.c, docs/nvme.md) */
	if (!ret && (v = cJSON_GetObjectItemCaseSensitive(item, "fdp"))) {
		char msg[256];

		if (bc_fdp_spec_from_json(v, base, &vol->fdp, msg, sizeof(msg)))
			ret = bc_check_fail(c, "", "%s", msg);
	}
	if (ret)
		return ret;
	if (vol->size_bytes && (vol->offset_bytes >= vol->size_bytes ||
				vol->length_bytes > vol->size_bytes - vol->offset_bytes))
		return bc_check_fail(c, base, "I/O window (offset %s, length %s) exceeds size %s",
				     bc_fmt_size(vol->offset_bytes, sz[0], sizeof(sz[0])),
				     bc_fmt_size(vol->length_bytes, sz[1], sizeof(sz[1])),
				     bc_fmt_size(vol->size_bytes, sz[2], sizeof(sz[2])));

	/* a volume is a path, or an NVMe/TCP namespace the agent attaches (docs/nvme.md) */
	if ((v = cJSON_GetObjectItemCaseSensitive(item, "nvme_tcp"))) {
		char msg[512];

		if (cJSON_GetObjectItemCaseSensitive(item, "path"))
			return bc_check_fail(c, base,
					     "has both \"path\" and \"nvme_tcp\"; give one");
		if (vol->size_bytes)
			return bc_check_fail(
			    c, base,
			    "\"size\" creates files; an \"nvme_tcp\" namespace has its own size");
		if (bc_nvme_tcp_vol_from_json(v, base, &vol->nvme_tcp, msg, sizeof(msg)))
			return bc_check_fail(c, "", "%s", msg);
		if (vol->fdp.policy != BC_FDP_NONE && !vol->nvme_tcp.passthrough)
			return bc_check_fail(c, base,
					     "\"fdp\" needs \"nvme_tcp\": {\"passthrough\": true} "
					     "(placement is written through /dev/ngXnY)");
		bc_nvme_tcp_vol_label(&vol->nvme_tcp, vol->path, sizeof(vol->path));
	} else {
		ret = bc_check_item(c, item, base, "path", true, path, &v);
		if (!ret)
			ret = bc_check_str(c, path, v, BC_PATH_MAX);
		if (!ret)
			ret = bc_check_no_ctl(c, path, v->valuestring);
		if (!ret && !strncmp(v->valuestring, BC_NVME_TCP_LABEL_PREFIX,
				     strlen(BC_NVME_TCP_LABEL_PREFIX)))
			ret = bc_check_fail(c, path,
					    "an NVMe/TCP namespace is given as \"nvme_tcp\": "
					    "{\"traddr\", \"subnqn\", ...}, not as a path");
		if (ret)
			return ret;
		strcpy(vol->path, v->valuestring);
	}
	ret = s_volume_sim(c, item, base, vol);
	if (!ret)
		ret = s_volume_fileset(c, item, base, vol);
	if (ret)
		return ret;
	/* the same file twice on one agent doubles its load; "null" has no state to share */
	for (j = 0; j < p->nvolumes && strcmp(vol->path, "null"); j++)
		if (p->volumes[j].agent == vol->agent && !strcmp(p->volumes[j].path, vol->path))
			return bc_check_fail(
			    c, path, "duplicate volume \"%s\" on agent \"%s\" (volumes[%d])",
			    vol->path, p->agents[vol->agent].name, j);
	return 0;
}

static int s_parse_volumes(struct bc_check *c, const cJSON *root, struct bc_profile *p)
{
	char base[BC_CHECK_PATH_LEN];
	const cJSON *arr, *item;
	int n, ret;

	n = bc_check_array(c, root, "volumes", true, &arr);
	if (n < 0)
		return n;
	p->volumes = calloc((size_t)n, sizeof(*p->volumes));
	if (!p->volumes)
		return -ENOMEM;
	cJSON_ArrayForEach(item, arr)
	{
		snprintf(base, sizeof(base), "volumes[%d]", p->nvolumes);
		ret = s_parse_volume(c, item, base, p, &p->volumes[p->nvolumes]);
		if (!ret)
			ret = s_parse_vol_flags(c, root, item, base, &p->volumes[p->nvolumes]);
		if (ret) {
			/* not counted in nvolumes yet: bc_profile_destroy would not free these */
			free(p->volumes[p->nvolumes].workload);
			cJSON_Delete(p->volumes[p->nvolumes].workload_json);
			p->volumes[p->nvolumes].workload = NULL;
			p->volumes[p->nvolumes].workload_json = NULL;
			return ret;
		}
		p->nvolumes++;
	}
	return 0;
}

/*
 * A step's "format": one point, once per step, on volumes that may be
 * erased (the agent checks the rest: a local NVMe namespace, nothing
 * mounted or signed).
 */
static int s_parse_format(struct bc_check *c, const cJSON *item, const char *base,
			  const struct bc_profile *p, struct bc_step *st)
{
	char path[BC_CHECK_PATH_LEN];
	const cJSON *v;
	int ret, i;

	ret = bc_check_item(c, item, base, "format", false, path, &v);
	if (ret || !v)
		return ret;
	ret = bc_check_format(c, v, path, &st->format);
	if (ret)
		return ret;
	if (st->sweep || st->experiment)
		return bc_check_fail(c, path, "a step that formats runs one point: not with \"%s\"",
				     st->sweep ? "sweep" : "experiment");
	for (i = 0; i < p->nvolumes; i++) {
		if (p->volumes[i].nvme_tcp.set)
			return bc_check_fail(c, path,
					     "volumes[%d] is an NVMe/TCP namespace: a format is "
					     "the target's to do, not a client's",
					     i);
		if (!p->volumes[i].destructive)
			return bc_check_fail(c, path,
					     "volumes[%d] (%s) is not \"destructive\": a format "
					     "erases its whole namespace",
					     i, p->volumes[i].path);
	}
	return 0;
}

static int s_parse_steps(struct bc_check *c, const cJSON *root, const struct bc_workload *defaults,
			 struct bc_profile *p)
{
	char base[BC_CHECK_PATH_LEN], path[BC_CHECK_PATH_LEN];
	const cJSON *arr, *item, *v;
	int j, n, ret;

	n = bc_check_array(c, root, "steps", true, &arr);
	if (n < 0)
		return n;
	p->steps = calloc((size_t)n, sizeof(*p->steps));
	if (!p->steps)
		return -ENOMEM;
	cJSON_ArrayForEach(item, arr)
	{
		struct bc_step *st = &p->steps[p->nsteps];

		snprintf(base, sizeof(base), "steps[%d]", p->nsteps);
		ret = bc_check_object(c, base, item);
		if (!ret)
			ret = bc_check_workload_keys(c, item, base, s_step_keys);
		if (!ret)
			ret = bc_check_item(c, item, base, "name", true, path, &v);
		if (!ret)
			ret = bc_check_name(c, path, v, st->name);
		if (ret)
			return ret;
		for (j = 0; j < p->nsteps; j++)
			if (!strcmp(p->steps[j].name, st->name))
				return bc_check_fail(c, path, "duplicate step name \"%s\"",
						     st->name);
		st->wl = *defaults;
		ret = bc_check_workload(c, item, base, &st->wl);
		if (!ret)
			ret = bc_check_sweep(c, item, base, &st->wl, &st->sweep);
		if (!ret)
			ret = bc_check_experiment(c, item, base, p, st, &st->experiment);
		if (!ret)
			ret = bc_check_step_volume_workloads(c, item, base, p->nvolumes, st);
		if (!ret)
			ret = s_parse_format(c, item, base, p, st);
		if (ret) {
			/* not counted in nsteps yet: bc_profile_destroy would not free these */
			cJSON_Delete(st->sweep);
			cJSON_Delete(st->experiment);
			st->sweep = st->experiment = NULL;
			return ret;
		}
		p->nsteps++;
	}
	return 0;
}

/* "on_agent_loss": "abort" (default) or "continue" */
static int s_parse_loss_policy(struct bc_check *c, const cJSON *root, struct bc_profile *p)
{
	char path[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	const cJSON *v;
	int ret;

	p->on_agent_loss = BC_LOSS_ABORT;
	ret = bc_check_item(c, root, "", "on_agent_loss", false, path, &v);
	if (ret || !v)
		return ret;
	if (cJSON_IsString(v) && !strcmp(v->valuestring, "abort"))
		return 0;
	if (cJSON_IsString(v) && !strcmp(v->valuestring, "continue")) {
		p->on_agent_loss = BC_LOSS_CONTINUE;
		return 0;
	}
	return bc_check_fail(c, path, "expected \"abort\" or \"continue\", got %s",
			     bc_check_show(v, shown));
}

/*
 * "orphan_grace": how long the agents run a step on through their
 * coordinator's silence, keeping its records for a resumed one (0, the
 * default: the dead-man switch's 5 s); at most BC_PROFILE_GRACE_MAX_S
 */
static int s_parse_grace(struct bc_check *c, const cJSON *root, struct bc_profile *p)
{
	char path[BC_CHECK_PATH_LEN];
	const cJSON *v;
	uint32_t s = 0;
	int ret;

	ret = bc_check_item(c, root, "", "orphan_grace", false, path, &v);
	if (ret || !v)
		return ret;
	ret = bc_check_duration(c, path, v, 0, &s);
	if (ret)
		return ret;
	if (s > BC_PROFILE_GRACE_MAX_S)
		return bc_check_fail(c, path,
				     "must be at most %u s (1h): the agents keep every record "
				     "of the gap in memory, got %u s",
				     BC_PROFILE_GRACE_MAX_S, s);
	p->orphan_grace_s = s;
	return 0;
}

static int s_parse_root(struct bc_check *c, const cJSON *root, struct bc_profile *p)
{
	struct bc_workload defaults = bc_workload_builtin;
	char path[BC_CHECK_PATH_LEN], shown[BC_CHECK_SHOW_LEN];
	const cJSON *v;
	int ret;

	if (!cJSON_IsObject(root))
		return bc_check_fail(c, "", "expected an object at the top level, got %s",
				     bc_check_show(root, shown));
	ret = bc_check_keys(c, root, "", s_root_keys);
	if (!ret)
		ret = bc_check_item(c, root, "", "name", true, path, &v);
	if (!ret)
		ret = bc_check_name(c, path, v, p->name);
	if (!ret)
		ret = bc_check_item(c, root, "", "description", false, path, &v);
	if (ret)
		return ret;
	if (v && !cJSON_IsString(v))
		return bc_check_fail(c, path, "expected a string, got %s", bc_check_show(v, shown));

	ret = s_parse_agents(c, root, p);
	if (!ret)
		ret = s_parse_nodes(c, root, p);
	if (!ret)
		ret = s_parse_volumes(c, root, p);
	if (!ret)
		ret = bc_check_item(c, root, "", "defaults", false, path, &v);
	if (!ret && v) {
		ret = bc_check_object(c, path, v);
		if (!ret)
			ret = bc_check_workload_keys(c, v, path, NULL);
		if (!ret)
			ret = bc_check_workload(c, v, path, &defaults);
	}
	if (!ret)
		ret = s_parse_steps(c, root, &defaults, p);
	if (!ret)
		ret = bc_check_volume_steps(c, p);
	if (!ret)
		ret = bc_profile_parse_expect(c, root, p);
	if (!ret)
		ret = s_parse_loss_policy(c, root, p);
	if (!ret)
		ret = s_parse_grace(c, root, p);
	if (!ret)
		ret = bc_profile_expand_repeats(c, root, p);
	return ret;
}

/* "<file>:<line>:<col>: ..." with a 1-based line and byte column */
static int s_syntax(struct bc_check *c, const char *text, const char *at)
{
	unsigned line = 1, col = 1;
	const char *q;
	char near[21];
	size_t i;

	if (!at)
		at = text;
	for (q = text; q < at && *q; q++) {
		col = *q == '\n' ? 1 : col + 1;
		line += *q == '\n';
	}
	for (i = 0; i < sizeof(near) - 1 && at[i] && at[i] != '\n' && at[i] != '\r'; i++)
		near[i] = (unsigned char)at[i] < ' ' ? ' ' : at[i];
	near[i] = '\0';
	if (!c->err || !c->errlen)
		return -EINVAL;
	if (*at)
		snprintf(c->err, c->errlen, "%s:%u:%u: JSON syntax error near '%s'", c->src, line,
			 col, near);
	else
		snprintf(c->err, c->errlen, "%s:%u:%u: JSON syntax error at end of input", c->src,
			 line, col);
	return -EINVAL;
}

int bc_profile_parse(const char *text, const char *srcname, struct bc_profile **out, char *err,
		     size_t errlen)
{
	struct bc_check c = {.src = srcname ? srcname : "<profile>", .err = err, .errlen = errlen};
	struct bc_profile *p = NULL;
	const char *end = NULL;
	cJSON *root = NULL;
	int ret;

	*out = NULL;
	if (err && errlen)
		*err = '\0';
	if (!text)
		return bc_check_fail(&c, "", "no profile text");
	/*
	 * The length counts the NUL, as cJSON_Parse does, so truncated input
	 * fails at the NUL; otherwise cJSON moves the error to the last byte.
	 */
	root = cJSON_ParseWithLengthOpts(text, strlen(text) + 1, &end, true);
	if (!root) {
		ret = s_syntax(&c, text, end);
		goto out;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		ret = -ENOMEM;
		goto out;
	}
	snprintf(p->source, sizeof(p->source), "%s", c.src);
	{
		char where[256];

		/* cJSON reads "a\u0000b" as "a": a name or path must never be cut silently */
		if (bc_json_nul_path(root, text, strlen(text), where, sizeof(where))) {
			ret =
			    bc_check_fail(&c, where,
					  "holds a NUL character (\\u0000); refused (what follows "
					  "it would be dropped without a word)");
			goto out;
		}
	}
	ret = s_parse_root(&c, root, p);
	if (!ret) {
		*out = p;
		p = NULL;
	}
out:
	if (ret == -ENOMEM && err && errlen)
		snprintf(err, errlen, "%s: out of memory", c.src);
	bc_profile_destroy(&p);
	cJSON_Delete(root);
	return ret;
}

/*
 * A KV store's trace ("kv": {"trace"}) is a file beside the profile: a
 * relative path becomes the profile's directory's, and the file is read
 * through here, so validate names its first bad line (the agent reads it
 * again at PREPARE, from the path it is sent)
 */
static int s_traces(struct bc_profile *p, const char *path, char *err, size_t errlen)
{
	char joined[BC_PATH_MAX + 300], why[512];
	const char *slash = strrchr(path, '/');
	uint64_t n;
	int i, ret;

	for (i = 0; i < p->nsteps; i++) {
		struct bc_kv *kv = &p->steps[i].wl.kv;

		if (!kv->trace[0])
			continue;
		if (kv->trace[0] != '/' && slash) {
			snprintf(joined, sizeof(joined), "%.*s/%s", (int)(slash - path), path,
				 kv->trace);
			if (strlen(joined) >= sizeof(kv->trace)) {
				snprintf(err, errlen, "%s: steps[%d].kv.trace: path too long", path,
					 i);
				return -EINVAL;
			}
			snprintf(kv->trace, sizeof(kv->trace), "%s", joined);
		}
		ret = bc_kv_trace_check(kv->trace, &p->steps[i].wl, &n, why, sizeof(why));
		if (!ret && !n)
			snprintf(why, sizeof(why), "%s: no records", kv->trace);
		if (ret || !n) {
			snprintf(err, errlen, "%s: steps[%d].kv.trace: %s", path, i, why);
			return -EINVAL;
		}
	}
	return 0;
}

/* a profile is a hand-written page: anything this big is the wrong file */
#define S_FILE_MAX (16u << 20)

int bc_profile_load(const char *path, struct bc_profile **out, char *err, size_t errlen)
{
	size_t len = 0, cap = 0;
	char *text = NULL, *grown;
	int fd, ret = 0;
	ssize_t n;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		ret = -errno;
	while (!ret) {
		if (cap - len < 2) {
			grown = cap < S_FILE_MAX ? realloc(text, cap ? cap * 2 : 16384) : NULL;
			if (!grown) {
				ret = cap < S_FILE_MAX ? -ENOMEM : -EFBIG;
				break;
			}
			text = grown;
			cap = cap ? cap * 2 : 16384;
		}
		n = read(fd, text + len, cap - len - 1);
		if (n < 0 && errno != EINTR)
			ret = -errno;
		else if (!n)
			break;
		else if (n > 0)
			len += (size_t)n;
	}
	if (ret) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		goto out;
	}
	text[len] = '\0';
	if (strlen(text) != len) {
		if (err && errlen)
			snprintf(err, errlen, "%s: not a text file (contains a NUL byte)", path);
		ret = -EINVAL;
		goto out;
	}
	ret = bc_profile_parse(text, path, out, err, errlen);
	if (!ret)
		ret = s_traces(*out, path, err, errlen);
	if (ret)
		bc_profile_destroy(out);
out:
	if (fd >= 0)
		close(fd);
	free(text);
	return ret;
}

void bc_profile_destroy(struct bc_profile **pp)
{
	struct bc_profile *p = pp ? *pp : NULL;
	int i;

	if (!p)
		return;
	for (i = 0; i < p->nnodes; i++)
		cJSON_Delete(p->nodes[i].json);
	for (i = 0; i < p->nvolumes; i++) {
		free(p->volumes[i].workload);
		cJSON_Delete(p->volumes[i].workload_json);
	}
	for (i = 0; i < p->nsteps; i++) {
		cJSON_Delete(p->steps[i].sweep);
		cJSON_Delete(p->steps[i].experiment);
		cJSON_Delete(p->steps[i].volume_workloads);
		free(p->steps[i].volume_wl);
	}
	free(p->agents);
	free(p->nodes);
	free(p->volumes);
	free(p->steps);
	free(p->expects);
	free(p);
	*pp = NULL;
}
