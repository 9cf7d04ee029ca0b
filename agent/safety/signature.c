/*
 * safety/signature.c - the on-disk signature probe (see safety/signature.h): the magic
 * numbers of filesystems, volume managers, RAID, swap and partition tables
 * in the first and last bytes of a device or image.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "safety/signature.h"
#include "util/le.h"

/*
 * Signature probe windows. The head covers every superblock we know up to
 * the end of ZFS label L0 (256 KiB); the tail covers md 0.90 (up to 128 KiB
 * before the end) and ZFS labels L2/L3 (the last 512 KiB).
 */
#define S_HEAD_BYTES (256u << 10)
#define S_TAIL_BYTES (512u << 10)

/* n bytes of magic at off, within a buffer of len bytes */
static bool s_at(const uint8_t *buf, size_t len, size_t off, const void *magic, size_t n)
{
	return off + n <= len && !memcmp(buf + off, magic, n);
}

/* Linux md superblock magic (include/uapi/linux/raid/md_p.h MD_SB_MAGIC) */
#define S_MD_MAGIC 0xa92b4efcu
/* ZFS uberblock magic (uberblock_impl.h UBERBLOCK_MAGIC), either byte order */
#define S_ZFS_MAGIC 0x00bab10cull

/*
 * An md superblock of the given version at byte off of the device, when buf
 * holds bytes [start, start + blen) of it and the magic lies within them.
 */
static bool s_md_at(const uint8_t *buf, size_t blen, uint64_t start, uint64_t off,
		    const char *version, char *what, size_t len)
{
	if (off < start || off + 4 > start + blen || bc_le32(buf + (off - start)) != S_MD_MAGIC)
		return false;
	snprintf(what, len, "Linux md RAID member (superblock %s, magic 0xa92b4efc at byte %llu)",
		 version, (unsigned long long)off);
	return true;
}

/* ZFS: uberblock ring at 128 KiB into a 256 KiB label, 1 KiB slots at least */
static bool s_zfs_label(const uint8_t *label, size_t len)
{
	size_t off;

	for (off = 128u << 10; off + 8 <= len && off < 256u << 10; off += 1024) {
		uint64_t v = bc_le64(label + off);

		if (v == S_ZFS_MAGIC || __builtin_bswap64(v) == S_ZFS_MAGIC)
			return true;
	}
	return false;
}

/* the signatures found in the head (bytes [0, hlen)) */
static bool s_head_signature(const uint8_t *h, size_t hlen, char *what, size_t len)
{
	static const size_t pages[] = {4096, 8192, 16384, 65536};
	size_t i;

	if (s_at(h, hlen, 0, "XFSB", 4)) {
		snprintf(what, len, "XFS filesystem (\"XFSB\" at byte 0)");
		return true;
	}
	/* ext2/3/4: s_magic in the superblock at 1024, sanity-checked against noise */
	if (hlen >= 2048 && bc_le16(h + 1080) == 0xEF53 && bc_le32(h + 1024 + 24) <= 6 &&
	    bc_le32(h + 1024 + 40) != 0) {
		snprintf(what, len, "ext2/3/4 filesystem (magic 0xEF53 at byte 1080)");
		return true;
	}
	if (s_at(h, hlen, 65536 + 64, "_BHRfS_M", 8)) {
		snprintf(what, len, "btrfs filesystem (\"_BHRfS_M\" at byte 65600)");
		return true;
	}
	if (hlen >= 1028 && bc_le32(h + 1024) == 0xF2F52010u) {
		snprintf(what, len, "F2FS filesystem (magic 0xF2F52010 at byte 1024)");
		return true;
	}
	for (i = 0; i < 4; i++)
		if (s_at(h, hlen, i * 512, "LABELONE", 8)) {
			snprintf(what, len, "LVM2 physical volume (\"LABELONE\" at byte %zu)",
				 i * 512);
			return true;
		}
	if (s_at(h, hlen, 0, "LUKS\xba\xbe", 6)) {
		snprintf(what, len, "LUKS encrypted volume (\"LUKS\\xba\\xbe\" at byte 0)");
		return true;
	}
	if (s_md_at(h, hlen, 0, 0, "1.1", what, len) || s_md_at(h, hlen, 0, 4096, "1.2", what, len))
		return true;
	for (i = 0; i < sizeof(pages) / sizeof(pages[0]); i++)
		if (s_at(h, hlen, pages[i] - 10, "SWAPSPACE2", 10) ||
		    s_at(h, hlen, pages[i] - 10, "SWAP-SPACE", 10)) {
			snprintf(what, len, "swap area (\"SWAPSPACE2\" at byte %zu)",
				 pages[i] - 10);
			return true;
		}
	if (s_at(h, hlen, 512, "EFI PART", 8) || s_at(h, hlen, 4096, "EFI PART", 8)) {
		snprintf(what, len, "GPT partition table (\"EFI PART\" at byte %d)",
			 s_at(h, hlen, 512, "EFI PART", 8) ? 512 : 4096);
		return true;
	}
	if (s_at(h, hlen, 32769, "CD001", 5)) {
		snprintf(what, len, "ISO 9660 filesystem (\"CD001\" at byte 32769)");
		return true;
	}
	if (s_zfs_label(h, hlen)) {
		snprintf(what, len, "ZFS pool member (uberblock magic 0x00bab10c in label 0)");
		return true;
	}
	if (hlen < 512 || h[510] != 0x55 || h[511] != 0xAA)
		return false;
	if (s_at(h, hlen, 3, "NTFS    ", 8)) {
		snprintf(what, len, "NTFS filesystem (\"NTFS\" at byte 3)");
		return true;
	}
	if (s_at(h, hlen, 54, "FAT1", 4) || s_at(h, hlen, 82, "FAT32", 5)) {
		snprintf(what, len, "FAT filesystem (boot sector with 0x55AA at byte 510)");
		return true;
	}
	/* MBR: a boot flag of 0x00/0x80 and a type and a length in some entry */
	for (i = 0; i < 4; i++) {
		const uint8_t *e = h + 446 + 16 * i;

		if ((e[0] == 0 || e[0] == 0x80) && e[4] && bc_le32(e + 12)) {
			snprintf(
			    what, len,
			    "MBR partition table (0x55AA at byte 510, entry %zu of type 0x%02x)",
			    i + 1, e[4]);
			return true;
		}
	}
	snprintf(what, len, "boot sector (0x55AA at byte 510)");
	return true;
}

