/*
 * results/fullsize.h - how many entities of a level a summary lists whole
 * (fullsize.c). One rule for every file made from a step: up to the limit
 * a level's volumes (or client hosts) each get their per-second series in
 * run.json, their vdbench interval tables, their timeseries.csv rows and
 * their rows in report.html; above it a level is summarised there (window
 * figures per entity, spread and top/bottom in the report) and its
 * per-second data stay in seconds.bin, where `bench-coord dump-seconds`
 * (CSV, JSON) and `report --window` read them. At 1,600 volumes x 60 s the
 * per-volume series written three more times made up half the run
 * directory (docs/results.md, "What is listed whole").
 */
#ifndef BC_RESULTS_FULLSIZE_H
#define BC_RESULTS_FULLSIZE_H

#include <stdbool.h>

#define BC_FULL_VOLUMES 256
#define BC_FULL_AGENTS	64

/*
 * The limit for a level (BC_LVL_VOLUME or BC_LVL_AGENT; every other level
 * is always listed whole: INT_MAX). The environment variables
 * BC_FULL_VOLUMES and BC_FULL_AGENTS (a count, or "all") override the
 * defaults, for a user who wants everything and for tests that need a
 * summarised level at a small size; a bad value is warned about once and
 * ignored.
 */
int bc_full_limit(int lvl);

/* n entities at level lvl are listed whole */
bool bc_full_listed(int lvl, int n);

/*
 * The same rule in time: a step longer than this many seconds (an hour) is
 * summarised per minute wherever a step is listed per second - run.json's
 * "minutes" instead of "series" for the total, client hosts and storage
 * nodes, the reports' charts and timeseries.csv - with its drift over the
 * soak as figures (results/long/minutes.h). A day of seconds is 86,400 points
 * per entity that no chart shows and no one reads; seconds.bin keeps every
 * second (`bench-coord report --window A-B` for any part at full
 * resolution). The environment variable BC_LONG_STEP_S (seconds) moves the
 * limit for one command, for tests that need a long step in seconds.
 */
#define BC_LONG_STEP_S 3600
bool bc_long_step(uint32_t seconds);

/*
 * And in run.json alone, a budget in volume-points: a listed level of volumes
 * writes its series (or a long step's minutes) and its vdbench SD interval
 * tables into run.json while volumes x points is at most this (256 volumes x
 * 300 s); past it run.json keeps each volume's window figures and SD avg
 * line, and the points stay in seconds.bin, from where the reports read
 * them (bc_report_series): report.html and timeseries.csv list the volumes
 * as before. Every reader of run.json parses it whole: 256 volumes x 3,000 s
 * listed were a 282 MB run.json and a 2.3 GB `bench-coord report`. The series
 * of the total, client hosts and storage nodes are always written.
 * The environment variable BC_SERIES_VOLUME_POINTS (a count or "all") moves
 * it for one command.
 */
#define BC_SERIES_VOLUME_POINTS (256 * 300)
bool bc_series_in_runjson(int lvl, int n, uint32_t seconds);

#endif
