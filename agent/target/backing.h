/*
 * target/backing.h - what backs a volume's I/O window before a step reads it:
 * for a file, the bytes FIEMAP (or SEEK_HOLE) says are unwritten extents or
 * holes, which the filesystem answers with zeroes and no device I/O; for a
 * block device, what the device itself reports of deallocated blocks (a loop
 * device: its backing file's extents; an NVMe namespace: Identify Namespace
 * DLFEAT and NUSE; any other: whether it takes discards). A read of zeroes
 * proves nothing either way, so none is made. The facts go to READY and
 * CHECKED as "backing"; the coordinator words the warning (results/
 * fidelity.c).
 */
#ifndef BC_TARGET_BACKING_H
#define BC_TARGET_BACKING_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/*
 * A file's window [start, end): {"kind": "file", "checked": "FIEMAP",
 * "window_bytes", "unbacked_bytes", "unwritten_bytes", "hole_bytes",
 * "unbacked_pct"}, or "checked": null with "detail" when the filesystem says
 * neither. NULL without memory or when the file cannot be read.
 */
cJSON *bc_backing_file_json(const char *path, uint64_t start, uint64_t end);

/*
 * A block device's window [start, end), never written in this session by a
 * sequential pass: {"kind": "block", "checked": "...", "detail": "...",
 * "dealloc": true (the device reports deallocated blocks, or may hold
 * them) | false | null (nothing could be read), "unbacked_pct" where it is
 * known (a loop device's backing file)}. root: "" (tests: a fixture tree for
 * sysfs).
 */
cJSON *bc_backing_block_json(const char *root, const char *path, uint64_t start, uint64_t end);

#endif
