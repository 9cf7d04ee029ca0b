/*
 * session/hostinfo.c - what the agent tells a coordinator in HELLO_OK: its version,
 * host facts, and a probe of every path the coordinator asked about.
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "nvme/ident.h"
#include "session/hostinfo.h"
#include "session/volume.h"
#include "target/target.h"
#include "util/clock.h"
#include "util/json.h"
#include "wire/proto.h"

cJSON *bc_hostinfo_json(const struct bc_agent *a, const cJSON *paths)
{
	cJSON *r = cJSON_CreateObject(), *arr;
	const cJSON *p;
	struct utsname u;
	char host[256] = "unknown";

	if (!r)
		return NULL;
	gethostname(host, sizeof(host) - 1);
	cJSON_AddStringToObject(r, "version", BC_VERSION);
	cJSON_AddNumberToObject(r, "protocol", BC_PROTO_VERSION);
	cJSON_AddStringToObject(r, "hostname", host);
	cJSON_AddNumberToObject(r, "cpus", (double)sysconf(_SC_NPROCESSORS_ONLN));
	if (!uname(&u)) {
		char k[512];

		snprintf(k, sizeof(k), "%s %s %s", u.sysname, u.release, u.machine);
		cJSON_AddStringToObject(r, "kernel", k);
	}
	cJSON_AddNumberToObject(r, "pid", (double)getpid());
	cJSON_AddStringToObject(r, "scratch_dir", a->opts.scratch_dir);
	bc_json_add_u64(r, "agent_ns", bc_real_ns());
	arr = cJSON_AddArrayToObject(r, "paths");
	cJSON_ArrayForEach(p, paths)
	{
		cJSON *o = cJSON_CreateObject();
		struct bc_devinfo di;
		char path[BC_PATH_MAX];
		const char *kind = "";
		int rc;

		if (!cJSON_IsString(p))
			continue;
		cJSON_AddStringToObject(o, "path", p->valuestring);
		/* an NVMe/TCP volume's label: its device exists once PREPARE attached it */
		if (!strncmp(p->valuestring, BC_NVME_TCP_LABEL_PREFIX,
			     strlen(BC_NVME_TCP_LABEL_PREFIX))) {
			cJSON_AddStringToObject(o, "resolved", "(attached at PREPARE)");
			cJSON_AddStringToObject(o, "kind", "nvme-tcp");
			cJSON_AddItemToArray(arr, o);
			continue;
		}
		rc = bc_agent_resolve_path(a, p->valuestring, path, sizeof(path));
		if (!rc)
			rc = bc_target_probe(path, &di, &kind);
		cJSON_AddStringToObject(o, "resolved", path);
		if (rc) {
			cJSON_AddStringToObject(o, "error", strerror(-rc));
		} else {
			cJSON_AddStringToObject(o, "kind", kind);
			cJSON_AddNumberToObject(o, "size", (double)di.size_bytes);
			cJSON_AddNumberToObject(o, "lbs", di.lbs);
			cJSON_AddNumberToObject(o, "pbs", di.pbs);
			/* NVMe namespaces (block or generic char): who the device is (docs/nvme.md)
			 */
			if (di.kind == BC_KIND_BLOCK || di.kind == BC_KIND_NVME_CHAR) {
				struct bc_nvme_ident id;

				if (!bc_nvme_ident(path, &id))
					cJSON_AddItemToObject(o, "nvme", bc_nvme_ident_json(&id));
			}
		}
		cJSON_AddItemToArray(arr, o);
	}
	return r;
}
