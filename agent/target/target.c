/*
 * target/target.c - the registry of I/O targets and opening a volume for a step:
 * probe what the path is, pick the target that takes it (by the kind of a
 * real path or the name a pseudo target claims), let the target refuse what
 * it cannot do, apply the rules its capabilities imply, open it and compute
 * the I/O window every job draws offsets from. The core never asks which
 * target a volume has: only what its ops declare (target/ops.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "target/target.h"

/* the plug-ins (the files beside target.c); a new target is its file and one line in each list */
extern const struct bc_target_ops bc_target_file_ops; /* files and block devices */
extern const struct bc_target_ops bc_target_nvme_ops; /* /dev/ngXnY passthrough */
extern const struct bc_target_ops bc_target_null_ops; /* "null": NOPs, no device */
extern const struct bc_target_ops bc_target_sim_ops;  /* "sim", "sim:NAME": a simulated SSD */
/* a volume with a "fileset": picked by the spec, not by the path's kind */
extern const struct bc_target_ops bc_target_fileset_ops;

static const struct bc_target_ops *const s_targets[] = {
    &bc_target_file_ops, &bc_target_nvme_ops,	 &bc_target_null_ops,
    &bc_target_sim_ops,	 &bc_target_fileset_ops,
};
#define S_NTARGETS (int)(sizeof(s_targets) / sizeof(s_targets[0]))

int bc_target_ops_check(const struct bc_target_ops *ops, char *err, size_t errlen)
{
	const char *name = ops->name ? ops->name : "(unnamed)";

	if (ops->version != BC_TARGET_OPS_VERSION) {
		snprintf(err, errlen,
			 "target \"%s\": ops version %d refused, this agent takes version %d", name,
			 ops->version, BC_TARGET_OPS_VERSION);
		return -ENOTSUP;
	}
	if (!ops->name || !ops->desc || !ops->open || !ops->close || !ops->prep || !ops->control ||
	    (ops->claims && !ops->probe)) {
		snprintf(
		    err, errlen,
		    "target \"%s\": ops refused: name, desc, open, close, prep and control are "
		    "required, and probe with claims",
		    name);
		return -ENOTSUP;
	}
	return 0;
}

const struct bc_target_ops *bc_target_pseudo(const char *path)
{
	int i;

	for (i = 0; i < S_NTARGETS; i++)
		if (s_targets[i]->claims && s_targets[i]->claims(path))
			return s_targets[i];
	return NULL;
}

const struct bc_target_ops *bc_target_ops_find(const char *name)
{
	int i;

	for (i = 0; i < S_NTARGETS; i++)
		if (s_targets[i]->name && !strcmp(s_targets[i]->name, name))
			return s_targets[i];
	return NULL;
}

/* the target of a real path's kind, NULL when none opens it */
static const struct bc_target_ops *s_by_kind(enum bc_path_kind kind)
{
	int i;

	for (i = 0; i < S_NTARGETS; i++)
		if (s_targets[i]->kinds & (1u << kind))
			return s_targets[i];
	return NULL;
}

int bc_target_probe(const char *path, struct bc_devinfo *di, const char **kind)
{
	const struct bc_target_ops *ops = bc_target_pseudo(path);
	int ret = 0;

	memset(di, 0, sizeof(*di));
	if (ops) {
		di->kind = BC_KIND_PSEUDO;
		ops->probe(path, di);
	} else {
		ret = bc_devinfo_probe(path, di);
	}
	if (kind)
		*kind = ops ? ops->name : bc_path_kind_name(di->kind);
	return ret;
}

const char *bc_target_kind(const struct bc_target *t)
{
	return (t->info.kind == BC_KIND_PSEUDO || t->fileset.enabled) && t->ops
		   ? t->ops->name
		   : bc_path_kind_name(t->info.kind);
}

