/*
 * test_nvme.c - NVMe command encodings and log parsers against byte-exact
 * fixtures built from the offsets of the NVMe Base Specification 2.0 (the
 * sections are named beside the definitions in agent/nvme/nvme.h).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "nvme/counters.h"
#include "nvme/nvme.h"
#include "bc_test.h"

static uint8_t s_buf[4096];

static void s_put(uint8_t *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* the raw dword at a byte offset of the 72-byte command, read back LE */
static uint32_t s_dw(const void *cmd, size_t off)
{
	const uint8_t *p = (const uint8_t *)cmd + off;

	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void test_identify_encoding(void)
{
	struct nvme_passthru_cmd c;

	bc_nvme_identify(&c, BC_NVME_CNS_CTRL, 0, s_buf);
	CHECK(((uint8_t *)&c)[0] == 0x06);
	CHECK(s_dw(&c, 4) == 0);
	CHECK(s_dw(&c, 36) == 4096);
	CHECK(s_dw(&c, 40) == 1);
	bc_nvme_identify(&c, BC_NVME_CNS_NS, 7, s_buf);
	CHECK(s_dw(&c, 4) == 7 && s_dw(&c, 40) == 0);
	CHECK(c.addr == (uint64_t)(uintptr_t)s_buf);
}

static void test_get_log_numd_split(void)
{
	struct nvme_passthru_cmd c;

	/* SMART: 512 bytes -> NUMD 127 in NUMDL */
	CHECK(!bc_nvme_get_log(&c, 0x02, 0, BC_NVME_NSID_ALL, 0, 0, 0, s_buf, 512));
	CHECK(((uint8_t *)&c)[0] == 0x02);
	CHECK(s_dw(&c, 4) == 0xFFFFFFFFu);
	CHECK(s_dw(&c, 40) == (0x02u | 127u << 16));
	CHECK(s_dw(&c, 44) == 0);
	CHECK(s_dw(&c, 36) == 512);
	/* 1 MiB + 4: NUMD 0x40000 -> NUMDL 0, NUMDU 4; LSI (endgid 3) in cdw11 31:16 */
	CHECK(!bc_nvme_get_log(&c, 0x22, 0, 0, 3, 0, 0, s_buf, (1u << 20) + 4));
	CHECK(s_dw(&c, 40) == 0x22);
	CHECK(s_dw(&c, 44) == (4u | 3u << 16));
	/* LPO split into cdw12/cdw13; LSP at 14:8; UUID index in cdw14 6:0 */
	CHECK(!bc_nvme_get_log(&c, 0x23, 1, 0, 0, 0x123456789ull * 4, 0x81, s_buf, 64));
	CHECK(s_dw(&c, 40) == (0x23u | 1u << 8 | 15u << 16));
	CHECK(s_dw(&c, 48) == (uint32_t)(0x123456789ull * 4));
	CHECK(s_dw(&c, 52) == (uint32_t)((0x123456789ull * 4) >> 32));
	CHECK(s_dw(&c, 56) == 0x01);
	/* OCP C0 with UUID index 2 */
	CHECK(!bc_nvme_get_log(&c, 0xC0, 0, BC_NVME_NSID_ALL, 0, 0, 2, s_buf, 512));
	CHECK(s_dw(&c, 40) == (0xC0u | 127u << 16) && s_dw(&c, 56) == 2);
	CHECK(bc_nvme_get_log(&c, 0x02, 0, 0, 0, 0, 0, s_buf, 510) == -EINVAL);
	CHECK(bc_nvme_get_log(&c, 0x02, 0, 0, 0, 0, 0, s_buf, 0) == -EINVAL);
	CHECK(bc_nvme_get_log(&c, 0x02, 0, 0, 0, 2, 0, s_buf, 512) == -EINVAL);
}

static void test_ruhs_encoding(void)
{
	struct nvme_passthru_cmd c;

	CHECK(!bc_nvme_ruhs_cmd(&c, 1, s_buf, 16 + 32 * 8));
	CHECK(((uint8_t *)&c)[0] == 0x12);
	CHECK(s_dw(&c, 4) == 1);
	CHECK(s_dw(&c, 40) == 1);
	CHECK(s_dw(&c, 44) == (16 + 32 * 8) / 4 - 1);
	CHECK(s_dw(&c, 36) == 16 + 32 * 8);
	CHECK(bc_nvme_ruhs_cmd(&c, 1, s_buf, 8) == -EINVAL);
}

static void test_rw_dwords(void)
{
	struct nvme_passthru_cmd c;
	struct nvme_uring_cmd u;

	/* 4 KiB LBAs: 128 KiB write at 8 GiB + 4 KiB -> SLBA 0x200001, NLB 31 */
	CHECK(
	    !bc_nvme_rw(&c, BC_NVME_CMD_WRITE, 1, (8ull << 30) + 4096, 128 << 10, 12, 0, 0, s_buf));
	CHECK(((uint8_t *)&c)[0] == 0x01 && ((uint8_t *)&c)[1] == 0);
	CHECK(s_dw(&c, 40) == 0x200001 && s_dw(&c, 44) == 0);
	CHECK(s_dw(&c, 48) == 31 && s_dw(&c, 52) == 0);
	CHECK(s_dw(&c, 36) == 128 << 10);
	/* SLBA above 32 bits: 512-byte LBAs at 4 TiB -> cdw11 = 2 */
	CHECK(!bc_nvme_rw(&c, BC_NVME_CMD_READ, 1, 4ull << 40, 4096, 9, 0, 0, s_buf));
	CHECK(s_dw(&c, 40) == 0 && s_dw(&c, 44) == 2 && s_dw(&c, 48) == 7);
	/* FDP: DTYPE 2 in cdw12 23:20, DSPEC (PID 0x1234) in cdw13 31:16 */
	CHECK(!bc_nvme_rw(&c, BC_NVME_CMD_WRITE, 3, 0, 4096, 12, BC_NVME_DTYPE_FDP, 0x1234, s_buf));
	CHECK(s_dw(&c, 48) == (0u | 2u << 20));
	CHECK(s_dw(&c, 52) == 0x12340000u);
	CHECK(s_dw(&c, 4) == 3);
	/* misaligned or empty */
	CHECK(bc_nvme_rw(&c, BC_NVME_CMD_READ, 1, 512, 4096, 12, 0, 0, s_buf) == -EINVAL);
	CHECK(bc_nvme_rw(&c, BC_NVME_CMD_READ, 1, 0, 0, 12, 0, 0, s_buf) == -EINVAL);
	CHECK(bc_nvme_rw(&c, BC_NVME_CMD_READ, 1, 0, 0x10001u << 9, 9, 0, 0, s_buf) == -EINVAL);
	/* the uring payload carries the same 68 bytes */
	CHECK(!bc_nvme_rw(&c, BC_NVME_CMD_WRITE, 3, 8192, 4096, 12, 2, 7, s_buf));
	c.result = 0xdeadbeef;
	bc_nvme_to_uring(&u, &c);
	CHECK(!memcmp(&u, &c, 68));
	CHECK(u.rsvd2 == 0);
	CHECK(NVME_URING_CMD_IO == 0xC0484E80u);
	CHECK(NVME_IOCTL_ADMIN_CMD == 0xC0484E41u);
}

static void test_status_decode(void)
{
	/* SCT 1 (command specific), SC 0x80, DNR */
	struct bc_nvme_status s = bc_nvme_status_decode(0x4180);

	CHECK(s.sc == 0x80 && s.sct == 1 && s.dnr);
	s = bc_nvme_status_decode(-5);
	CHECK(s.sc == 0 && s.sct == 0 && !s.dnr);
}

static void test_parse_id_ctrl(void)
{
	struct bc_nvme_id_ctrl id;

	memset(s_buf, 0, sizeof(s_buf));
	s_put(s_buf, 0x1b36, 2);
	memcpy(s_buf + 4, "SN-0001             ", 20);
	memcpy(s_buf + 24, "QEMU NVMe Ctrl                          ", 40);
	memcpy(s_buf + 64, "8.2.0   ", 8);
	s_put(s_buf + 78, 0x41, 2);
	s_put(s_buf + 80, 0x20000, 4);
	s_put(s_buf + 96, 1u << 19 | 1u << 4, 4);
	s_put(s_buf + 516, 256, 4);
	memcpy(s_buf + 768, "nqn.2019-08.org.qemu:fdp", 24);
	CHECK(!bc_nvme_parse_id_ctrl(s_buf, 4096, &id));
	CHECK(id.vid == 0x1b36);
	CHECK(!strcmp(id.sn, "SN-0001"));
	CHECK(!strcmp(id.mn, "QEMU NVMe Ctrl"));
	CHECK(!strcmp(id.fr, "8.2.0"));
	CHECK(id.cntlid == 0x41 && id.ver == 0x20000);
	CHECK(id.fdps && id.nn == 256);
	CHECK(!strcmp(id.subnqn, "nqn.2019-08.org.qemu:fdp"));
	s_put(s_buf + 96, 1u << 4, 4);
	CHECK(!bc_nvme_parse_id_ctrl(s_buf, 4096, &id) && !id.fdps);
	CHECK(bc_nvme_parse_id_ctrl(s_buf, 4095, &id) == -EINVAL);
}

static void s_lbaf(int i, uint16_t ms, uint8_t lbads, uint8_t rp)
{
	s_put(s_buf + 128 + 4 * i, ms, 2);
	s_buf[128 + 4 * i + 2] = lbads;
	s_buf[128 + 4 * i + 3] = rp;
}

static void test_parse_id_ns(void)
{
	struct bc_nvme_id_ns ns;

	memset(s_buf, 0, sizeof(s_buf));
	s_put(s_buf, 0x1D1C0BEB0ull, 8); /* 3.84 TB of 512-byte LBAs */
	s_put(s_buf + 8, 0x1D1C0BEB0ull, 8);
	s_put(s_buf + 16, 0x1000, 8);
	s_buf[24] = 0x10;
	s_buf[25] = 3; /* four formats */
	s_buf[26] = 0x01;
	s_put(s_buf + 36, 7, 2);
	s_put(s_buf + 64, 7, 2);
	s_put(s_buf + 102, 1, 2);
	s_lbaf(0, 0, 9, 2);
	s_lbaf(1, 0, 12, 0);
	s_lbaf(2, 8, 9, 2);
	s_lbaf(3, 64, 12, 1);
	CHECK(!bc_nvme_parse_id_ns(s_buf, 4096, &ns));
	CHECK(ns.nsze == 0x1D1C0BEB0ull && ns.nuse == 0x1000);
	CHECK(ns.nlbaf == 4 && ns.fmt == 1);
	CHECK(ns.lba_bytes == 4096 && ns.ms == 0 && !ns.extended);
	CHECK(ns.npwg == 8 && ns.nawupf == 7 && ns.endgid == 1);
	CHECK(ns.lbaf[0].lbads == 9 && ns.lbaf[0].rp == 2);
	CHECK(ns.lbaf[3].ms == 64 && ns.lbaf[3].lbads == 12);
	/* format 3 with extended LBAs (FLBAS bit 4) */
	s_buf[26] = 0x13;
	CHECK(!bc_nvme_parse_id_ns(s_buf, 4096, &ns));
	CHECK(ns.fmt == 3 && ns.ms == 64 && ns.extended && ns.lba_bytes == 4096);
	/* 20 formats: FLBAS 6:5 are index bits 5:4 -> 0x2 | 1 << 4 = 18 */
	s_buf[25] = 19;
	s_lbaf(18, 16, 12, 0);
	s_buf[26] = 0x22;
	CHECK(!bc_nvme_parse_id_ns(s_buf, 4096, &ns));
	CHECK(ns.fmt == 18 && ns.ms == 16 && ns.lba_bytes == 4096 && !ns.extended);
	/* with 16 or fewer formats the extension bits are ignored */
	s_buf[25] = 3;
	CHECK(!bc_nvme_parse_id_ns(s_buf, 4096, &ns));
	CHECK(ns.fmt == 2 && ns.ms == 8 && ns.lba_bytes == 512);
	/* an index beyond NLBAF */
	s_buf[26] = 0x05;
	CHECK(bc_nvme_parse_id_ns(s_buf, 4096, &ns) == -EINVAL);
}

static void test_parse_smart(void)
{
	struct bc_nvme_smart s;

	memset(s_buf, 0, 512);
	s_buf[0] = 0x02;
	s_put(s_buf + 1, 310, 2); /* 36.85 C */
	s_buf[3] = 100;
	s_buf[5] = 3;
	s_put(s_buf + 32, 0x1111, 8);
	s_put(s_buf + 48, 0xFFFFFFFFFFFFFFFFull, 8); /* data units written: 2^64 + 2^64 - 1 */
	s_put(s_buf + 56, 1, 8);
	s_put(s_buf + 80, 42, 8);
	s_put(s_buf + 160, 5, 8);
	s_put(s_buf + 168, 9, 8);
	CHECK(!bc_nvme_parse_smart(s_buf, 512, &s));
	CHECK(s.critical_warning == 2 && s.temp_k == 310);
	CHECK(s.avail_spare == 100 && s.percent_used == 3);
	CHECK(s.data_units_read == 0x1111);
	CHECK(s.data_units_written == (((bc_u128)1 << 64) | 0xFFFFFFFFFFFFFFFFull));
	CHECK(s.host_writes == 42);
	CHECK(s.media_errors == (((bc_u128)9 << 64) | 5));
	CHECK(bc_nvme_parse_smart(s_buf, 511, &s) == -EINVAL);
}

static void test_parse_ocp_c0_guid(void)
{
	static const uint8_t guid[16] = {0xC5, 0xAF, 0x10, 0x28, 0xEA, 0xBF, 0xF2, 0xA4,
					 0x9C, 0x4F, 0x6F, 0x7C, 0xC9, 0x14, 0xD5, 0xAF};
	struct bc_nvme_ocp_c0 o;

	memset(s_buf, 0, 512);
	s_put(s_buf, 0x123456789ABCDEF0ull, 8);
	s_put(s_buf + 8, 2, 8);
	s_put(s_buf + 16, 77, 8);
	s_put(s_buf + 494, 4, 2);
	CHECK(bc_nvme_parse_ocp_c0(s_buf, 512, &o) == -EBADMSG);
	memcpy(s_buf + 496, guid, 16);
	CHECK(!bc_nvme_parse_ocp_c0(s_buf, 512, &o));
	CHECK(o.pmuw == (((bc_u128)2 << 64) | 0x123456789ABCDEF0ull));
	CHECK(o.pmur == 77 && o.version == 4);
	s_buf[511] ^= 1;
	CHECK(bc_nvme_parse_ocp_c0(s_buf, 512, &o) == -EBADMSG);
}

static void test_parse_fdp_stats_and_waf(void)
{
	struct bc_nvme_fdp_stats a, b;
	struct bc_waf w;

	memset(s_buf, 0, 64);
	s_put(s_buf, 1000, 8);
	s_put(s_buf + 16, 1500, 8);
	s_put(s_buf + 32, 4096, 8);
	s_put(s_buf + 40, 1, 8);
	CHECK(!bc_nvme_parse_fdp_stats(s_buf, 64, &a));
	CHECK(a.hbmw == 1000 && a.mbmw == 1500 && a.mbe == (((bc_u128)1 << 64) | 4096));
	s_put(s_buf, 1000 + (1ull << 30), 8);
	s_put(s_buf + 16, 1500 + (3ull << 29), 8);
	CHECK(!bc_nvme_parse_fdp_stats(s_buf, 64, &b));
	w = bc_nvme_waf_fdp(&a, &b);
	CHECK(w.status == BC_WAF_AVAILABLE && w.waf == 1.5);
	CHECK(w.host_bytes == 1ull << 30);
	w = bc_nvme_waf_fdp(&a, &a);
	CHECK(w.status == BC_WAF_NO_HOST_BYTES);
	w = bc_nvme_waf_fdp(&b, &a);
	CHECK(w.status == BC_WAF_WENT_BACK);
	w = bc_nvme_waf_fdp(NULL, &a);
	CHECK(w.status == BC_WAF_NO_COUNTERS);
	CHECK(!strcmp(bc_waf_status_name(BC_WAF_AVAILABLE), "available"));
	CHECK(!strncmp(bc_waf_status_name(BC_WAF_NO_COUNTERS), "unavailable", 11));
	CHECK(bc_nvme_parse_fdp_stats(s_buf, 63, &a) == -EINVAL);
}

static void test_waf_ocp_units(void)
{
	struct bc_nvme_ocp_c0 oa = {.pmuw = 0}, ob = {.pmuw = 2ull * 512000 * 1000};
	struct bc_nvme_smart sa = {.data_units_written = 10}, sb = {.data_units_written = 1010};
	struct bc_waf w = bc_nvme_waf_ocp(&oa, &ob, &sa, &sb);

	CHECK(w.status == BC_WAF_AVAILABLE && w.waf == 2.0);
	CHECK(w.host_bytes == 1000ull * 512000);
	w = bc_nvme_waf_ocp(NULL, &ob, &sa, &sb);
	CHECK(w.status == BC_WAF_NO_COUNTERS);
	CHECK(bc_u128_to_double((bc_u128)1 << 64) == 18446744073709551616.0);
}

static void test_parse_ruhs(void)
{
	struct bc_nvme_ruhs r[4];
	int i;

	memset(s_buf, 0, sizeof(s_buf));
	s_put(s_buf + 14, 3, 2);
	for (i = 0; i < 3; i++) {
		uint8_t *d = s_buf + 16 + 32 * i;

		s_put(d, 0x100 + i, 2);
		s_put(d + 2, i, 2);
		s_put(d + 4, 3600, 4);
		s_put(d + 8, 0x1000000000ull + i, 8);
	}
	CHECK(bc_nvme_parse_ruhs(s_buf, 16 + 32 * 3, r, 4) == 3);
	CHECK(r[0].pid == 0x100 && r[2].pid == 0x102 && r[2].ruhid == 2);
	CHECK(r[1].earutr == 3600 && r[1].ruamw == 0x1000000001ull);
	/* a header-only read reports the count and fills nothing */
	memset(r, 0xff, sizeof(r));
	CHECK(bc_nvme_parse_ruhs(s_buf, 16, r, 4) == 3);
	CHECK(r[0].pid == 0xffff);
	/* capped by max */
	CHECK(bc_nvme_parse_ruhs(s_buf, 4096, r, 1) == 3 && r[0].pid == 0x100);
	CHECK(bc_nvme_parse_ruhs(s_buf, 15, r, 4) == -EINVAL);
}

static void test_uuid_index(void)
{
	static const uint8_t other[16] = {1, 2, 3};

	memset(s_buf, 0, sizeof(s_buf));
	/* entry 0: another vendor; entry 1: OCP -> index 2 */
	s_buf[32] = 1;
	memcpy(s_buf + 32 + 16, other, 16);
	s_buf[64] = 1;
	memcpy(s_buf + 64 + 16, "\xc1\x94\xd5\x5b\xe0\x94\x47\x94\xa2\x1d\x29\x99\x8f\x56\xbe\x6f",
	       16);
	CHECK(bc_nvme_uuid_index(s_buf, 4096, bc_nvme_ocp_uuid) == 2);
	CHECK(bc_nvme_uuid_index(s_buf, 4096, other) == 1);
	/* an empty entry ends the list */
	memset(s_buf + 32 + 16, 0, 16);
	CHECK(bc_nvme_uuid_index(s_buf, 4096, bc_nvme_ocp_uuid) == 0);
	/* too short to hold entry 1 */
	memcpy(s_buf + 32 + 16, other, 16);
	CHECK(bc_nvme_uuid_index(s_buf, 80, bc_nvme_ocp_uuid) == 0);
}

static const char *s_jstr(const cJSON *o, const char *a, const char *b)
{
	return cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(o, a), b));
}

