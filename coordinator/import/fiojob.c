/*
 * import/fiojob.c - fio job files to bench-coord profiles (see import/fiojob.h).
 *
 * fio runs the jobs of a group (jobs between stonewalls) concurrently, each
 * on its own files. A group becomes one step: the first job's workload is
 * the step's, every other job's differences become per-volume workloads of
 * that step ("volume_workloads"), each filename one volume. An option is
 * either mapped (to its profile key, with the unit conversions fio's
 * semantics need: per job vs per volume, clones, files), inert (reporting,
 * logging, names: nothing bench-coord measures changes) or a difference:
 * anything else, refused unless the import is lenient. Option semantics
 * follow the fio 3.33 HOWTO.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "import/fiojob.h"
#include "import/import.h"
#include "profile/profile.h"
#include "profile/value/units.h"
#include "profile/workload/keys.h"

#define S_MAX_JOBS     1024
#define S_MAX_FILES    64
#define S_MAX_INCLUDES 16
/* no runtime and not time_based: fio runs until size is done; the step's upper bound */
#define S_UNBOUNDED_S 86400

/* ---- parsing ---- */

/* fio's built-in keywords, from this host (fio takes them from the host it runs on) */
static bool s_keyword(const char *p, size_t *len, char *val, size_t vlen)
{
	static const char *const kw[] = {"$ncpus", "$mb_memory", "$pagesize"};
	size_t i;

	/* fio replaces the word wherever it occurs (strstr), whatever follows it */
	for (i = 0; i < sizeof(kw) / sizeof(kw[0]); i++) {
		size_t n = strlen(kw[i]);

		if (strncmp(p, kw[i], n))
			continue;
		*len = n;
		if (i == 0) /* fio's cpus_configured(): the configured CPUs */
			snprintf(val, vlen, "%ld", sysconf(_SC_NPROCESSORS_CONF));
		else if (i == 1)
			snprintf(val, vlen, "%lld",
				 (long long)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE) >> 20);
		else
			snprintf(val, vlen, "%ld", sysconf(_SC_PAGESIZE));
		return true;
	}
	return false;
}

/*
 * bc(1)'s integer arithmetic (scale 0), which fio pipes a value through
 * after it replaced a keyword in it: + - * / % ^, unary minus, parentheses.
 * One recursive-descent parser over p; false on anything else.
 */
struct s_calc {
	const char *p;
	bool ok;
};

static long long s_calc_expr(struct s_calc *c);

static void s_calc_blank(struct s_calc *c)
{
	while (*c->p == ' ' || *c->p == '\t')
		c->p++;
}

static long long s_calc_atom(struct s_calc *c)
{
	long long v = 0;

	s_calc_blank(c);
	if (*c->p == '(') {
		c->p++;
		v = s_calc_expr(c);
		s_calc_blank(c);
		if (*c->p++ != ')')
			c->ok = false;
		return v;
	}
	if (*c->p == '-') {
		c->p++;
		return -s_calc_atom(c);
	}
	if (!isdigit((unsigned char)*c->p)) {
		c->ok = false;
		return 0;
	}
	while (isdigit((unsigned char)*c->p))
		v = v * 10 + (*c->p++ - '0');
	return v;
}

static long long s_calc_power(struct s_calc *c)
{
	long long b = s_calc_atom(c), e, r = 1;

	s_calc_blank(c);
	if (*c->p != '^')
		return b;
	c->p++;
	e = s_calc_power(c); /* right associative, as in bc */
	if (e > 63) {
		c->ok = false;
		return 0;
	}
	while (e-- > 0)
		r *= b;
	return r;
}

static long long s_calc_term(struct s_calc *c)
{
	long long v = s_calc_power(c), r;
	char op;

	for (;;) {
		s_calc_blank(c);
		op = *c->p;
		if (op != '*' && op != '/' && op != '%')
			return v;
		c->p++;
		r = s_calc_power(c);
		if (op != '*' && !r) {
			c->ok = false;
			return 0;
		}
		v = op == '*' ? v * r : op == '/' ? v / r : v % r;
	}
}

static long long s_calc_expr(struct s_calc *c)
{
	long long v = s_calc_term(c);

	for (;;) {
		s_calc_blank(c);
		if (*c->p != '+' && *c->p != '-')
			return v;
		v = *c->p++ == '+' ? v + s_calc_term(c) : v - s_calc_term(c);
	}
}

/* a value with a keyword replaced in it: its arithmetic done, as fio's bc_calc does */
static void s_calc_value(char *v, size_t cap)
{
	struct s_calc c = {v, true};
	long long r;

	if (!strpbrk(v, "+-*/") || strchr(v, '\''))
		return;
	r = s_calc_expr(&c);
	s_calc_blank(&c);
	if (c.ok && !*c.p)
		snprintf(v, cap, "%lld", r);
}

/*
 * ${VAR} from the environment (empty when unset, as fio does) and the $
 * keywords; a value with a keyword in it gets its arithmetic done
 */
static char *s_expand(const char *in)
{
	size_t cap = strlen(in) + 1, used = 0;
	char *out = malloc(cap), *grown;
	const char *p = in;
	bool keyword = false;

	while (out && *p) {
		const char *add = p, *end = NULL, *val;
		char name[128], kv[32];
		size_t n = 1, klen;

		if (p[0] == '$' && p[1] == '{' && (end = strchr(p, '}')) &&
		    (size_t)(end - p - 2) < sizeof(name)) {
			memcpy(name, p + 2, (size_t)(end - p - 2));
			name[end - p - 2] = '\0';
			val = getenv(name);
			add = val ? val : "";
			n = strlen(add);
			p = end + 1;
		} else if (*p == '$' && s_keyword(p, &klen, kv, sizeof(kv))) {
			add = kv;
			n = strlen(kv);
			p += klen;
			keyword = true;
		} else {
			p++;
		}
		if (used + n + 32 > cap) {
			cap = (used + n + 32) * 2;
			grown = realloc(out, cap);
			if (!grown) {
				free(out);
				return NULL;
			}
			out = grown;
		}
		memcpy(out + used, add, n);
		used += n;
	}
	if (out) {
		out[used] = '\0';
		if (keyword)
			s_calc_value(out, cap);
	}
	return out;
}

static int s_add_opt(struct bc_import_sec *sec, const char *key, const char *val, const char *src,
		     int line)
{
	char *v = val ? s_expand(val) : NULL;

	if (val && !v)
		return -ENOMEM;
	return bc_import_add_kv(sec, key, v, src, line);
}

static int s_parse_text(struct bc_import_doc *jf, const char *text, const char *src, int depth,
			char *err, size_t errlen);

/* "include FILE": relative to the including file's directory, read in place */
static int s_include(struct bc_import_doc *jf, const char *name, const char *src, int line,
		     int depth, char *err, size_t errlen)
{
	char path[BC_PATH_MAX * 2], what[BC_PATH_MAX * 2 + 64];
	const char *isrc;
	char *text;
	int rc;

	if (!*name)
		return bc_import_fail(err, errlen, src, line, "include without a file name");
	if (depth >= S_MAX_INCLUDES)
		return bc_import_fail(err, errlen, src, line, "includes nested too deep");
	text = bc_import_include(src, name, path, sizeof(path));
	if (!text) {
		snprintf(what, sizeof(what), "include %s: %s", path, strerror(errno));
		return bc_import_fail(err, errlen, src, line, what);
	}
	isrc = bc_import_add_src(jf, path);
	rc = isrc ? s_parse_text(jf, text, isrc, depth + 1, err, errlen) : -ENOMEM;
	free(text);
	return rc;
}

static int s_parse_text(struct bc_import_doc *jf, const char *text, const char *src, int depth,
			char *err, size_t errlen)
{
	char *copy = strdup(text), *save, *raw, *l, *eq, *cut;
	int line = 0, rc = 0;

	if (!copy)
		return -ENOMEM;
	/* strsep keeps empty lines, so line numbers stay right */
	for (save = copy; (raw = strsep(&save, "\n"));) {
		line++;
		l = bc_import_trim(raw);
		if (!*l || *l == ';' || *l == '#')
			continue;
		/* fio ends a line at its first ';' and at its first '#', values included */
		if ((cut = strchr(l, ';')))
			*cut = '\0';
		if ((cut = strchr(l, '#')))
			*cut = '\0';
		l = bc_import_trim(l);
		if (*l == '[') {
			struct bc_import_sec *s;
			char *close = strchr(l, ']');

			if (!close || close[1]) {
				rc = bc_import_fail(err, errlen, src, line,
						    "expected a section header \"[name]\"");
				break;
			}
			*close = '\0';
			l = bc_import_trim(l + 1);
			if (!*l) {
				rc = bc_import_fail(err, errlen, src, line, "empty section name");
				break;
			}
			s = bc_import_add_sec(jf, src, line);
			if (!s) {
				rc = -ENOMEM;
				break;
			}
			s->name = strdup(l);
			if (!strcmp(l, "global"))
				snprintf(s->kind, sizeof(s->kind), "global");
			if (!s->name) {
				rc = -ENOMEM;
				break;
			}
			continue;
		}
		/* "include file.fio" is fio's one keyword with a space */
		if (!strncasecmp(l, "include", 7) && isspace((unsigned char)l[7])) {
			rc = s_include(jf, bc_import_trim(l + 8), src, line, depth, err, errlen);
			if (rc)
				break;
			continue;
		}
		if (!jf->nsecs) {
			rc = bc_import_fail(err, errlen, src, line, "option before any [section]");
			break;
		}
		eq = strchr(l, '=');
		if (eq)
			*eq = '\0';
		rc = s_add_opt(&jf->secs[jf->nsecs - 1], bc_import_trim(l),
			       eq ? bc_import_trim(eq + 1) : NULL, src, line);
		if (rc)
			break;
	}
	free(copy);
	return rc;
}

int bc_fio_parse_file(struct bc_import_doc *jf, const char *name, const char *src, int line,
		      char *err, size_t errlen)
{
	int rc = s_include(jf, name, src, line, 0, err, errlen);

	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", src);
	return rc;
}

int bc_fio_parse(const char *text, const char *src, struct bc_import_doc **out, char *err,
		 size_t errlen)
{
	struct bc_import_doc *jf = calloc(1, sizeof(*jf));
	const char *top = jf ? bc_import_add_src(jf, src) : NULL;
	int rc = top ? s_parse_text(jf, text ? text : "", top, 0, err, errlen) : -ENOMEM;

	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", src);
	if (rc)
		bc_import_doc_free(&jf);
	*out = jf;
	return rc;
}

/* ---- mapping ---- */

/* the effective options of one job: the [global]s before it, then its own */
struct s_view {
	const struct bc_import_kv *opt[512];
	int n;
};

/* key i of the profile's workload table is per volume (the rest shape the whole step) */
static bool s_vol_key(int i)
{
	return (bc_wl_keys[i].where & BC_WK_VOLUME) && bc_wl_keys[i].type != BC_WT_STREAMS;
}

struct s_job {
	char name[BC_NAME_MAX];
	/* a file engine's job: its files as a file set (s_meta_job), 0 otherwise */
	unsigned meta_files;
	uint64_t meta_size;
	const struct bc_import_sec *sec;
	int group;
	unsigned numjobs;
	cJSON *wl;		  /* profile workload keys of this job, per volume */
	char *files[S_MAX_FILES]; /* owned */
	int nfiles;
	uint64_t size_per_file, offset; /* 0: none */
	bool verify_pass;		/* fio reads back and checks what it wrote */
	/* FDP placement (fdp=1, dataplacement=fdp): plids, and random over them or round robin */
	bool fdp, fdp_random;
	int nplids;
	uint16_t plids[BC_FDP_PIDS_MAX];
	const struct bc_import_kv *fdp_o; /* where fdp was asked for */
};

struct s_ctx {
	const struct bc_import_opts *im;
	cJSON *notes, *diffs;
	unsigned kb_base; /* the job's kb_base: 1024 (fio's default) or 1000 */
	cJSON *inert;	  /* the inert options met, listed once in the notes */
};

/* the same load, a remark for the record */
static void s_note(struct s_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void s_note(struct s_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bc_import_vadd(c->notes, fmt, ap);
	va_end(ap);
}

/* a load fio would not run: "file:line: what" */
static void s_diff(struct s_ctx *c, const char *src, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void s_diff(struct s_ctx *c, const char *src, int line, const char *fmt, ...)
{
	char f2[1024];
	va_list ap;

	snprintf(f2, sizeof(f2), "%s:%d: %s", src, line, fmt);
	va_start(ap, fmt);
	bc_import_vadd(c->diffs, f2, ap);
	va_end(ap);
}

/* a difference tied to one option */
#define S_ODIFF(c, o, ...) s_diff((c), (o)->src, (o)->line, __VA_ARGS__)

/* the block and file read/write engines (their I/O is what bench-coord's file target does) */
static const char *const s_async_engines[] = {"io_uring",   "libaio",	  "posixaio",
					      "windowsaio", "solarisaio", NULL};
static const char *const s_sync_engines[] = {"sync", "psync", "vsync", "pvsync", "pvsync2", NULL};

static bool s_listed(const char *const *list, const char *k)
{
	for (; *list; list++)
		if (!strcmp(*list, k))
			return true;
	return false;
}

struct s_fopt;
static const struct s_fopt *s_fopt_find(const char *key);

/*
 * The job's last setting of an option, by any of its names: the option
 * table's row names the option (nr_files is nrfiles, fileoffset is offset),
 * as fio's own lookup does
 */
static const struct bc_import_kv *s_opt(const struct s_view *v, const char *key, const char *alias)
{
	const struct s_fopt *row = s_fopt_find(key);
	int i;

	for (i = v->n; i-- > 0;)
		if (!strcmp(v->opt[i]->key, key) || (alias && !strcmp(v->opt[i]->key, alias)) ||
		    (row && s_fopt_find(v->opt[i]->key) == row))
			return v->opt[i];
	return NULL;
}

static const char *s_val(const struct bc_import_kv *o)
{
	return o ? (o->val ? o->val : "1") : NULL;
}

static const char *s_get(const struct s_view *v, const char *key)
{
	return s_val(s_opt(v, key, NULL));
}

static bool s_bool(const char *v)
{
	return v && (!strcmp(v, "1") || !strcasecmp(v, "true") || !strcasecmp(v, "yes") ||
		     !strcasecmp(v, "on"));
}

static bool s_uint(const char *v, unsigned long max, unsigned *out)
{
	char *end;
	unsigned long n;

	if (!v || !isdigit((unsigned char)*v))
		return false;
	n = strtoul(v, &end, 10);
	if (*end || n > max)
		return false;
	*out = (unsigned)n;
	return true;
}

/* fio time: a number with us, ms, s, m, h or d; unit is the default unit in seconds */
static bool s_time(const char *v, double unit, double *out)
{
	static const struct {
		const char *sfx;
		double mult;
	} u[] = {{"s", 1},	 {"sec", 1}, {"us", 1e-6}, {"usec", 1e-6}, {"ms", 1e-3},
		 {"msec", 1e-3}, {"m", 60},  {"min", 60},  {"h", 3600},	   {"d", 86400}};
	char *end;
	double d;
	size_t i;

	if (!v || !isdigit((unsigned char)*v))
		return false;
	d = strtod(v, &end);
	if (!*end) {
		*out = d * unit;
		return true;
	}
	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		if (!strcasecmp(end, u[i].sfx)) {
			*out = d * u[i].mult;
			return true;
		}
	}
	return false;
}

/* whole seconds for the profile; false (with a difference) when not whole */
static bool s_secs(struct s_ctx *c, const struct bc_import_kv *o, unsigned *out)
{
	double d;

	if (!s_time(s_val(o), 1, &d) || d > 4e9) {
		S_ODIFF(c, o, "%s=%s: not a time fio accepts here", o->key, s_val(o));
		return false;
	}
	*out = (unsigned)ceil(d);
	if (*out != d)
		S_ODIFF(c, o, "%s=%s: bench-coord steps run whole seconds (%u s)", o->key, s_val(o),
			*out);
	return true;
}

/*
 * A fio size as fio's parse.c reads it: a number, then a unit whose first
 * letters decide (k, m, g, t, p, whatever follows them; "kib" ... "pib"). With
 * kb_base=1024, fio's default, the SI-looking units are powers of 1024 and
 * the IEC ones powers of 1000 ("4KiB" is 4000 bytes); kb_base=1000 swaps
 * them back. 0 or -EINVAL; a "%" is -EDOM.
 */
static int s_fio_bytes(const char *v, unsigned kb_base, uint64_t *out)
{
	static const char pfx[] = "kmgtp";
	char unit[8] = "";
	double num, mult = 1, base = kb_base == 1000 ? 1000 : 1024;
	const char *p;
	char *end;
	size_t n = 0;
	int pow = 0;

	while (isspace((unsigned char)*v))
		v++;
	if (!isdigit((unsigned char)*v))
		return -EINVAL;
	num = strtod(v, &end);
	if (end == v || num < 0)
		return -EINVAL;
	for (p = end; *p && n < sizeof(unit) - 1; p++)
		unit[n++] = (char)tolower((unsigned char)*p);
	if (*p)
		return -EINVAL;
	if (!strcmp(unit, "%"))
		return -EDOM;
	if (unit[0] && strchr(pfx, unit[0])) {
		pow = (int)(strchr(pfx, unit[0]) - pfx) + 1;
		/* fio compares prefixes: "kib..." is IEC, any other "k..." ("Ki",
		 * "KB", "Kbytes") reads by its first letter */
		if (!strncmp(unit + 1, "ib", 2)) /* IEC: the other base */
			base = kb_base == 1000 ? 1024 : 1000;
	} else if (unit[0] && strcmp(unit, "b")) {
		return -EINVAL;
	}
	while (pow--)
		mult *= base;
	if (num * mult > 1.8e19)
		return -EINVAL;
	*out = (uint64_t)(num * mult + 0.5);
	return 0;
}

/*
 * "N%": fio's size and offset as a share of the file's real size. fio reads
 * the integer before the '%' (a fraction is its error, or a different
 * number): true with N for "N%", false for anything else; "N.5%" is -1u,
 * which every caller refuses.
 */
static bool s_pct(const char *v, unsigned *pct)
{
	char *end;
	unsigned long n;

	if (!v || !isdigit((unsigned char)*v) || v[strlen(v) - 1] != '%')
		return false;
	n = strtoul(v, &end, 10);
	*pct = *end == '%' && !end[1] && n <= 100 ? (unsigned)n : -1u;
	return true;
}

/* a workload's window_offset/_length as that percent of the volume's window */
static void s_pct_key(cJSON *wl, const char *key, unsigned pct)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u%%", pct);
	cJSON_AddStringToObject(wl, key, buf);
}

/* fio sizes; a "%" of the device is not known at import time */
static bool s_size(struct s_ctx *c, const struct bc_import_kv *o, uint64_t *out)
{
	const char *v = s_val(o);
	int rc = s_fio_bytes(v, c->kb_base, out);

	if (rc == -EDOM) {
		S_ODIFF(c, o, "%s=%s: a share of the device is not known when importing", o->key,
			v);
		return false;
	}
	if (rc) {
		S_ODIFF(c, o, "%s=%s: not a size bench-coord can express", o->key, v);
		return false;
	}
	return true;
}

/*
 * fio's "read,write[,trim]" form of bs, bssplit, rate, rate_iops and
 * random_distribution: the value the job's ops use, or NULL (a difference)
 * when its reads and writes would use different ones.
 */
static const char *s_dir_value(struct s_ctx *c, const struct bc_import_kv *o, const char *rw,
			       char *buf, size_t len)
{
	const char *v = s_val(o), *comma = strchr(v, ',');
	char part[3][128] = {"", "", ""};
	bool reads = strstr(rw, "read") || strstr(rw, "rw"),
	     writes = strstr(rw, "write") || strstr(rw, "rw"), trims = strstr(rw, "trim");
	const char *use = NULL;
	int n = 0, i;

	if (!comma) {
		snprintf(buf, len, "%s", v);
		return buf;
	}
	for (const char *p = v; n < 3; n++) {
		size_t k = strcspn(p, ",");

		snprintf(part[n], sizeof(part[n]), "%.*s", (int)k, p);
		if (!p[k])
			break;
		p += k + 1;
	}
	/* an empty write value is the read value (fio: "bs=4k," is 4k for both) */
	if (!part[1][0])
		snprintf(part[1], sizeof(part[1]), "%s", part[0]);
	if (!part[2][0])
		snprintf(part[2], sizeof(part[2]), "%s", part[1]);
	for (i = 0; i < 3; i++) {
		bool used = i == 0 ? reads : i == 1 ? writes : trims;

		if (!used)
			continue;
		if (use && strcmp(use, part[i])) {
			S_ODIFF(c, o,
				"%s=%s: reads and writes use different values; a profile has one",
				o->key, v);
			return NULL;
		}
		use = part[i];
	}
	snprintf(buf, len, "%s", use ? use : part[0]);
	return buf;
}

