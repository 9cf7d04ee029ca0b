/*
 * run/live.h - the per-second view of a run (live.c): lines, a terminal
 * panel, or JSON lines, in bench-coord's or vdbench's format
 */
#ifndef BC_RUN_LIVE_H
#define BC_RUN_LIVE_H

#include <stdint.h>
#include <stdio.h>

struct bc_live_progress; /* fleet/fleet.h */
struct bc_step_result;

enum bc_live_mode { BC_LIVE_AUTO = 0, BC_LIVE_LINES, BC_LIVE_TTY, BC_LIVE_JSON, BC_LIVE_QUIET };
void bc_live_init(enum bc_live_mode mode);
enum bc_live_mode bc_live_mode(void);
/* what the per-second lines look like (--format): bench-coord's, or vdbench's 13 columns */
enum bc_live_format { BC_LIVE_FMT_DEFAULT = 0, BC_LIVE_FMT_VDBENCH };
void bc_live_set_format(enum bc_live_format fmt);
enum bc_live_format bc_live_format(void);
/* where text for people goes: stdout, or stderr when stdout carries JSON */
FILE *bc_live_out(void);
/* the terminal's width when the live view is a panel on one, else 0 (unlimited) */
int bc_live_cols(void);
/*
 * text on f in lines of fewer than cols columns, folded at spaces, every line
 * after the first indented by indent; one word longer than a line (a path)
 * is printed whole. cols 0: text as is.
 */
void bc_live_fold(FILE *f, int cols, int indent, const char *text);
void bc_live_header(const struct bc_step_result *res);
void bc_live_second(const struct bc_step_result *res, uint32_t k, int nagents,
		    const struct bc_live_progress *p);
void bc_live_note(const char *text);
void bc_live_step_end(void);

#endif