static double s_jnum(const cJSON *o, const char *a, const char *b)
{
	return cJSON_GetNumberValue(cJSON_GetObjectItem(cJSON_GetObjectItem(o, a), b));
}

static const cJSON *s_j3(const cJSON *o, const char *a, const char *b, const char *c)
{
	return cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(o, a), b), c);
}

static double s_jnum3(const cJSON *o, const char *a, const char *b, const char *c)
{
	return cJSON_GetNumberValue(s_j3(o, a, b, c));
}

static const char *s_jstr3(const cJSON *o, const char *a, const char *b, const char *c)
{
	return cJSON_GetStringValue(s_j3(o, a, b, c));
}

static void test_counters_json_waf(void)
{
	struct bc_nvme_counters a = {.sampled = true, .have_smart = true}, b;
	cJSON *j;

	a.smart.data_units_written = 100;
	a.smart.temp_k = 300;
	a.ocp_err = a.fdp_err = -EOPNOTSUPP;
	b = a;
	b.smart.data_units_written = 300;
	b.smart.temp_k = 310;
	b.smart.media_errors = 1;
	/* SMART only: WAF unavailable, saying why */
	j = bc_nvme_counters_json(&a, &b);
	CHECK(s_jnum(j, "smart", "data_units_written") == 200);
	CHECK(s_jnum(j, "smart", "temp_k_end") == 310 && s_jnum(j, "smart", "media_errors") == 1);
	CHECK(!strncmp(s_jstr(j, "waf", "status"), "unavailable", 11));
	CHECK(strstr(s_jstr(j, "waf", "status"), "OCP C0") != NULL);
	CHECK(!strcmp(s_jstr(j, "waf", "source"), "none"));
	CHECK(!cJSON_GetObjectItem(cJSON_GetObjectItem(j, "waf"), "value"));
	cJSON_Delete(j);
	/* OCP: PMUW 3x the host bytes (200 units x 512000) */
	a.have_ocp = b.have_ocp = true;
	a.ocp_err = b.ocp_err = 0;
	a.ocp.pmuw = 1000;
	b.ocp.pmuw = 1000 + 3ull * 200 * 512000;
	j = bc_nvme_counters_json(&a, &b);
	CHECK(!strcmp(s_jstr(j, "waf", "status"), "available"));
	CHECK(!strcmp(s_jstr(j, "waf", "source"), "ocp_c0"));
	CHECK(s_jnum(j, "waf", "value") == 3.0);
	CHECK(s_jnum(j, "waf", "host_bytes") == 200.0 * 512000);
	cJSON_Delete(j);
	/* seed 000's rule: OCP C0 over SMART wins, the FDP statistics' WAF beside it */
	a.have_fdp = b.have_fdp = true;
	a.fdp.hbmw = 4096;
	a.fdp.mbmw = 4096;
	b.fdp.hbmw = 4096 + 1000000;
	b.fdp.mbmw = 4096 + 1250000;
	j = bc_nvme_counters_json(&a, &b);
	CHECK(!strcmp(s_jstr(j, "waf", "source"), "ocp_c0"));
	CHECK(s_jnum(j, "waf", "value") == 3.0);
	CHECK(s_jnum3(j, "wafs", "ocp_c0", "value") == 3.0);
	CHECK(!strcmp(s_jstr3(j, "wafs", "fdp", "source"), "fdp"));
	CHECK(s_jnum3(j, "wafs", "fdp", "value") == 1.25);
	CHECK(s_jnum(j, "fdp", "mbmw") == 1250000);
	cJSON_Delete(j);
	/* an FDP drive without the OCP log: the FDP statistics' WAF */
	a.have_ocp = b.have_ocp = false;
	j = bc_nvme_counters_json(&a, &b);
	CHECK(!strcmp(s_jstr(j, "waf", "source"), "fdp"));
	CHECK(s_jnum(j, "waf", "value") == 1.25);
	CHECK(!cJSON_GetObjectItem(cJSON_GetObjectItem(j, "wafs"), "ocp_c0"));
	cJSON_Delete(j);
	/* reading a non-NVMe path: nothing had, every error set, nothing crashes */
	bc_nvme_counters_read("/dev/null", &b);
	CHECK(b.sampled && !b.have_smart && !b.have_ocp && !b.have_fdp);
	CHECK(b.smart_err < 0 && b.ocp_err < 0 && b.fdp_err < 0);
}

