/*
 * results/files/space.c - room for the run directory (see space.h).
 */
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "agg/secfile.h"
#include "results/files/reclog.h"
#include "results/files/rundir.h"
#include "results/files/space.h"
#include "util/clock.h"
#include "util/log.h"

#define S_KIB 1024ull

uint64_t bc_space_expected(const struct bc_space_plan *pl)
{
	uint64_t per_vol_s = pl->json ? 5 * S_KIB : pl->compact ? 3 * S_KIB / 2 : 160;

	return 256 * S_KIB +
	       pl->entries * (640 * S_KIB + 16 * S_KIB * (uint64_t)(pl->agents + pl->volumes)) +
	       pl->seconds * (S_KIB * (uint64_t)pl->agents + per_vol_s * (uint64_t)pl->volumes);
}

/* free bytes for an unprivileged writer on dir's filesystem; false when unknown */
static bool s_free(const char *dir, uint64_t *free)
{
	struct statvfs sv;

	if (statvfs(dir, &sv))
		return false;
	*free = (uint64_t)sv.f_bavail * sv.f_frsize;
	return true;
}

static double s_mb(uint64_t b)
{
	return (double)b / 1e6;
}

void bc_space_prerun(const char *dir, const struct bc_space_plan *pl)
{
	uint64_t need = bc_space_expected(pl), free;

	if (!s_free(dir, &free) || free >= need)
		return;
	bc_warn("free space on the output filesystem (%s): %.1f MB; this run is expected to "
		"write about %.1f MB there (%d volume(s) and %d agent(s) over %llu s, reports of "
		"%llu step(s)): make room, or give -o a directory on another filesystem; the run "
		"fails when it is full",
		dir, s_mb(free), s_mb(need), pl->volumes, pl->agents,
		(unsigned long long)pl->seconds, (unsigned long long)pl->entries);
}

/* bytes in the run's streams (events.jsonl, records.bin, seconds.bin) so far */
static uint64_t s_streams(const struct bc_rundir *r)
{
	static const char *const names[] = {"events.jsonl", BC_RECLOG_NAME, BC_SECF_NAME};
	char path[sizeof(r->path) + 32];
	uint64_t n = 0;
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", r->path, names[i]);
		if (!stat(path, &st))
			n += (uint64_t)st.st_size;
	}
	return n;
}

void bc_space_watch(struct bc_rundir *r, const struct bc_space_plan *left)
{
	uint64_t now = bc_mono_ns(), free, need, streams, rate, model;
	struct bc_space_plan streams_only = *left;

	if (!r->space_t0_ns) {
		r->space_t0_ns = now;
		r->space_streams0 = s_streams(r);
	}
	if (now - r->space_last_ns < BC_NS_PER_S && r->space_last_ns)
		return;
	r->space_last_ns = now;
	if (!s_free(r->path, &free))
		return;
	need = bc_space_expected(left);
	/* the streams as they really grow, when faster than the model says */
	streams = s_streams(r);
	streams_only.entries = 0;
	model = bc_space_expected(&streams_only) - 256 * 1024;
	if (now - r->space_t0_ns >= 2 * BC_NS_PER_S && streams > r->space_streams0) {
		rate = (streams - r->space_streams0) * BC_NS_PER_S / (now - r->space_t0_ns);
		if (rate * left->seconds > model)
			need += rate * left->seconds - model;
	}
	if (free >= need || (r->space_warned_free && free * 2 > r->space_warned_free))
		return;
	r->space_warned_free = free;
	bc_warn("the output filesystem is low on space: %.1f MB free at %s, about %.1f MB still "
		"to write (%llu s of the run left): make room now, or the run fails when it is "
		"full",
		s_mb(free), r->path, s_mb(need), (unsigned long long)left->seconds);
}
