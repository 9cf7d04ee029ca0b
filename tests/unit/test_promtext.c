/* test_promtext: the Prometheus text parser on edge cases and on real node_exporter pages, and the
 * per-second node figures made from two of them */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/counters.h"
#include "counters/ops.h"
#include "counters/prom.h"
#include "counters/promtext.h"
#include "util/clock.h"
#include "bc_test.h"

#define FIXTURE BC_SRC_DIR "/tests/data/prometheus/node_exporter-1.5.0-"

struct seen {
	int n;
	struct bc_prom_sample s[16];
};

static int collect(void *arg, const struct bc_prom_sample *s)
{
	struct seen *w = arg;

	if (w->n < 16)
		w->s[w->n++] = *s;
	return 0;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	*len = (size_t)n;
	fclose(f);
	return buf;
}

static bool want_only_http(void *arg, const char *name, size_t len)
{
	return len == 19 && !memcmp(name, "http_requests_total", 19);
}

static void test_edge_cases(void)
{
	static const char text[] =
	    "# HELP http_requests_total The total number of HTTP requests.\n"
	    "# TYPE http_requests_total counter\n"
	    "http_requests_total{method=\"post\",code=\"200\"} 1027 1395066363000\n"
	    "http_requests_total{method=\"post\",code=\"400\"}    3   1395066363000\r\n"
	    "\n"
	    "  # a free comment\n"
	    "msdos_file_access_time_seconds{path=\"C:\\\\DIR\\\\FILE.TXT\",error=\"Cannot find "
	    "file:\\n\\\"FILE.TXT\\\"\"} 1.458255915e9\n"
	    "metric_without_timestamp_and_labels 12.47\n"
	    "something_weird{problem=\"division by zero\"} +Inf -3982045\n"
	    "nan_value NaN\n"
	    "neg_inf{a=\"b\",} -Inf\n"
	    "# TYPE rpc_duration_seconds summary\n"
	    "rpc_duration_seconds{quantile=\"0.99\"} 76656\n"
	    "rpc_duration_seconds_sum 1.7560473e+07\n"
	    "spaced { a = \"x,}=y\" , b=\"\" } 7\n"
	    "bad line here\n"
	    "no_value{a=\"b\"}\n"
	    "unterminated{a=\"b} 1\n"
	    "trailing_junk 1 2 3\n"
	    "0startsdigit 1\n"
	    "value_not_number x\n";
	struct seen w = {0};
	struct bc_prom_stats st;
	const struct bc_prom_sample *s;

	CHECK(bc_prom_parse(text, strlen(text), NULL, collect, &w, &st) == 0);
	CHECK_MSG(w.n == 10, "%d samples", w.n);
	CHECK_MSG(st.bad == 6, "%u bad", st.bad);
	CHECK(st.comments == 4);
	CHECK(st.first_bad_line == 16);

	s = &w.s[0];
	CHECK(!strcmp(s->name, "http_requests_total") && s->type == BC_PROM_COUNTER);
	CHECK(s->nlabels == 2 && !strcmp(bc_prom_label(s, "code"), "200"));
	CHECK(s->value == 1027 && s->has_ts && s->ts_ms == 1395066363000LL);
	s = &w.s[1];
	CHECK(s->value == 3 && s->has_ts && !strcmp(bc_prom_label(s, "code"), "400"));
	s = &w.s[2];
	CHECK(!strcmp(bc_prom_label(s, "path"), "C:\\DIR\\FILE.TXT"));
	CHECK(!strcmp(bc_prom_label(s, "error"), "Cannot find file:\n\"FILE.TXT\""));
	CHECK(s->value == 1.458255915e9 && !s->has_ts && s->type == BC_PROM_UNTYPED);
	CHECK(w.s[3].nlabels == 0 && w.s[3].value == 12.47);
	CHECK(isinf(w.s[4].value) && w.s[4].value > 0 && w.s[4].ts_ms == -3982045);
	CHECK(isnan(w.s[5].value));
	CHECK(isinf(w.s[6].value) && w.s[6].value < 0 && w.s[6].nlabels == 1);
	CHECK(w.s[7].type == BC_PROM_SUMMARY && w.s[8].type == BC_PROM_SUMMARY);
	CHECK(!strcmp(w.s[9].name, "spaced") && w.s[9].nlabels == 2);
	CHECK(!strcmp(bc_prom_label(&w.s[9], "a"), "x,}=y") &&
	      !strcmp(bc_prom_label(&w.s[9], "b"), ""));
	CHECK(bc_prom_label(&w.s[9], "c") == NULL);

	/* the filter: only wanted names are parsed, the rest is still counted */
	memset(&w, 0, sizeof(w));
	CHECK(bc_prom_parse(text, strlen(text), want_only_http, collect, &w, &st) == 0);
	CHECK(w.n == 2);

	/* not NUL-terminated: the length rules; a callback can stop the parse */
	CHECK(bc_prom_parse("a 1\nb 2", 3, NULL, collect, &w, &st) == 0 && st.samples == 1);
	CHECK(bc_prom_parse(NULL, 0, NULL, collect, &w, &st) == 0 && st.lines == 0);
}

