/*
 * host/hoststat.h - the client host's own counters, read from procfs and sysfs
 * once per interval and shipped beside STATS: CPU total, busiest core and
 * softirq (average and hottest core), NIC tx/rx per interface with link
 * speed, /proc/diskstats of the target devices, memory and load. The figures
 * and their JSON keys are those of common/figures/hostfig.h, so a client's
 * "cpu_busy_pct" means exactly what a storage node's does.
 *
 * Not thread-safe: one object per caller (the agent's control thread).
 */
#ifndef BC_HOST_HOSTSTAT_H
#define BC_HOST_HOSTSTAT_H

#include <stdint.h>

#include <cjson/cJSON.h>

struct bc_hoststat;

/*
 * Start measuring: takes the baseline sample now. devices are block devices
 * ("/dev/nvme1n1", "nvme1n1", a /dev/disk/by-* link) or files, whose
 * filesystem's device is used; n may be 0. Unknown devices are left out.
 * Returns NULL without memory or when /proc/stat cannot be read.
 */
struct bc_hoststat *bc_hoststat_new(const char *const *devices, int n);

/* the same, with every /proc and /sys path under root (tests use fixture trees) */
struct bc_hoststat *bc_hoststat_new_at(const char *root, const char *const *devices, int n);

/*
 * Read the counters again and return the figures since the previous sample
 * (or since bc_hoststat_new) as bc_hostfig_json() with detail:
 * {"dt_s": 1.0, "cpu_busy_pct": 12.5, "cpu_hot_core_pct": 40, "cpu_hot_core": 3,
 *  "softirq_pct": 1.2, "softirq_hot_core_pct": 9, "net_tx_mbps": ...,
 *  "link_mbps": ..., "net_tx_util_pct": ..., "mem_used_pct": ..., "load1": ...,
 *  "nics": {"eth0": {"tx_mbps", "rx_mbps", "speed_mbps", "tx_util_pct", ...}},
 *  "disks": {"nvme1n1": {"read_mbps", "write_mbps", "riops", "wiops", "util_pct",
 *            "aqu", "r_await_ms", "w_await_ms"}}}
 * Call it once per interval (about 1 s); it reads about ten small files.
 * Caller owns the result; NULL when nothing could be read or without memory.
 */
cJSON *bc_hoststat_sample_json(struct bc_hoststat *h);

/*
 * Sampling at interval boundaries. A step's I/O interval k is
 * [start + k s, start + (k+1) s) on CLOCK_MONOTONIC (engine/job.h); its host
 * figures must cover the same second, not the time from one STATS send to
 * the next (those leave when the slowest job has sealed k and the control
 * thread has polled: up to a tick after the boundary, and the first one
 * from whenever START arrived). So the counters are read at the boundaries
 * themselves - boundary 0 is the baseline, boundary k+1 closes interval k -
 * and kept until interval k's STATS goes out.
 *
 * bc_hoststat_schedule: sample at start_mono_ns + j s for j = 0..seconds;
 * forgets whatever was sampled before.
 */
void bc_hoststat_schedule(struct bc_hoststat *h, uint64_t start_mono_ns, uint32_t seconds);
/* the boundaries' spacing in this host's clock (bc_job_set_second's); 0: 1 s */
void bc_hoststat_set_second(struct bc_hoststat *h, uint64_t second_ns);

/*
 * Read the counters if now_mono_ns has passed the next boundary (once, at
 * the latest one passed: intervals whose boundary was missed get no
 * figures rather than a wrong second). Returns the ns until the next
 * boundary, UINT64_MAX when none is left or nothing is scheduled.
 */
uint64_t bc_hoststat_poll(struct bc_hoststat *h, uint64_t now_mono_ns);

/*
 * Interval k's figures, as bc_hoststat_sample_json() plus "t0_s" and
 * "t1_s": when its two samples were read, in seconds after boundary 0 on
 * the monotonic clock (k and k+1 give or take the read itself). An
 * interval the jobs sealed before its boundary (a size-based pass ended,
 * a cancel) is closed now instead, its t1_s saying so. Caller owns the
 * result; NULL when k has no figures (missed, or under 10 ms since the
 * previous sample).
 */
cJSON *bc_hoststat_take(struct bc_hoststat *h, uint32_t k, uint64_t now_mono_ns);

/* frees *hp and sets it to NULL; NULL is fine */
void bc_hoststat_destroy(struct bc_hoststat **hp);

#endif
