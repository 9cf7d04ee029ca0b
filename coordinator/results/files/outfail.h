/*
 * results/files/outfail.h - the run directory's write failures, one rule for every writer
 * of it (events.jsonl, records.bin, seconds.bin, run.json and its .tmp
 * rename, profile.json, summary.md, report.html, the CSVs, fio.json,
 * charts/): the first failure is named once on stderr with the file, the
 * reason and the errno's name (ENOSPC, EDQUOT, EIO, EROFS ...), later ones
 * are only counted. The run watches bc_outfail_rc() and stops on it: what
 * could not be written would be measured for nothing. Writers keep their
 * files a clean prefix (a line or frame cut short is truncated away), so
 * what was measured until the failure is rebuilt with `bench-coord report
 * --rebuild` once there is space.
 */
#ifndef BC_OUTFAIL_H
#define BC_OUTFAIL_H

#include <stddef.h>

/* the run directory the failures are in (for the message's rebuild command) */
void bc_outfail_dir(const char *dir);
/* a write of path failed with rc (-errno); 0 is ignored. Thread-safe */
void bc_outfail_note(const char *path, int rc);
/* the first failure's -errno, 0 while none */
int bc_outfail_rc(void);
/* "cannot write events.jsonl (ENOSPC)": the first failure in short, or "" */
const char *bc_outfail_text(char *buf, size_t len);
/*
 * what the user does before the rebuild, for the first failure's errno: "make room" for
 * ENOSPC/EDQUOT, "make the filesystem writable again" for EROFS, ... ("" while none)
 */
const char *bc_outfail_remedy(void);
/* failures noted, the first included */
unsigned long bc_outfail_count(void);
/* "ENOSPC" for -ENOSPC (strerrorname_np), "errno N" when unnamed */
const char *bc_errno_name(int rc);

#endif