static bool s_random(const char *rw)
{
	return !strncmp(rw, "rand", 4);
}

/* a size of the job without its "read,write" forms: bytes, or false with a difference */
static bool s_one_size(struct s_ctx *c, const struct bc_import_kv *o, const char *v, uint64_t *n)
{
	if (!s_fio_bytes(v, c->kb_base, n) && *n && !(*n % 512) && *n <= (1u << 30))
		return true;
	S_ODIFF(c, o, "%s=%s: not a multiple of 512 bytes up to 1g", o->key, s_val(o));
	return false;
}

/* blocksize_range / bsrange / bs=LO-HI: fio draws each size from the range ("bs": "LO-HI") */
static void s_bs_range(struct s_ctx *c, const struct bc_import_kv *o, const char *rw, cJSON *wl,
		       uint64_t *bs)
{
	char buf[128], lo[64], out[80], a[32], b[32];
	const char *dash;
	uint64_t x, y;

	if (!s_dir_value(c, o, rw, buf, sizeof(buf)))
		return;
	dash = strchr(buf, '-');
	if (!dash || (size_t)(dash - buf) >= sizeof(lo) || strchr(dash + 1, '-') ||
	    strchr(buf, ':')) {
		S_ODIFF(c, o, "%s=%s: one range LO-HI of sizes", o->key, s_val(o));
		return;
	}
	snprintf(lo, sizeof(lo), "%.*s", (int)(dash - buf), buf);
	if (!s_one_size(c, o, lo, &x) || !s_one_size(c, o, dash + 1, &y))
		return;
	if (x == y) {
		cJSON_AddStringToObject(wl, "bs", bc_fmt_size(x, a, sizeof(a)));
	} else {
		/* fio takes the range either way round */
		snprintf(out, sizeof(out), "%s-%s", bc_fmt_size(x < y ? x : y, a, sizeof(a)),
			 bc_fmt_size(x < y ? y : x, b, sizeof(b)));
		cJSON_AddStringToObject(wl, "bs", out);
	}
	*bs = x > y ? x : y;
}

/*
 * rw=KIND:N - fio's offset modifier: a sequential job skips N bytes after
 * each I/O ("seq_gap"), a random one takes a new random offset every N I/Os
 * and goes on sequentially between ("seq_run", with rw_sequencer=sequential,
 * fio's default)
 */
static void s_rw_modifier(struct s_ctx *c, const struct bc_import_kv *o, const struct s_view *v,
			  const char *rw, cJSON *wl)
{
	const char *mod = strchr(s_val(o), ':') + 1, *seqr = s_get(v, "rw_sequencer");
	uint64_t n;
	char sz[32];

	if (seqr && strcmp(seqr, "sequential")) {
		S_ODIFF(c, o, "rw=%s with rw_sequencer=%s: repeated offsets have no equivalent",
			s_val(o), seqr);
		return;
	}
	if (s_random(rw)) {
		unsigned runs;

		if (!s_uint(mod, 1u << 30, &runs) || !runs)
			S_ODIFF(c, o, "rw=%s: a count of I/Os per random offset", s_val(o));
		else if (runs > 1)
			cJSON_AddNumberToObject(wl, "seq_run", runs);
		return;
	}
	if (s_fio_bytes(mod, c->kb_base, &n) || n % 512) {
		S_ODIFF(c, o,
			"rw=%s: a hole of whole 512-byte sectors after each I/O (backwards, "
			"negative, has no equivalent)",
			s_val(o));
		return;
	}
	if (n)
		cJSON_AddStringToObject(wl, "seq_gap", bc_fmt_size(n, sz, sizeof(sz)));
}

/* fio's filename_format: $jobname, $jobnum (the clone), $filenum replaced */
static void s_format_name(const char *fmt, const char *job, int jobnum, int filenum, char *out,
			  size_t len)
{
	size_t n = 0;
	const char *p;
	int w;

	for (p = fmt; *p && n + 1 < len;) {
		w = 0;
		if (!strncmp(p, "$jobname", 8)) {
			w = snprintf(out + n, len - n, "%s", job);
			p += 8;
		} else if (!strncmp(p, "$jobnum", 7)) {
			w = snprintf(out + n, len - n, "%d", jobnum);
			p += 7;
		} else if (!strncmp(p, "$filenum", 8)) {
			w = snprintf(out + n, len - n, "%d", filenum);
			p += 8;
		} else {
			out[n++] = *p++;
		}
		if (w > 0)
			n = n + (size_t)w < len ? n + (size_t)w : len - 1;
	}
	out[n] = '\0';
}

/* fio's filename list: ':' separates, "\:" is a literal colon */
static int s_split_files(const char *list, const char *dir, struct s_job *j)
{
	char buf[BC_PATH_MAX], path[BC_PATH_MAX * 2 + 2];
	size_t n = 0;
	const char *p;

	for (p = list;; p++) {
		if (*p == '\\' && p[1] == ':') {
			if (n < sizeof(buf) - 1)
				buf[n++] = ':';
			p++;
			continue;
		}
		if (*p && *p != ':') {
			if (n < sizeof(buf) - 1)
				buf[n++] = *p;
			continue;
		}
		buf[n] = '\0';
		if (n && j->nfiles == S_MAX_FILES)
			return -E2BIG;
		if (n) {
			if (dir && *dir && buf[0] != '/')
				snprintf(path, sizeof(path), "%s/%s", dir, buf);
			else
				snprintf(path, sizeof(path), "%s", buf);
			j->files[j->nfiles] = strdup(path);
			if (!j->files[j->nfiles])
				return -ENOMEM;
			j->nfiles++;
		}
		n = 0;
		if (!*p)
			break;
	}
	return 0;
}

static const char *s_map_rw(struct s_ctx *c, const struct bc_import_kv *o)
{
	static const char *const m[][2] = {
	    {"read", "read"},		{"write", "write"}, {"randread", "randread"},
	    {"randwrite", "randwrite"}, {"rw", "rw"},	    {"readwrite", "rw"},
	    {"randrw", "randrw"},	{"trim", "trim"},   {"randtrim", "randtrim"}};
	const char *v = s_val(o);
	char base[32];
	size_t i, n = strcspn(v, ":");

	snprintf(base, sizeof(base), "%.*s", (int)(n < sizeof(base) ? n : sizeof(base) - 1), v);
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		if (strcmp(base, m[i][0]))
			continue;
		return m[i][1];
	}
	S_ODIFF(c, o, "rw=%s: no bench-coord equivalent", v);
	return NULL;
}

/* the engine: what kind of I/O the job does, and its effective queue depth rule */
/* S_ENG_META: filecreate, filestat, filedelete (a file set's metadata operations) */
enum s_engine { S_ENG_ASYNC, S_ENG_SYNC, S_ENG_NULL, S_ENG_META, S_ENG_OTHER };

/* fio's engines that pass NVMe commands through /dev/ngXnY: bench-coord's nvme target */
static bool s_passthru_engine(const struct bc_import_kv *eng_o)
{
	return eng_o && (!strcmp(s_val(eng_o), "io_uring_cmd") || !strcmp(s_val(eng_o), "xnvme"));
}

static enum s_engine s_engine(struct s_ctx *c, const struct s_view *view,
			      const struct bc_import_kv *o, bool direct)
{
	const char *v = o ? s_val(o) : "psync"; /* fio's default on Linux */

	if (s_listed(s_async_engines, v)) {
		/* fio's libaio on buffered files completes inside io_submit */
		if (!strcmp(v, "libaio") && !direct)
			return S_ENG_SYNC;
		return S_ENG_ASYNC;
	}
	if (s_listed(s_sync_engines, v))
		return S_ENG_SYNC;
	if (!strcmp(v, "null"))
		return S_ENG_NULL;
	/* NVMe passthrough on /dev/ngXnY: bench-coord's nvme target (s_passthrough checks) */
	if (!strcmp(v, "io_uring_cmd"))
		return S_ENG_ASYNC;
	/*
	 * xnvme: its io_uring_cmd backend is the same passthrough; its default
	 * "emu" backend is one thread over the NVMe ioctl, a command at a time
	 */
	if (!strcmp(v, "xnvme")) {
		const char *as = s_get(view, "xnvme_async");

		if (as && !strcmp(as, "io_uring_cmd"))
			return S_ENG_ASYNC;
		if (!as || !strcmp(as, "emu"))
			return S_ENG_SYNC;
		S_ODIFF(c, s_opt(view, "xnvme_async", NULL),
			"xnvme_async=%s: only xNVMe's io_uring_cmd and emu backends have an "
			"equivalent (the nvme target's passthrough)",
			as);
		return S_ENG_OTHER;
	}
	/* fio's file engines: a file set's metadata operations (s_meta_job) */
	if (!strcmp(v, "filecreate") || !strcmp(v, "filestat") || !strcmp(v, "filedelete"))
		return S_ENG_META;
	S_ODIFF(c, o, "ioengine=%s: not block or file read/write I/O", v);
	return S_ENG_OTHER;
}

/*
 * Every fio option the import knows, like fio's own option table (options.c):
 * its name and alias, its kind, the profile key it becomes and, for the
 * options whose value alone decides the key, the converter. MAPPED options
 * without a converter are read by s_job, which needs the job's context
 * (rw, files, clones, engine). INERT options change nothing bench-coord
 * measures (statistics and reporting, or the process model and file
 * handling around the I/O); they are listed once in the notes. DIFF options
 * are refused with the reason given. OFF options are inert at their default
 * (0, off, none, or the value in key) and a difference otherwise. An option
 * in no row is a difference: an option of an engine bench-coord does not
 * drive (s_engine_opts), or no fio option at all (fio stops at it).
 */
enum s_okind { S_MAPPED, S_INERT, S_DIFF, S_OFF };

struct s_jctx; /* what a converter may read of the job and write into its workload */
typedef void (*s_conv_fn)(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x);

struct s_fopt {
	const char *name, *alias;
	enum s_okind kind;
	const char *key; /* MAPPED: the profile key(s) it becomes */
	s_conv_fn conv;	 /* MAPPED with a converter: value -> key, applied by s_job */
	const char *why; /* INERT: what kind; DIFF: why it has no equivalent */
};

static void s_conv_startdelay(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x);
static void s_conv_rate_process(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x);
static void s_conv_percentage_random(struct s_ctx *c, const struct bc_import_kv *o,
				     struct s_jctx *x);
static void s_conv_compress(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x);
static void s_conv_compress_chunk(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x);
static void s_conv_dedupe(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x);
static void s_conv_sync(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x);
static void s_conv_end_fsync(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x);
static void s_conv_overwrite(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x);
static void s_conv_fadvise(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x);
static void s_conv_fst(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x);
static void s_conv_cpumask(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x);
static void s_conv_fsync(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x);
static void s_conv_vbatch(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x);
static void s_conv_numa_cpu(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x);
static void s_conv_numa_mem(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x);

/* the options of NVMe protection information: the nvme target refuses formats with metadata */
#define S_WHY_PI                                                                                   \
	"protection information: bench-coord refuses LBA formats with metadata (docs/nvme.md)"