static void test_node_exporter_page(void)
{
	struct bc_hostsnap a, b;
	struct bc_hostfig *f = malloc(sizeof(*f));
	struct bc_prom_stats st;
	char *ta, *tb;
	size_t la, lb;
	int i, lo = -1;

	ta = slurp(FIXTURE "a.metrics", &la);
	tb = slurp(FIXTURE "b.metrics", &lb);
	CHECK(ta && tb && f);
	if (!ta || !tb || !f)
		return;
	/* every line of a real page is readable */
	CHECK(bc_prom_parse(ta, la, NULL, NULL, NULL, &st) == 0);
	CHECK_MSG(st.bad == 0, "line %u unreadable", st.first_bad_line);
	CHECK(st.samples > 400 && st.comments > 200);

	bc_hostsnap_init(&a);
	bc_hostsnap_init(&b);
	CHECK(bc_counter_prom_parse(ta, la, NULL, &a, NULL, NULL) == 0);
	CHECK(bc_counter_prom_parse(tb, lb, NULL, &b, NULL, NULL) == 0);
	CHECK(a.ncpu == 2 && !isnan(a.cpu[0][BC_CPU_IDLE]) && !isnan(a.cpu[1][BC_CPU_SOFTIRQ]));
	CHECK(a.mem_total > 1e9 && a.mem_avail > 0 && !isnan(a.load1));
	CHECK(!isnan(a.tcp_retrans) && !isnan(a.softnet_squeezed));
	CHECK(a.ndisks >= 1 && !strcmp(a.disks[0].name, "vda") && a.disks[0].rd_bytes > 0);
	/* lo is kept (tests run on loopback), ifb (traffic shaping) is virtual and dropped */
	for (i = 0; i < a.nnics; i++) {
		CHECK(strncmp(a.nics[i].name, "ifb", 3));
		if (!strcmp(a.nics[i].name, "lo"))
			lo = i;
	}
	CHECK(lo >= 0 && a.nics[lo].tx_bytes > 0);
	/* node_exporter says -125000 (-1 Mb/s) for an unknown speed: unknown, not negative */
	for (i = 0; i < a.nnics; i++)
		CHECK(isnan(a.nics[i].speed_bytes) || a.nics[i].speed_bytes > 0);

	a.t_ns = 1000 * BC_NS_PER_S;
	b.t_ns = a.t_ns + BC_NS_PER_S;
	CHECK(bc_hostfig_compute(&a, &b, &(struct bc_hostfig_opts){.nic = "lo"}, f) == 0);
	CHECK(fabs(f->dt_s - 1) < 1e-9);
	CHECK(f->ncpu == 2);
	CHECK_MSG(f->cpu_busy >= 0 && f->cpu_busy <= 1, "busy %f", f->cpu_busy);
	CHECK(f->cpu_hot_core >= f->cpu_busy && f->cpu_hot_core <= 1);
	CHECK(f->softirq >= 0 && f->softirq_hot_core >= f->softirq);
	CHECK_MSG(f->net_tx_bps > 1000, "lo tx %f B/s", f->net_tx_bps); /* the scrape itself */
	CHECK(f->net_tx_bps == f->net_rx_bps); /* loopback: every byte sent is received */
	CHECK(isnan(f->link_bps) && isnan(f->net_tx_util)); /* lo has no speed */
	CHECK(f->mem_used > 0 && f->mem_used < 1);
	CHECK(f->disk_util_max >= 0);

	/* a counter that went backwards is a reset: unknown, not negative */
	CHECK(bc_hostfig_compute(&b, &a, NULL, f) == -EINVAL);
	b.t_ns = a.t_ns;
	a.t_ns += BC_NS_PER_S;
	CHECK(bc_hostfig_compute(&b, &a, &(struct bc_hostfig_opts){.nic = "lo"}, f) == 0);
	CHECK(isnan(f->net_tx_bps) || f->net_tx_bps == 0);
	bc_hostsnap_free(&a);
	bc_hostsnap_free(&b);
	free(ta);
	free(tb);
	free(f);
}

/* the custom "metric" series of nodes[].series: label match, sum, scale */
static void test_custom_series(void)
{
	static const char page[] = "# TYPE lightbox_be_num_of_gc_units counter\n"
				   "lightbox_be_num_of_gc_units{ssd=\"0\"} 100\n"
				   "lightbox_be_num_of_gc_units{ssd=\"1\"} 50\n"
				   "lightbox_fe_seastar_current_load{shard=\"0\"} 0.5\n"
				   "lightbox_fe_seastar_current_load{shard=\"1\"} 0.9\n";
	cJSON *node = cJSON_Parse(
	    "{\"name\": \"n\", \"series\": ["
	    "{\"name\": \"gc_units\", \"metric\": \"lightbox_be_num_of_gc_units\", \"rate\": true,"
	    " \"scale\": 2},"
	    "{\"name\": \"load1\", \"metric\": \"lightbox_fe_seastar_current_load\","
	    " \"labels\": {\"shard\": \"1\"}},"
	    "{\"name\": \"q\", \"promql\": \"up\"}]}");
	struct bc_hostsnap s;

	bc_hostsnap_init(&s);
	CHECK(node && bc_counter_prom_parse(page, sizeof(page) - 1, node, &s, NULL, NULL) == 0);
	CHECK(s.ncustom == 2);
	CHECK(s.custom[0] == 300);
	CHECK(s.custom[1] == 0.9);
	bc_hostsnap_free(&s);
	cJSON_Delete(node);
}

