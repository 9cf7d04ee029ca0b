/*
 * bc_rebuild.h (rebuild.c) - run.json and seconds.bin again from the
 * record log
 */
#ifndef BC_REBUILD_H
#define BC_REBUILD_H

#include <stddef.h>

/*
 * Reconstruct DIR/run.json from DIR/events.jsonl (the
 * coordinator died before writing it, or wrote it mid-step). Returns 0 or
 * -errno with a message in err; -ENOSYS until it is implemented.
 */
int bc_rebuild_from_events(const char *dir, char *err, size_t errlen);

#endif