/* clang-format off */
static const struct s_fopt s_fopts[] = {
    {"rw", "readwrite", S_MAPPED, "rw", NULL, NULL},
    {"rw_sequencer", NULL, S_MAPPED, "seq_run", NULL, NULL},
    {"rwmixread", NULL, S_MAPPED, "rwmixread", NULL, NULL},
    {"rwmixwrite", NULL, S_MAPPED, "rwmixread", NULL, NULL},
    {"bs", "blocksize", S_MAPPED, "bs", NULL, NULL},
    {"bssplit", NULL, S_MAPPED, "bs", NULL, NULL},
    {"blockalign", "ba", S_MAPPED, "blockalign", NULL, NULL},
    {"iodepth", NULL, S_MAPPED, "iodepth", NULL, NULL},
    {"numjobs", NULL, S_MAPPED, "numjobs", NULL, NULL},
    {"direct", NULL, S_MAPPED, "direct", NULL, NULL},
    {"buffered", NULL, S_MAPPED, "direct", NULL, NULL},
    {"ramp_time", NULL, S_MAPPED, "ramp", NULL, NULL},
    {"runtime", "timeout", S_MAPPED, "runtime", NULL, NULL},
    {"time_based", NULL, S_MAPPED, "runtime", NULL, NULL},
    {"filename", NULL, S_MAPPED, "volumes[].path", NULL, NULL},
    {"directory", NULL, S_MAPPED, "volumes[].path", NULL, NULL},
    {"nrfiles", "nr_files", S_MAPPED, "volumes[]", NULL, NULL},
    {"size", NULL, S_MAPPED, "volumes[].size, io_size", NULL, NULL},
    {"filesize", NULL, S_MAPPED, "volumes[].size", NULL, NULL},
    {"io_size", "io_limit", S_MAPPED, "io_size", NULL, NULL},
    {"offset", "fileoffset", S_MAPPED, "volumes[].offset", NULL, NULL},
    {"offset_increment", NULL, S_MAPPED, "volumes[].size", NULL, NULL},
    {"ioengine", NULL, S_MAPPED, "volumes[].path", NULL, NULL},
    {"stonewall", "wait_for_previous", S_MAPPED, "steps[]", NULL, NULL},
    {"rate", NULL, S_MAPPED, "rate_bw, rate_bw_read, rate_bw_write", NULL, NULL},
    {"rate_iops", NULL, S_MAPPED, "rate_iops, rate_iops_read, rate_iops_write", NULL, NULL},
    {"random_distribution", NULL, S_MAPPED, "random_distribution", NULL, NULL},
    {"verify", NULL, S_MAPPED, "verify", NULL, NULL},
    {"do_verify", NULL, S_MAPPED, "verify", NULL, NULL},
    {"thinktime", NULL, S_MAPPED, "thinktime", NULL, NULL},
    {"thinktime_spin", NULL, S_MAPPED, "thinktime", NULL, NULL},
    {"thinktime_blocks", NULL, S_MAPPED, "thinktime", NULL, NULL},
    {"sqthread_poll", NULL, S_MAPPED, "sqpoll", NULL, NULL},
    {"sqthread_poll_cpu", NULL, S_MAPPED, "sqpoll_cpu", NULL, NULL},
    {"hipri", NULL, S_MAPPED, "hipri", NULL, NULL},
    {"cpus_allowed", NULL, S_MAPPED, "cpus_allowed", NULL, NULL},
    {"cpus_allowed_policy", NULL, S_MAPPED, "cpus_allowed_policy", NULL, NULL},
    {"iodepth_batch", "iodepth_batch_submit", S_MAPPED, "iodepth_batch_submit", NULL, NULL},
    {"iodepth_batch_complete_min", "iodepth_batch_complete", S_MAPPED, "iodepth_batch_complete", NULL, NULL},
    {"iodepth_batch_complete_max", NULL, S_MAPPED, "iodepth_batch_complete", NULL, NULL},
    {"iodepth_low", NULL, S_MAPPED, "iodepth_low", NULL, NULL},
    {"loops", NULL, S_MAPPED, "io_size", NULL, NULL},
    {"include", NULL, S_MAPPED, "-", NULL, NULL},
    {"kb_base", NULL, S_MAPPED, "sizes", NULL, NULL},
    {"startdelay", NULL, S_MAPPED, "start_delay", s_conv_startdelay, NULL},
    {"rate_process", NULL, S_MAPPED, "rate_process", s_conv_rate_process, NULL},
    {"percentage_random", NULL, S_MAPPED, "seq_pct", s_conv_percentage_random, NULL},
    {"buffer_compress_percentage", NULL, S_MAPPED, "compress_pct", s_conv_compress, NULL},
    {"buffer_compress_chunk", NULL, S_MAPPED, "compress_chunk", s_conv_compress_chunk, NULL},
    {"dedupe_percentage", NULL, S_MAPPED, "dedupe_pct", s_conv_dedupe, NULL},
    {"sync", NULL, S_MAPPED, "-", s_conv_sync, NULL},
    {"fsync_on_close", NULL, S_MAPPED, "-", s_conv_end_fsync, NULL},
    {"end_fsync", NULL, S_MAPPED, "-", s_conv_end_fsync, NULL},
    {"overwrite", NULL, S_MAPPED, "-", s_conv_overwrite, NULL},
    {"steadystate", "ss", S_MAPPED, "stop_steady", NULL, NULL},
    {"steadystate_duration", "ss_dur", S_MAPPED, "stop_steady", NULL, NULL},
    {"steadystate_ramp_time", "ss_ramp", S_MAPPED, "stop_steady", NULL, NULL},
    {"steadystate_check_interval", "ss_interval", S_MAPPED, "stop_steady", NULL, NULL},
    {"userspace_reap", NULL, S_INERT, NULL, NULL, "process"},
    {"numa_cpu_nodes", NULL, S_MAPPED, "cpus_allowed", s_conv_numa_cpu, NULL},
    {"numa_mem_policy", NULL, S_MAPPED, "-", s_conv_numa_mem, NULL},
    {"wait_for", NULL, S_MAPPED, "steps[]", NULL, NULL},
    {"fill_device", "fill_fs", S_MAPPED, "stop_window_pct", NULL, NULL},
    {"name", NULL, S_INERT, NULL, NULL, "statistics"},
    {"description", NULL, S_INERT, NULL, NULL, "statistics"},
    {"group_reporting", NULL, S_INERT, NULL, NULL, "statistics"},
    {"new_group", NULL, S_INERT, NULL, NULL, "statistics"},
    {"stats", NULL, S_INERT, NULL, NULL, "statistics"},
    {"write_bw_log", NULL, S_INERT, NULL, NULL, "statistics"},
    {"write_lat_log", NULL, S_INERT, NULL, NULL, "statistics"},
    {"write_iops_log", NULL, S_INERT, NULL, NULL, "statistics"},
    {"write_hist_log", NULL, S_INERT, NULL, NULL, "statistics"},
    /* a log of the I/Os fio issued, written beside the run (read_iolog replays one) */
    {"write_iolog", NULL, S_INERT, NULL, NULL, "statistics"},
    {"log_avg_msec", NULL, S_INERT, NULL, NULL, "statistics"},
    {"log_hist_msec", NULL, S_INERT, NULL, NULL, "statistics"},
    {"log_hist_coarseness", NULL, S_INERT, NULL, NULL, "statistics"},
    {"log_window_value", "log_max_value", S_INERT, NULL, NULL, "statistics"},
    {"log_offset", NULL, S_INERT, NULL, NULL, "statistics"},
    {"log_prio", NULL, S_INERT, NULL, NULL, "statistics"},
    {"log_compression", NULL, S_INERT, NULL, NULL, "statistics"},
    {"log_store_compressed", NULL, S_INERT, NULL, NULL, "statistics"},
    {"log_unix_epoch", NULL, S_INERT, NULL, NULL, "statistics"},
    {"log_alternate_epoch", NULL, S_INERT, NULL, NULL, "statistics"},
    {"log_alternate_epoch_clock_id", NULL, S_INERT, NULL, NULL, "statistics"},
    {"per_job_logs", NULL, S_INERT, NULL, NULL, "statistics"},
    {"lat_percentiles", NULL, S_INERT, NULL, NULL, "statistics"},
    {"clat_percentiles", NULL, S_INERT, NULL, NULL, "statistics"},
    {"slat_percentiles", NULL, S_INERT, NULL, NULL, "statistics"},
    {"percentile_list", NULL, S_INERT, NULL, NULL, "statistics"},
    {"significant_figures", NULL, S_INERT, NULL, NULL, "statistics"},
    {"disable_lat", NULL, S_INERT, NULL, NULL, "statistics"},
    {"disable_clat", NULL, S_INERT, NULL, NULL, "statistics"},
    {"disable_slat", NULL, S_INERT, NULL, NULL, "statistics"},
    {"disable_bw_measurement", NULL, S_INERT, NULL, NULL, "statistics"},
    {"disable_bw", NULL, S_INERT, NULL, NULL, "statistics"},
    {"gtod_reduce", NULL, S_INERT, NULL, NULL, "statistics"},
    {"gtod_cpu", NULL, S_INERT, NULL, NULL, "statistics"},
    {"clocksource", NULL, S_INERT, NULL, NULL, "statistics"},
    {"unified_rw_reporting", NULL, S_INERT, NULL, NULL, "statistics"},
    {"bwavgtime", NULL, S_INERT, NULL, NULL, "statistics"},
    {"iopsavgtime", NULL, S_INERT, NULL, NULL, "statistics"},
    {"unit_base", NULL, S_INERT, NULL, NULL, "statistics"},
    {"disk_util", NULL, S_INERT, NULL, NULL, "statistics"},
    {"write_barrier", NULL, S_INERT, NULL, NULL, "statistics"},
    {"thread", NULL, S_INERT, NULL, NULL, "process"},
    {"randrepeat", NULL, S_INERT, NULL, NULL, "process"},
    {"allrandrepeat", NULL, S_INERT, NULL, NULL, "process"},
    {"randseed", NULL, S_INERT, NULL, NULL, "process"},
    {"random_generator", NULL, S_INERT, NULL, NULL, "process"},
    {"norandommap", NULL, S_INERT, NULL, NULL, "process"},
    {"softrandommap", NULL, S_INERT, NULL, NULL, "process"},
    {"invalidate", NULL, S_INERT, NULL, NULL, "process"},
    {"unlink", NULL, S_INERT, NULL, NULL, "process"},
    {"unlink_each_loop", NULL, S_INERT, NULL, NULL, "process"},
    {"create_serialize", NULL, S_INERT, NULL, NULL, "process"},
    {"create_fsync", NULL, S_INERT, NULL, NULL, "process"},
    {"create_on_open", NULL, S_INERT, NULL, NULL, "process"},
    {"create_only", NULL, S_INERT, NULL, NULL, "process"},
    {"allow_file_create", NULL, S_INERT, NULL, NULL, "process"},
    {"allow_mounted_write", NULL, S_INERT, NULL, NULL, "process"},
    {"fallocate", NULL, S_INERT, NULL, NULL, "process"},
    {"file_append", NULL, S_INERT, NULL, NULL, "process"},
    {"lockmem", NULL, S_INERT, NULL, NULL, "process"},
    {"exitall", NULL, S_INERT, NULL, NULL, "process"},
    {"exitall_on_error", NULL, S_INERT, NULL, NULL, "process"},
    {"mem", NULL, S_INERT, NULL, NULL, "process"},
    {"iomem", NULL, S_INERT, NULL, NULL, "process"},
    {"mem_align", NULL, S_INERT, NULL, NULL, "process"},
    {"iomem_align", NULL, S_INERT, NULL, NULL, "process"},
    {"hugepage-size", NULL, S_INERT, NULL, NULL, "process"},
    {"fixedbufs", NULL, S_INERT, NULL, NULL, "process"},
    {"registerfiles", NULL, S_INERT, NULL, NULL, "process"},
    {"nonvectored", NULL, S_INERT, NULL, NULL, "process"},
    {"job_max_open_zones", NULL, S_INERT, NULL, NULL, "process"},
    {"verify_fatal", NULL, S_INERT, NULL, NULL, "process"},
    {"verify_dump", NULL, S_INERT, NULL, NULL, "process"},
    {"verify_async", NULL, S_INERT, NULL, NULL, "process"},
    {"verify_state_save", NULL, S_INERT, NULL, NULL, "process"},
    {"verify_state_load", NULL, S_INERT, NULL, NULL, "process"},
    {"continue_on_error", NULL, S_INERT, NULL, NULL, "process"},
    {"error_dump", NULL, S_INERT, NULL, NULL, "process"},
    {"ignore_error", NULL, S_INERT, NULL, NULL, "process"},
    {"rate_min", "ratemin", S_INERT, NULL, NULL, "process"},
    {"rate_iops_min", NULL, S_INERT, NULL, NULL, "process"},
    {"rate_cycle", "ratecycle", S_INERT, NULL, NULL, "process"},
    {"max_latency", NULL, S_INERT, NULL, NULL, "process"},
    {"latency_target", NULL, S_INERT, NULL, NULL, "process"},
    {"latency_window", NULL, S_INERT, NULL, NULL, "process"},
    {"latency_percentile", NULL, S_INERT, NULL, NULL, "process"},
    {"latency_run", NULL, S_INERT, NULL, NULL, "process"},
    {"experimental_verify", NULL, S_INERT, NULL, NULL, "process"},
    {"refill_buffers", NULL, S_MAPPED, "scramble", NULL, NULL},
    {"scramble_buffers", NULL, S_MAPPED, "scramble", NULL, NULL},
    {"trim_verify_zero", NULL, S_INERT, NULL, NULL, "process"},
    {"serialize_overlap", NULL, S_INERT, NULL, NULL, "process"},
    {"fadvise_hint", NULL, S_MAPPED, "-", s_conv_fadvise, NULL},
    {"openfiles", NULL, S_INERT, NULL, NULL, "process"},
    {"file_service_type", NULL, S_MAPPED, "-", s_conv_fst, NULL},
    {"verify_backlog", NULL, S_MAPPED, "verify_backlog", NULL, NULL},
    {"verify_backlog_batch", NULL, S_MAPPED, "verify_backlog", s_conv_vbatch, NULL},
    {"buffer_pattern", NULL, S_MAPPED, "buffer_pattern, compress_pct", NULL, NULL},
    {"zero_buffers", NULL, S_MAPPED, "compress_pct", NULL, NULL},
    {"fsync", NULL, S_MAPPED, "fsync", s_conv_fsync, NULL},
    {"fdatasync", NULL, S_MAPPED, "fdatasync", s_conv_fsync, NULL},
    {"sync_file_range", NULL, S_DIFF, NULL, NULL, "sync_file_range every N writes has no equivalent"},
    {"flow", NULL, S_MAPPED, "flow", NULL, NULL},
    {"flow_id", NULL, S_MAPPED, "flow", NULL, NULL},
    {"flow_sleep", NULL, S_INERT, NULL, NULL, "process"},
    {"zonesize", NULL, S_MAPPED, "zone_size", NULL, NULL},
    {"zoneskip", NULL, S_MAPPED, "zone_skip", NULL, NULL},
    {"zonerange", NULL, S_MAPPED, "zone_range", NULL, NULL},
    {"zonemode", NULL, S_MAPPED, "zone_size", NULL, NULL},
    {"blocksize_range", "bsrange", S_MAPPED, "bs", NULL, NULL},
    {"filename_format", NULL, S_MAPPED, "volumes[].path", NULL, NULL},
    {"dedupe_mode", NULL, S_DIFF, NULL, NULL, "dedupe modes have no equivalent"},
    {"dedupe_working_set_percentage", NULL, S_DIFF, NULL, NULL, "a dedupe working set has no equivalent"},
    {"cpumask", NULL, S_MAPPED, "cpus_allowed", s_conv_cpumask, NULL},
    {"number_ios", NULL, S_MAPPED, "io_size", NULL, NULL},
    {"block", NULL, S_INERT, NULL, NULL, "profile"},
    {"numruns", NULL, S_INERT, NULL, NULL, "profile"},
    {"dir", NULL, S_INERT, NULL, NULL, "profile"},
    {"threads", NULL, S_INERT, NULL, NULL, "profile"},
    {"profile", NULL, S_DIFF, NULL, NULL, "fio's built-in job profiles (tiobench, act) have no equivalent"},
    {"cmd_type", NULL, S_MAPPED, "volumes[].path", NULL, NULL},
    {"xnvme_async", NULL, S_MAPPED, "volumes[].path, iodepth", NULL, NULL},
    {"xnvme_sync", NULL, S_INERT, NULL, NULL, "process"},
    {"xnvme_admin", NULL, S_INERT, NULL, NULL, "process"},
    {"xnvme_iovec", NULL, S_INERT, NULL, NULL, "process"},
    {"fdp", NULL, S_MAPPED, "volumes[].fdp, placement", NULL, NULL},
    {"dataplacement", "data_placement", S_MAPPED, "volumes[].fdp, placement", NULL, NULL},
    {"plids", "fdp_pli", S_MAPPED, "volumes[].fdp.pids, placement", NULL, NULL},
    {"plid_select", "fdp_pli_select", S_MAPPED, "volumes[].fdp.policy, placement", NULL, NULL},
    {"dp_scheme", NULL, S_DIFF, NULL, NULL, "placement by LBA range from a scheme file has no equivalent (streams with a range and a placement have, docs/fdp.md)"},
    {"md_per_io_size", NULL, S_DIFF, NULL, NULL, "metadata buffers: bench-coord passes none and refuses LBA formats with metadata (docs/nvme.md)"},
    {"pi_act", NULL, S_DIFF, NULL, NULL, S_WHY_PI},
    {"pi_chk", NULL, S_DIFF, NULL, NULL, S_WHY_PI},
    {"apptag", NULL, S_DIFF, NULL, NULL, S_WHY_PI},
    {"apptag_mask", NULL, S_DIFF, NULL, NULL, S_WHY_PI},
    {"nice", NULL, S_MAPPED, "nice", NULL, NULL},
    {"prio", NULL, S_MAPPED, "ioprio_class, ioprio", NULL, NULL},
    {"prioclass", NULL, S_MAPPED, "ioprio_class", NULL, NULL},
    {"priohint", NULL, S_MAPPED, "-", NULL, NULL},
    {"cmdprio_percentage", NULL, S_MAPPED, "cmdprio_pct", NULL, NULL},
    {"cmdprio_class", NULL, S_MAPPED, "cmdprio_class", NULL, NULL},
    {"cmdprio", NULL, S_MAPPED, "cmdprio", NULL, NULL},
    {"cmdprio_hint", NULL, S_MAPPED, "-", NULL, NULL},
    {"cmdprio_bssplit", NULL, S_DIFF, NULL, NULL, "priorities by block size have no equivalent (cmdprio_percentage has)"},
    /* fio's options met in real job files and the rest of fio's table */
    {"block_error_percentiles", NULL, S_INERT, NULL, NULL, "statistics"},
    {"job_start_clock_id", NULL, S_INERT, NULL, NULL, "statistics"},
    {"log_compression_cpus", NULL, S_INERT, NULL, NULL, "statistics"},
    {"log_entries", NULL, S_INERT, NULL, NULL, "statistics"},
    {"log_issue_time", NULL, S_INERT, NULL, NULL, "statistics"},
    {"bs_unaligned", "blocksize_unaligned", S_INERT, NULL, NULL, "process"},
    {"cgroup", NULL, S_INERT, NULL, NULL, "process"},
    {"cgroup_nodelete", NULL, S_INERT, NULL, NULL, "process"},
    {"comm", NULL, S_INERT, NULL, NULL, "process"},
    {"exit_what", NULL, S_INERT, NULL, NULL, "process"},
    {"filetype", NULL, S_INERT, NULL, NULL, "process"},
    {"uid", NULL, S_INERT, NULL, NULL, "process"},
    {"gid", NULL, S_INERT, NULL, NULL, "process"},
    {"unique_filename", NULL, S_INERT, NULL, NULL, "process"},
    {"ignore_zone_limits", NULL, S_INERT, NULL, NULL, "process"},
    {"read_beyond_wp", NULL, S_INERT, NULL, NULL, "process"},
    {"recover_zbd_write_error", NULL, S_INERT, NULL, NULL, "process"},
    {"write_zone_remainder", NULL, S_INERT, NULL, NULL, "process"},
    /* fio accepts these and ignores them ("deprecated") */
    {"verifysort", NULL, S_INERT, NULL, NULL, "process"},
    {"verifysort_nr", NULL, S_INERT, NULL, NULL, "process"},
    {"flow_watermark", NULL, S_INERT, NULL, NULL, "process"},
    /* how fio lays out and checks its verify header: the same I/O */
    {"verify_interval", NULL, S_INERT, NULL, NULL, "process"},
    {"verify_offset", NULL, S_INERT, NULL, NULL, "process"},
    {"verify_header_seed", NULL, S_INERT, NULL, NULL, "process"},
    {"verify_write_sequence", NULL, S_INERT, NULL, NULL, "process"},
    {"verify_pattern_interval", NULL, S_INERT, NULL, NULL, "process"},
    {"verify_async_cpus", NULL, S_INERT, NULL, NULL, "process"},
    {"verify_policy", NULL, S_INERT, NULL, NULL, "process"},
    /* blktrace replay: only read_iolog replays, and it is a difference */
    {"replay_no_stall", NULL, S_INERT, NULL, NULL, "process"},
    {"replay_redirect", NULL, S_INERT, NULL, NULL, "process"},
    {"replay_align", NULL, S_INERT, NULL, NULL, "process"},
    {"replay_scale", NULL, S_INERT, NULL, NULL, "process"},
    {"replay_time_scale", NULL, S_INERT, NULL, NULL, "process"},
    {"replay_skip", NULL, S_INERT, NULL, NULL, "process"},
    {"merge_blktrace_file", NULL, S_INERT, NULL, NULL, "process"},
    {"merge_blktrace_scalars", NULL, S_INERT, NULL, NULL, "process"},
    {"merge_blktrace_iters", NULL, S_INERT, NULL, NULL, "process"},
    {"read_iolog", NULL, S_DIFF, NULL, NULL, "replaying an I/O log or blktrace has no equivalent"},
    {"read_iolog_chunked", NULL, S_INERT, NULL, NULL, "process"},
    /* sprandom's tuning: only sprandom preconditions, and it is a difference */
    {"spr_cs", NULL, S_INERT, NULL, NULL, "process"},
    {"spr_num_regions", NULL, S_INERT, NULL, NULL, "process"},
    {"spr_op", NULL, S_INERT, NULL, NULL, "process"},
    {"sprandom", NULL, S_OFF, NULL, NULL, "SanDisk pseudo-random preconditioning has no equivalent"},
    /* fio refuses these: "Option ... is deprecated" and the job file fails */
    {"percentage_sequential", NULL, S_DIFF, NULL, NULL, "a deprecated option: fio stops at it (use percentage_random)"},
    {"rwmixcycle", NULL, S_DIFF, NULL, NULL, "a deprecated option: fio stops at it"},
    {"atomic", NULL, S_OFF, NULL, NULL, "atomic writes (RWF_ATOMIC) have no equivalent"},
    {"bs_is_seq_rand", NULL, S_OFF, NULL, NULL, "block sizes chosen by sequential/random rather than read/write have no equivalent"},
    {"cgroup_weight", NULL, S_OFF, NULL, NULL, "a blkio cgroup weight against the other jobs has no equivalent"},
    {"dedupe_global", NULL, S_OFF, NULL, NULL, "duplicate buffers shared across jobs have no equivalent"},
    {"end_syncfs", NULL, S_OFF, NULL, NULL, "a syncfs of the whole file system at the end has no equivalent (end_fsync has)"},
    {"exec_prerun", NULL, S_DIFF, NULL, NULL, "a command run before the job: run it around the step yourself"},
    {"exec_postrun", NULL, S_DIFF, NULL, NULL, "a command run after the job: run it around the step yourself"},
    {"gpu_dev_id", NULL, S_DIFF, NULL, NULL, "GPUDirect buffers have no equivalent"},
    {"io_submit_mode", NULL, S_OFF, "inline", NULL, "submission offloaded to other threads has no equivalent"},
    {"ioscheduler", NULL, S_DIFF, NULL, NULL, "fio switches the device's I/O scheduler: set /sys/block/*/queue/scheduler on the agent's host"},
    {"lockfile", NULL, S_OFF, NULL, NULL, "locking the file between jobs has no equivalent"},
    {"max_open_zones", NULL, S_OFF, NULL, NULL, "a limit on the zones written at once has no equivalent"},
    {"num_range", NULL, S_OFF, "1", NULL, "several ranges per trim command have no equivalent"},
    {"offset_align", NULL, S_OFF, NULL, NULL, "aligning a % offset has no equivalent"},
    {"opendir", NULL, S_DIFF, NULL, NULL, "every file under a directory has no equivalent: list them in filename="},
    {"pre_read", NULL, S_OFF, NULL, NULL, "reading the files into the page cache first has no equivalent"},
    {"ramp_size", NULL, S_OFF, NULL, NULL, "a ramp counted in bytes has no equivalent (ramp_time has)"},
    {"random_sequence_stride", NULL, S_OFF, NULL, NULL, "a stride through the random sequence has no equivalent"},
    {"rate_ignore_thinktime", NULL, S_OFF, NULL, NULL, "a rate that ignores thinktime has no equivalent"},
    {"thinkcycles", NULL, S_OFF, NULL, NULL, "spinning CPU cycles between I/Os has no equivalent (thinktime_spin has)"},
    {"thinktime_blocks_type", NULL, S_OFF, "complete", NULL, "thinktime after issued (not completed) blocks has no equivalent"},
    {"thinktime_iotime", NULL, S_OFF, NULL, NULL, "thinktime after a time of I/O has no equivalent"},
    {"trim_percentage", NULL, S_OFF, NULL, NULL, "trimming verified blocks has no equivalent"},
    {"trim_backlog", NULL, S_OFF, NULL, NULL, "trimming verified blocks has no equivalent"},
    {"trim_backlog_batch", NULL, S_OFF, NULL, NULL, "trimming verified blocks has no equivalent"},
    {"verify_only", NULL, S_OFF, NULL, NULL, "reading back earlier writes without writing has no equivalent"},
    {"verify_pattern", NULL, S_DIFF, NULL, NULL, "the data written is this pattern, and bench-coord verifies its own (buffer_pattern maps)"},
    {"write_hint", NULL, S_OFF, NULL, NULL, "a write-lifetime hint has no equivalent (FDP placement has, docs/fdp.md)"},
    {"zone_reset_frequency", NULL, S_OFF, NULL, NULL, "resetting zones as they fill has no equivalent"},
    {"zone_reset_threshold", NULL, S_OFF, NULL, NULL, "resetting zones as they fill has no equivalent"},
    {"zonecapacity", NULL, S_OFF, NULL, NULL, "a zone capacity below the zone size has no equivalent"},
    /* the options of the engines bench-coord maps (io_uring, libaio, pvsync2, mmap) */
    {"cdb_len", NULL, S_INERT, NULL, NULL, "process"},
    {"deac", NULL, S_INERT, NULL, NULL, "process"},
    {"verify_bytchk", NULL, S_INERT, NULL, NULL, "process"},
    {"libaio_vectored", NULL, S_INERT, NULL, NULL, "process"},
    /* filestat's stat, statx or lstat: on the regular files of a file set each is one lookup
     * and attribute read (the agent's is statx) */
    {"stat_type", NULL, S_INERT, NULL, NULL, "process"},
    {"thp", NULL, S_INERT, NULL, NULL, "process"},
    {"readfua", NULL, S_OFF, NULL, NULL, "FUA reads have no equivalent"},
    {"writefua", NULL, S_OFF, NULL, NULL, "FUA writes have no equivalent"},
    {"uncached", NULL, S_OFF, NULL, NULL, "uncached buffered I/O (RWF_DONTCACHE) has no equivalent"},
    {"read_mode", NULL, S_OFF, "read", NULL, "reads as NVMe Verify commands have no equivalent"},
    {"write_mode", NULL, S_OFF, "write", NULL, "writes as NVMe Write Zeroes, Write Uncorrectable or Verify commands have no equivalent"},
    {"verify_mode", NULL, S_OFF, "read", NULL, "verifying by NVMe Compare has no equivalent"},
    {"hipri_percentage", NULL, S_OFF, NULL, NULL, "polling a share of the I/Os has no equivalent (hipri polls all)"},
    {"xnvme_be", NULL, S_INERT, NULL, NULL, "process"},
    {"xnvme_mem", NULL, S_INERT, NULL, NULL, "process"},
    {"xnvme_dev_nsid", NULL, S_DIFF, NULL, NULL, "a namespace chosen apart from the file name: name the namespace's device in filename="},
    {"xnvme_dev_subnqn", NULL, S_DIFF, NULL, NULL, "a subsystem chosen apart from the file name: name the namespace's device in filename="},
    {"nowait", NULL, S_MAPPED, "nowait", NULL, NULL},
    {"force_async", NULL, S_MAPPED, "force_async", NULL, NULL},
};
/* clang-format on */

/*
 * The options of fio's engines that bench-coord does not drive (their
 * ioengine= is a difference of its own): an option here is fio's, but not
 * of any engine above, so it says which engines it belongs to
 */
