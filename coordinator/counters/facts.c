/*
 * counters/facts.c - a storage node's facts from its /metrics page
 * (counters/facts.h): NUMA, bonds, storage processes, software and NVMe
 * firmware versions. A fact seen twice in one page (two URLs of one node)
 * keeps its last value; a table full drops the rest.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/facts.h"

enum s_fact {
	F_NUMA_NODES,
	F_NIC_NUMA,
	F_BOND_INFO,
	F_BOND_ACTIVE,
	F_PROC_INFO,
	F_SW_INFO,
	F_NVME_INFO,
	F_NODE_NVME_INFO,
	F_NODE_BOND_SLAVES,
	F_NODE_BOND_ACTIVE,
	F_NR
};

static const char *const s_names[F_NR] = {
    "bench_node_numa_nodes",   "bench_node_nic_numa_node",
    "bench_node_bond_info",    "bench_node_bond_active_members",
    "bench_node_process_info", "bench_node_software_info",
    "bench_node_nvme_info",    "node_nvme_info",
    "node_bonding_slaves",     "node_bonding_active",
};

void bc_nodefacts_init(struct bc_nodefacts *f)
{
	memset(f, 0, sizeof(*f));
}

static int s_fact(const char *name, size_t len)
{
	int i;

	for (i = 0; i < F_NR; i++)
		if (strlen(s_names[i]) == len && !memcmp(s_names[i], name, len))
			return i;
	return -1;
}

bool bc_nodefacts_wants(const char *name, size_t len)
{
	return s_fact(name, len) >= 0;
}

static const char *s_label(const struct bc_prom_sample *s, const char *name)
{
	return bc_prom_label(s, name) ?: "";
}

static void s_copy(char *dst, size_t cap, const char *src)
{
	snprintf(dst, cap, "%s", src);
}

/* the entry of table keyed key (a char array at the start of each element), added when new */
static void *s_entry(void *table, size_t elem, int *n, int cap, const char *key)
{
	char *t = table;
	int i;

	if (!*key)
		return NULL;
	for (i = 0; i < *n; i++)
		if (!strcmp(t + (size_t)i * elem, key))
			return t + (size_t)i * elem;
	if (*n == cap)
		return NULL;
	memset(t + (size_t)*n * elem, 0, elem);
	s_copy(t + (size_t)*n * elem, BC_FACT_NAME, key);
	return t + (size_t)(*n)++ * elem;
}

static struct bc_fact_bond *s_bond(struct bc_nodefacts *f, const char *name)
{
	struct bc_fact_bond *b =
	    s_entry(f->bonds, sizeof(f->bonds[0]), &f->nbonds, BC_FACT_BONDS, name);

	if (b && !b->nmembers && !b->mode[0])
		b->active = -1;
	return b;
}

/* "eth0,eth1" -> 2 */
static int s_count_list(const char *list)
{
	int n = *list ? 1 : 0;

	for (; *list; list++)
		n += *list == ',';
	return n;
}

void bc_nodefacts_sample(struct bc_nodefacts *f, const struct bc_prom_sample *s)
{
	int k = s_fact(s->name, strlen(s->name));
	struct bc_fact_nic *nic;
	struct bc_fact_bond *b;
	struct bc_fact_proc *pr;
	struct bc_fact_nvme *nv;

	if (k < 0 || isnan(s->value))
		return;
	f->any = true;
	switch (k) {
	case F_NUMA_NODES:
		f->numa_nodes = s->value >= 1 && s->value < 1e6 ? (int)s->value : 0;
		break;
	case F_NIC_NUMA:
		nic = s_entry(f->nics, sizeof(f->nics[0]), &f->nnics, BC_FACT_NICS,
			      s_label(s, "device"));
		if (nic)
			nic->numa = s->value >= 0 && s->value < 1e6 ? (int)s->value : -1;
		break;
	case F_BOND_INFO:
		b = s_bond(f, s_label(s, "bond"));
		if (!b)
			break;
		s_copy(b->mode, sizeof(b->mode), s_label(s, "mode"));
		s_copy(b->hash, sizeof(b->hash), s_label(s, "xmit_hash_policy"));
		s_copy(b->members, sizeof(b->members), s_label(s, "members"));
		b->nmembers = s_count_list(b->members);
		break;
	case F_BOND_ACTIVE:
		b = s_bond(f, s_label(s, "bond"));
		if (b) {
			b->active = s->value >= 0 && s->value < 1e6 ? (int)s->value : -1;
			b->active_set = true; /* the collector's (LACP) count wins */
		}
		break;
	case F_PROC_INFO:
		pr = s_entry(f->procs, sizeof(f->procs[0]), &f->nprocs, BC_FACT_PROCS,
			     s_label(s, "process"));
		if (!pr)
			break;
		s_copy(pr->cpus, sizeof(pr->cpus), s_label(s, "cpus"));
		s_copy(pr->numa_nodes, sizeof(pr->numa_nodes), s_label(s, "numa_nodes"));
		break;
	case F_NODE_BOND_SLAVES: /* node_exporter's bonding collector: links, and links up */
	case F_NODE_BOND_ACTIVE:
		b = s_bond(f, s_label(s, "master"));
		if (!b || !(s->value >= 0 && s->value < 1e6))
			break;
		if (k == F_NODE_BOND_SLAVES && !b->members[0])
			b->nmembers = (int)s->value;
		else if (k == F_NODE_BOND_ACTIVE && !b->active_set)
			b->active = (int)s->value;
		break;
	case F_SW_INFO:
		bc_nodefacts_software(f, s_label(s, "name"), s_label(s, "version"));
		break;
	default: /* ours or node_exporter's nvme collector: the same facts, two label names */
		nv = s_entry(f->nvme, sizeof(f->nvme[0]), &f->nnvme, BC_FACT_NVME,
			     s_label(s, "device"));
		if (!nv)
			break;
		s_copy(nv->model, sizeof(nv->model), s_label(s, "model"));
		s_copy(nv->firmware, sizeof(nv->firmware),
		       k == F_NVME_INFO ? s_label(s, "firmware") : s_label(s, "firmware_revision"));
	}
}

