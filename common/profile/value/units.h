/*
 * profile/value/units.h - parsing and printing of sizes and durations as people write
 * them in profiles ("4k", "1m", "1MiB", "10s", "500ms", "5m").
 * Size suffixes are binary (k = 1024), as in fio and vdbench.
 */
#ifndef BC_PROFILE_VALUE_UNITS_H
#define BC_PROFILE_VALUE_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * "4096", "4k", "4K", "4KiB", "4kb", "1m", "2g", "1t" -> bytes.
 * Returns 0, -EINVAL (not a size) or -ERANGE (overflow).
 */
int bc_parse_size(const char *s, uint64_t *bytes);

/*
 * "30" (seconds), "30s", "500ms", "5m", "1h" -> milliseconds.
 * Returns 0, -EINVAL or -ERANGE.
 */
int bc_parse_duration_ms(const char *s, uint64_t *ms);

/* "4k", "1m", "1536" - the shortest exact binary form; returns buf */
const char *bc_fmt_size(uint64_t bytes, char *buf, size_t len);

#endif