static const struct {
	const char *engine, *names; /* names: space-separated, each with a space after */
} s_engine_opts[] = {
    {"cpuio", "cpuchunks cpuload cpumode exit_on_io_done "},
    {"dfs", "chunk_size cont object_class pool svcl "},
    {"e4defrag", "donorname inplace "},
    {"exec", "arguments grace_time program std_redirect "},
    {"http", "http_host http_mode http_object_mode http_pass http_s3_key http_s3_keyid "
	     "http_s3_region http_s3_security_token http_s3_sse_customer_algorithm "
	     "http_s3_sse_customer_key http_s3_storage_class http_swift_auth_token http_user "
	     "http_verbose https "},
    {"libblkio",
     "libblkio_driver libblkio_force_enable_completion_eventfd "
     "libblkio_num_entries libblkio_path libblkio_pre_connect_props "
     "libblkio_pre_start_props libblkio_queue_size libblkio_vectored libblkio_wait_mode "
     "libblkio_write_zeroes_on_trim "},
    {"libcufile", "cuda_io gpu_dev_ids "},
    {"libhdfs", "chunck_size chunk_size hdfs_use_direct hdfsdirectory hostname namenode port "
		"single_instance "},
    {"libhipfile", "gpu_dev_ids rocm_io "},
    {"libiscsi", "initiator "},
    {"mtd", "skip_bad "},
    {"nbd", "uri "},
    {"net", "hostname interface listen mss nodelay pingpong port proto protocol ttl "
	    "window_size "},
    {"nfs", "nfs_url "},
    {"rados", "busy_poll clientname clustername conf pool touch_objects "},
    {"rbd", "busy_poll clientname clustername pool rbdname "},
    {"rdma", "bindname hostname port proto verb "},
    {"sg", "sg_write_mode stream_id "},
    {"windowsaio", "no_completion_thread "},
    /* fio's built-in profiles' own options (profile= is a difference) */
    {"act profile", "device-names load test-duration threads-per-queue "
		    "read-req-num-512-blocks large-block-op-kbytes prep "},
};

/* what a converter reads of the job and where it writes */
struct s_jctx {
	const char *rw;
	const char *name;
	bool direct;
	uint64_t bs; /* bytes, the job's (largest) block size */
	cJSON *wl;
};

static void s_conv_startdelay(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x)
{
	unsigned secs;

	if (strchr(s_val(o), '-')) {
		S_ODIFF(c, o, "startdelay=%s: a random delay per clone has no equivalent",
			s_val(o));
		return;
	}
	if (s_secs(c, o, &secs) && secs)
		cJSON_AddNumberToObject(x->wl, "start_delay", secs);
}

/* a job's rate keys, in a workload: with iodepth, what adds up when jobs share a file */
static const char *const s_rate_keys[] = {
    "rate_iops",     "rate_bw", "rate_iops_read", "rate_iops_write", "rate_bw_read",
    "rate_bw_write", NULL};

static void s_conv_rate_process(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x)
{
	const char *const *r;
	bool rated = false;

	for (r = s_rate_keys; *r; r++)
		rated |= cJSON_GetObjectItem(x->wl, *r) != NULL;
	/* fio paces only rate-limited jobs: without a rate the process changes nothing */
	if (!rated) {
		bc_import_add(c->inert, "%s", o->key);
		return;
	}
	if (!strcmp(s_val(o), "poisson"))
		cJSON_AddStringToObject(x->wl, "rate_process", "poisson");
	else if (strcmp(s_val(o), "linear"))
		S_ODIFF(c, o, "rate_process=%s: linear or poisson", s_val(o));
}

static void s_conv_percentage_random(struct s_ctx *c, const struct bc_import_kv *o,
				     struct s_jctx *x)
{
	char buf[128];
	unsigned pct;

	if (!s_random(x->rw)) /* fio: "for a random workload" */
		return;
	if (!s_dir_value(c, o, x->rw, buf, sizeof(buf)))
		return;
	if (!s_uint(buf, 100, &pct)) {
		S_ODIFF(c, o, "percentage_random=%s: expected 0..100", s_val(o));
		return;
	}
	if (pct < 100)
		cJSON_AddNumberToObject(x->wl, "seq_pct", 100 - pct);
}

static void s_conv_compress(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x)
{
	unsigned pct;

	if (!s_uint(s_val(o), 100, &pct)) {
		S_ODIFF(c, o, "buffer_compress_percentage=%s: expected 0..100", s_val(o));
		return;
	}
	/* 100: fio's zero_buffers (the content rules are s_content's) */
	if (pct)
		cJSON_AddNumberToObject(x->wl, "compress_pct", pct);
}

static void s_conv_compress_chunk(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x)
{
	uint64_t n;
	char sz[32];

	if (!s_size(c, o, &n))
		return;
	if (!n) /* fio: 0 is the block size */
		n = x->bs;
	if (n % 512)
		S_ODIFF(c, o, "buffer_compress_chunk=%s: not a multiple of 512 bytes", s_val(o));
	else
		cJSON_AddStringToObject(x->wl, "compress_chunk", bc_fmt_size(n, sz, sizeof(sz)));
}

static void s_conv_dedupe(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x)
{
	unsigned pct;
	char sz[32];

	if (!s_uint(s_val(o), 100, &pct)) {
		S_ODIFF(c, o, "dedupe_percentage=%s: expected 0..100", s_val(o));
		return;
	}
	if (!pct)
		return;
	/* fio repeats whole write buffers: the unit is the block size */
	cJSON_AddNumberToObject(x->wl, "dedupe_pct", pct);
	cJSON_AddStringToObject(x->wl, "dedupe_unit", bc_fmt_size(x->bs, sz, sizeof(sz)));
	if (cJSON_GetObjectItem(x->wl, "bs") && cJSON_IsString(cJSON_GetObjectItem(x->wl, "bs")) &&
	    strchr(cJSON_GetStringValue(cJSON_GetObjectItem(x->wl, "bs")), '/'))
		S_ODIFF(c, o,
			"dedupe_percentage with bssplit: fio repeats whole buffers of each size, "
			"bench-coord units of one size");
}

/* fio's sync: O_SYNC writes (1, "sync") or O_DSYNC ("dsync"); 0 and "none" are the default */
static void s_conv_sync(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x)
{
	const char *v = s_val(o);

	if (!strcmp(v, "0") || !strcmp(v, "none") || !strcmp(v, "false"))
		bc_import_add(c->inert, "%s", o->key);
	else if (!strcmp(v, "1") || !strcmp(v, "sync") || !strcmp(v, "true"))
		cJSON_AddStringToObject(x->wl, "write_sync", "sync");
	else if (!strcmp(v, "dsync"))
		cJSON_AddStringToObject(x->wl, "write_sync", "dsync");
	else
		S_ODIFF(c, o, "sync=%s: 0, 1, none, sync or dsync", v);
}

/* end_fsync, fsync_on_close: one fsync of each file when the job's I/O is over */
static void s_conv_end_fsync(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x)
{
	(void)c;
	if (s_bool(s_val(o)) && !cJSON_GetObjectItem(x->wl, "end_fsync"))
		cJSON_AddBoolToObject(x->wl, "end_fsync", true);
}

/* fsync=N, fdatasync=N: a sync after every N writes (0: none) */
static void s_conv_fsync(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x)
{
	unsigned n;

	if (!s_uint(s_val(o), 1u << 30, &n))
		S_ODIFF(c, o, "%s=%s: expected a count of writes", o->key, s_val(o));
	else if (n)
		cJSON_AddNumberToObject(x->wl, o->key, n);
}

/* verify_backlog_batch: fio verifies that many of the backlog at a time (default all) */
static void s_conv_vbatch(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x)
{
	const cJSON *b = cJSON_GetObjectItem(x->wl, "verify_backlog");

	if (!b || strtod(s_val(o), NULL) != b->valuedouble)
		S_ODIFF(c, o,
			"verify_backlog_batch=%s: bench-coord reads back the whole backlog at "
			"once (fio's default)",
			s_val(o));
}

/* fio lays a new file out before writing it; bench-coord's file target creates it whole */
static void s_conv_overwrite(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x)
{
	(void)x;
	if (s_bool(s_val(o)))
		bc_import_add(c->inert, "%s", o->key);
}

static void s_conv_fadvise(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x)
{
	if (x->direct || !strcmp(s_val(o), "0"))
		bc_import_add(c->inert, "%s", o->key);
	else
		S_ODIFF(c, o,
			"fadvise_hint=%s on buffered I/O: page-cache readahead hints have no "
			"equivalent",
			s_val(o));
}

/* how fio picks among a job's files: round robin and random share them evenly */
static void s_conv_fst(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x)
{
	(void)x;
	if (!strncmp(s_val(o), "roundrobin", 10) || !strcmp(s_val(o), "random"))
		bc_import_add(c->inert, "%s", o->key);
	else
		S_ODIFF(c, o, "file_service_type=%s: bench-coord drives a job's files at once",
			s_val(o));
}

/* fio's cpumask: a bit mask of CPUs (decimal or 0x hex), as the cpus_allowed list it means */
static void s_conv_cpumask(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x)
{
	char list[BC_CPUS_MAX] = "", *end;
	unsigned long long m = strtoull(s_val(o), &end, 0);
	size_t used = 0;
	int cpu, lo;

	if (*end || !m || cJSON_GetObjectItem(x->wl, "cpus_allowed")) {
		S_ODIFF(c, o, "cpumask=%s: expected a non-zero CPU bit mask%s", s_val(o),
			*end || !m ? "" : " (cpus_allowed is given too)");
		return;
	}
	for (cpu = 0; cpu < 64; cpu++) {
		if (!(m >> cpu & 1))
			continue;
		for (lo = cpu; cpu + 1 < 64 && (m >> (cpu + 1) & 1); cpu++)
			;
		used +=
		    (size_t)snprintf(list + used, sizeof(list) - used, "%s%d", used ? "," : "", lo);
		if (cpu > lo && used < sizeof(list))
			used += (size_t)snprintf(list + used, sizeof(list) - used, "-%d", cpu);
	}
	cJSON_AddStringToObject(x->wl, "cpus_allowed", list);
}

/* numa_cpu_nodes: the CPUs of those nodes, resolved by the agent from its sysfs */
static void s_conv_numa_cpu(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x)
{
	const char *v = s_val(o), *p;
	char buf[BC_CPUS_MAX];

	if (!strcmp(v, "all")) { /* every node's CPUs: no binding */
		bc_import_add(c->inert, "%s", o->key);
		return;
	}
	for (p = v; *p && (isdigit((unsigned char)*p) || *p == ',' || *p == '-'); p++)
		;
	if (*p || !*v || strlen(v) + 6 > sizeof(buf)) {
		S_ODIFF(c, o, "numa_cpu_nodes=%s: a list of NUMA nodes (\"0,2-3\") or all", v);
		return;
	}
	if (cJSON_GetObjectItem(x->wl, "cpus_allowed")) {
		S_ODIFF(c, o,
			"numa_cpu_nodes=%s beside cpus_allowed or cpumask: one CPU set per job "
			"here",
			v);
		return;
	}
	snprintf(buf, sizeof(buf), "numa:%s", v);
	cJSON_AddStringToObject(x->wl, "cpus_allowed", buf);
}

/*
 * numa_mem_policy: default and local are what a job thread has, whose
 * memory is set up on its own CPUs; a policy binding it elsewhere is not
 */
static void s_conv_numa_mem(struct s_ctx *c, const struct bc_import_kv *o, struct s_jctx *x)
{
	(void)x;
	if (!strcmp(s_val(o), "default") || !strcmp(s_val(o), "local"))
		bc_import_add(c->inert, "%s", o->key);
	else
		S_ODIFF(c, o,
			"numa_mem_policy=%s: bench-coord's job threads allocate their buffers on "
			"their own CPUs' node (local); binding, interleaving or preferring other "
			"nodes has no equivalent",
			s_val(o));
}

static const struct s_fopt *s_fopt_find(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(s_fopts) / sizeof(s_fopts[0]); i++)
		if (!strcmp(s_fopts[i].name, key) ||
		    (s_fopts[i].alias && !strcmp(s_fopts[i].alias, key)))
			return &s_fopts[i];
	return NULL;
}

static bool s_mixed(const char *rw)
{
	return !strcmp(rw, "rw") || !strcmp(rw, "randrw");
}

/* a size of the job ("read,write" forms resolved), into key of wl */
static bool s_size_key(struct s_ctx *c, const struct bc_import_kv *o, const char *rw, cJSON *wl,
		       const char *key, uint64_t *out)
{
	char buf[128], sz[32];
	uint64_t n;

	if (!s_dir_value(c, o, rw, buf, sizeof(buf)))
		return false;
	if (strchr(buf, '-') || strchr(buf, ':')) {
		S_ODIFF(c, o, "%s=%s: a range of sizes has no equivalent (bssplit does)", o->key,
			s_val(o));
		return false;
	}
	if (s_fio_bytes(buf, c->kb_base, &n) || !n || n % 512 || n > (1u << 30)) {
		S_ODIFF(c, o, "%s=%s: not a multiple of 512 bytes up to 1g", o->key, s_val(o));
		return false;
	}
	if (wl)
		cJSON_AddStringToObject(wl, key, bc_fmt_size(n, sz, sizeof(sz)));
	*out = n;
	return true;
}

static void s_random_distribution(struct s_ctx *c, const struct bc_import_kv *o, const char *rw,
				  cJSON *wl)
{
	char buf[128];
	const char *colon;

	if (!s_dir_value(c, o, rw, buf, sizeof(buf)))
		return;
	if (!s_random(rw)) /* fio uses it for random offsets only, as bench-coord does */
		return;
	if (!strcmp(buf, "random")) {
		cJSON_AddStringToObject(wl, "random_distribution", "uniform");
		return;
	}
	colon = strchr(buf, ':');
	if (!strncmp(buf, "zoned_abs", 9) || !colon) {
		S_ODIFF(c, o, "random_distribution=%s: no equivalent", s_val(o));
		return;
	}
	/* zipf:theta:center - a hot spot moved off the start */
	if (strncmp(buf, "zoned", 5) && strchr(colon + 1, ':')) {
		S_ODIFF(c, o, "random_distribution=%s: the center argument has no equivalent",
			s_val(o));
		return;
	}
	cJSON_AddStringToObject(wl, "random_distribution", buf);
}

/*
 * rate or rate_iops of a job into key of wl, scaled by mul/div (clones over
 * files): fio's value is per direction ("rate_iops=500" caps reads at 500
 * and writes at 500; "r,w[,t]" each its own), so a mix gets a cap per
 * direction and a job of one direction the cap of that one.
 */
static void s_rate(struct s_ctx *c, const struct bc_import_kv *o, const char *rw, cJSON *wl,
		   const char *key, uint64_t mul, uint64_t div)
{
	const char *v = o ? s_val(o) : NULL;
	char part[3][64] = {"", "", ""}, k2[32];
	uint64_t r[2] = {0, 0};
	int n = 0, d;

	if (!o)
		return;
	for (const char *p = v; n < 3; n++) {
		size_t k = strcspn(p, ",");

		snprintf(part[n], sizeof(part[n]), "%.*s", (int)k, p);
		if (!p[k])
			break;
		p += k + 1;
	}
	/* fio: an empty or missing write value is the read value */
	if (!part[1][0])
		snprintf(part[1], sizeof(part[1]), "%s", part[0]);
	for (d = 0; d < 2; d++) {
		if (part[d][0] && s_fio_bytes(part[d], c->kb_base, &r[d])) {
			S_ODIFF(c, o, "%s=%s: not a rate bench-coord can express", o->key, v);
			return;
		}
		r[d] = r[d] * mul / (div ? div : 1);
	}
	if (strstr(rw, "trim") && (n > 1 ? part[2][0] : part[0][0]))
		S_ODIFF(c, o, "%s=%s on trims: no equivalent", o->key, v);
	if (s_mixed(rw)) {
		for (d = 0; d < 2; d++) {
			snprintf(k2, sizeof(k2), "%s_%s", key, d ? "write" : "read");
			if (r[d])
				cJSON_AddNumberToObject(wl, k2, (double)r[d]);
		}
		return;
	}
	d = strstr(rw, "write") ? 1 : 0;
	if (r[d])
		cJSON_AddNumberToObject(wl, key, (double)r[d]);
}

/*
 * What a job writes, as fio fills its buffers (io_u.c fill_io_buffer, init.c):
 * compressible (buffer_compress_percentage, its zeros or buffer_pattern),
 * all pattern (buffer_pattern alone, or compress 100 = zero_buffers), all
 * zeros (zero_buffers). fio writes over a pattern or zeros its
 * small_content_scramble per write ("scramble") unless zero_buffers was
 * asked, refill_buffers set or scramble_buffers=0. Its default content is
 * reused random buffers with that scramble; bench-coord's is fresh random
 * data, a note says the difference.
 */
static void s_content(struct s_ctx *c, const struct s_view *v, struct s_job *j, cJSON *wl,
		      bool writes)
{
	const struct bc_import_kv *pat = s_opt(v, "buffer_pattern", NULL),
				  *zero = s_opt(v, "zero_buffers", NULL);
	const cJSON *cp = cJSON_GetObjectItem(wl, "compress_pct");
	bool verify = cJSON_IsTrue(cJSON_GetObjectItem(wl, "verify")),
	     refill = s_bool(s_get(v, "refill_buffers")),
	     scr = !s_get(v, "scramble_buffers") || s_bool(s_get(v, "scramble_buffers")),
	     dedupe = cJSON_GetObjectItem(wl, "dedupe_pct") != NULL;
	double pct = cp ? cp->valuedouble : 0;

	if (zero && !s_bool(s_val(zero)))
		zero = NULL;
	if (!writes)
		return;
	if (verify) {
		/* fio's verify writes its own headers and pattern over the buffers */
		if (pat || zero || cp || dedupe)
			s_note(c,
			       "job %s: verify writes its headers as the content, as fio's does: "
			       "buffer_pattern, zero_buffers and compression are left out",
			       j->name);
		cJSON_DeleteItemFromObject(wl, "compress_pct");
		cJSON_DeleteItemFromObject(wl, "compress_chunk");
		cJSON_DeleteItemFromObject(wl, "dedupe_pct");
		cJSON_DeleteItemFromObject(wl, "dedupe_unit");
		return;
	}
	if (pat) {
		const char *pv = s_val(pat);

		if (strncmp(pv, "0x", 2) && strncmp(pv, "0X", 2) && *pv != '"' && *pv != '\'') {
			S_ODIFF(c, pat, "buffer_pattern=%s: hex (0x...) or quoted text", pv);
			return;
		}
		cJSON_AddStringToObject(wl, "buffer_pattern", pv);
		if (!cp && !dedupe) {
			cJSON_AddNumberToObject(wl, "compress_pct", 100);
			pct = 100;
		}
	} else if (zero && !cp && !dedupe) {
		/* asked for: zeros and nothing else, not even fio's scramble */
		cJSON_AddNumberToObject(wl, "compress_pct", 100);
		return;
	}
	if (pct >= 100) {
		if (dedupe) {
			S_ODIFF(c, s_opt(v, "dedupe_percentage", NULL),
				"dedupe_percentage with a whole pattern: every write is the same");
			return;
		}
		if (scr && !refill)
			cJSON_AddBoolToObject(wl, "scramble", true);
		return;
	}
	if (!cp && !dedupe && !refill)
		s_note(c,
		       "job %s: fio writes one random buffer per I/O slot again and again with "
		       "24 of each 512 bytes changed (zlib: ~1.08:1 per 4 KiB, more across "
		       "blocks); bench-coord writes incompressible data unique per 4 KiB "
		       "(docs/fio.md, \"Data written\")",
		       j->name);
}

/* fio's zonemode=strided (the default with a zonesize): zone_size, zone_range, zone_skip */
static void s_zones(struct s_ctx *c, const struct s_view *v, cJSON *wl)
{
	static const char *const fio[] = {"zonesize", "zonerange", "zoneskip"}, *const key[] = {
										    "zone_size",
										    "zone_range",
										    "zone_skip"};
	const struct bc_import_kv *o = s_opt(v, "zonemode", NULL);
	uint64_t n;
	char sz[32];
	int i;

	if (o && !strcmp(s_val(o), "none")) {
		bc_import_add(c->inert, "%s", o->key); /* fio ignores the zone sizes */
		return;
	}
	if (o && strcmp(s_val(o), "strided")) {
		S_ODIFF(c, o,
			"zonemode=%s: zoned block devices (zone resets, write pointers) have no "
			"equivalent",
			s_val(o));
		return;
	}
	if (!s_opt(v, "zonesize", NULL))
		return;
	for (i = 0; i < 3; i++) {
		if (!(o = s_opt(v, fio[i], NULL)))
			continue;
		if (strchr(s_val(o), '%') || s_fio_bytes(s_val(o), c->kb_base, &n) || n % 512) {
			S_ODIFF(c, o, "%s=%s: whole 512-byte sectors", o->key, s_val(o));
			continue;
		}
		if (n)
			cJSON_AddStringToObject(wl, key[i], bc_fmt_size(n, sz, sizeof(sz)));
	}
}

