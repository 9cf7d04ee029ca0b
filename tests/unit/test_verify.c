/* test_verify.c - verify: CRC-32C vectors, header checks, and a byte flipped between a write and a
 * read pass is reported at exactly its block */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/verify.h"
#include "bc_jobrun.h"

#define FILE_BYTES (8u << 20)

static void test_crc(void)
{
	static const char v[] = "123456789";
	uint8_t zeros[32] = {0}, ones[32];

	/* RFC 3720 B.4 and the usual check value */
	CHECK(bc_crc32c(0, v, 9) == 0xe3069283u);
	CHECK(bc_crc32c(0, zeros, 32) == 0x8a9136aau);
	memset(ones, 0xff, sizeof(ones));
	CHECK(bc_crc32c(0, ones, 32) == 0x62a8ab43u);
	/* chaining is the same as one call */
	CHECK(bc_crc32c(bc_crc32c(0, v, 4), v + 4, 5) == 0xe3069283u);
}

static void test_blocks(void)
{
	uint8_t *b = aligned_alloc(4096, 3 * BC_VERIFY_BLOCK);
	enum bc_verify_why why = BC_VERIFY_OK;
	uint64_t off = 0;
	unsigned i;

	if (!b)
		exit(1);
	for (i = 0; i < 3 * BC_VERIFY_BLOCK; i++)
		b[i] = (uint8_t)(i * 7 + 1);
	bc_verify_fill(b, 3 * BC_VERIFY_BLOCK, 1 << 20, 5, 0);
	CHECK(bc_verify_check(b, 3 * BC_VERIFY_BLOCK, 1 << 20, &off, &why) == 0);
	/* read back at another offset: every block is misplaced */
	CHECK(bc_verify_check(b, 3 * BC_VERIFY_BLOCK, 2 << 20, &off, &why) == 3);
	CHECK(off == 2 << 20 && why == BC_VERIFY_BAD_OFFSET);
	/* one flipped bit in the middle block's data */
	b[BC_VERIFY_BLOCK + 1000] ^= 0x10;
	CHECK(bc_verify_check(b, 3 * BC_VERIFY_BLOCK, 1 << 20, &off, &why) == 1);
	CHECK(off == (1 << 20) + BC_VERIFY_BLOCK && why == BC_VERIFY_BAD_CRC);
	/* a never-written (zero) block passes; garbage without a header does not */
	memset(b, 0, BC_VERIFY_BLOCK);
	b[BC_VERIFY_BLOCK + 1000] ^= 0x10;
	CHECK(bc_verify_check(b, 3 * BC_VERIFY_BLOCK, 1 << 20, &off, &why) == 0);
	b[100] = 1;
	CHECK(bc_verify_check(b, 3 * BC_VERIFY_BLOCK, 1 << 20, &off, &why) == 1);
	CHECK(off == 1 << 20 && why == BC_VERIFY_BAD_MAGIC);
	free(b);
}

/* one sequential pass of 64k writes with verify over the window, 2 jobs */
static struct bc_workload s_pass(enum bc_rw rw, bool direct)
{
	return (struct bc_workload){.rw = rw,
				    .bs = 64 << 10,
				    .iodepth = 4,
				    .numjobs = 2,
				    .direct = direct,
				    .runtime_s = 30,
				    .size_based = true,
				    .verify = true};
}

static void test_flip(void)
{
	struct bc_volume_spec spec = {.node = -1};
	struct bc_workload wl;
	struct bc_target t;
	struct jr_run r;
	char path[64], err[512] = "";
	/* a byte inside the 77th 4 KiB block, not at a block or I/O boundary */
	const uint64_t flip_at = 77 * BC_VERIFY_BLOCK + 1234;
	bool direct = true;
	uint8_t byte;
	int fd;

	fd = jr_tempfile(path, sizeof(path), FILE_BYTES);
	wl = s_pass(BC_RW_WRITE, direct);
	if (jr_open(&t, path, &spec, &wl))
		goto out;
	direct = wl.direct;
	if (!jr_run(&t, 1, &wl, NULL, wl.runtime_s, &r, err, sizeof(err))) {
		CHECK_MSG(r.total[0].op[BC_OP_WRITE].bytes == FILE_BYTES,
			  "write pass moved %llu bytes, expected %u",
			  (unsigned long long)r.total[0].op[BC_OP_WRITE].bytes, FILE_BYTES);
		/* the pass ended long before its 30 s: early seconds empty, done in well under 30 s
		 */
		CHECK(r.wall_ns < 10 * BC_NS_PER_S);
		CHECK(jr_ios(&r, 0, BC_OP_WRITE, 5, wl.runtime_s) == 0);
	}
	jr_free(&r);
	bc_target_close(&t);

	/* the clean read pass finds nothing */
	wl = s_pass(BC_RW_READ, direct);
	if (jr_open(&t, path, &spec, &wl))
		goto out;
	if (!jr_run(&t, 1, &wl, NULL, wl.runtime_s, &r, err, sizeof(err))) {
		CHECK(r.total[0].op[BC_OP_READ].bytes == FILE_BYTES);
		CHECK(r.total[0].verify_errors == 0 && r.total[0].op[BC_OP_READ].errors == 0);
		CHECK(r.nbad == 0);
	}
	jr_free(&r);

	/* flip one byte behind the engine's back, then read again */
	CHECK(pread(fd, &byte, 1, (off_t)flip_at) == 1);
	byte ^= 0x01;
	CHECK(pwrite(fd, &byte, 1, (off_t)flip_at) == 1);
	CHECK(fsync(fd) == 0);
	/* O_DIRECT reads bypass the page cache the pwrite went through: flush it */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (!jr_run(&t, 1, &wl, NULL, wl.runtime_s, &r, err, sizeof(err))) {
		CHECK_MSG(r.total[0].verify_errors == 1, "verify_errors %llu, expected 1",
			  (unsigned long long)r.total[0].verify_errors);
		CHECK(r.total[0].op[BC_OP_READ].errors == 1);
		CHECK(r.total[0].op[BC_OP_READ].first_errno == -EBADMSG);
		CHECK(r.total[0].op[BC_OP_READ].bytes == FILE_BYTES - wl.bs);
		CHECK_MSG(
		    r.nbad == 1 && r.bad[0].off == flip_at / BC_VERIFY_BLOCK * BC_VERIFY_BLOCK &&
			r.bad[0].why == BC_VERIFY_BAD_CRC,
		    "reported %d mismatches, first at %llu (%s); flipped a byte at %llu", r.nbad,
		    r.nbad ? (unsigned long long)r.bad[0].off : 0ull,
		    r.nbad ? bc_verify_why_name(r.bad[0].why) : "-", (unsigned long long)flip_at);
		printf("flipped byte at %llu: reported block %llu (%s)\n",
		       (unsigned long long)flip_at, (unsigned long long)r.bad[0].off,
		       bc_verify_why_name(r.bad[0].why));
	}
	jr_free(&r);
	bc_target_close(&t);
out:
	close(fd);
	unlink(path);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_crc();
	test_blocks();
	test_flip();
	TEST_DONE();
}