/* the signatures found in the tail: t holds [tstart, tstart + tlen) of size bytes */
static bool s_tail_signature(const uint8_t *t, size_t tlen, uint64_t tstart, uint64_t size,
			     char *what, size_t len)
{
	/* md 0.90: 64 KiB-aligned block, 64 KiB before the aligned end (MD_NEW_SIZE_SECTORS) */
	if (size >= (128u << 10) &&
	    s_md_at(t, tlen, tstart, (size & ~(uint64_t)(65535)) - 65536, "0.90", what, len))
		return true;
	/* md 1.0: 8 KiB before the end, 4 KiB aligned (mdadm super1.c) */
	if (size >= (16u << 10) &&
	    s_md_at(t, tlen, tstart, (((size >> 9) - 16) & ~(uint64_t)7) << 9, "1.0", what, len))
		return true;
	/* ZFS labels L2 and L3: the last two 256 KiB blocks of the aligned size */
	if (size >= (1u << 20)) {
		uint64_t end = size & ~(uint64_t)((256u << 10) - 1), l;

		for (l = end - (512u << 10); l < end; l += 256u << 10)
			if (l >= tstart && l + (256u << 10) <= tstart + tlen &&
			    s_zfs_label(t + (l - tstart), 256u << 10)) {
				snprintf(what, len,
					 "ZFS pool member (uberblock magic 0x00bab10c in a label "
					 "at byte %llu)",
					 (unsigned long long)l);
				return true;
			}
	}
	return false;
}

static ssize_t s_pread_full(int fd, uint8_t *buf, size_t len, uint64_t off)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = pread(fd, buf + got, len - got, (off_t)(off + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

int bc_safety_signature(int fd, uint64_t size_bytes, char *what, size_t len)
{
	size_t hlen = size_bytes < S_HEAD_BYTES ? (size_t)size_bytes : S_HEAD_BYTES;
	size_t tlen = size_bytes < S_TAIL_BYTES ? (size_t)size_bytes : S_TAIL_BYTES;
	uint8_t *buf = malloc(S_HEAD_BYTES > S_TAIL_BYTES ? S_HEAD_BYTES : S_TAIL_BYTES);
	ssize_t n;
	int rc = 0;

	if (!buf)
		return -ENOMEM;
	n = s_pread_full(fd, buf, hlen, 0);
	if (n < 0) {
		rc = (int)n;
		goto out;
	}
	if (s_head_signature(buf, (size_t)n, what, len)) {
		rc = 1;
		goto out;
	}
	n = s_pread_full(fd, buf, tlen, size_bytes - tlen);
	if (n < 0) {
		rc = (int)n;
		goto out;
	}
	rc = s_tail_signature(buf, (size_t)n, size_bytes - tlen, size_bytes, what, len) ? 1 : 0;
out:
	free(buf);
	return rc;
}