static bool s_is_bdev(const char *path)
{
	return !strncmp(path, "/dev/", 5);
}

/* a job's file key as a profile path ("null:job" keys are null targets) */
static const char *s_path(const char *key)
{
	return !strncmp(key, "null:", 5) ? "null" : key;
}

/*
 * fio's steadystate=iops:2% (ss), ss_dur, ss_ramp: "stop_steady". fio judges
 * each job alone, or its group's total with group_reporting; a step is
 * judged on its total.
 */
static void s_steadystate(struct s_ctx *c, const struct s_view *v, const struct bc_import_kv *o,
			  const struct s_job *j, unsigned numjobs, cJSON *wl)
{
	const struct bc_import_kv *dur = s_opt(v, "steadystate_duration", "ss_dur"),
				  *ramp = s_opt(v, "steadystate_ramp_time", "ss_ramp"),
				  *ival = s_opt(v, "steadystate_check_interval", "ss_interval");
	struct bc_steady_spec ss;
	unsigned win = 0, rs = 0, iv;
	cJSON *x;

	if (bc_steady_parse(s_val(o), &ss)) {
		S_ODIFF(
		    c, o,
		    "%s=%s: iops, iops_slope, bw or bw_slope, a colon and a limit (\"iops:2%%\")",
		    o->key, s_val(o));
		return;
	}
	/* fio keeps no window without ss_dur: it judges nothing */
	if (!dur) {
		s_note(c, "job %s: %s=%s without ss_dur: fio judges no window, nor does the step",
		       j->name, o->key, s_val(o));
		return;
	}
	if (!s_secs(c, dur, &win) || (ramp && !s_secs(c, ramp, &rs)))
		return;
	if (win < 3) {
		S_ODIFF(c, dur, "ss_dur=%s: bench-coord judges windows of 3 seconds at least",
			s_val(dur));
		return;
	}
	if (ival && (!s_secs(c, ival, &iv) || iv != 1)) {
		S_ODIFF(c, ival, "ss_interval=%s: bench-coord judges the series of whole seconds",
			s_val(ival));
		return;
	}
	x = cJSON_AddObjectToObject(wl, "stop_steady");
	cJSON_AddStringToObject(x, "criterion", s_val(o));
	cJSON_AddNumberToObject(x, "window", win);
	if (rs)
		cJSON_AddNumberToObject(x, "ramp", rs);
	if (!ss.pct && (ss.metric == BC_SS_BW || ss.metric == BC_SS_BW_SLOPE))
		s_note(c, "job %s: %s=%s: the absolute limit is read as bytes per second", j->name,
		       o->key, s_val(o));
	if (numjobs > 1 && !s_bool(s_get(v, "group_reporting") ? s_get(v, "group_reporting") : "0"))
		s_note(c,
		       "job %s: %s: fio judges each of the %u clones alone without "
		       "group_reporting; the step is judged on its total",
		       j->name, o->key, numjobs);
}

/*
 * fio's fill_device (fill_fs): write until the target is full. On a block
 * device that is one sequential pass over it from offset to its end
 * (stop_window_pct 100); on a file fio fills the filesystem holding it,
 * which no volume's window is.
 */
static bool s_fill_device(struct s_ctx *c, const struct bc_import_kv *o, const struct s_job *j,
			  const char *rw)
{
	int f;

	for (f = 0; f < j->nfiles; f++)
		if (!s_is_bdev(s_path(j->files[f]))) {
			S_ODIFF(c, o,
				"%s=%s on %s: fio writes until the filesystem holding the file "
				"is full (ENOSPC); a volume is a window of its own size: name a "
				"block device, or write the file once with size=",
				o->key, s_val(o), s_path(j->files[f]));
			return false;
		}
	if (strcmp(rw, "write")) {
		S_ODIFF(c, o, "%s=%s with rw=%s: fio fills a device with sequential writes", o->key,
			s_val(o), rw);
		return false;
	}
	return true;
}

/*
 * fio's plids / fdp_pli: placement ID indexes, "0,2,5" or ranges "1,2-4";
 * at most 16 (fio's FIO_MAX_DP_IDS, bench-coord's BC_FDP_PIDS_MAX)
 */
static bool s_plids(struct s_ctx *c, const struct bc_import_kv *o, struct s_job *j)
{
	const char *p = s_val(o);
	char *end;

	j->nplids = 0;
	while (*p) {
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p || lo > 65535)
			goto bad;
		p = end;
		if (*p == '-') {
			hi = strtoul(++p, &end, 10);
			if (end == p || hi < lo || hi > 65535)
				goto bad;
			p = end;
		}
		for (; lo <= hi; lo++) {
			if (j->nplids == BC_FDP_PIDS_MAX) {
				S_ODIFF(c, o, "%s=%s: at most %d placement IDs", o->key, s_val(o),
					BC_FDP_PIDS_MAX);
				return false;
			}
			j->plids[j->nplids++] = (uint16_t)lo;
		}
		if (*p && *p++ != ',')
			goto bad;
	}
	if (j->nplids)
		return true;
bad:
	S_ODIFF(c, o, "%s=%s: a list of placement indexes (\"0,2,5\", \"1-4\")", o->key, s_val(o));
	return false;
}

/*
 * ioengine=io_uring_cmd: NVMe passthrough on a generic char device, as
 * bench-coord's nvme target (docs/nvme.md); fio's FDP options, per job,
 * become the volume's "fdp" and the job's "placement" (s_fdp_volumes).
 * fio uses FDP only on this engine (and xnvme, refused).
 */
static bool s_passthrough(struct s_ctx *c, const struct s_view *v, const struct bc_import_kv *eng_o,
			  struct s_job *j)
{
	const struct bc_import_kv *o = s_opt(v, "cmd_type", NULL),
				  *dp = s_opt(v, "dataplacement", NULL),
				  *fdp = s_opt(v, "fdp", NULL), *pl = s_opt(v, "plids", "fdp_pli"),
				  *sel = s_opt(v, "plid_select", "fdp_pli_select");
	bool cmd = s_passthru_engine(eng_o);
	int f;

	if (cmd && o && strcmp(s_val(o), "nvme")) {
		S_ODIFF(c, o, "cmd_type=%s: only NVMe commands (cmd_type=nvme) have an equivalent",
			s_val(o));
		return false;
	}
	for (f = 0; cmd && f < j->nfiles; f++)
		if (strncmp(j->files[f], "/dev/ng", 7)) {
			S_ODIFF(c, eng_o,
				"ioengine=%s on %s: bench-coord passes NVMe commands through a "
				"generic char device /dev/ngXnY only",
				s_val(eng_o), j->files[f]);
			return false;
		}
	/* dataplacement= wins over fdp= (fio: fdp=1 is dataplacement=fdp) */
	/* a placement refused leaves the job's writes without one (what --lenient imports) */
	if (dp && !strcmp(s_val(dp), "streams")) {
		S_ODIFF(c, dp,
			"dataplacement=streams: NVMe Streams directives (DTYPE 1) have no "
			"equivalent; FDP (dataplacement=fdp) has");
		return true;
	}
	if (dp && strcmp(s_val(dp), "fdp") && strcmp(s_val(dp), "none")) {
		S_ODIFF(c, dp, "dataplacement=%s: none, fdp or streams", s_val(dp));
		return true;
	}
	j->fdp = dp ? !strcmp(s_val(dp), "fdp") : fdp && s_bool(s_val(fdp));
	j->fdp_o = dp ? dp : fdp;
	if (!j->fdp) {
		/* fio reads them only for a placement */
		if (pl)
			bc_import_add(c->inert, "%s", pl->key);
		if (sel)
			bc_import_add(c->inert, "%s", sel->key);
		return true;
	}
	if (!cmd)
		S_ODIFF(
		    c, j->fdp_o,
		    "%s=%s: FDP placement needs ioengine=io_uring_cmd on /dev/ngXnY (fio's other "
		    "engines here have no placement)",
		    j->fdp_o->key, s_val(j->fdp_o));
	else if (sel && strcmp(s_val(sel), "random") && strcmp(s_val(sel), "roundrobin"))
		S_ODIFF(c, sel,
			"%s=%s: roundrobin or random (a scheme file of LBA ranges has no "
			"equivalent; streams with a range and a placement have, docs/fdp.md)",
			sel->key, s_val(sel));
	else if (!pl || s_plids(c, pl, j)) {
		/* no plids: every handle the namespace reports, up to 16 (nplids 0: "all") */
		j->fdp_random = sel && !strcmp(s_val(sel), "random");
		return true;
	}
	j->fdp = false;
	return true;
}

/* fio's prioclass / cmdprio_class value (ionice's numbers) as the profile's class name */
static const char *s_prio_class(const char *v, bool cmd)
{
	static const char *const names[] = {"be", "rt", "be", "idle"};
	unsigned n;

	/* class 0 (none) is best effort in fio's ioprio_value; cmdprio_class starts at 1 */
	if (!s_uint(v, 3, &n) || (cmd && !n))
		return NULL;
	return names[n];
}

/*
 * The I/O priority of each read and write, as fio's io_uring engine puts it
 * on the SQE: prio/prioclass for all of them (fio: prio alone is class be,
 * a class alone level 0), cmdprio_percentage of them with cmdprio_class
 * (default rt) and cmdprio (default 0) instead. fio's cmdprio options
 * exist on its io_uring and libaio engines only.
 */
static void s_prio(struct s_ctx *c, const struct s_view *v, const struct bc_import_kv *eng_o,
		   enum s_engine eng, const char *rw, cJSON *wl)
{
	const struct bc_import_kv *pr = s_opt(v, "prio", NULL), *pc = s_opt(v, "prioclass", NULL),
				  *pct = s_opt(v, "cmdprio_percentage", NULL), *o;
	const char *e = eng_o ? s_val(eng_o) : "psync", *cls;
	char buf[128];
	unsigned n = 0;

	if (s_passthru_engine(eng_o) || eng == S_ENG_NULL) {
		/* fio's null engine drops it; passthrough commands carry no I/O priority */
		for (o = pr ? pr : pc ? pc : pct; o; o = NULL) {
			if (eng == S_ENG_NULL)
				bc_import_add(c->inert, "%s", o->key);
			else
				S_ODIFF(c, o,
					"%s=%s with ioengine=%s: an I/O priority on "
					"passthrough commands has no equivalent",
					o->key, s_val(o), e);
		}
		return;
	}
	if (pr || pc) {
		if (pr && !s_uint(s_val(pr), 7, &n))
			S_ODIFF(c, pr, "prio=%s: expected 0..7", s_val(pr));
		else if (pc && !(cls = s_prio_class(s_val(pc), false)))
			S_ODIFF(c, pc, "prioclass=%s: expected 0..3", s_val(pc));
		else {
			cJSON_AddStringToObject(wl, "ioprio_class",
						pc ? s_prio_class(s_val(pc), false) : "be");
			if (n)
				cJSON_AddNumberToObject(wl, "ioprio", n);
		}
	}
	if ((o = s_opt(v, "priohint", NULL)) && !strcmp(s_val(o), "0"))
		bc_import_add(c->inert, "%s", o->key);
	else if (o)
		S_ODIFF(c, o,
			"priohint=%s: I/O priority hints (command duration limits) have no "
			"equivalent",
			s_val(o));
	if ((o = s_opt(v, "cmdprio_hint", NULL)) && !strcmp(s_val(o), "0"))
		bc_import_add(c->inert, "%s", o->key);
	else if (o)
		S_ODIFF(c, o,
			"cmdprio_hint=%s: I/O priority hints (command duration limits) have "
			"no equivalent",
			s_val(o));
	if (!pct)
		return;
	if (strcmp(e, "io_uring") && strcmp(e, "libaio")) {
		S_ODIFF(c, pct,
			"cmdprio_percentage=%s: fio has it on io_uring and libaio only, not "
			"ioengine=%s",
			s_val(pct), e);
		return;
	}
	if (!s_dir_value(c, pct, rw, buf, sizeof(buf)))
		return;
	if (!s_uint(buf, 100, &n)) {
		S_ODIFF(c, pct, "cmdprio_percentage=%s: expected 0..100", s_val(pct));
		return;
	}
	if (!n)
		return;
	cJSON_AddNumberToObject(wl, "cmdprio_pct", n);
	if ((o = s_opt(v, "cmdprio_class", NULL)) && s_dir_value(c, o, rw, buf, sizeof(buf))) {
		if (!(cls = s_prio_class(buf, true)))
			S_ODIFF(c, o, "cmdprio_class=%s: expected 1..3", s_val(o));
		else if (strcmp(cls, "rt"))
			cJSON_AddStringToObject(wl, "cmdprio_class", cls);
	}
	if ((o = s_opt(v, "cmdprio", NULL)) && s_dir_value(c, o, rw, buf, sizeof(buf))) {
		if (!s_uint(buf, 7, &n))
			S_ODIFF(c, o, "cmdprio=%s: expected 0..7", s_val(o));
		else if (n)
			cJSON_AddNumberToObject(wl, "cmdprio", n);
	}
}

/*
 * fio's io_uring SQE flags: nowait (RWF_NOWAIT on reads and writes) and
 * force_async (IOSQE_ASYNC every Nth); nice, the job thread's nice value
 */
static void s_sqe_opts(struct s_ctx *c, const struct s_view *v, const struct bc_import_kv *eng_o,
		       cJSON *wl)
{
	const char *e = eng_o ? s_val(eng_o) : "psync";
	const struct bc_import_kv *o;
	unsigned n;

	if ((o = s_opt(v, "nowait", NULL)) && s_bool(s_val(o))) {
		/* fio's engines with it: pvsync2, libaio, io_uring (io_uring_cmd: a command flag)
		 */
		if (strcmp(e, "io_uring") && strcmp(e, "libaio") && strcmp(e, "pvsync2"))
			S_ODIFF(c, o, "nowait=%s with ioengine=%s: %s", s_val(o), e,
				strcmp(e, "io_uring_cmd")
				    ? "fio has it on pvsync2, libaio and io_uring only"
				    : "RWF_NOWAIT on passthrough commands has no equivalent");
		else
			cJSON_AddBoolToObject(wl, "nowait", true);
	} else if (o) {
		bc_import_add(c->inert, "%s", o->key);
	}
	if ((o = s_opt(v, "force_async", NULL))) {
		if (!s_uint(s_val(o), 1u << 30, &n))
			S_ODIFF(c, o, "force_async=%s: expected a count of SQEs", s_val(o));
		else if (n && strcmp(e, "io_uring") && strcmp(e, "io_uring_cmd"))
			S_ODIFF(c, o,
				"force_async=%s: fio has it on io_uring and io_uring_cmd only, "
				"not ioengine=%s",
				s_val(o), e);
		else if (n)
			cJSON_AddNumberToObject(wl, "force_async", n);
		else
			bc_import_add(c->inert, "%s", o->key);
	}
	if ((o = s_opt(v, "nice", NULL))) {
		char *end;
		long nv = strtol(s_val(o), &end, 10);

		if (*end || end == s_val(o) || nv < -20 || nv > 19)
			S_ODIFF(c, o, "nice=%s: expected -20..19", s_val(o));
		else if (nv)
			cJSON_AddNumberToObject(wl, "nice", (double)nv);
	}
}

/*
 * fio's file engines (filecreate, filestat, filedelete): each clone's
 * nrfiles files of filesize in directory= are one file set of depth 0 (a
 * job's files its own), the engine a "meta" kind, one operation at a time
 * per clone as fio's sync engines; without time_based, each file once per
 * loop. The files are the file set's (vdb_f0001.file ...), not
 * filename_format's names.
 */
static bool s_meta_job(struct s_ctx *c, const struct bc_import_sec *sec, const struct s_view *v,
		       const struct bc_import_kv *eng_o, unsigned numjobs, unsigned runtime,
		       unsigned ramp, bool time_based, uint64_t loops, struct s_job *j)
{
	const char *e = s_val(eng_o), *dir = s_get(v, "directory");
	const char *kind = !strcmp(e, "filecreate") ? "create"
			   : !strcmp(e, "filestat") ? "getattr"
						    : "delete";
	const struct bc_import_kv *o;
	unsigned nrfiles = 1;
	uint64_t size = 0;
	char path[BC_PATH_MAX], sz[32];
	cJSON *wl = j->wl;

	if ((o = s_opt(v, "nrfiles", NULL)) && (!s_uint(s_val(o), 1000000, &nrfiles) || !nrfiles)) {
		S_ODIFF(c, o, "nrfiles=%s: expected 1..1000000", s_val(o));
		return false;
	}
	if ((o = s_opt(v, "filesize", NULL)) || (o = s_opt(v, "size", NULL))) {
		if (strchr(s_val(o), '-') || strchr(s_val(o), '%') || !s_size(c, o, &size)) {
			S_ODIFF(c, o, "%s=%s: a file engine's files take one size", o->key,
				s_val(o));
			return false;
		}
		if (!strcmp(o->key, "size"))
			size /= nrfiles;
	}
	size = size < 512 ? 512 : size / 512 * 512;
	if (dir && strchr(dir, ':')) {
		S_ODIFF(c, s_opt(v, "directory", NULL),
			"directory=%s: one directory for a file engine's files", dir);
		return false;
	}
	/* fio's default is the current directory: one name, so create, stat and delete meet */
	snprintf(path, sizeof(path), "%s", dir ? dir : "fio-files");
	j->files[0] = strdup(path);
	if (!j->files[0])
		return false;
	j->nfiles = 1;
	j->numjobs = numjobs;
	j->meta_files = nrfiles * numjobs;
	j->meta_size = size;
	cJSON_AddStringToObject(wl, "meta", kind);
	cJSON_AddNumberToObject(wl, "iodepth", 1);
	cJSON_AddNumberToObject(wl, "numjobs", numjobs);
	/* filecreate makes files that are not there: the directory as it is */
	cJSON_AddStringToObject(wl, "fileset_format", strcmp(kind, "create") ? "restart" : "none");
	if (!time_based) {
		cJSON_AddBoolToObject(wl, "size_based", true);
		if (loops > 1 && strcmp(kind, "getattr"))
			s_note(c, "job %s: loops=%llu: a %s acts on each file once", j->name,
			       (unsigned long long)loops, kind);
		else if (loops > 1)
			cJSON_AddNumberToObject(wl, "passes", (double)loops);
		if (!runtime)
			runtime = S_UNBOUNDED_S;
	}
	cJSON_AddNumberToObject(wl, "ramp", ramp);
	cJSON_AddNumberToObject(wl, "runtime", runtime ? runtime : 10);
	s_note(c,
	       "job %s: ioengine=%s: \"meta\": \"%s\" on a file set of %u files of %s in %s "
	       "(numjobs=%u clones x nrfiles=%u, each clone its own), named as the file set "
	       "names them (vdb_f0001.file ...), not by filename_format%s",
	       j->name, e, kind, j->meta_files, bc_fmt_size(size, sz, sizeof(sz)), path, numjobs,
	       nrfiles,
	       !strcmp(kind, "create")
		   ? "; files already there are not created again (fio would open them): start "
		     "from an empty directory"
		   : "; PREPARE makes the files that are missing");
	return true;
}

/* what one job section asks for, in j; false when it cannot run (a difference says why) */
/*
 * The options fio's engines bench-coord maps define for themselves (fio's
 * engines/io_uring.c, libaio.c, sync.c, mmap.c, xnvme.c and cmdprio.h): with
 * any other ioengine fio does not know them and stops ("Bad option")
 */
