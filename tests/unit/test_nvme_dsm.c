/*
 * test_nvme_dsm.c - passthrough trims are Dataset Management deallocates:
 * the 16-byte range descriptor and the command dwords byte for byte (NVM
 * Command Set 1.0 §3.2.3, the kernel's nvme_setup_discard), and the 128-byte
 * URING_CMD SQE that carries the command. No device: the encodings only.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <liburing.h>

#include "nvme/nvme.h"
#include "target/nvme.h"
#include "bc_test.h"

static void test_range_and_dwords(void)
{
	/* 1 MiB at byte 6 GiB + 8 KiB on 4 KiB LBAs: SLBA 0x180002, NLB 256 */
	static const uint8_t want[16] = {0,    0,    0,	   0,	 /* context attributes */
					 0x00, 0x01, 0x00, 0x00, /* length: 256 LBAs, 1-based */
					 0x02, 0x00, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00};
	uint8_t buf[4096];
	struct nvme_passthru_cmd c;

	memset(buf, 0xee, sizeof(buf));
	CHECK(!bc_nvme_dsm_deallocate(&c, 7, (6ull << 30) + 8192, 1 << 20, 12, buf));
	CHECK(!memcmp(buf, want, sizeof(want)));
	CHECK(buf[16] == 0xee); /* nothing past the one range */
	CHECK(c.opcode == 0x09 && c.nsid == 7 && c.flags == 0);
	CHECK(c.addr == (uint64_t)(uintptr_t)buf && c.data_len == 16);
	CHECK(c.cdw10 == 0); /* NR: one range, 0-based */
	CHECK(c.cdw11 == 4); /* AD: deallocate, bit 2 */
	CHECK(c.cdw12 == 0 && c.cdw13 == 0 && c.cdw14 == 0 && c.cdw15 == 0);

	/* an SLBA above 32 bits: the upper half lands in bytes 12..15 */
	CHECK(!bc_nvme_dsm_deallocate(&c, 1, 0x123456789ull << 9, 512, 9, buf));
	CHECK(buf[4] == 1 && buf[5] == 0 && buf[8] == 0x89 && buf[9] == 0x67 && buf[10] == 0x45 &&
	      buf[11] == 0x23 && buf[12] == 0x01 && buf[13] == 0);

	CHECK(bc_nvme_dsm_deallocate(&c, 1, 512, 4096, 12, buf) == -EINVAL); /* unaligned off */
	CHECK(bc_nvme_dsm_deallocate(&c, 1, 0, 1000, 9, buf) == -EINVAL);    /* unaligned len */
	CHECK(bc_nvme_dsm_deallocate(&c, 1, 0, 0, 9, buf) == -EINVAL);
	CHECK(bc_nvme_dsm_deallocate(&c, 1, 0, 1ull << 42, 9, buf) == -EINVAL); /* > 2^32-1 LBAs */
}

/* the SQE: URING_CMD, NVME_URING_CMD_IO, the command at byte 48 */
static void test_sqe(void)
{
	struct io_uring_sqe sqe[2];
	struct nvme_passthru_cmd c;
	const uint8_t *cmd = (const uint8_t *)sqe + 48;
	uint8_t buf[512] __attribute__((aligned(16)));
	uint64_t addr;
	uint32_t v;

	CHECK(!bc_nvme_dsm_deallocate(&c, 3, 4096, 8192, 12, buf));
	CHECK(!bc_nvme_uring_prep(sqe, 5, false, &c));
	CHECK(sqe[0].opcode == IORING_OP_URING_CMD && sqe[0].fd == 5);
	CHECK(sqe[0].cmd_op == 0xC0484E80u);
	CHECK(cmd[0] == 0x09 && cmd[1] == 0);
	memcpy(&v, cmd + 4, 4);
	CHECK(v == 3);
	memcpy(&addr, cmd + 24, 8);
	CHECK(addr == (uint64_t)(uintptr_t)buf);
	memcpy(&v, cmd + 36, 4);
	CHECK(v == 16);
	memcpy(&v, cmd + 40, 4); /* cdw10 */
	CHECK(v == 0);
	memcpy(&v, cmd + 44, 4); /* cdw11 */
	CHECK(v == 4);
}

int main(void)
{
	test_range_and_dwords();
	test_sqe();
	TEST_DONE();
}