void bc_nodefacts_software(struct bc_nodefacts *f, const char *name, const char *version)
{
	struct bc_fact_sw *sw = s_entry(f->sw, sizeof(f->sw[0]), &f->nsw, BC_FACT_SW, name);

	if (!sw)
		return;
	f->any = true;
	s_copy(sw->version, sizeof(sw->version), version);
}

const struct bc_fact_bond *bc_nodefacts_bond(const struct bc_nodefacts *f, const char *name)
{
	int i;

	for (i = 0; name && i < f->nbonds; i++)
		if (!strcmp(f->bonds[i].bond, name))
			return &f->bonds[i];
	return f->nbonds == 1 ? &f->bonds[0] : NULL;
}

cJSON *bc_nodefacts_json(const struct bc_nodefacts *f)
{
	cJSON *o, *a, *e;
	int i;

	if (!f->any)
		return NULL;
	o = cJSON_CreateObject();
	if (f->numa_nodes)
		cJSON_AddNumberToObject(o, "numa_nodes", f->numa_nodes);
	a = f->nnics ? cJSON_AddObjectToObject(o, "nic_numa_node") : NULL;
	for (i = 0; i < f->nnics; i++)
		cJSON_AddNumberToObject(a, f->nics[i].dev, f->nics[i].numa);
	a = f->nbonds ? cJSON_AddObjectToObject(o, "bonds") : NULL;
	for (i = 0; i < f->nbonds; i++) {
		e = cJSON_AddObjectToObject(a, f->bonds[i].bond);
		cJSON_AddStringToObject(e, "mode", f->bonds[i].mode);
		cJSON_AddStringToObject(e, "xmit_hash_policy", f->bonds[i].hash);
		cJSON_AddStringToObject(e, "members", f->bonds[i].members);
		if (f->bonds[i].active >= 0)
			cJSON_AddNumberToObject(e, "active_members", f->bonds[i].active);
	}
	a = f->nprocs ? cJSON_AddObjectToObject(o, "processes") : NULL;
	for (i = 0; i < f->nprocs; i++) {
		e = cJSON_AddObjectToObject(a, f->procs[i].name);
		cJSON_AddStringToObject(e, "cpus", f->procs[i].cpus);
		cJSON_AddStringToObject(e, "numa_nodes", f->procs[i].numa_nodes);
	}
	a = f->nsw ? cJSON_AddObjectToObject(o, "software") : NULL;
	for (i = 0; i < f->nsw; i++)
		cJSON_AddStringToObject(a, f->sw[i].name, f->sw[i].version);
	a = f->nnvme ? cJSON_AddObjectToObject(o, "nvme") : NULL;
	for (i = 0; i < f->nnvme; i++) {
		e = cJSON_AddObjectToObject(a, f->nvme[i].dev);
		cJSON_AddStringToObject(e, "model", f->nvme[i].model);
		cJSON_AddStringToObject(e, "firmware", f->nvme[i].firmware);
	}
	return o;
}
