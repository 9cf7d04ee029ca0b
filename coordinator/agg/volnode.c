/*
 * agg/volnode.c - volume to storage node mapping (see agg/volnode.h and
 * docs/nvme.md "Volume -> storage node"): explicit in the profile, or derived
 * from the NVMe/TCP controller's address matched against nodes[].addresses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agg/volnode.h"

/* "[fe80::1]" and "fe80::1" are the same address */
static void s_unbracket(const char *in, char *out, size_t len)
{
	size_t n = strlen(in);

	if (n >= 2 && in[0] == '[' && in[n - 1] == ']')
		snprintf(out, len, "%.*s", (int)(n - 2), in + 1);
	else
		snprintf(out, len, "%s", in);
}

int bc_volnode_match(const struct bc_profile *p, const char *addr)
{
	char want[BC_TRADDR_MAX], have[BC_TRADDR_MAX];
	const cJSON *a;
	int i;

	s_unbracket(addr, want, sizeof(want));
	if (!want[0])
		return -1;
	for (i = 0; i < p->nnodes; i++) {
		cJSON_ArrayForEach(a,
				   cJSON_GetObjectItemCaseSensitive(p->nodes[i].json, "addresses"))
		{
			if (!cJSON_IsString(a))
				continue;
			s_unbracket(a->valuestring, have, sizeof(have));
			if (!strcmp(have, want))
				return i;
		}
	}
	return -1;
}

/* decide from a controller address; the profile's node is handled by the caller */
static void s_decide(const struct bc_profile *p, struct bc_volnode *v, const char *traddr,
		     const char *from)
{
	v->node = bc_volnode_match(p, traddr);
	if (v->node >= 0)
		snprintf(v->why, sizeof(v->why), "nvme-tcp address %s%s", traddr, from);
	else
		snprintf(v->why, sizeof(v->why),
			 "none: nvme-tcp address %s%s is in no node's \"addresses\"", traddr, from);
}

struct bc_volnode *bc_volnode_new(const struct bc_profile *p)
{
	struct bc_volnode *vn = calloc((size_t)(p->nvolumes ? p->nvolumes : 1), sizeof(*vn));
	int i;

	for (i = 0; vn && i < p->nvolumes; i++) {
		const struct bc_volume_spec *v = &p->volumes[i];

		vn[i].node = v->node;
		if (v->node >= 0)
			snprintf(vn[i].why, sizeof(vn[i].why), "profile");
		else if (v->nvme_tcp.set && !v->nvme_tcp.discover)
			s_decide(p, &vn[i], v->nvme_tcp.traddr, " (profile nvme_tcp)");
	}
	return vn;
}

bool bc_volnode_from_ready(const struct bc_profile *p, struct bc_volnode *vn, int vol,
			   const cJSON *rv)
{
	const cJSON *nv = cJSON_GetObjectItemCaseSensitive(rv, "nvme");
	const char *traddr = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(rv, "nvme_tcp"), "traddr"));
	const char *tr = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(nv, "transport"));
	const char *addr = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(nv, "address"));
	char a[BC_TRADDR_MAX];
	struct bc_volnode old = vn[vol];

	if (p->volumes[vol].node >= 0)
		return false;
	/*
	 * An attached volume: the controller the agent connected or reused
	 * (its sysfs address matched, or the discovery log gave it). Else the
	 * device's identity: with native multipath nvmeX of /dev/nvmeXnY is
	 * the subsystem's number, so that is the weaker of the two.
	 */
	if (traddr && *traddr)
		s_decide(p, &vn[vol], traddr, "");
	else if (tr && !strcmp(tr, "tcp") && addr &&
		 !bc_nvme_addr_field(addr, "traddr", a, sizeof(a)))
		s_decide(p, &vn[vol], a, "");
	else
		return false;
	return old.node != vn[vol].node || strcmp(old.why, vn[vol].why);
}
