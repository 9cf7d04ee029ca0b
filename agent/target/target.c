/*
 * target.c - open a volume for a step: probe what the path is, refuse what
 * is unsafe or unsupported, create or extend regular files, pick the ops
 * table by kind and compute the I/O window every job draws offsets from.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bc_target.h"

/*
 * Grow t->path to t->create_bytes: a missing file is created (fresh), an
 * existing smaller one extended. fallocate reserves the blocks so a write
 * step cannot fail with ENOSPC half way; filesystems without it (some
 * network filesystems) get a sparse file from ftruncate.
 */
static int s_grow_file(struct bc_target *t, bool fresh, char *err, size_t errlen)
{
	uint64_t have = fresh ? 0 : t->info.size_bytes;
	int flags = O_WRONLY | O_CLOEXEC, fd, ret = 0;

	if (t->create_bytes > (uint64_t)INT64_MAX) {
		snprintf(err, errlen, "%s: size %llu is too large", t->path,
			 (unsigned long long)t->create_bytes);
		return -EFBIG;
	}
	if (fresh)
		flags |= O_CREAT | O_EXCL;
	fd = open(t->path, flags, 0644);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot %s '%s': %s", fresh ? "create" : "open", t->path,
			 strerror(-ret));
		return ret;
	}
	if (fallocate(fd, 0, (off_t)have, (off_t)(t->create_bytes - have))) {
		ret = -errno;
		if (ret == -EOPNOTSUPP)
			ret = ftruncate(fd, (off_t)t->create_bytes) ? -errno : 0;
	}
	if (ret) {
		snprintf(err, errlen, "cannot %s '%s' to %llu bytes: %s",
			 fresh ? "create" : "extend", t->path, (unsigned long long)t->create_bytes,
			 strerror(-ret));
		if (fresh)
			unlink(t->path);
	}
	close(fd);
	return ret;
}

/* [offset, offset + length) clipped to the volume, aligned to the block size */
static int s_window(struct bc_target *t, const struct bc_volume_spec *spec, uint32_t bs, char *err,
		    size_t errlen)
{
	uint64_t size = t->info.size_bytes, start = 0, end = size, align;

	/* 512 even on files: the smallest unit O_DIRECT accepts anywhere */
	align = t->info.lbs > 512 ? t->info.lbs : 512;
	if (spec) {
		start = spec->offset_bytes;
		if (start >= size) {
			snprintf(
			    err, errlen,
			    "%s: offset %llu is at or beyond the end of the volume (%llu bytes)",
			    t->path, (unsigned long long)start, (unsigned long long)size);
			return -EINVAL;
		}
		if (spec->length_bytes && spec->length_bytes < size - start)
			end = start + spec->length_bytes;
	}
	start = (start + align - 1) / align * align;
	end = end / align * align;
	if (end <= start || end - start < bs) {
		snprintf(err, errlen,
			 "%s: I/O window [%llu, %llu) is smaller than one block of %u bytes",
			 t->path, (unsigned long long)start, (unsigned long long)end, bs);
		return -EINVAL;
	}
	if (t->direct && t->info.kind != BC_KIND_NULL && bs % align) {
		snprintf(err, errlen,
			 "%s: bs %u is not a multiple of the logical block size %llu that "
			 "O_DIRECT requires",
			 t->path, bs, (unsigned long long)align);
		return -EINVAL;
	}
	t->win_start = start;
	t->win_end = end;
	return 0;
}

/*
 * What s_grow_file would meet, without creating or extending anything: the
 * directory (fresh) or the file must be writable. The volume then has the
 * size it would be given. Same messages as s_grow_file.
 */
static int s_grow_check(struct bc_target *t, bool fresh, char *err, size_t errlen)
{
	char dir[BC_PATH_MAX];
	const char *slash = strrchr(t->path, '/');
	int ret;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - t->path) + 1 : 1,
		 slash ? t->path : ".");
	if (t->create_bytes > (uint64_t)INT64_MAX) {
		snprintf(err, errlen, "%s: size %llu is too large", t->path,
			 (unsigned long long)t->create_bytes);
		return -EFBIG;
	}
	if (access(fresh ? dir : t->path, W_OK | (fresh ? X_OK : 0))) {
		ret = -errno;
		snprintf(err, errlen, "cannot %s '%s': %s", fresh ? "create" : "open", t->path,
			 strerror(-ret));
		return ret;
	}
	t->info.size_bytes = t->create_bytes;
	if (fresh)
		t->info.lbs = t->info.pbs = 512;
	return 0;
}