/* the source registry: both sources pass registration; another version or a missing call does not
 */
static void test_source_registry(void)
{
	const struct bc_counter_ops *prom = bc_counter_ops_find("prom-text");
	const struct bc_counter_ops *promql = bc_counter_ops_find("promql");
	struct bc_counter_ops bad;
	struct bc_counter_src src = {0};
	char err[256] = "";

	CHECK(prom && promql && !bc_counter_ops_find("snmp"));
	CHECK_MSG(!bc_counter_ops_check(prom, err, sizeof(err)), "%s", err);
	CHECK_MSG(!bc_counter_ops_check(promql, err, sizeof(err)), "%s", err);
	bad = *prom;
	bad.version = BC_COUNTER_OPS_VERSION + 1;
	CHECK(bc_counter_ops_check(&bad, err, sizeof(err)) == -ENOTSUP);
	CHECK_MSG(strstr(err, "\"prom-text\"") && strstr(err, "version"), "%s", err);
	bad = *prom;
	bad.ctl = NULL;
	CHECK(bc_counter_ops_check(&bad, err, sizeof(err)) == -ENOTSUP);
	CHECK_MSG(strstr(err, "\"prom-text\"") && strstr(err, "ctl"), "%s", err);
	/* a node without "metrics" is not prom-text's: -ENOENT, nothing opened */
	{
		struct bc_counter_shared sh = {0};
		cJSON *node = cJSON_Parse("{\"name\": \"n\"}");
		struct bc_node_spec spec = {.name = "n", .json = node};
		struct bc_profile prof = {.nodes = &spec, .nnodes = 1};

		src.ops = prom;
		src.prof = &prof;
		src.shared = &sh;
		CHECK(prom->open(&src, node, err, sizeof(err)) == -ENOENT && !src.priv &&
		      !sh.key[0]);
		cJSON_Delete(node);
	}
}

/* a node's facts from one page: the node-facts collector, node_exporter's, a version series */
static void test_facts(void)
{
	static const char page[] =
	    "bench_node_numa_nodes 2\n"
	    "bench_node_nic_numa_node{device=\"eth0\"} 1\n"
	    "bench_node_bond_info{bond=\"bond0\",mode=\"802.3ad\",xmit_hash_policy=\"layer3+4\","
	    "members=\"eth0,eth1\"} 1\n"
	    "bench_node_bond_active_members{bond=\"bond0\"} 1\n"
	    "node_bonding_slaves{master=\"bond0\"} 2\n"
	    "node_bonding_active{master=\"bond0\"} 2\n"
	    "node_bonding_slaves{master=\"bond1\"} 2\n"
	    "node_bonding_active{master=\"bond1\"} 1\n"
	    "bench_node_process_info{process=\"duroslight\",cpus=\"0-31\",numa_nodes=\"0\"} 1\n"
	    "node_nvme_info{device=\"nvme0\",firmware_revision=\"GDC5602Q\",model=\"PM9A3\","
	    "serial=\"S1\",state=\"live\"} 1\n"
	    "lightos_build_info{version=\"3.18.2\",commit=\"abc\"} 1\n";
	cJSON *node = cJSON_Parse("{\"name\": \"n\", \"series\": [{\"name\": \"lightos\","
				  " \"metric\": \"lightos_build_info\", \"role\": \"version\"}]}");
	struct bc_nodefacts f;
	struct bc_hostsnap s;
	const struct bc_fact_bond *b;

	bc_hostsnap_init(&s);
	CHECK(node && bc_counter_prom_parse(page, sizeof(page) - 1, node, &s, &f, NULL) == 0);
	CHECK(f.any && f.numa_nodes == 2 && f.nnics == 1 && f.nics[0].numa == 1);
	b = bc_nodefacts_bond(&f, "bond0");
	/* the collector's aggregator count, not node_exporter's links up */
	CHECK(b && !strcmp(b->mode, "802.3ad") && b->nmembers == 2 && b->active == 1);
	b = bc_nodefacts_bond(&f, "bond1");
	CHECK(b && !b->mode[0] && b->nmembers == 2 && b->active == 1);
	CHECK(f.nprocs == 1 && !strcmp(f.procs[0].numa_nodes, "0"));
	CHECK(f.nnvme == 1 && !strcmp(f.nvme[0].firmware, "GDC5602Q"));
	CHECK(f.nsw == 1 && !strcmp(f.sw[0].name, "lightos") && !strcmp(f.sw[0].version, "3.18.2"));
	bc_hostsnap_free(&s);
	cJSON_Delete(node);
}

int main(void)
{
	test_source_registry();
	test_edge_cases();
	test_node_exporter_page();
	test_custom_series();
	test_facts();
	TEST_DONE();
}
