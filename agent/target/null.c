/*
 * target/null.c - the null target: every I/O is an IORING_OP_NOP, so a run
 * measures the engine itself (ring, stats, clock reads) with no device.
 * NOP completes with res 0; ops.nop_full tells the job to count that as a
 * full transfer of the requested length.
 */
#include <errno.h>
#include <string.h>

#include "target/ops.h"

/* the null target's size is virtual: big enough that windows never clip */
#define S_NULL_SIZE_BYTES (1ull << 40)

static bool s_null_claims(const char *path)
{
	return !strcmp(path, "null");
}

static void s_null_probe(const char *path, struct bc_devinfo *di)
{
	di->size_bytes = S_NULL_SIZE_BYTES;
	di->lbs = di->pbs = 512;
}

static int s_null_open(struct bc_target *t, char *err, size_t errlen)
{
	t->fd = -1;
	return 0;
}

static void s_null_close(struct bc_target *t)
{
	t->fd = -1;
}

static void s_null_prep(const struct bc_target *t, struct io_uring_sqe *sqe,
			const struct bc_io_desc *io)
{
	io_uring_prep_nop(sqe);
}

static int s_null_control(struct bc_target *t, int op, void *arg)
{
	return -ENOTSUP;
}

const struct bc_target_ops bc_target_null_ops = {
    .name = "null",
    .version = BC_TARGET_OPS_VERSION,
    .desc = "the null target",
    .claims = s_null_claims,
    .caps = BC_TCAP_DISKLESS | BC_TCAP_ANY_ALIGN,
    .nop_full = true,
    .probe = s_null_probe,
    .open = s_null_open,
    .close = s_null_close,
    .prep = s_null_prep,
    .control = s_null_control,
};
