/*
 * run/live.c - what the operator watches during a run. Three forms:
 *  - lines: one vdbench-style line per second (pipes, logs, CI);
 *  - tty: the same lines scrolling, with a panel redrawn in place under
 *    them - progress bar with step and ETA, and this second per client host
 *    and per storage node - when stdout is a terminal;
 *  - json (--json): one JSON object per second on stdout, everything meant
 *    for people on stderr, so `bench-coord run --json p.json | jq` works.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "agg/agg.h"
#include "fleet/fleet.h"
#include "report/parts/vdbench.h"
#include "results/fullsize.h"
#include "results/results.h"
#include "run/live.h"
#include "util/clock.h"
#include "util/json.h"

/* the panel shows at most this many rows per level; more are summarised */
#define S_PANEL_ROWS 8

/* what the step runs: its rw, or its metadata operation ("meta create") */
static const char *s_what(const struct bc_workload *wl, char *buf, size_t len)
{
	if (!wl->meta)
		return bc_rw_names[wl->rw];
	snprintf(buf, len, "meta %s", bc_meta_names[wl->meta]);
	return buf;
}

static enum bc_live_mode s_mode = BC_LIVE_LINES;
static enum bc_live_format s_format = BC_LIVE_FMT_DEFAULT;
static int s_panel_lines; /* lines of the panel drawn last, to erase them */

/*
 * The terminal's size, asked each time the panel is drawn (a window may be
 * resized mid-run); when it does not say, $COLUMNS (a shell's) and 24 rows,
 * else 80x24.
 */
static void s_term_size(int *cols, int *rows)
{
	struct winsize ws;

	const char *env = getenv("COLUMNS");
	long c = env ? strtol(env, NULL, 10) : 0;

	*cols = c >= 20 && c <= 1000 ? (int)c : 80;
	*rows = 24;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col && ws.ws_row) {
		*cols = ws.ws_col;
		*rows = ws.ws_row;
	}
}

/*
 * One line of at most cols - 1 columns (everything here is ASCII): a line
 * that filled the row would wrap on some terminals, and a wrapped line is
 * two rows the panel's erase does not count - the leftovers it must avoid.
 */
