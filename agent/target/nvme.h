/*
 * target/nvme.h - the pieces of the NVMe passthrough target (target/nvme.c)
 * that unit tests check byte for byte without a device.
 */
#ifndef BC_TARGET_NVME_H
#define BC_TARGET_NVME_H

#include <stdbool.h>
#include <stdint.h>

#include <liburing.h>

#include "nvme/nvme.h"

/*
 * Fill a 128-byte SQE (two struct io_uring_sqe of an IORING_SETUP_SQE128
 * ring) with IORING_OP_URING_CMD / NVME_URING_CMD_IO carrying c on fd
 * (a registered file index when fixed_file). c NULL: an SQE the ng driver
 * completes with -ENOTTY (cmd_op 0), returns -EOPNOTSUPP; else 0.
 */
int bc_nvme_uring_prep(struct io_uring_sqe *sqe, int fd, bool fixed_file,
		       const struct nvme_passthru_cmd *c);

#endif