static const struct {
	const char *name, *engines; /* engines: space-separated, each with a space after */
} s_engine_own[] = {
    {"userspace_reap", "libaio "},
    {"libaio_vectored", "libaio "},
    {"nowait", "io_uring io_uring_cmd libaio pvsync2 "},
    {"hipri", "io_uring io_uring_cmd pvsync2 xnvme "},
    {"hipri_percentage", "pvsync2 "},
    {"uncached", "io_uring io_uring_cmd pvsync2 "},
    {"sqthread_poll", "io_uring io_uring_cmd xnvme "},
    {"sqthread_poll_cpu", "io_uring io_uring_cmd "},
    {"fixedbufs", "io_uring io_uring_cmd "},
    {"registerfiles", "io_uring io_uring_cmd "},
    {"nonvectored", "io_uring io_uring_cmd "},
    {"force_async", "io_uring io_uring_cmd "},
    {"cmd_type", "io_uring io_uring_cmd "},
    {"readfua", "io_uring io_uring_cmd sg "},
    {"writefua", "io_uring io_uring_cmd sg "},
    {"read_mode", "io_uring io_uring_cmd "},
    {"write_mode", "io_uring io_uring_cmd "},
    {"verify_mode", "io_uring io_uring_cmd "},
    {"cdb_len", "io_uring io_uring_cmd "},
    {"verify_bytchk", "io_uring io_uring_cmd "},
    {"deac", "io_uring io_uring_cmd "},
    {"cmdprio_percentage", "io_uring io_uring_cmd libaio "},
    {"cmdprio_class", "io_uring io_uring_cmd libaio "},
    {"cmdprio", "io_uring io_uring_cmd libaio "},
    {"cmdprio_hint", "io_uring io_uring_cmd libaio "},
    {"cmdprio_bssplit", "io_uring io_uring_cmd libaio "},
    {"thp", "mmap "},
    {"xnvme_be", "xnvme "},
    {"xnvme_mem", "xnvme "},
    {"xnvme_async", "xnvme "},
    {"xnvme_sync", "xnvme "},
    {"xnvme_admin", "xnvme "},
    {"xnvme_iovec", "xnvme "},
    {"xnvme_dev_nsid", "xnvme "},
    {"xnvme_dev_subnqn", "xnvme "},
};

/* a word of a space-separated list (each word with a space after) */
static bool s_in_words(const char *words, const char *w)
{
	size_t n = strlen(w);
	const char *p = words;

	while ((p = strstr(p, w))) {
		if ((p == words || p[-1] == ' ') && p[n] == ' ')
			return true;
		p += n;
	}
	return false;
}

/* an engine's own option under another engine: fio stops at it */
static void s_engine_own_opts(struct s_ctx *c, const struct s_view *v,
			      const struct bc_import_kv *eng_o)
{
	const char *eng = eng_o ? s_val(eng_o) : "psync"; /* fio's default on Linux */
	size_t i;

	if (!strncmp(eng, "external", 8))
		return; /* an engine of its own: fio asks it, and it is a difference already */
	for (i = 0; i < sizeof(s_engine_own) / sizeof(s_engine_own[0]); i++) {
		const struct bc_import_kv *o = s_opt(v, s_engine_own[i].name, NULL);
		char list[64], *sp;

		if (!o || s_in_words(s_engine_own[i].engines, eng))
			continue;
		snprintf(list, sizeof(list), "%s", s_engine_own[i].engines);
		list[strlen(list) - 1] = '\0';
		while ((sp = strchr(list, ' ')))
			*sp = '/';
		S_ODIFF(c, o,
			"%s: an option of fio's %s engine: with ioengine=%s fio stops with 'Bad "
			"option'",
			o->key, list, eng);
	}
}

static bool s_job(struct s_ctx *c, const struct bc_import_sec *sec, const struct s_view *v,
		  struct s_job *j)
{
	const struct bc_import_kv *o, *eng_o = s_opt(v, "ioengine", NULL), *iodepth_low_o,
				      *fill_o = s_opt(v, "fill_device", "fill_fs");
	const char *x, *rw, *dir = s_get(v, "directory");
	enum s_engine eng;
	bool direct, time_based = s_bool(s_get(v, "time_based")), shared, until_stopped = false,
		     fill = fill_o && s_bool(s_val(fill_o));
	unsigned iodepth = 1, numjobs = 1, n, ramp = 0, runtime = 0, nrfiles = 1, pct;
	uint64_t bs = 4096, size = 0, io_size = 0, inc = 0, loops = 1, nios_bytes = 0;
	char *x_end;
	double think_us = 0;
	cJSON *wl;
	int k, f;

	j->sec = sec;
	/* sizes read as this job's kb_base says (fio's default 1024) */
	c->kb_base = 1024;
	if ((o = s_opt(v, "kb_base", NULL))) {
		if (!strcmp(s_val(o), "1000"))
			c->kb_base = 1000;
		else if (strcmp(s_val(o), "1024"))
			S_ODIFF(c, o, "kb_base=%s: 1024 or 1000", s_val(o));
	}
	bc_import_sanitize(s_get(v, "name") ? s_get(v, "name") : sec->name, j->name,
			   sizeof(j->name));
	o = s_opt(v, "rw", "readwrite");
	rw = o ? s_map_rw(c, o) : "read";
	if (!rw)
		return false;
	/* fio's default is buffered I/O, bench-coord's direct: always say which */
	o = s_opt(v, "direct", NULL);
	direct = o ? s_bool(s_val(o)) : s_get(v, "buffered") && !s_bool(s_get(v, "buffered"));
	eng = s_engine(c, v, eng_o, direct);
	if (eng == S_ENG_OTHER)
		return false;
	s_engine_own_opts(c, v, eng_o);
	/* passthrough has no page cache whatever direct= says: the nvme target's I/O */
	if (s_passthru_engine(eng_o))
		direct = true;
	j->wl = wl = cJSON_CreateObject();
	cJSON_AddStringToObject(wl, "rw", rw);
	if (s_mixed(rw)) {
		unsigned mix = 50;

		if ((o = s_opt(v, "rwmixread", NULL)) && !s_uint(s_val(o), 100, &mix))
			S_ODIFF(c, o, "rwmixread=%s: fio reads a whole percent 0..100", s_val(o));
		else if (!o && (o = s_opt(v, "rwmixwrite", NULL))) {
			if (s_uint(s_val(o), 100, &n))
				mix = 100 - n;
			else
				S_ODIFF(c, o, "rwmixwrite=%s: fio reads a whole percent 0..100",
					s_val(o));
		}
		cJSON_AddNumberToObject(wl, "rwmixread", mix);
	}
	if ((o = s_opt(v, "bssplit", NULL))) {
		char buf[128] = "";
		const char *sl;
		bool frac = false;

		/*
		 * fio reads a split's percents with atoi (4k/10.5 is 10); a
		 * profile's have decimals, so a fraction would change the mix
		 */
		if (s_dir_value(c, o, rw, buf, sizeof(buf)))
			for (sl = strchr(buf, '/'); sl; sl = strchr(sl + 1, '/'))
				frac |= sl[1 + strspn(sl + 1, "0123456789")] == '.';
		if (frac)
			S_ODIFF(c, o,
				"bssplit=%s: fio reads whole percents (10.5 is 10), a profile "
				"its decimals; write the percents fio uses",
				s_val(o));
		else if (*buf)
			cJSON_AddStringToObject(wl, "bs", buf);
	} else if ((o = s_opt(v, "blocksize_range", "bsrange")) ||
		   ((o = s_opt(v, "bs", "blocksize")) && strchr(s_val(o), '-'))) {
		s_bs_range(c, o, rw, wl, &bs);
	} else if ((o = s_opt(v, "bs", "blocksize"))) {
		s_size_key(c, o, rw, wl, "bs", &bs);
	} else {
		cJSON_AddStringToObject(wl, "bs", "4k");
	}
	if ((o = s_opt(v, "rw", "readwrite")) && strchr(s_val(o), ':'))
		s_rw_modifier(c, o, v, rw, wl);
	if ((o = s_opt(v, "blockalign", "ba")) && s_random(rw))
		s_size_key(c, o, rw, wl, "blockalign", &bs);
	if ((o = s_opt(v, "iodepth", NULL)) && (!s_uint(s_val(o), 65536, &iodepth) || !iodepth)) {
		S_ODIFF(c, o, "iodepth=%s: expected 1..65536", s_val(o));
		iodepth = 1;
	}
	/* checked once the engine's depth is known (below) */
	iodepth_low_o = s_opt(v, "iodepth_low", NULL);
	if ((o = s_opt(v, "numjobs", NULL)) && (!s_uint(s_val(o), 1024, &numjobs) || !numjobs)) {
		S_ODIFF(c, o, "numjobs=%s: expected 1..1024", s_val(o));
		numjobs = 1;
	}
	if (eng == S_ENG_SYNC && iodepth > 1) {
		x = eng_o ? s_val(eng_o) : "psync (the default)";
		s_note(c,
		       "job %s: ioengine=%s%s completes each I/O before the next: iodepth=%u has "
		       "no effect in fio, imported as iodepth 1",
		       j->name, x,
		       !strcmp(x, "libaio")  ? " on buffered I/O"
		       : !strcmp(x, "xnvme") ? " (its emu backend: one thread over the NVMe ioctl)"
					     : "",
		       iodepth);
		iodepth = 1;
	}
	if ((o = s_opt(v, "loops", NULL)) && strcmp(s_val(o), "1")) {
		unsigned nl;

		/*
		 * a size-bound job repeated: that many times its bytes; a
		 * time_based job repeats until its time is up whatever the
		 * count (fio's loops=90000000 beside time_based is common)
		 */
		if (time_based)
			;
		else if (!s_uint(s_val(o), 1000000, &nl) || !nl)
			S_ODIFF(c, o, "loops=%s: expected a count from 1 to 1000000", s_val(o));
		else
			loops = nl;
	}
	if ((o = s_opt(v, "ramp_time", NULL)))
		s_secs(c, o, &ramp);
	if ((o = s_opt(v, "runtime", "timeout")))
		s_secs(c, o, &runtime);
	if (time_based && !runtime) {
		/*
		 * fio runs it until it is stopped (Ctrl-C, or its harness's kill):
		 * so does the step - Ctrl-C ends it and keeps its figures - up to a
		 * cap, the harness's duration when --until-stopped gives it
		 */
		runtime = c->im->until_stopped_s ? c->im->until_stopped_s : S_UNBOUNDED_S;
		until_stopped = true;
		s_note(c,
		       "job %s: time_based without runtime runs until it is stopped, as in fio: "
		       "Ctrl-C ends the step and keeps its figures (at most %u s%s)",
		       j->name, runtime,
		       c->im->until_stopped_s ? ", --until-stopped"
					      : "; --until-stopped SECS sets it");
	}
	if (eng == S_ENG_META)
		return s_meta_job(c, sec, v, eng_o, numjobs, runtime, ramp, time_based, loops, j);
	/* files: fio's clones share the files named by filename=, else get their own */
	shared = (x = s_get(v, "filename")) != NULL;
	if (eng == S_ENG_NULL) {
		char key[BC_NAME_MAX + 8];

		/* no file behind fio's null engine; one null target per job, shared by clones */
		snprintf(key, sizeof(key), "null:%s", j->name);
		j->files[j->nfiles++] = strdup(key);
		shared = true;
	} else if (shared) {
		if (s_split_files(x, dir, j)) {
			S_ODIFF(c, s_opt(v, "filename", NULL),
				"more than %d files in filename=", S_MAX_FILES);
			return false;
		}
	} else {
		if ((o = s_opt(v, "nrfiles", NULL)) &&
		    (!s_uint(s_val(o), S_MAX_FILES, &nrfiles) || !nrfiles)) {
			S_ODIFF(c, o, "nrfiles=%s: expected 1..%d", s_val(o), S_MAX_FILES);
			nrfiles = 1;
		}
		if (numjobs * nrfiles > S_MAX_FILES) {
			s_diff(c, sec->src, sec->line, "job %s: numjobs x nrfiles above %d files",
			       j->name, S_MAX_FILES);
			return false;
		}
		/* fio's names: filename_format, by default jobname.clone.file */
		o = s_opt(v, "filename_format", NULL);
		if (o && strstr(s_val(o), "$clientuid")) {
			S_ODIFF(c, o,
				"filename_format=%s: $clientuid (client/server mode) has no "
				"equivalent",
				s_val(o));
			return false;
		}
		for (k = 0; k < (int)numjobs; k++) {
			for (f = 0; f < (int)nrfiles; f++) {
				char def[BC_PATH_MAX];

				s_format_name(o ? s_val(o) : "$jobname.$jobnum.$filenum", sec->name,
					      k, f, def, sizeof(def));
				if (s_split_files(def, dir, j))
					return false;
			}
		}
		if (numjobs > 1)
			s_note(c,
			       "job %s: numjobs=%u clones each on their own files (fio's "
			       "%s.N.0): %d volumes at iodepth %u each, driven by one thread "
			       "per agent rather than one per clone",
			       j->name, numjobs, sec->name, j->nfiles, iodepth);
	}
	if (!j->nfiles) {
		s_diff(c, sec->src, sec->line, "job %s: no usable filename", j->name);
		return false;
	}
	if (!s_passthrough(c, v, eng_o, j))
		return false;
	if (fill && !s_fill_device(c, fill_o, j, rw))
		return false;
	if (fill_o && !fill)
		bc_import_add(c->inert, "%s", fill_o->key);
	/*
	 * fio's filesize is each file's size, and size then only the job's bytes
	 * of I/O (io_size's default); without filesize, size is the job's total
	 * over its files, both the region and the bytes
	 */
	if (fill) {
		/* fio sets the size beyond any device: the pass ends at the device's end */
		if ((o = s_opt(v, "size", NULL)) || (o = s_opt(v, "filesize", NULL)))
			s_note(c,
			       "job %s: %s=%s: fill_device writes to the device's end, as in fio",
			       j->name, o->key, s_val(o));
	} else if ((o = s_opt(v, "filesize", NULL))) {
		if (strchr(s_val(o), '-'))
			S_ODIFF(c, o, "filesize=%s: ranges are not supported", s_val(o));
		else
			s_size(c, o, &j->size_per_file);
		if ((o = s_opt(v, "size", NULL)) && !s_opt(v, "io_size", "io_limit") &&
		    s_size(c, o, &size))
			io_size = size;
	} else if ((o = s_opt(v, "size", NULL)) && s_pct(s_val(o), &pct)) {
		/* a share of each file's real size (fio's size_percent): the job's window */
		if (!pct || pct > 100)
			S_ODIFF(c, o, "size=%s: fio reads an integer percent, 1 to 100", s_val(o));
		else if (pct < 100)
			s_pct_key(wl, "window_length", pct);
	} else if ((o = s_opt(v, "size", NULL)) && s_size(c, o, &size)) {
		j->size_per_file = size / (uint64_t)j->nfiles / 512 * 512;
		if (j->nfiles > 1 && shared)
			s_note(c, "job %s: size=%s is shared by %d files in fio: %llu bytes each",
			       j->name, s_val(o), j->nfiles, (unsigned long long)j->size_per_file);
		if (!shared)
			j->size_per_file = size / nrfiles / 512 * 512;
	}
	if ((o = s_opt(v, "offset", NULL)) && s_pct(s_val(o), &pct)) {
		/* fio's start_offset_percent: of each file's real size, rounded up to the bs */
		if (pct >= 100)
			S_ODIFF(c, o, "offset=%s: fio reads an integer percent, 0 to 99", s_val(o));
		else if (pct)
			s_pct_key(wl, "window_offset", pct);
	} else if ((o = s_opt(v, "offset", NULL)) && s_size(c, o, &j->offset) && j->offset % 512) {
		S_ODIFF(c, o, "offset=%s: not a multiple of 512 bytes", s_val(o));
		j->offset = 0;
	}
	if ((o = s_opt(v, "offset_increment", NULL)) && s_size(c, o, &inc) && inc && numjobs > 1) {
		/* clone k at offset + k x inc: when inc is the clone's size, that is the
		 * window split into numjobs regions, which is what bench-coord's jobs walk */
		if (!shared || inc != j->size_per_file ||
		    (s_get(v, "random_distribution") &&
		     strcmp(s_get(v, "random_distribution"), "random")))
			S_ODIFF(c, o,
				"offset_increment=%s: only regions of size= back to back on "
				"shared files (bench-coord's jobs split the window) have an "
				"equivalent",
				s_val(o));
		else
			j->size_per_file *= numjobs;
	} else if (shared && numjobs > 1 && !s_random(rw) && eng != S_ENG_NULL) {
		/* fio's clones each walk the whole file from its start: so do the jobs here */
		cJSON_AddStringToObject(wl, "seq_regions", "shared");
		s_note(c,
		       "job %s: numjobs=%u sequential clones each walk the whole file from its "
		       "start, as in fio (seq_regions: shared)",
		       j->name, numjobs);
	}
	/* the bytes of a size-bound job, per volume */
	if ((o = s_opt(v, "io_size", "io_limit")) && s_size(c, o, &io_size) && time_based)
		s_note(c, "job %s: io_size with time_based: fio runs for the runtime anyway",
		       j->name);
	/* number_ios: fio stops the job after that many I/Os, or earlier at its other end */
	if ((o = s_opt(v, "number_ios", NULL))) {
		unsigned long long nios = strtoull(s_val(o), &x_end, 10);

		if (*x_end || !nios)
			S_ODIFF(c, o, "number_ios=%s: expected a count", s_val(o));
		else if (s_opt(v, "bssplit", NULL) || s_opt(v, "blocksize_range", "bsrange") ||
			 (s_get(v, "bs") && strchr(s_get(v, "bs"), '-')))
			S_ODIFF(c, o,
				"number_ios=%s with several block sizes: a count of I/Os is no "
				"count of bytes",
				s_val(o));
		else
			nios_bytes = (uint64_t)nios * bs;
	}
	if (!time_based || nios_bytes) {
		uint64_t bytes = time_based ? 0 : (io_size ? io_size : size) * loops;
		char sz[32];

		uint64_t passes = 0;

		/* filesize alone: each clone's pass is its files, every loop */
		if (!time_based && !bytes)
			bytes = j->size_per_file * (shared ? (uint64_t)j->nfiles : nrfiles) * loops;
		if (nios_bytes && (!bytes || nios_bytes < bytes)) {
			bytes = nios_bytes;
			s_note(c, "job %s: number_ios: the job's bytes are %s x %llu", j->name,
			       s_val(s_opt(v, "number_ios", NULL)), (unsigned long long)bs);
		}
		/*
		 * no size known here (a device, a percent of it): the agent's one
		 * pass is the window once over all the jobs (random) or once per
		 * job (sequential clones from the start); fio's clones each do a
		 * pass of their own, every loop
		 */
		if (!bytes)
			passes = (uint64_t)loops * (shared && s_random(rw) ? numjobs : 1);
		if (passes > 1000000) {
			s_diff(c, sec->src, sec->line,
			       "job %s: %llu passes over the device (numjobs x loops): more than "
			       "1000000",
			       j->name, (unsigned long long)passes);
		} else if (passes > 1) {
			cJSON_AddNumberToObject(wl, "passes", (double)passes);
			s_note(c,
			       "job %s: %llu passes over the window (passes), as fio's numjobs=%u "
			       "clones x loops=%llu each do their own",
			       j->name, (unsigned long long)passes, numjobs,
			       (unsigned long long)loops);
		}

		cJSON_AddBoolToObject(wl, "size_based", true);
		if (bytes) {
			bytes = bytes / (uint64_t)(shared ? (unsigned)j->nfiles : nrfiles) *
				(shared ? numjobs : 1) / 512 * 512;
			cJSON_AddStringToObject(wl, "io_size", bc_fmt_size(bytes, sz, sizeof(sz)));
		}
		if (!runtime) {
			runtime = S_UNBOUNDED_S;
			s_note(c,
			       "job %s: not time_based and no runtime: the step ends when the "
			       "bytes are done (upper bound %d s)",
			       j->name, S_UNBOUNDED_S);
		}
	} else if (io_size) {
		io_size = 0;
	}
	if (fill) {
		/* one whole pass of every device the job writes, then the step ends */
		cJSON_DeleteItemFromObject(wl, "io_size");
		cJSON_DeleteItemFromObject(wl, "passes");
		if (!cJSON_GetObjectItem(wl, "size_based"))
			cJSON_AddBoolToObject(wl, "size_based", true);
		cJSON_AddNumberToObject(wl, "stop_window_pct", 100);
		s_note(c,
		       "job %s: %s: one sequential pass over the device to its end "
		       "(stop_window_pct 100)%s",
		       j->name, fill_o->key, time_based ? ", runtime is its cap" : "");
	}
	/* fio's rates are per clone over its files; the profile's per volume over all jobs */
	s_rate(c, s_opt(v, "rate", NULL), rw, wl, "rate_bw", shared ? numjobs : 1,
	       shared ? (unsigned)j->nfiles : nrfiles);
	s_rate(c, s_opt(v, "rate_iops", NULL), rw, wl, "rate_iops", shared ? numjobs : 1,
	       shared ? (unsigned)j->nfiles : nrfiles);
	if ((o = s_opt(v, "random_distribution", NULL)))
		s_random_distribution(c, o, rw, wl);
	if ((o = s_opt(v, "verify", NULL)) && strcmp(s_val(o), "0") && strcmp(s_val(o), "null")) {
		cJSON_AddBoolToObject(wl, "verify", true);
		s_note(c, "job %s: verify=%s: bench-coord checks its own CRC-32C headers", j->name,
		       s_val(o));
		j->verify_pass = strcmp(rw, "read") && strcmp(rw, "randread") &&
				 !(s_get(v, "do_verify") && !s_bool(s_get(v, "do_verify")));
		/* with a backlog fio checks the writes as it goes; its last pass the few left */
		if (j->verify_pass && s_opt(v, "verify_backlog", NULL) &&
		    strcmp(s_get(v, "verify_backlog"), "0")) {
			j->verify_pass = false;
			s_note(c,
			       "job %s: verify_backlog: every write is read back and checked as "
			       "the job goes, as in fio; the writes of a last, partial backlog at "
			       "the end of a timed job are not",
			       j->name);
		}
		if (bs % 4096)
			S_ODIFF(c, o,
				"verify with bs %llu: bench-coord verifies whole 4 KiB blocks",
				(unsigned long long)bs);
	}
	if ((o = s_opt(v, "thinktime", NULL))) {
		const struct bc_import_kv *tb = s_opt(v, "thinktime_blocks", NULL);

		if (!s_time(s_val(o), 1e-6, &think_us))
			S_ODIFF(c, o, "thinktime=%s: not a time", s_val(o));
		think_us *= 1e6;
		if (tb && strcmp(s_val(tb), "1"))
			S_ODIFF(c, tb,
				"thinktime_blocks=%s: pausing after a batch of I/Os has no "
				"equivalent (bench-coord pauses each slot)",
				s_val(tb));
		if (think_us > 0) {
			cJSON_AddNumberToObject(wl, "thinktime", ceil(think_us));
			/* fio waits for the I/O before its think time: one in flight */
			if (iodepth > 1)
				s_note(c,
				       "job %s: thinktime with thinktime_blocks=1 keeps one I/O in "
				       "flight in fio: iodepth=%u imported as 1",
				       j->name, iodepth);
			iodepth = 1;
		}
		if ((o = s_opt(v, "thinktime_spin", NULL)) && strcmp(s_val(o), "0"))
			s_note(c, "job %s: thinktime_spin: bench-coord sleeps the whole think time",
			       j->name);
	}
	/* fio raises an iodepth_low above the depth (or 0) to the depth: no low mark then */
	if (iodepth_low_o && !s_uint(s_val(iodepth_low_o), 65536, &n))
		S_ODIFF(c, iodepth_low_o, "iodepth_low=%s: expected a depth", s_val(iodepth_low_o));
	else if (iodepth_low_o && n && n < iodepth)
		cJSON_AddNumberToObject(wl, "iodepth_low", n);
	else if (iodepth_low_o)
		bc_import_add(c->inert, "%s", iodepth_low_o->key);
	/* fio's iodepth is per job over its files; the profile's per volume */
	if (shared && j->nfiles > 1 && iodepth > 1) {
		unsigned per = (iodepth + (unsigned)j->nfiles - 1) / (unsigned)j->nfiles;

		if (iodepth % (unsigned)j->nfiles)
			s_diff(c, sec->src, sec->line,
			       "job %s: iodepth=%u over %d files does not divide: %u per volume",
			       j->name, iodepth, j->nfiles, per);
		else
			s_note(c, "job %s: iodepth=%u over %d files: %u per volume", j->name,
			       iodepth, j->nfiles, per);
		iodepth = per;
	}
	cJSON_AddNumberToObject(wl, "iodepth", iodepth);
	cJSON_AddBoolToObject(wl, "direct", direct);
	/* the step-level keys */
	j->numjobs = shared ? numjobs : 1;
	cJSON_AddNumberToObject(wl, "numjobs", j->numjobs);
	cJSON_AddNumberToObject(wl, "ramp", ramp);
	cJSON_AddNumberToObject(wl, "runtime", runtime ? runtime : 10);
	if (until_stopped)
		cJSON_AddBoolToObject(wl, "until_stopped", true);
	if ((o = s_opt(v, "steadystate", "ss")))
		s_steadystate(c, v, o, j, numjobs, wl);
	else if ((o = s_opt(v, "steadystate_duration", "ss_dur")) ||
		 (o = s_opt(v, "steadystate_ramp_time", "ss_ramp")) ||
		 (o = s_opt(v, "steadystate_check_interval", "ss_interval")))
		bc_import_add(c->inert, "%s", o->key);
	if (!runtime && time_based)
		s_note(c, "job %s: no runtime: bench-coord's default 10 s", j->name);
	if ((o = s_opt(v, "iodepth_batch", "iodepth_batch_submit")) && s_uint(s_val(o), 65536, &n))
		cJSON_AddNumberToObject(wl, "iodepth_batch_submit", n ? n : iodepth);
	if ((o = s_opt(v, "iodepth_batch_complete_min", "iodepth_batch_complete")) &&
	    s_uint(s_val(o), 65536, &n) && n)
		cJSON_AddNumberToObject(wl, "iodepth_batch_complete", n);
	if (s_opt(v, "iodepth_batch_complete_max", NULL))
		s_note(c,
		       "job %s: iodepth_batch_complete_max: bench-coord reaps what is there, up "
		       "to the second boundary",
		       j->name);
	if ((o = s_opt(v, "cpus_allowed", NULL)))
		cJSON_AddStringToObject(wl, "cpus_allowed", s_val(o));
	if ((o = s_opt(v, "cpus_allowed_policy", NULL))) {
		if (strcmp(s_val(o), "shared") && strcmp(s_val(o), "split"))
			S_ODIFF(c, o, "cpus_allowed_policy=%s: shared or split only", s_val(o));
		else
			cJSON_AddStringToObject(wl, "cpus_allowed_policy", s_val(o));
	}
	if ((o = s_opt(v, "sqthread_poll", NULL)) && s_bool(s_val(o)))
		cJSON_AddBoolToObject(wl, "sqpoll", true);
	if ((o = s_opt(v, "sqthread_poll_cpu", NULL)) && s_uint(s_val(o), 1023, &n))
		cJSON_AddNumberToObject(wl, "sqpoll_cpu", n);
	if ((o = s_opt(v, "hipri", NULL)) && s_bool(s_val(o)))
		cJSON_AddBoolToObject(wl, "hipri", true);
	/* the options whose value alone decides their key */
	{
		struct s_jctx jx = {
		    .rw = rw, .name = j->name, .direct = direct, .bs = bs, .wl = wl};
		size_t t;

		for (t = 0; t < sizeof(s_fopts) / sizeof(s_fopts[0]); t++)
			if (s_fopts[t].conv && (o = s_opt(v, s_fopts[t].name, s_fopts[t].alias)))
				s_fopts[t].conv(c, o, &jx);
	}
	s_content(c, v, j, wl, strstr(rw, "write") || s_mixed(rw));
	s_prio(c, v, eng_o, eng, rw, wl);
	s_sqe_opts(c, v, eng_o, wl);
	s_zones(c, v, wl);
	if ((o = s_opt(v, "flow", NULL))) {
		if (!s_uint(s_val(o), 1u << 20, &n))
			S_ODIFF(c, o, "flow=%s: a weight 0 and up (fio 3's flow)", s_val(o));
		else if (n) {
			cJSON_AddNumberToObject(wl, "flow", n);
			if ((o = s_opt(v, "flow_id", NULL)) && strcmp(s_val(o), "0"))
				S_ODIFF(c, o,
					"flow_id=%s: one flow group per job thread (id 0) has an "
					"equivalent, others not",
					s_val(o));
		}
	}
	if ((o = s_opt(v, "verify_backlog", NULL)) && cJSON_GetObjectItem(wl, "verify")) {
		if (!s_uint(s_val(o), 1u << 20, &n))
			S_ODIFF(c, o, "verify_backlog=%s: a count of writes", s_val(o));
		else if (n)
			cJSON_AddNumberToObject(wl, "verify_backlog", n);
	}
	if (s_passthru_engine(eng_o))
		s_note(c,
		       "job %s: ioengine=%s: NVMe read/write commands passed through "
		       "(IORING_OP_URING_CMD), as bench-coord's nvme target sends them%s",
		       j->name, s_val(eng_o), j->fdp ? "; FDP placement as the volume's fdp" : "");
	else if (eng_o && strcmp(s_val(eng_o), "io_uring") && eng != S_ENG_NULL)
		s_note(c,
		       "ioengine=%s: bench-coord drives the same reads and writes through "
		       "io_uring",
		       s_val(eng_o));
	return true;
}

