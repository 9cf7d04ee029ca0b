/*
 * vmlab_nvme_format - Format NVM (admin opcode 80h) of one namespace through the kernel's admin
 * passthrough, then a namespace rescan: what `nvme format DEV --lbaf=N` does, for the VM lab's
 * guest, which has busybox and no nvme-cli. Built static (tests/CMakeLists.txt) so the guest
 * needs nothing but the binary; test_vmlab_format_compare copies it into the guest.
 *
 *   vmlab_nvme_format /dev/nvme0 NSID LBAF
 *
 * LBAF is the LBA format index (Identify Namespace's LBAF list; the agent reports it in the
 * device identity's "formats"). No secure erase, no protection information. The kernel
 * freezes the controller's namespaces for the command and rescans them after it (the command
 * changes their LBA format); the explicit rescan (NVME_IOCTL_RESCAN) makes the block device's
 * new logical block size certain before this returns. Exit 0, 1 on a failure (the reason on
 * stderr), 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/nvme_ioctl.h>

#define S_FORMAT_NVM 0x80

static int s_format(const char *dev, unsigned nsid, unsigned lbaf)
{
	struct nvme_admin_cmd c;
	int fd, ret = 0;

	fd = open(dev, O_RDWR);
	if (fd < 0) {
		ret = -errno;
		fprintf(stderr, "vmlab_nvme_format: %s: %s\n", dev, strerror(-ret));
		return ret;
	}
	memset(&c, 0, sizeof(c));
	c.opcode = S_FORMAT_NVM;
	c.nsid = nsid;
	/* CDW10: LBAF bits 3:0, LBAFU (the index's bits 5:4) bits 13:12; SES, PI, MSET 0 */
	c.cdw10 = (lbaf & 0xf) | ((lbaf >> 4) & 0x3) << 12;
	c.timeout_ms = 600000; /* a format may take long; QEMU's zeroes a small file at once */
	ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c);
	if (ret < 0) {
		ret = -errno;
		fprintf(stderr, "vmlab_nvme_format: %s: Format NVM nsid %u lbaf %u: %s\n", dev,
			nsid, lbaf, strerror(-ret));
		goto out;
	}
	if (ret > 0) {
		fprintf(stderr,
			"vmlab_nvme_format: %s: Format NVM nsid %u lbaf %u: NVMe status 0x%x\n",
			dev, nsid, lbaf, (unsigned)ret);
		ret = -EIO;
		goto out;
	}
	if (ioctl(fd, NVME_IOCTL_RESCAN) < 0) {
		ret = -errno;
		fprintf(stderr, "vmlab_nvme_format: %s: rescan after the format: %s\n", dev,
			strerror(-ret));
		goto out;
	}
	printf("%s: namespace %u formatted with LBA format %u\n", dev, nsid, lbaf);
out:
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	char *end1, *end2;
	unsigned long nsid, lbaf;

	if (argc != 4) {
		fprintf(stderr, "usage: vmlab_nvme_format /dev/nvmeN NSID LBAF\n");
		return 2;
	}
	nsid = strtoul(argv[2], &end1, 0);
	lbaf = strtoul(argv[3], &end2, 0);
	if (*end1 || *end2 || !nsid || nsid > 0xfffffffeul || lbaf > 63) {
		fprintf(stderr,
			"vmlab_nvme_format: NSID 1..0xfffffffe and LBAF 0..63, got '%s' '%s'\n",
			argv[2], argv[3]);
		return 2;
	}
	return s_format(argv[1], (unsigned)nsid, (unsigned)lbaf) ? 1 : 0;
}