/*
 * probe, refuse and create: everything before the ops table is known; dry:
 * nothing is created or extended (bc_target_check)
 */
static int s_classify(struct bc_target *t, bool allow_block_writes, bool dry, char *err,
		      size_t errlen)
{
	bool fresh = false;
	int ret;

	ret = bc_devinfo_probe(t->path, &t->info);
	if (ret) {
		snprintf(err, errlen, "cannot access '%s': %s", t->path, strerror(-ret));
		return ret;
	}
	switch (t->info.kind) {
	case BC_KIND_NULL:
		t->ops = &bc_target_null_ops;
		return 0;
	case BC_KIND_SIM:
		/* geometry from "sim" (defaults when absent); no data, so nothing to verify */
		if (t->create_bytes) {
			snprintf(err, errlen,
				 "%s: \"size\" creates files; a simulated SSD's size is \"sim\": "
				 "{\"capacity\"}",
				 t->path);
			return -EINVAL;
		}
		if (!t->sim.enabled)
			bc_sim_spec_default(&t->sim);
		t->ops = &bc_target_sim_ops;
		return 0;
	case BC_KIND_MISSING:
		if (!t->create_bytes) {
			snprintf(err, errlen,
				 "%s: no such file (give the volume a \"size\" to create it)",
				 t->path);
			return -ENOENT;
		}
		fresh = true;
		break;
	case BC_KIND_FILE:
		break;
	case BC_KIND_BLOCK:
		if (t->create_bytes) {
			snprintf(err, errlen,
				 "%s: \"size\" applies to regular files only; use \"length\" to "
				 "limit the I/O window on a block device",
				 t->path);
			return -EINVAL;
		}
		if (t->writable && !allow_block_writes) {
			snprintf(err, errlen,
				 "%s: refusing to write to a block device; start the agent with "
				 "--allow-block-writes to allow it",
				 t->path);
			return -EPERM;
		}
		t->ops = &bc_target_file_ops;
		return 0;
	case BC_KIND_NVME_CHAR:
		/* size and LBA format come from Identify in the ops' open */
		if (t->create_bytes) {
			snprintf(err, errlen, "%s: \"size\" applies to regular files only",
				 t->path);
			return -EINVAL;
		}
		if (t->writable && !allow_block_writes) {
			snprintf(err, errlen,
				 "%s: refusing to write to an NVMe device; start the agent with "
				 "--allow-block-writes to allow it",
				 t->path);
			return -EPERM;
		}
		t->ops = &bc_target_nvme_ops;
		return 0;
	default:
		snprintf(err, errlen, "%s: not a regular file or block device", t->path);
		return -EINVAL;
	}
	t->ops = &bc_target_file_ops;
	if (dry && (fresh || t->create_bytes > t->info.size_bytes))
		return s_grow_check(t, fresh, err, errlen);
	if (fresh || t->create_bytes > t->info.size_bytes) {
		ret = s_grow_file(t, fresh, err, errlen);
		if (ret)
			return ret;
		ret = bc_devinfo_probe(t->path, &t->info);
		if (ret) {
			snprintf(err, errlen, "cannot access '%s': %s", t->path, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/*
 * Placement indexes name the volume's "fdp" pids: one beyond them (or any,
 * without "fdp") would go out as no directive or round-robin, and a drive
 * takes an unknown placement ID silently, so refuse it here
 */
static int s_check_placement(const struct bc_target *t, const struct bc_placement *p,
			     const char *who, char *err, size_t errlen)
{
	int i;

	if (p->kind != 1)
		return 0;
	for (i = 0; i < p->n; i++)
		if (p->idx[i] >= t->fdp.npids) {
			snprintf(err, errlen,
				 "%s: %s placement index %u refused: the volume's \"fdp\" has %d "
				 "pids",
				 t->path, who, p->idx[i], t->fdp.npids);
			return -EINVAL;
		}
	return 0;
}

static int s_check_placements(const struct bc_target *t, const struct bc_workload *wl, char *err,
			      size_t errlen)
{
	char who[64];
	uint32_t i;
	int ret = s_check_placement(t, &wl->placement, "the workload's", err, errlen);

	for (i = 0; !ret && i < wl->nstreams; i++) {
		snprintf(who, sizeof(who), "stream %s's", wl->streams[i].name);
		ret = s_check_placement(t, &wl->streams[i].placement, who, err, errlen);
	}
	return ret;
}

/*
 * The dry run of t->ops->open for bc_target_check: files and block devices
 * are opened read-only (with O_DIRECT when the step uses it, which is what
 * fails on filesystems without it), and a write needs write permission;
 * NVMe passthrough and simulated SSDs are not opened at all.
 */
static int s_open_check(struct bc_target *t, char *err, size_t errlen)
{
	bool writable = t->writable;
	int ret;

	if (t->ops == &bc_target_sim_ops) {
		t->info.size_bytes = t->sim.capacity_bytes;
		t->info.lbs = 512;
		return 0;
	}
	if (t->ops != &bc_target_file_ops || t->info.kind == BC_KIND_MISSING)
		return 0;
	if (writable && access(t->path, W_OK)) {
		ret = -errno;
		snprintf(err, errlen, "cannot open '%s' for writing: %s", t->path, strerror(-ret));
		return ret;
	}
	t->writable = false;
	ret = t->ops->open(t, err, errlen);
	t->ops->close(t);
	t->writable = writable;
	return ret;
}

static int s_open(struct bc_target *t, const char *path, const struct bc_volume_spec *spec,
		  const struct bc_workload *wl, bool allow_block_writes, bool dry, char *err,
		  size_t errlen)
{
	size_t n = strlen(path);
	int ret;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (n >= sizeof(t->path)) {
		snprintf(err, errlen, "'%.64s...': path too long", path);
		return -ENAMETOOLONG;
	}
	memcpy(t->path, path, n + 1);
	t->writable = bc_workload_writes(wl);
	t->direct = wl->direct;
	t->create_bytes = spec ? spec->size_bytes : 0;
	if (spec) {
		t->fdp = spec->fdp;
		t->sim = spec->sim;
	}

	ret = s_classify(t, allow_block_writes, dry, err, errlen);
	if (ret)
		goto out;
	ret = s_check_placements(t, wl, err, errlen);
	if (ret)
		goto out;
	if (t->fdp.policy != BC_FDP_NONE && t->ops != &bc_target_nvme_ops &&
	    t->ops != &bc_target_sim_ops) {
		snprintf(err, errlen,
			 "%s: \"fdp\" placement needs an NVMe generic char device (/dev/ngXnY) or "
			 "a simulated SSD (\"sim\")",
			 t->path);
		ret = -EINVAL;
		goto out;
	}
	if (t->ops == &bc_target_sim_ops && wl->verify) {
		snprintf(err, errlen, "%s: verify needs stored data; a simulated SSD keeps none",
			 t->path);
		ret = -EINVAL;
		goto out;
	}
	ret = dry ? s_open_check(t, err, errlen) : t->ops->open(t, err, errlen);
	if (ret)
		goto out;
	/* an NVMe namespace's size comes from Identify at open: unknown in a dry run */
	if (!dry || t->info.size_bytes)
		ret = s_window(t, spec, wl->bs, err, errlen);
out:
	if (ret || dry)
		bc_target_close(t);
	return ret;
}

int bc_target_open(struct bc_target *t, const char *path, const struct bc_volume_spec *spec,
		   const struct bc_workload *wl, bool allow_block_writes, char *err, size_t errlen)
{
	return s_open(t, path, spec, wl, allow_block_writes, false, err, errlen);
}

int bc_target_check(const char *path, const struct bc_volume_spec *spec,
		    const struct bc_workload *wl, char *err, size_t errlen)
{
	struct bc_target t;

	return s_open(&t, path, spec, wl, true, true, err, errlen);
}

void bc_target_close(struct bc_target *t)
{
	if (t->ops)
		t->ops->close(t);
	else if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}