static void s_tty_line(int cols, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void s_tty_line(int cols, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int max = cols - 1 < (int)sizeof(buf) - 1 ? cols - 1 : (int)sizeof(buf) - 1;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (max < 1)
		max = 1;
	if ((int)strlen(buf) > max)
		buf[max] = '\0';
	printf("%s\n", buf);
}

/* the per-second line is 87 columns with its clock; narrower terminals go without it */
#define S_LINE_COLS 88

void bc_live_init(enum bc_live_mode mode)
{
	const char *term = getenv("TERM");

	if (mode == BC_LIVE_AUTO)
		mode = isatty(STDOUT_FILENO) && term && strcmp(term, "dumb") ? BC_LIVE_TTY
									     : BC_LIVE_LINES;
	s_mode = mode;
}

enum bc_live_mode bc_live_mode(void)
{
	return s_mode;
}

void bc_live_set_format(enum bc_live_format fmt)
{
	s_format = fmt;
}

enum bc_live_format bc_live_format(void)
{
	return s_format;
}

/* vdbench's form of the step header and of a second (lines and terminal alike) */
static void s_vdb_header(const struct bc_step_result *res)
{
	const struct bc_workload *wl = &res->step->wl;
	char date[32], what[32];

	printf("\nstep %s: %s bs=%u iodepth=%u numjobs=%u warmup=%us elapsed=%us\n",
	       res->step->name, s_what(wl, what, sizeof(what)), wl->bs, wl->iodepth, wl->numjobs,
	       wl->ramp_s, wl->ramp_s + wl->runtime_s);
	bc_vdb_date(res->start_ns ? res->start_ns : bc_real_ns(), date, sizeof(date));
	bc_vdb_print_header(stdout, date);
}

static void s_vdb_second(const struct bc_step_result *res, uint32_t k)
{
	const struct bc_agg *g = &res->agg;
	struct bc_vdb_row row;
	double cpu, sys;
	char ts[32], label[16];

	/* a host sample follows its second's STATS: the newest one so far stands in */
	bc_vdb_cpu(res->hosts, k, true, &cpu, &sys);
	bc_vdb_row_from_sec(bc_entity_row(&g->ent[BC_LVL_TOTAL][0], k), cpu, sys, &row);
	bc_vdb_time(res->start_ns + (uint64_t)(k + 1) * BC_NS_PER_S, ts, sizeof(ts));
	snprintf(label, sizeof(label), "%u", k + 1);
	bc_vdb_print_row(stdout, ts, label, &row);
}

FILE *bc_live_out(void)
{
	return s_mode == BC_LIVE_JSON ? stderr : stdout;
}

int bc_live_cols(void)
{
	int cols, rows;

	if (s_mode != BC_LIVE_TTY)
		return 0; /* --plain, a pipe, --json: lines a program reads, in full */
	s_term_size(&cols, &rows);
	return cols;
}

void bc_live_fold(FILE *f, int cols, int indent, const char *text)
{
	const char *p = text;
	int at = 0; /* this line's indent: none on the first */

	if (cols <= 0) {
		fprintf(f, "%s\n", text);
		return;
	}
	while (*p) {
		int room = cols - 1 - at, n = (int)strlen(p), cut = n, lead = (int)strspn(p, " ");

		if (n > room) {
			for (cut = room; cut > lead && p[cut] != ' '; cut--)
				;
			/* one word longer than the line (a path): whole, never cut */
			if (cut <= lead)
				cut = lead + (int)strcspn(p + lead, " ");
		}
		fprintf(f, "%*s%.*s\n", at, "", cut, p);
		p += cut;
		while (*p == ' ')
			p++;
		at = indent;
	}
}

/* a second's totals of one entity */
struct s_fig {
	uint64_t ios, bytes, rd;
	double mean_ms, p99_ms, max_ms;
};

static struct s_fig s_fig(const struct bc_secrow *r)
{
	struct s_fig x = {0};
	int op;

	for (op = 0; op < BC_OP_NR; op++) {
		x.ios += r->ios[op];
		x.bytes += r->bytes[op];
	}
	x.rd = r->ios[BC_OP_READ];
	x.mean_ms = x.ios ? (double)r->lat_sum_ns / (double)x.ios / 1e6 : 0;
	x.p99_ms = (double)r->p99_ns / 1e6;
	x.max_ms = (double)r->max_ns / 1e6;
	return x;
}

static void s_erase_panel(void)
{
	if (s_mode == BC_LIVE_TTY && s_panel_lines) {
		printf("\033[%dA\033[J", s_panel_lines);
		s_panel_lines = 0;
	}
}

/* the step's header on a terminal: as the lines', fitted to its width */
static void s_tty_header(const struct bc_step_result *res)
{
	const struct bc_workload *wl = &res->step->wl;
	char what[32];
	int cols, rows;

	s_term_size(&cols, &rows);
	printf("\n");
	s_tty_line(cols, "step %s: %s bs=%u iodepth=%u numjobs=%u ramp=%us runtime=%s%us%s",
		   res->step->name, s_what(wl, what, sizeof(what)), wl->bs, wl->iodepth,
		   wl->numjobs, wl->ramp_s, wl->until_stopped ? "until Ctrl-C (at most " : "",
		   wl->runtime_s, wl->until_stopped ? ")" : "");
	if (cols >= S_LINE_COLS)
		s_tty_line(cols, "%-8s %4s %-5s %7s %11s %9s %6s %9s %9s %9s", "time", "sec",
			   "phase", "agents", "IOPS", "MB/s", "read%", "mean_ms", "p99_ms",
			   "max_ms");
	else
		s_tty_line(cols, "%4s %-5s %7s %11s %9s %6s %9s %9s %9s", "sec", "phase", "agents",
			   "IOPS", "MB/s", "read%", "mean_ms", "p99_ms", "max_ms");
	fflush(stdout);
}

void bc_live_header(const struct bc_step_result *res)
{
	const struct bc_workload *wl = &res->step->wl;
	char what[32];

	if (s_mode == BC_LIVE_JSON || s_mode == BC_LIVE_QUIET)
		return;
	s_erase_panel();
	if (s_format == BC_LIVE_FMT_VDBENCH) {
		s_vdb_header(res);
		fflush(stdout);
		return;
	}
	if (s_mode == BC_LIVE_TTY) {
		s_tty_header(res);
		return;
	}
	printf("\nstep %s: %s bs=%u iodepth=%u numjobs=%u ramp=%us runtime=%s%us%s\n",
	       res->step->name, s_what(wl, what, sizeof(what)), wl->bs, wl->iodepth, wl->numjobs,
	       wl->ramp_s, wl->until_stopped ? "until Ctrl-C (at most " : "", wl->runtime_s,
	       wl->until_stopped ? ")" : "");
	printf("%-8s %4s %-5s %7s %11s %9s %6s %9s %9s %9s\n", "time", "sec", "phase", "agents",
	       "IOPS", "MB/s", "read%", "mean_ms", "p99_ms", "max_ms");
	fflush(stdout);
}

static void s_line(const struct bc_step_result *res, uint32_t k, int nagents)
{
	const struct bc_agg *g = &res->agg;
	struct s_fig x = s_fig(bc_entity_row(&g->ent[BC_LVL_TOTAL][0], k));
	time_t t = (time_t)((res->start_ns + (uint64_t)(k + 1) * BC_NS_PER_S) / BC_NS_PER_S);
	char ts[16], ag[16];
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(ts, sizeof(ts), "%H:%M:%S", &tm);
	snprintf(ag, sizeof(ag), "%u/%d", g->agents_reported[k], nagents);
	printf("%-8s %4u %-5s %7s %11" PRIu64 " %9.1f %6.1f %9.3f %9.3f %9.3f%s%s\n", ts, k,
	       k < g->ramp_s ? "ramp" : "run", ag, x.ios, (double)x.bytes / 1e6,
	       x.ios ? 100.0 * (double)x.rd / (double)x.ios : 0.0, x.mean_ms, x.p99_ms, x.max_ms,
	       bc_entity_row(&g->ent[BC_LVL_TOTAL][0], k)->errors ? "  ERRORS" : "",
	       g->late[k] ? "  late" : "");
}

static void s_json(const struct bc_step_result *res, uint32_t k, int nagents)
{
	static const char *const lvl[] = {"volumes", "agents", "nodes"};
	const struct bc_agg *g = &res->agg;
	struct s_fig x = s_fig(bc_entity_row(&g->ent[BC_LVL_TOTAL][0], k));
	cJSON *o = cJSON_CreateObject();
	char *text;
	int l, i;

	cJSON_AddStringToObject(o, "step", res->step->name);
	cJSON_AddNumberToObject(o, "second", k);
	cJSON_AddStringToObject(o, "phase", k < g->ramp_s ? "ramp" : "run");
	/* an integer, exact: a double keeps only 53 bits of the nanoseconds since 1970 */
	bc_json_add_u64(o, "time_ns", res->start_ns + (uint64_t)(k + 1) * BC_NS_PER_S);
	cJSON_AddNumberToObject(o, "agents_reported", g->agents_reported[k]);
	cJSON_AddNumberToObject(o, "agents_expected", nagents);
	cJSON_AddNumberToObject(o, "iops", (double)x.ios);
	cJSON_AddNumberToObject(o, "mbps", (double)x.bytes / 1e6);
	cJSON_AddNumberToObject(o, "read_iops", (double)x.rd);
	cJSON_AddNumberToObject(o, "lat_mean_ms", x.mean_ms);
	cJSON_AddNumberToObject(o, "lat_p99_ms", x.p99_ms);
	cJSON_AddNumberToObject(o, "lat_max_ms", x.max_ms);
	for (l = BC_LVL_AGENT; l <= BC_LVL_NODE; l++) {
		cJSON *m = cJSON_AddObjectToObject(o, lvl[l]);

		for (i = 0; i < g->nent[l]; i++) {
			struct s_fig e = s_fig(bc_entity_row(&g->ent[l][i], k));
			cJSON *r = cJSON_AddObjectToObject(m, g->ent[l][i].name);

			cJSON_AddNumberToObject(r, "iops", (double)e.ios);
			cJSON_AddNumberToObject(r, "mbps", (double)e.bytes / 1e6);
			cJSON_AddNumberToObject(r, "lat_p99_ms", e.p99_ms);
		}
	}
	text = bc_json_print(o, false);
	if (text)
		printf("%s\n", text);
	free(text);
	cJSON_Delete(o);
}

/* a level's rows, at most max of them (the last saying how many more there are) */
static void s_panel_level(const struct bc_agg *g, int l, uint32_t k, const char *what, int cols,
			  int max)
{
	int i, n = g->nent[l] <= max ? g->nent[l] : max - 1;

	for (i = 0; i < n; i++) {
		struct s_fig e = s_fig(bc_entity_row(&g->ent[l][i], k));

		s_tty_line(cols, "  %-6s %-24.24s %11" PRIu64 " %9.1f %9.3f", what,
			   g->ent[l][i].name, e.ios, (double)e.bytes / 1e6, e.p99_ms);
		s_panel_lines++;
	}
	if (n < g->nent[l]) {
		s_tty_line(cols, "  %-6s ... and %d more", what, g->nent[l] - n);
		s_panel_lines++;
	}
}

/*
 * The panel fits the terminal: every line shorter than its width, and the
 * whole panel at most rows - 2 lines, since the cursor cannot go up past
 * the top of the screen to erase what scrolled there.
 */
/* a duration as people read it on a days-long run: M:SS, then 5h07m, then 2d03h */
static const char *s_dur(char *buf, size_t n, uint32_t s)
{
	if (s < 3600)
		snprintf(buf, n, "%u:%02u", s / 60, s % 60);
	else if (s < 86400)
		snprintf(buf, n, "%uh%02um", s / 3600, s / 60 % 60);
	else
		snprintf(buf, n, "%ud%02uh", s / 86400, s / 3600 % 24);
	return buf;
}

/*
 * A long step's health on one line (results/fullsize.h: over an hour): who
 * reported this second, its errors, records that came late so far, agents
 * lost, and how long it has run
 */
static void s_health(const struct bc_step_result *res, uint32_t k, int cols)
{
	static uint64_t late;
	const struct bc_agg *g = &res->agg;
	const struct bc_secrow *t = bc_entity_row(&g->ent[BC_LVL_TOTAL][0], k);
	char el[16];

	if (!k)
		late = 0;
	late += g->late[k];
	s_tty_line(cols,
		   "  elapsed %s  agents %u/%d  errors %" PRIu64 "  late records %" PRIu64
		   "  lost agents %d",
		   s_dur(el, sizeof(el), k + 1), g->agents_reported[k], g->nent[BC_LVL_AGENT],
		   t->errors + t->short_ios, late, cJSON_GetArraySize(res->lost));
	s_panel_lines++;
}

static void s_panel(const struct bc_step_result *res, uint32_t k, const struct bc_live_progress *p)
{
	const struct bc_agg *g = &res->agg;
	uint32_t left = g->seconds - k - 1;
	int cols, rows, width, done, room, na, nn, want_a, want_n, nlen;
	char bar[64], text[256], sl[16], rl[16];

	s_term_size(&cols, &rows);
	s_dur(sl, sizeof(sl), left);
	s_dur(rl, sizeof(rl), left + p->after_s);
	/* the step's name gives way first, then the bar (10 to 30 columns), then the ETAs */
	snprintf(text, sizeof(text), " step %d/%d %s  second %u/%u  step ETA %s  run ETA %s",
		 p->step + 1, p->nsteps, "", k + 1, g->seconds, sl, rl);
	nlen = cols - 1 - 4 - 10 - (int)strlen(text);
	nlen = nlen < 8 ? 8 : nlen;
	snprintf(text, sizeof(text), " step %d/%d %.*s  second %u/%u  step ETA %s  run ETA %s",
		 p->step + 1, p->nsteps, nlen, res->step->name, k + 1, g->seconds, sl, rl);
	width = cols - 1 - 4 - (int)strlen(text);
	width = width > 30 ? 30 : width < 10 ? 10 : width;
	done = (int)((k + 1) * (uint64_t)width / (g->seconds ? g->seconds : 1));
	memset(bar, '#', (size_t)done);
	memset(bar + done, '.', (size_t)(width - done));
	bar[width] = 0;
	s_tty_line(cols, "  [%s]%s", bar, text);
	s_panel_lines = 1;
	if (bc_long_step(g->seconds))
		s_health(res, k, cols);
	s_tty_line(cols, "  %-6s %-24s %11s %9s %9s", "", "this second", "IOPS", "MB/s", "p99_ms");
	s_panel_lines++;
	room = rows - 2 - s_panel_lines;
	want_a = g->nent[BC_LVL_AGENT] < S_PANEL_ROWS ? g->nent[BC_LVL_AGENT] : S_PANEL_ROWS;
	want_n = g->nent[BC_LVL_NODE] < S_PANEL_ROWS ? g->nent[BC_LVL_NODE] : S_PANEL_ROWS;
	/* short of room, the nodes keep at least half: they are where ceilings are */
	nn = want_n < room / 2 ? want_n : room / 2;
	na = want_a < room - nn ? want_a : room - nn;
	nn = want_n < room - na ? want_n : room - na;
	if (na > 0)
		s_panel_level(g, BC_LVL_AGENT, k, "client", cols, na);
	if (nn > 0)
		s_panel_level(g, BC_LVL_NODE, k, "node", cols, nn);
}

/* the per-second line on a terminal: without its clock when that would wrap */
static void s_tty_second(const struct bc_step_result *res, uint32_t k, int nagents)
{
	const struct bc_agg *g = &res->agg;
	struct s_fig x;
	int cols, rows;
	char ag[16];

	s_term_size(&cols, &rows);
	if (cols >= S_LINE_COLS) {
		s_line(res, k, nagents);
		return;
	}
	x = s_fig(bc_entity_row(&g->ent[BC_LVL_TOTAL][0], k));
	snprintf(ag, sizeof(ag), "%u/%d", g->agents_reported[k], nagents);
	s_tty_line(cols, "%4u %-5s %7s %11" PRIu64 " %9.1f %6.1f %9.3f %9.3f %9.3f%s%s", k,
		   k < g->ramp_s ? "ramp" : "run", ag, x.ios, (double)x.bytes / 1e6,
		   x.ios ? 100.0 * (double)x.rd / (double)x.ios : 0.0, x.mean_ms, x.p99_ms,
		   x.max_ms, bc_entity_row(&g->ent[BC_LVL_TOTAL][0], k)->errors ? " ERR" : "",
		   g->late[k] ? " late" : "");
}

void bc_live_second(const struct bc_step_result *res, uint32_t k, int nagents,
		    const struct bc_live_progress *p)
{
	switch (s_mode) {
	case BC_LIVE_JSON:
		s_json(res, k, nagents);
		break;
	case BC_LIVE_TTY:
		s_erase_panel();
		if (s_format == BC_LIVE_FMT_VDBENCH)
			s_vdb_second(res, k);
		else
			s_tty_second(res, k, nagents);
		if (p)
			s_panel(res, k, p);
		break;
	case BC_LIVE_LINES:
		if (s_format == BC_LIVE_FMT_VDBENCH)
			s_vdb_second(res, k);
		else
			s_line(res, k, nagents);
		break;
	default:
		break;
	}
	fflush(stdout);
}

void bc_live_note(const char *text)
{
	if (s_mode == BC_LIVE_JSON || s_mode == BC_LIVE_QUIET)
		return;
	s_erase_panel();
	bc_live_fold(stdout, bc_live_cols(), 4, text);
	fflush(stdout);
}

void bc_live_step_end(void)
{
	/* the summary table follows: the panel's figures would be stale above it */
	s_erase_panel();
	fflush(stdout);
}
