/*
 * soakgen.c - a synthetic soak's run directory, without running it: profile.json,
 * events.jsonl and records.bin as `bench-coord run` writes them for N agents x
 * M "null" volumes x S seconds of one step (bench/soak.sh measures the results
 * phase and the reports on it: `bench-coord report --rebuild` replays it
 * through the live aggregation and result code). Every agent-second is a
 * "stats" line naming its STATS body in records.bin (the default binary
 * form), each volume's part picked from a pool of distinct one-second
 * payloads (bench/synth/: lognormal latencies with a slow tail, ~530
 * non-empty buckets at the default load) by a hash of agent, volume and
 * second; every agent-second also has a "host" sample, and each agent a
 * STEP_DONE whose totals equal its records' sum, so the run's checks pass;
 * each second ends with its "second_closed" line, as a live run's does.
 * With --warmup W the first W seconds come from a second pool at 1.5x the
 * IOPS with a narrower latency spread (a fresh drive before steady state), so the
 * drift figures have something to find.
 *
 * usage: bench_soakgen -n AGENTS -m VOLUMES -s SECONDS -o DIR [--iops N] [--pool P]
 *                      [--warmup W] [--level L]
 * DIR must not exist. Prints `name: value` lines: volume_seconds, records_bytes,
 * events_bytes, gen_s.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "results/files/reclog.h"
#include "synth/synth.h"
#include "util/clock.h"

#define S_NODES 8

struct s_gen {
	int n, m, npool, level;
	uint32_t seconds, warmup;
	uint64_t iops;
	const char *dir;
	struct bc_synth_payload *pool, *fresh;
	/* [agent][volume][op]: ios bytes errors short, for STEP_DONE */
	uint64_t (*tot)[BC_OP_NR][4];
};

static int s_profile(const struct s_gen *g)
{
	char path[4096];
	FILE *f;
	int a, v;

	snprintf(path, sizeof(path), "%s/profile.json", g->dir);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "{\"name\": \"soak-%dx%d\", \"agents\": [", g->n, g->m);
	for (a = 0; a < g->n; a++)
		fprintf(f, "%s{\"name\": \"a%04d\", \"endpoint\": \"tcp://127.0.0.1:%d\"}",
			a ? ", " : "", a, 20000 + a);
	fprintf(f, "], \"nodes\": [");
	for (v = 0; v < S_NODES; v++)
		fprintf(f, "%s{\"name\": \"node-%d\"}", v ? ", " : "", v);
	fprintf(f, "], \"volumes\": [");
	for (a = 0; a < g->n; a++)
		for (v = 0; v < g->m; v++)
			fprintf(
			    f,
			    "%s{\"agent\": \"a%04d\", \"path\": \"null\", \"node\": \"node-%d\"}",
			    a || v ? ", " : "", a, (a * g->m + v) % S_NODES);
	fprintf(
	    f,
	    "], \"on_agent_loss\": \"continue\", \"defaults\": {\"rw\": \"randrw\", "
	    "\"rwmixread\": 70, \"bs\": \"4k\", \"iodepth\": 1}, \"steps\": [{\"name\": \"soak\", "
	    "\"ramp\": \"0s\", \"runtime\": \"%us\"}]}\n",
	    g->seconds);
	return fclose(f) ? -errno : 0;
}

/* one agent-second: its record in records.bin, its "stats" and "host" lines */
static int s_second(struct s_gen *g, struct bc_reclogw *w, FILE *ev, uint8_t *body, size_t cap,
		    int a, uint32_t k, uint64_t t_ns, const struct bc_synth_payload **picked)
{
	char name[16];
	uint64_t off;
	size_t len;
	int rc, v, o;
	bool warm = k < g->warmup;

	snprintf(name, sizeof(name), "a%04d", a);
	len =
	    bc_synth_record(body, cap, 0, k, a, g->m, warm ? g->fresh : g->pool, g->npool, picked);
	rc = bc_reclogw_put(w, name, t_ns, body, len, &off);
	if (rc)
		return rc;
	for (v = 0; v < g->m; v++)
		for (o = 0; o < BC_OP_NR; o++) {
			uint64_t *t = g->tot[(size_t)a * (size_t)g->m + (size_t)v][o];

			t[0] += picked[v]->ios[o];
			t[1] += picked[v]->bytes[o];
			t[2] += picked[v]->errors[o];
			t[3] += picked[v]->short_ios[o];
		}
	fprintf(ev,
		"{\"agent\":\"%s\",\"second\":%u,\"flags\":0,\"step\":0,\"rec\":%llu,"
		"\"event\":\"stats\",\"time_ns\":%llu}\n",
		name, k, (unsigned long long)off, (unsigned long long)t_ns);
	/* a client host's sample as an agent sends it, its figures moving a little */
	fprintf(ev,
		"{\"step\":0,\"second\":%u,\"host\":{\"dt_s\":1,\"net_tx_mbps\":%.3f,"
		"\"net_rx_mbps\":%.3f,\"cpu_busy_pct\":%.3f,\"cpu_sys_pct\":%.3f,"
		"\"cpu_hot_core_pct\":%.3f,\"softirq_pct\":%.3f,\"ncpu\":32,\"t0_s\":%u,"
		"\"t1_s\":%u},\"agent\":\"%s\",\"event\":\"host\",\"time_ns\":%llu}\n",
		k, 80.0 + (double)((k * 7 + (uint32_t)a) % 13),
		190.0 + (double)((k + (uint32_t)a) % 11),
		20.0 + (double)((k * 3 + (uint32_t)a) % 17), 8.0 + (double)(k % 5),
		40.0 + (double)((k + 3 * (uint32_t)a) % 23), 2.0 + (double)(k % 3), k, k + 1, name,
		(unsigned long long)(t_ns + 1000));
	return ferror(ev) ? -EIO : 0;
}