static int s_key_index(char *const *keys, int n, const char *key)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(keys[i], key))
			return i;
	return -1;
}

/*
 * a volume's I/O window over every job using it: [off, end), end 0: to the
 * device's end; and its FDP placement IDs, the union of its jobs' plids in
 * the order they first appear (s_volume_fdp)
 */
struct s_volwin {
	unsigned fset_files; /* a file engine's files: a file set of depth 0 */
	uint64_t fset_size;
	uint64_t off, end;
	int npids;
	uint16_t pids[BC_FDP_PIDS_MAX];
	bool any_rr, any_random; /* a job selects round robin, at random */
	bool all;		 /* a job takes every handle (fdp without plids): "pids": "all" */
	bool all_rr, all_random; /* such a job selects round robin, at random */
};

/* the volume's "fdp": its pids, random when every job draws at random, else round robin */
static enum bc_fdp_policy s_volume_policy(const struct s_volwin *w)
{
	if (w->all) /* the jobs with lists of their own go round them */
		return w->all_random && !w->all_rr ? BC_FDP_RANDOM : BC_FDP_ROUND_ROBIN;
	if (w->npids == 1)
		return BC_FDP_FIXED;
	return w->any_random && !w->any_rr ? BC_FDP_RANDOM : BC_FDP_ROUND_ROBIN;
}

static int s_pid_index(const struct s_volwin *w, uint16_t pid)
{
	int i;

	for (i = 0; i < w->npids; i++)
		if (w->pids[i] == pid)
			return i;
	return -1;
}

/* job j's plids into the volume's list; false (a difference) beyond 16 */
static bool s_volume_fdp(struct s_ctx *c, const struct s_job *j, struct s_volwin *w,
			 const char *path)
{
	int i;

	if (!j->fdp)
		return true;
	w->all |= !j->nplids;
	w->all_random |= j->fdp_random && !j->nplids;
	w->all_rr |= !j->fdp_random && !j->nplids;
	w->any_random |= j->fdp_random && j->nplids != 1;
	w->any_rr |= !j->fdp_random && j->nplids != 1;
	for (i = 0; i < j->nplids && !w->all; i++) {
		if (s_pid_index(w, j->plids[i]) >= 0)
			continue;
		if (w->npids == BC_FDP_PIDS_MAX) {
			S_ODIFF(c, j->fdp_o,
				"the jobs on %s use more than %d placement IDs; a volume's fdp "
				"names at most %d",
				path, BC_FDP_PIDS_MAX, BC_FDP_PIDS_MAX);
			return false;
		}
		w->pids[w->npids++] = j->plids[i];
	}
	return true;
}

/*
 * Jobs on a volume with lists of their own: the volume's pids become the
 * handles' indexes 0..max (when below 16), so each job's placement reads
 * as its plids did (plids=3,4: "placement": [3, 4]); PREPARE then asks the
 * namespace for max + 1 handles, which fio asks too (every plid below its
 * handle count)
 */
static void s_volume_identity(const struct s_job *jobs, int nj, char *const *keys,
			      struct s_volwin *win, int nkeys)
{
	int i, f, k, vi, max;

	for (vi = 0; vi < nkeys; vi++) {
		struct s_volwin *w = &win[vi];
		bool differ = false;

		for (i = 0; i < nj && !w->all && w->npids; i++)
			for (f = 0; f < jobs[i].nfiles; f++)
				if (jobs[i].fdp && !strcmp(jobs[i].files[f], keys[vi]))
					differ |= jobs[i].nplids != w->npids ||
						  memcmp(jobs[i].plids, w->pids,
							 sizeof(w->pids[0]) * (size_t)w->npids);
		for (k = max = 0; k < w->npids; k++)
			max = w->pids[k] > max ? w->pids[k] : max;
		if (!differ || max >= BC_FDP_PIDS_MAX)
			continue;
		w->npids = max + 1;
		for (k = 0; k <= max; k++)
			w->pids[k] = (uint16_t)k;
	}
}

/*
 * Job j's "placement" on volume w, into its workload r: "none" for a job
 * without FDP on a volume others place; nothing (the volume's policy) when
 * the job uses all of the volume's IDs as the volume does; else the job's
 * indexes into the volume's list, which each job thread goes round (fio's
 * round robin, per job)
 */
static void s_job_placement(struct s_ctx *c, const struct s_job *j, const struct s_volwin *w,
			    const char *path, cJSON *r)
{
	enum bc_fdp_policy pol = s_volume_policy(w);
	/* with "all" the volume's pids are the handles' indexes: a job's plids as they are */
	bool same = w->all ? !j->nplids : j->nplids == w->npids;
	cJSON *a;
	int i;

	if (!w->npids && !w->all)
		return;
	if (!j->fdp) {
		cJSON_AddStringToObject(r, "placement", "none");
		return;
	}
	for (i = 0; same && !w->all && i < j->nplids; i++)
		same = j->plids[i] == w->pids[i];
	if (same && (pol == BC_FDP_FIXED || (pol == BC_FDP_RANDOM) == j->fdp_random))
		return;
	if (same) {
		S_ODIFF(c, j->fdp_o,
			"job %s: plid_select=%s over every handle of %s while another job there "
			"selects otherwise: a volume has one policy",
			j->name, j->fdp_random ? "random" : "roundrobin", path);
		return;
	}
	if (j->fdp_random && j->nplids > 1) {
		S_ODIFF(c, j->fdp_o,
			"job %s: plid_select=random over some of %s's placement IDs (other jobs "
			"on it use others): bench-coord draws at random over a volume's whole "
			"fdp list only",
			j->name, path);
		return;
	}
	a = cJSON_AddArrayToObject(r, "placement");
	for (i = 0; i < j->nplids; i++)
		cJSON_AddItemToArray(
		    a, cJSON_CreateNumber(w->all ? j->plids[i] : s_pid_index(w, j->plids[i])));
}

static cJSON *s_volume(const struct s_ctx *c, const char *key, const struct s_volwin *w)
{
	cJSON *v = cJSON_CreateObject();
	const char *path = s_path(key);
	bool window = s_is_bdev(path) || !strcmp(path, "null");
	char sz[32];

	cJSON_AddStringToObject(v, "agent", c->im->agent);
	cJSON_AddStringToObject(v, "path", path);
	/* a file gets created at that size; a device only gets an I/O window */
	if (w->end)
		cJSON_AddStringToObject(
		    v, window ? "length" : "size",
		    bc_fmt_size(window ? w->end - w->off : w->end, sz, sizeof(sz)));
	if (w->off)
		cJSON_AddStringToObject(v, "offset", bc_fmt_size(w->off, sz, sizeof(sz)));
	if (w->fset_files) {
		cJSON *fs = cJSON_AddObjectToObject(v, "fileset");

		cJSON_AddNumberToObject(fs, "depth", 0);
		cJSON_AddNumberToObject(fs, "width", 1);
		cJSON_AddNumberToObject(fs, "files", w->fset_files);
		cJSON_AddStringToObject(fs, "sizes", bc_fmt_size(w->fset_size, sz, sizeof(sz)));
	}
	if (w->npids || w->all) {
		struct bc_fdp_spec f = {
		    .policy = s_volume_policy(w), .npids = w->all ? 0 : w->npids, .all = w->all};

		memcpy(f.pids, w->pids, sizeof(f.pids));
		cJSON_AddItemToObject(v, "fdp", bc_fdp_spec_to_json(&f));
	}
	return v;
}

/* a step name not used yet: the base, else base-2, base-3 ... */
static void s_unique(const cJSON *steps, const char *base, char *out, size_t len)
{
	const cJSON *s;
	int i;

	for (i = 1; i < 10000; i++) {
		bool used = false;

		if (i == 1)
			snprintf(out, len, "%s", base);
		else
			snprintf(out, len, "%.*s-%d", BC_NAME_MAX - 8, base, i);
		cJSON_ArrayForEach(s, steps) used |=
		    !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(s, "name")), out);
		if (!used)
			return;
	}
}

static bool s_same_item(const cJSON *a, const cJSON *b)
{
	return (!a && !b) || (a && b && cJSON_Compare(a, b, true));
}

/* the per-volume keys of wl that differ from base: a volume_workloads entry */
static cJSON *s_overrides(const cJSON *base, const cJSON *wl)
{
	cJSON *o = cJSON_CreateObject();
	int i;

	for (i = 0; i < bc_wl_nkeys; i++) {
		const char *key = bc_wl_keys[i].name;
		const cJSON *a, *b;

		if (!s_vol_key(i))
			continue;
		a = cJSON_GetObjectItemCaseSensitive(base, key);
		b = cJSON_GetObjectItemCaseSensitive(wl, key);
		if (s_same_item(a, b))
			continue;
		/* a key the base has and this job lacks: the job's default, the built-in one */
		if (!b) {
			if (strcmp(key, "rwmixread")) /* only read by mixes, which have it */
				bc_wl_key_to_json(o, &bc_wl_keys[i], &bc_workload_builtin);
			continue;
		}
		cJSON_AddItemToObject(o, key, cJSON_Duplicate(b, true));
	}
	return o;
}

/* a and b are the same workload but for their depth and rates (which add up) */
static bool s_same_but_depth(const cJSON *a, const cJSON *b)
{
	cJSON *x = cJSON_Duplicate(a, true), *y = cJSON_Duplicate(b, true);
	const char *const *k;
	bool same;

	cJSON_DeleteItemFromObject(x, "iodepth");
	cJSON_DeleteItemFromObject(y, "iodepth");
	/* bytes add up as depths do (s_add_pass), when both are counted the same way */
	if (!cJSON_GetObjectItem(x, "io_size") == !cJSON_GetObjectItem(y, "io_size")) {
		static const char *const pass[] = {"io_size", "passes", NULL};

		for (k = pass; *k; k++) {
			cJSON_DeleteItemFromObject(x, *k);
			cJSON_DeleteItemFromObject(y, *k);
		}
	}
	for (k = s_rate_keys; *k; k++) {
		cJSON_DeleteItemFromObject(x, *k);
		cJSON_DeleteItemFromObject(y, *k);
	}
	same = cJSON_Compare(x, y, true);
	cJSON_Delete(x);
	cJSON_Delete(y);
	return same;
}

static void s_add_num(cJSON *wl, const char *key, double add)
{
	cJSON *x = cJSON_GetObjectItemCaseSensitive(wl, key);

	if (isnan(add)) /* the key is absent from the job that adds: nothing */
		return;
	if (x)
		cJSON_SetNumberValue(x, x->valuedouble + add);
	else if (add)
		cJSON_AddNumberToObject(wl, key, add);
}

/*
 * two size-bound jobs on one file at once: fio does each one's bytes, so the
 * workload they merge into does the sum (io_size), or as many passes
 */
static void s_add_pass(cJSON *run, const cJSON *r)
{
	const char *a = cJSON_GetStringValue(cJSON_GetObjectItem(run, "io_size"));
	const char *b = cJSON_GetStringValue(cJSON_GetObjectItem(r, "io_size"));
	double p = cJSON_GetNumberValue(cJSON_GetObjectItem(run, "passes"));
	double q = cJSON_GetNumberValue(cJSON_GetObjectItem(r, "passes"));
	uint64_t x, y;
	char sz[32];

	if (a && b && !bc_parse_size(a, &x) && !bc_parse_size(b, &y)) {
		cJSON_ReplaceItemInObject(run, "io_size",
					  cJSON_CreateString(bc_fmt_size(x + y, sz, sizeof(sz))));
	} else if (!a && !b && cJSON_IsTrue(cJSON_GetObjectItem(run, "size_based"))) {
		p = (isnan(p) ? 1 : p) + (isnan(q) ? 1 : q);
		cJSON_DeleteItemFromObject(run, "passes");
		cJSON_AddNumberToObject(run, "passes", p);
	}
}

