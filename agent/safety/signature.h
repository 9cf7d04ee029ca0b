/*
 * safety/signature.h - whether a device or image carries data someone may want:
 * a filesystem, RAID, LVM, swap or partition-table signature in its first
 * or last bytes. The PREPARE gate (safety/safety.h) refuses to write over one
 * unless the volume is consented destructive.
 */
#ifndef BC_SAFETY_SIGNATURE_H
#define BC_SAFETY_SIGNATURE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Look for an on-disk signature in the first and last bytes of a device or
 * image: ext2/3/4, XFS, btrfs, F2FS, LVM2, Linux md RAID (0.90, 1.0, 1.1,
 * 1.2), GPT, MBR/boot sector, swap, ZFS, LUKS. fd is read with pread only.
 * Returns 1 with a description ("ext2/3/4 filesystem (magic 0xEF53 at byte
 * 1080)") in what, 0 when none is found, or -errno.
 */
int bc_safety_signature(int fd, uint64_t size_bytes, char *what, size_t len);

#endif