static int s_step_done(const struct s_gen *g, FILE *ev, int a, uint64_t t_ns)
{
	int v, o;

	fprintf(ev, "{\"agent\":\"a%04d\",\"step\":0,\"volumes\":[", a);
	for (v = 0; v < g->m; v++) {
		fprintf(ev, "%s{", v ? "," : "");
		for (o = 0; o < BC_OP_NR; o++) {
			const uint64_t *t = g->tot[(size_t)a * (size_t)g->m + (size_t)v][o];

			fprintf(ev,
				"%s\"%s\":{\"ios\":%llu,\"bytes\":%llu,\"errors\":%llu,"
				"\"short\":%llu}",
				o ? "," : "", bc_op_names[o], (unsigned long long)t[0],
				(unsigned long long)t[1], (unsigned long long)t[2],
				(unsigned long long)t[3]);
		}
		fputc('}', ev);
	}
	fprintf(ev, "],\"event\":\"step_done\",\"time_ns\":%llu}\n", (unsigned long long)t_ns);
	return ferror(ev) ? -EIO : 0;
}

static int s_run(struct s_gen *g)
{
	char path[4096], err[4200];
	struct bc_reclogw *w = NULL;
	const struct bc_synth_payload **picked = calloc((size_t)g->m, sizeof(*picked));
	size_t cap = 64 + (size_t)g->m * (10 + 8192), len_max = 0;
	uint8_t *body = NULL;
	uint64_t t0 = bc_real_ns(), t;
	FILE *ev = NULL;
	uint32_t k;
	int rc, a, i;

	for (i = 0; i < g->npool; i++)
		len_max = g->pool[i].len > len_max ? g->pool[i].len : len_max;
	for (i = 0; i < g->npool && g->fresh; i++)
		len_max = g->fresh[i].len > len_max ? g->fresh[i].len : len_max;
	cap = 64 + (size_t)g->m * (10 + len_max);
	body = malloc(cap);
	if (!picked || !body) {
		rc = -ENOMEM;
		goto out;
	}
	rc = s_profile(g);
	if (rc)
		goto out;
	snprintf(path, sizeof(path), "%s/%s", g->dir, BC_RECLOG_NAME);
	rc = bc_reclogw_open(&w, path, g->level, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "bench_soakgen: %s\n", err);
		goto out;
	}
	snprintf(path, sizeof(path), "%s/events.jsonl", g->dir);
	ev = fopen(path, "w");
	if (!ev) {
		rc = -errno;
		goto out;
	}
	setvbuf(ev, NULL, _IOFBF, 1 << 20);
	fprintf(ev,
		"{\"profile\":\"soak-%dx%d\",\"source\":\"bench_soakgen\",\"started\":"
		"\"2026-01-01T00:00:00Z\",\"event\":\"run_start\",\"time_ns\":%llu}\n",
		g->n, g->m, (unsigned long long)t0);
	fprintf(ev, "{\"agents\":[");
	for (a = 0; a < g->n; a++)
		fprintf(ev,
			"%s{\"name\":\"a%04d\",\"endpoint\":\"tcp://127.0.0.1:%d\",\"local\":false,"
			"\"hello\":{\"version\":\"" BC_VERSION "\",\"protocol\":2,\"hostname\":"
			"\"soak-%d\",\"cpus\":32,\"kernel\":\"6.1.0-soak\"}}",
			a ? "," : "", a, 20000 + a, a);
	fprintf(ev, "],\"event\":\"agents\",\"time_ns\":%llu}\n", (unsigned long long)t0);
	fprintf(ev,
		"{\"step\":0,\"name\":\"soak\",\"start_ns\":%llu,\"seconds\":%u,"
		"\"event\":\"step_start\",\"time_ns\":%llu}\n",
		(unsigned long long)(t0 + 1000000000ull), g->seconds, (unsigned long long)t0);
	for (k = 0; k < g->seconds; k++) {
		t = t0 + (uint64_t)(k + 2) * 1000000000ull;
		for (a = 0; a < g->n; a++) {
			rc = s_second(g, w, ev, body, cap, a, k, t + (uint64_t)a * 1000, picked);
			if (rc)
				goto out;
		}
		/* the coordinator closed it once every agent's record was in */
		fprintf(ev,
			"{\"step\":0,\"second\":%u,\"agents\":%d,\"lag_ms\":20,"
			"\"event\":\"second_closed\",\"time_ns\":%llu}\n",
			k, g->n, (unsigned long long)(t + 20000000ull));
	}
	t = t0 + (uint64_t)(g->seconds + 2) * 1000000000ull;
	for (a = 0; a < g->n && !rc; a++)
		rc = s_step_done(g, ev, a, t);
	if (!rc)
		fprintf(ev,
			"{\"status\":\"ok\",\"finished\":\"2026-01-02T00:00:00Z\","
			"\"event\":\"run_end\",\"time_ns\":%llu}\n",
			(unsigned long long)t);