unsigned bc_target_safety(const char *path)
{
	const struct bc_target_ops *ops = bc_target_pseudo(path);
	unsigned rules = 0;
	int i;

	if (ops)
		return ops->safety;
	for (i = 0; i < S_NTARGETS; i++)
		if (s_targets[i]->kinds)
			rules |= s_targets[i]->safety;
	return rules;
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
	if (t->direct && !(t->ops->caps & BC_TCAP_ANY_ALIGN) && bs % align) {
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

/* probe the path and pick its target: everything before the target's own checks */
static int s_classify(struct bc_target *t, char *err, size_t errlen)
{
	const struct bc_target_ops *ops;
	const char *kind;
	int ret;

	/* a tree of files: its target builds it and says what it is (target/fileset.c) */
	if (t->fileset.enabled) {
		memset(&t->info, 0, sizeof(t->info));
		t->ops = &bc_target_fileset_ops;
		return bc_target_ops_check(t->ops, err, errlen);
	}
	ret = bc_target_probe(t->path, &t->info, &kind);
	if (ret) {
		snprintf(err, errlen, "cannot access '%s': %s", t->path, strerror(-ret));
		return ret;
	}
	ops = t->info.kind == BC_KIND_PSEUDO ? bc_target_pseudo(t->path) : s_by_kind(t->info.kind);
	if (!ops) {
		snprintf(err, errlen, "%s: not a regular file or block device", t->path);
		return -EINVAL;
	}
	ret = bc_target_ops_check(ops, err, errlen);
	if (ret)
		return ret;
	t->ops = ops;
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

/* what the target's capabilities rule out for this volume and workload */
static int s_check_caps(const struct bc_target *t, const struct bc_workload *wl, char *err,
			size_t errlen)
{
	if (t->fdp.policy != BC_FDP_NONE && !(t->ops->caps & BC_TCAP_PLACEMENT)) {
		snprintf(err, errlen,
			 "%s: \"fdp\" placement needs an NVMe generic char device (/dev/ngXnY) or "
			 "a simulated SSD (\"sim\")",
			 t->path);
		return -EINVAL;
	}
	if ((t->ops->caps & BC_TCAP_NO_DATA) && wl->verify) {
		snprintf(err, errlen, "%s: verify needs stored data; %s keeps none", t->path,
			 t->ops->desc);
		return -EINVAL;
	}
	return 0;
}

static int s_open(struct bc_target *t, const char *path, const struct bc_volume_spec *spec,
		  const struct bc_workload *wl, bool dry, char *err, size_t errlen)
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
		t->fileset = spec->fileset;
	}
	t->fileset_fresh = wl->fileset_format == BC_FILESET_FRESH;
	t->fileset_none = wl->fileset_format == BC_FILESET_NONE;
	t->fileset_meta = wl->meta;
	if (wl->meta && !t->fileset.enabled) {
		snprintf(err, errlen,
			 "%s: \"meta\": \"%s\" acts on a file set's files; the volume has no "
			 "\"fileset\"",
			 t->path, bc_meta_names[wl->meta]);
		return -EINVAL;
	}

	ret = s_classify(t, err, errlen);
	if (!ret && t->ops->prepare)
		ret = t->ops->prepare(t, dry, err, errlen);
	/* with "pids": "all" the target knows its pids only once open (below) */
	if (!ret && !t->fdp.all)
		ret = s_check_placements(t, wl, err, errlen);
	if (!ret)
		ret = s_check_caps(t, wl, err, errlen);
	if (ret)
		goto out;
	if (dry)
		ret = t->ops->check ? t->ops->check(t, err, errlen) : 0;
	else
		ret = t->ops->open(t, err, errlen);
	if (!ret && !dry && t->fdp.all)
		ret = s_check_placements(t, wl, err, errlen);
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
		   const struct bc_workload *wl, char *err, size_t errlen)
{
	return s_open(t, path, spec, wl, false, err, errlen);
}

int bc_target_check(const char *path, const struct bc_volume_spec *spec,
		    const struct bc_workload *wl, char *err, size_t errlen)
{
	struct bc_target t;

	return s_open(&t, path, spec, wl, true, err, errlen);
}

void bc_target_close(struct bc_target *t)
{
	if (t->ops)
		t->ops->close(t);
	else if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}
