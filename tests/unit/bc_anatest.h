/*
 * bc_anatest.h - what the analysis tests share (test_analysis.c,
 * test_suspects.c): a sweep point, a storage node's and a client's figures
 * at given rates, and JSON lookups of the analysis' answer.
 */
#ifndef BC_ANATEST_H
#define BC_ANATEST_H

#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "analysis/analysis.h"
#include "bc_test.h"

#define BC_ANATEST_FN __attribute__((unused))

#define MiB  1048576.0
#define LINK 25e9 /* 2 x 100GbE bond, bytes/s */

static BC_ANATEST_FN struct bc_ana_point point(double n, double x_bps, double r_s)
{
	struct bc_ana_point p = {0};

	p.value = n;
	p.n = n;
	p.x_bps = p.x_read_bps = x_bps;
	p.x_iops = x_bps / MiB;
	p.r_mean_s = r_s;
	p.p99_s = 1.4 * r_s;
	return p;
}

static BC_ANATEST_FN struct bc_use node(const char *name, double tx, double cpu, double hot,
					double soft_hot)
{
	struct bc_use u;

	bc_use_init(&u, name, false);
	snprintf(u.nics, sizeof(u.nics), "bond0");
	u.link_bps = LINK;
	u.net_tx_bps = tx;
	u.net_rx_bps = 0.02 * tx;
	u.nic_tx = tx / LINK;
	u.nic_rx = u.net_rx_bps / LINK;
	u.cpu_busy = cpu;
	u.hot_core = hot;
	u.hot_core_id = 12;
	u.softirq = 0.03;
	u.softirq_hot = soft_hot;
	u.softirq_hot_id = 12;
	u.ncpu = 64;
	u.load1 = 20;
	return u;
}

static BC_ANATEST_FN struct bc_use client(const char *name, double rx, double cpu)
{
	struct bc_use u;

	bc_use_init(&u, name, true);
	u.link_bps = LINK;
	u.net_rx_bps = rx;
	u.net_tx_bps = 0.01 * rx;
	u.nic_rx = rx / LINK;
	u.nic_tx = u.net_tx_bps / LINK;
	u.cpu_busy = cpu;
	u.hot_core = cpu + 0.1;
	u.ncpu = 64;
	u.load1 = 8;
	return u;
}

static BC_ANATEST_FN const char *jstr(const cJSON *o, const char *k)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));

	return s ? s : "";
}

static BC_ANATEST_FN double jnum(const cJSON *o, const char *k)
{
	return cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, k));
}

static BC_ANATEST_FN void dump_on_fail(const cJSON *a, int before)
{
	if (bc_test_failures > before) {
		char *s = cJSON_Print(a);

		fprintf(stderr, "%s\n", s);
		free(s);
	}
}

#endif