static void test_parse_discovery(void)
{
	struct bc_nvme_disc_entry e;
	uint64_t gen, n;
	uint16_t fmt;

	memset(s_buf, 0, sizeof(s_buf));
	s_put(s_buf, 0x1122334455667788ull, 8);
	s_put(s_buf + 8, 3, 8);
	s_put(s_buf + 16, 0, 2);
	CHECK(!bc_nvme_parse_disc_header(s_buf, 20, &gen, &n, &fmt));
	CHECK(gen == 0x1122334455667788ull && n == 3 && fmt == 0);
	CHECK(bc_nvme_parse_disc_header(s_buf, 19, &gen, &n, &fmt) == -EINVAL);

	memset(s_buf, 0, 1024);
	s_buf[0] = 3;
	s_buf[1] = 1;
	s_buf[2] = 2;
	s_put(s_buf + 4, 7, 2);
	s_put(s_buf + 6, 0xffff, 2);
	memcpy(s_buf + 32, "4420                            ", 32);
	memcpy(s_buf + 256, "nqn.2024-01.io.bench:vol1", 25);
	memcpy(s_buf + 512, "192.0.2.10   ", 13);
	CHECK(!bc_nvme_parse_disc_entry(s_buf, 1024, &e));
	CHECK(e.trtype == 3 && e.adrfam == 1 && e.subtype == 2);
	CHECK(e.portid == 7 && e.cntlid == 0xffff);
	CHECK(!strcmp(e.trsvcid, "4420"));
	CHECK(!strcmp(e.subnqn, "nqn.2024-01.io.bench:vol1"));
	CHECK(!strcmp(e.traddr, "192.0.2.10"));
	CHECK(bc_nvme_parse_disc_entry(s_buf, 1023, &e) == -EINVAL);
}

int main(void)
{
	test_identify_encoding();
	test_get_log_numd_split();
	test_ruhs_encoding();
	test_rw_dwords();
	test_status_decode();
	test_parse_id_ctrl();
	test_parse_id_ns();
	test_parse_smart();
	test_parse_ocp_c0_guid();
	test_parse_fdp_stats_and_waf();
	test_waf_ocp_units();
	test_parse_ruhs();
	test_uuid_index();
	test_parse_discovery();
	test_counters_json_waf();
	TEST_DONE();
}