/* the step-level keys of a job against the step's: refused where fio would differ */
static void s_step_keys(struct s_ctx *c, const struct s_job *j, const struct s_job *first,
			const cJSON *step, const cJSON *wl)
{
	int k;

	for (k = 0; k < bc_wl_nkeys; k++) {
		const char *key = bc_wl_keys[k].name;
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(step, key),
			    *b = cJSON_GetObjectItemCaseSensitive(wl, key);

		if ((bc_wl_keys[k].where & BC_WK_VOLUME) || !strcmp(key, "numjobs") ||
		    s_same_item(a, b))
			continue;
		/* submission batching: how the ring is driven, not what the device is asked */
		if (!strncmp(key, "iodepth_batch", 13)) {
			s_note(c,
			       "job %s: %s differs from job %s in its group: one ring per thread "
			       "batches every volume's I/Os alike (job %s's)",
			       j->name, key, first->name, first->name);
			continue;
		}
		s_diff(c, j->sec->src, j->sec->line,
		       "job %s: %s differs from job %s in the same group; a step has one", j->name,
		       key, first->name);
	}
}

/*
 * One group of concurrent jobs as one step: the first job's workload, and in
 * "volume_workloads" every volume's own - an array of them where several
 * jobs with different workloads share a file (fio runs them at once), with
 * "jobs" where a job has fewer clones than the step has threads and
 * window_offset/_length where it uses part of the volume; "[]" for a volume
 * the group does not touch. Everything fio would run differently is a
 * difference.
 */
static void s_group_step(struct s_ctx *c, struct s_job *jobs, int nj, int g, char *const *keys,
			 const struct s_volwin *win, int nkeys, cJSON *steps, bool verify_pass)
{
	cJSON **per = calloc((size_t)nkeys, sizeof(*per));
	const struct s_job *first = NULL;
	cJSON *step = NULL, *vw, *run;
	char name[BC_NAME_MAX], base[BC_NAME_MAX * 2], sz[32];
	unsigned maxjobs = 1;
	int i, k, f, count = 0;

	if (!per)
		return;
	for (i = 0; i < nj; i++) {
		if (jobs[i].group != g || (verify_pass && !jobs[i].verify_pass))
			continue;
		first = first ? first : &jobs[i];
		count++;
		maxjobs = jobs[i].numjobs > maxjobs ? jobs[i].numjobs : maxjobs;
	}
	if (!first)
		goto out;
	step = cJSON_Duplicate(first->wl, true);
	if (verify_pass) { /* fio reads back and checks what the job wrote, once */
		static const char *const drop[] = {
		    "rwmixread",     "size_based",     "io_size",	  "rate_iops",
		    "rate_bw",	     "rate_iops_read", "rate_iops_write", "rate_bw_read",
		    "rate_bw_write", "rate_process",   "thinktime",	  "random_distribution",
		    "ramp",	     "seq_pct",	       "start_delay",	  NULL};
		const char *const *d;

		cJSON_ReplaceItemInObject(step, "rw", cJSON_CreateString("read"));
		for (d = drop; *d; d++)
			cJSON_DeleteItemFromObject(step, *d);
		cJSON_AddBoolToObject(step, "size_based", true);
		cJSON_ReplaceItemInObject(step, "runtime", cJSON_CreateNumber(S_UNBOUNDED_S));
	}
	cJSON_ReplaceItemInObject(step, "numjobs", cJSON_CreateNumber(maxjobs));
	for (i = 0; i < nj; i++) {
		struct s_job *j = &jobs[i];
		cJSON *wl;

		if (j->group != g || (verify_pass && !j->verify_pass))
			continue;
		wl = cJSON_Duplicate(j->wl, true);
		if (verify_pass) {
			/* the verify pass reads what the job wrote: its depth, sizes and region */
			static const char *const keep[] = {
			    "iodepth",	 "bs",	       "window_offset", "window_length", "seq_gap",
			    "zone_size", "zone_range", "zone_skip",	"write_sync",	 NULL};
			cJSON *x = cJSON_Duplicate(step, true);
			const char *const *kk;

			for (kk = keep; *kk; kk++) {
				cJSON_DeleteItemFromObject(x, *kk);
				if (cJSON_GetObjectItem(wl, *kk))
					cJSON_AddItemToObject(
					    x, *kk,
					    cJSON_Duplicate(cJSON_GetObjectItem(wl, *kk), true));
			}
			cJSON_Delete(wl);
			wl = x;
		}
		if (j != first)
			s_step_keys(c, j, first, step, wl);
		/* fewer clones than the step's threads: the first j->numjobs threads drive it */
		cJSON_DeleteItemFromObject(wl, "numjobs");
		if (j->numjobs < maxjobs)
			cJSON_AddNumberToObject(wl, "jobs", j->numjobs);
		for (f = 0; f < j->nfiles; f++) {
			int vi = s_key_index(keys, nkeys, j->files[f]);
			cJSON *r;

			if (vi < 0)
				continue;
			r = cJSON_Duplicate(wl, true);
			s_job_placement(c, j, &win[vi], keys[vi], r);
			/* the job's part of a volume other jobs use more of */
			if (j->offset != win[vi].off)
				cJSON_AddStringToObject(
				    r, "window_offset",
				    bc_fmt_size(j->offset - win[vi].off, sz, sizeof(sz)));
			if (j->size_per_file && j->offset + j->size_per_file != win[vi].end)
				cJSON_AddStringToObject(
				    r, "window_length",
				    bc_fmt_size(j->size_per_file, sz, sizeof(sz)));
			if (!per[vi])
				per[vi] = cJSON_CreateArray();
			/* two jobs on one file at once: the same workload adds up */
			cJSON_ArrayForEach(run, per[vi]) if (s_same_but_depth(run, r)) break;
			if (run) {
				const char *const *a;

				s_add_num(run, "iodepth",
					  cJSON_GetNumberValue(cJSON_GetObjectItem(r, "iodepth")));
				for (a = s_rate_keys; *a; a++)
					s_add_num(run, *a,
						  cJSON_GetNumberValue(cJSON_GetObjectItem(r, *a)));
				s_add_pass(run, r);
				s_note(c,
				       "jobs on %s at once with one workload: their depths and "
				       "bytes add",
				       s_path(keys[vi]));
				cJSON_Delete(r);
			} else {
				if (cJSON_GetArraySize(per[vi]))
					s_note(
					    c,
					    "job %s: %s is shared with another job of its group: "
					    "both workloads run on it at once",
					    j->name, s_path(keys[vi]));
				cJSON_AddItemToArray(per[vi], r);
			}
		}
		cJSON_Delete(wl);
	}
	/* the step's base is the first volume's first workload as it ended up */
	for (k = 0; k < nkeys && !per[k]; k++)
		;
	if (k < nkeys)
		for (i = 0; i < bc_wl_nkeys; i++) {
			const char *key = bc_wl_keys[i].name;
			const cJSON *x =
			    cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(per[k], 0), key);

			if (!s_vol_key(i))
				continue;
			cJSON_DeleteItemFromObject(step, key);
			if (x)
				cJSON_AddItemToObject(step, key, cJSON_Duplicate(x, true));
		}
	vw = cJSON_CreateObject();
	for (k = 0; k < nkeys; k++) {
		char idx[16];
		cJSON *o;

		snprintf(idx, sizeof(idx), "%d", k);
		if (!per[k]) {
			/* fio leaves it alone in this group: so does the step */
			cJSON_AddItemToObject(vw, idx, cJSON_CreateArray());
			s_note(c, "step of job %s: %s is idle (no job of the group uses it)",
			       first->name, s_path(keys[k]));
			continue;
		}
		if (cJSON_GetArraySize(per[k]) == 1) {
			o = s_overrides(step, cJSON_GetArrayItem(per[k], 0));
		} else {
			o = cJSON_CreateArray();
			cJSON_ArrayForEach(run, per[k])
			    cJSON_AddItemToArray(o, s_overrides(step, run));
		}
		if (cJSON_GetArraySize(o) || cJSON_IsArray(o))
			cJSON_AddItemToObject(vw, idx, o);
		else
			cJSON_Delete(o);
	}
	if (cJSON_GetArraySize(vw))
		cJSON_AddItemToObject(step, "volume_workloads", vw);
	else
		cJSON_Delete(vw);
	if (count == 1)
		snprintf(base, sizeof(base), "%s%s", first->name, verify_pass ? "-verify" : "");
	else if (!cJSON_GetObjectItem(step, "volume_workloads")) /* one workload, named for it */
		snprintf(base, sizeof(base), "%s-%s-qd%.0f%s",
			 cJSON_GetStringValue(cJSON_GetObjectItem(step, "rw")),
			 cJSON_IsString(cJSON_GetObjectItem(step, "bs"))
			     ? cJSON_GetStringValue(cJSON_GetObjectItem(step, "bs"))
			     : "bs",
			 cJSON_GetNumberValue(cJSON_GetObjectItem(step, "iodepth")),
			 verify_pass ? "-verify" : "");
	else
		snprintf(base, sizeof(base), "%.40s-group%s", first->name,
			 verify_pass ? "-verify" : "");
	/* a step name is [A-Za-z0-9._-], at most BC_NAME_MAX - 1 (a bssplit has '/' and ':') */
	bc_import_sanitize(base, name, sizeof(name));
	snprintf(base, sizeof(base), "%.*s", BC_NAME_MAX - 8, name);
	s_unique(steps, base, name, sizeof(name));
	/* name first, as people write profiles */
	{
		cJSON *ordered = cJSON_CreateObject(), *it;

		cJSON_AddStringToObject(ordered, "name", name);
		while ((it = step->child))
			cJSON_AddItemToObject(ordered, it->string,
					      cJSON_DetachItemViaPointer(step, it));
		cJSON_AddItemToArray(steps, ordered);
	}
	if (verify_pass)
		s_note(c, "step %s: fio's verify pass after writing, as a read step with verify",
		       name);
out:
	for (k = 0; k < nkeys; k++)
		cJSON_Delete(per[k]);
	free(per);
	cJSON_Delete(step);
}

/* an OFF option at its default: 0, off, none, or the row's own default value */
static bool s_off(const struct s_fopt *f, const char *v)
{
	static const char *const off[] = {"0", "false", "no", "off", "none", ""};
	size_t i;

	if (f->key && !strcmp(v, f->key))
		return true;
	for (i = 0; i < sizeof(off) / sizeof(off[0]); i++)
		if (!strcmp(v, off[i]))
			return true;
	return false;
}

/* the engines (of those bench-coord does not drive) that have an option of this name */
static bool s_engine_of(const char *key, char *out, size_t len)
{
	size_t i, used = 0;

	out[0] = '\0';
	for (i = 0; i < sizeof(s_engine_opts) / sizeof(s_engine_opts[0]); i++) {
		if (s_in_words(s_engine_opts[i].names, key) && used < len)
			used += (size_t)snprintf(out + used, len - used, "%s%s", used ? "/" : "",
						 s_engine_opts[i].engine);
	}
	return used > 0;
}

/* every option of a section: mapped, inert, or a difference */
static void s_classify(struct s_ctx *c, const struct bc_import_sec *sec)
{
	char engines[128];
	int k;

	for (k = 0; k < sec->nkv; k++) {
		const struct bc_import_kv *o = &sec->kv[k];
		const struct s_fopt *f = s_fopt_find(o->key);

		if (f && f->kind == S_MAPPED)
			continue;
		/* an option of fio's tiobench profile: fio parses it in a job and ignores it */
		if (f && f->kind == S_INERT && !strcmp(f->why, "profile")) {
			s_note(c,
			       "%s:%d: %s=%s is an option of fio's tiobench profile, which fio "
			       "ignores in a job file: the job runs with its own bs, numjobs and "
			       "directory, as fio runs it",
			       o->src, o->line, o->key, o->val ? o->val : "");
			continue;
		}
		if (f && f->kind == S_INERT) {
			bc_import_add(c->inert, "%s", o->key);
			continue;
		}
		if (f && f->kind == S_OFF && s_off(f, s_val(o))) {
			bc_import_add(c->inert, "%s", o->key);
			continue;
		}
		if (f) {
			S_ODIFF(c, o, "%s%s%s: %s", o->key, o->val ? "=" : "", o->val ? o->val : "",
				f->why);
			continue;
		}
		if (s_engine_of(o->key, engines, sizeof(engines)))
			S_ODIFF(c, o,
				"%s%s%s: an option of fio's %s engine: bench-coord drives none "
				"of them, and fio stops at it under any other engine",
				o->key, o->val ? "=" : "", o->val ? o->val : "", engines);
		else
			S_ODIFF(c, o, "%s%s%s: not a fio option: fio stops with 'Bad option'",
				o->key, o->val ? "=" : "", o->val ? o->val : "");
	}
}

/* the inert options met, in one note: accepted, and what they would have changed */
static void s_note_inert(struct s_ctx *c)
{
	char list[1024] = "";
	const cJSON *it;
	size_t used = 0;

	cJSON_ArrayForEach(it, c->inert)
	{
		const struct s_fopt *f = s_fopt_find(it->valuestring);

		if (used < sizeof(list))
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s%s",
						 used ? ", " : "", it->valuestring,
						 f && f->why && !strcmp(f->why, "statistics") ? "*"
											      : "");
	}
	if (used)
		s_note(c,
		       "inert (nothing bench-coord measures changes; * fio's statistics only): %s",
		       list);
}

/*
 * The volumes' keys in order of first use, each with the window that covers
 * every job on it (jobs on other parts of it get window_offset/_length)
 */
static int s_collect_volumes(struct s_ctx *c, struct s_job *jobs, int nj, char **keys,
			     struct s_volwin *win, cJSON *vols)
{
	int i, f, n = 0, vi;

	for (i = 0; i < nj; i++) {
		for (f = 0; f < jobs[i].nfiles; f++) {
			const struct s_job *j = &jobs[i];
			uint64_t end = j->size_per_file ? j->offset + j->size_per_file : 0;

			vi = s_key_index(keys, n, j->files[f]);
			if (vi < 0) {
				if (n == S_MAX_JOBS)
					break;
				vi = n;
				keys[n++] = j->files[f];
				win[vi] = (struct s_volwin){.off = j->offset,
							    .end = end,
							    .fset_files = j->meta_files,
							    .fset_size = j->meta_size};
				s_volume_fdp(c, j, &win[vi], j->files[f]);
				if (j->files[f][0] != '/' && strcmp(s_path(j->files[f]), "null"))
					s_note(c,
					       "relative file names resolve in the agent's scratch "
					       "directory, not the current directory");
				continue;
			}
			s_volume_fdp(c, j, &win[vi], j->files[f]);
			if (j->offset < win[vi].off)
				win[vi].off = j->offset;
			if (!end || !win[vi].end)
				win[vi].end = 0;
			else if (end > win[vi].end)
				win[vi].end = end;
		}
	}
	s_volume_identity(jobs, nj, keys, win, n);
	for (vi = 0; vi < n; vi++)
		cJSON_AddItemToArray(vols, s_volume(c, keys[vi], &win[vi]));
	return n;
}

/*
 * wait_for=NAME: the job starts once every clone of job NAME is done. When
 * NAME is all of the current group, that is a new step after it, as a
 * stonewall; when NAME ran in an earlier group it is done already (inert).
 * True when the job starts a group that way.
 */
static bool s_wait_for(struct s_ctx *c, const struct bc_import_kv *o, const struct s_job *jobs,
		       int nj, int *group)
{
	char want[BC_NAME_MAX];
	int i, w = -1, in_group = 0;

	bc_import_sanitize(s_val(o), want, sizeof(want));
	for (i = 0; i < nj; i++) {
		if (!strcmp(jobs[i].name, want))
			w = i;
		in_group += jobs[i].group == *group;
	}
	if (w < 0) {
		S_ODIFF(c, o,
			"wait_for=%s: no job of that name before it (fio needs the waitee first)",
			s_val(o));
		return false;
	}
	if (jobs[w].group < *group) {
		bc_import_add(c->inert, "%s", o->key);
		return false;
	}
	if (in_group > 1)
		S_ODIFF(
		    c, o,
		    "wait_for=%s: fio starts the job when %s is done while the other %d jobs of "
		    "its group go on; a later step waits for all of them",
		    s_val(o), s_val(o), in_group - 1);
	(*group)++;
	return true;
}

cJSON *bc_fio_to_profile(const struct bc_import_doc *jf, const struct bc_import_opts *im,
			 cJSON *notes, cJSON *diffs, char *err, size_t errlen)
{
	struct s_ctx c = {.im = im, .notes = notes, .diffs = diffs, .kb_base = 1024};
	struct s_job *jobs = calloc(S_MAX_JOBS, sizeof(*jobs));
	char **keys = calloc(S_MAX_JOBS, sizeof(*keys));
	struct s_volwin *win = calloc(S_MAX_JOBS, sizeof(*win));
	struct s_view globals = {0}, v;
	cJSON *prof = NULL, *vols = NULL, *steps, *a;
	char pname[BC_NAME_MAX];
	int i, k, g, nj = 0, nkeys, group = -1;
	bool waited = false; /* the current group began with a wait_for */

	c.inert = cJSON_CreateArray();
	if (!jobs || !keys || !win || !c.inert) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < jf->nsecs; i++) {
		const struct bc_import_sec *sec = &jf->secs[i];
		struct s_job *j = &jobs[nj];

		s_classify(&c, sec);
		if (!strcmp(sec->kind, "global")) {
			for (k = 0; k < sec->nkv && globals.n < 256; k++)
				globals.opt[globals.n++] = &sec->kv[k];
			continue;
		}
		if (nj >= S_MAX_JOBS) {
			s_diff(&c, sec->src, sec->line, "more than %d jobs", S_MAX_JOBS);
			break;
		}
		v = globals;
		for (k = 0; k < sec->nkv && v.n < 512; k++)
			v.opt[v.n++] = &sec->kv[k];
		/* the first job, and each that waits for the ones before it, starts a group */
		if (group < 0 || s_bool(s_get(&v, "stonewall")) ||
		    s_bool(s_get(&v, "wait_for_previous"))) {
			group++;
			waited = false;
		} else if (s_opt(&v, "wait_for", NULL)) {
			waited = s_wait_for(&c, s_opt(&v, "wait_for", NULL), jobs, nj, &group);
		} else if (waited) {
			s_diff(
			    &c, sec->src, sec->line,
			    "job %s: starts with the job before it that waits (wait_for) in fio's "
			    "group; here it would wait too, in that job's step",
			    sec->name);
		}
		if (!s_job(&c, sec, &v, j)) {
			for (k = 0; k < j->nfiles; k++)
				free(j->files[k]);
			cJSON_Delete(j->wl);
			memset(j, 0, sizeof(*j));
			continue;
		}
		j->group = group;
		nj++;
	}
	if (!nj) {
		snprintf(err, errlen, "%s: no job could be mapped to a bench-coord step", im->src);
		goto out;
	}
	prof = cJSON_CreateObject();
	bc_import_name(im->name, im->src, ".fio", pname, sizeof(pname));
	cJSON_AddStringToObject(prof, "name", pname);
	a = cJSON_CreateObject();
	cJSON_AddItemToArray(cJSON_AddArrayToObject(prof, "agents"), a);
	cJSON_AddStringToObject(a, "name", im->agent);
	cJSON_AddStringToObject(a, "endpoint", im->endpoint);
	vols = cJSON_AddArrayToObject(prof, "volumes");
	steps = cJSON_AddArrayToObject(prof, "steps");
	nkeys = s_collect_volumes(&c, jobs, nj, keys, win, vols);
	for (g = 0; g <= jobs[nj - 1].group; g++) {
		bool verify = false;

		s_group_step(&c, jobs, nj, g, keys, win, nkeys, steps, false);
		for (i = 0; i < nj; i++)
			verify |= jobs[i].group == g && jobs[i].verify_pass;
		if (verify)
			s_group_step(&c, jobs, nj, g, keys, win, nkeys, steps, true);
	}
	bc_import_describe(prof, "fio job file", im->src, "import-fio", im->lenient, c.diffs);
	s_note_inert(&c);
out:
	for (i = 0; jobs && i < nj; i++) {
		for (k = 0; k < jobs[i].nfiles; k++)
			free(jobs[i].files[k]);
		cJSON_Delete(jobs[i].wl);
	}
	free(jobs);
	free(keys);
	free(win);
	cJSON_Delete(c.inert);
	return prof;
}
