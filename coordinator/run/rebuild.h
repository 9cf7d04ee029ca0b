/*
 * run/rebuild.h (rebuild.c) - run.json and seconds.bin again from the
 * record log
 */
#ifndef BC_RUN_REBUILD_H
#define BC_RUN_REBUILD_H

#include <stddef.h>
#include <stdint.h>

/*
 * Reconstruct DIR/run.json from DIR/events.jsonl (the
 * coordinator died before writing it, or wrote it mid-step). Returns 0 or
 * -errno with a message in err.
 */
int bc_rebuild_from_events(const char *dir, char *err, size_t errlen);

/*
 * The same replay of DIR/events.jsonl with every step's measured window
 * seconds [from_s, to_s) of the step (second 0 is its first, ramp
 * included; clipped to the step's length, UINT32_MAX: its end): OUT/run.json and
 * OUT/seconds.bin, figures at every level (volume, agent, node, total)
 * with percentiles from the window's merged histograms. DIR is only
 * read; OUT must exist and differ from DIR. 0 or -errno with a message.
 */
int bc_rebuild_window(const char *dir, const char *out, uint32_t from_s, uint32_t to_s, char *err,
		      size_t errlen);

#endif