out:
	if (ev && fclose(ev) && !rc)
		rc = -EIO;
	if (w) {
		int crc = bc_reclogw_close(w);

		rc = rc ? rc : crc;
	}
	free(body);
	free(picked);
	return rc;
}

static long long s_size(const char *dir, const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) ? -1 : (long long)st.st_size;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {{"iops", required_argument, NULL, 'i'},
					     {"pool", required_argument, NULL, 'p'},
					     {"warmup", required_argument, NULL, 'w'},
					     {"level", required_argument, NULL, 'l'},
					     {NULL, 0, NULL, 0}};
	struct s_gen g = {.npool = 1024, .level = 1, .iops = 2000};
	uint64_t t0 = bc_mono_ns();
	int c, i, rc = 0;

	while ((c = getopt_long(argc, argv, "n:m:s:o:", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			g.n = atoi(optarg);
			break;
		case 'm':
			g.m = atoi(optarg);
			break;
		case 's':
			g.seconds = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 'o':
			g.dir = optarg;
			break;
		case 'i':
			g.iops = strtoull(optarg, NULL, 10);
			break;
		case 'p':
			g.npool = atoi(optarg);
			break;
		case 'w':
			g.warmup = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 'l':
			g.level = atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (g.n < 1 || g.m < 1 || !g.seconds || !g.dir || g.npool < 1 || !g.iops)
		goto usage;
	if (mkdir(g.dir, 0755)) {
		fprintf(stderr, "bench_soakgen: cannot create '%s': %s\n", g.dir, strerror(errno));
		return 1;
	}
	g.pool = calloc((size_t)g.npool, sizeof(*g.pool));
	g.fresh = g.warmup ? calloc((size_t)g.npool, sizeof(*g.fresh)) : NULL;
	g.tot = calloc((size_t)g.n * (size_t)g.m, sizeof(*g.tot));
	if (!g.pool || !g.tot || (g.warmup && !g.fresh))
		return 1;
	for (i = 0; i < g.npool && !rc; i++) {
		rc = bc_synth_payload(&g.pool[i], g.iops, 0.3);
		/* the fresh drive: more IOPS, a narrower latency spread */
		if (!rc && g.fresh)
			rc = bc_synth_payload(&g.fresh[i], g.iops * 3 / 2, 0.2);
	}
	if (!rc)
		rc = s_run(&g);
	if (rc) {
		fprintf(stderr, "bench_soakgen: %s\n", strerror(-rc));
		return 1;
	}
	printf("volume_seconds: %llu\n",
	       (unsigned long long)g.n * (unsigned long long)g.m * g.seconds);
	printf("records_bytes: %lld\n", s_size(g.dir, BC_RECLOG_NAME));
	printf("events_bytes: %lld\n", s_size(g.dir, "events.jsonl"));
	printf("gen_s: %.1f\n", (double)(bc_mono_ns() - t0) / 1e9);
	for (i = 0; i < g.npool; i++) {
		bc_synth_payload_free(&g.pool[i]);
		if (g.fresh)
			bc_synth_payload_free(&g.fresh[i]);
	}
	free(g.pool);
	free(g.fresh);
	free(g.tot);
	return 0;
usage:
	fprintf(stderr, "usage: bench_soakgen -n AGENTS -m VOLUMES -s SECONDS -o DIR [--iops N] "
			"[--pool P] [--warmup W] [--level L]\n");
	return 2;
}
