/*
 * test_vopen.c - bc_vopen (agent/safety/vopen.c): what is opened is judged on
 * its descriptor. Hard links, FIFOs, sockets, directories and device nodes
 * in the scratch directory are refused; a path component swapped for a
 * symlink between the resolution and the open (the race, made here by a
 * replaced openat2 that swaps first) is refused, with openat2 and on the
 * component-by-component walk taken without it; a file is created through
 * neither a dangling symlink nor a swapped directory. And bc_json_nul_path
 * names the string a "\u0000" would cut.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <linux/openat2.h>

#include "util/json.h"
#include "bc_test.h"
#include "safety/vopen.h"

static char s_root[] = "/tmp/bc-vopen-XXXXXX";
static char s_scratch[300], s_outside[300];

/* the race: before the real open, "sub" becomes a symlink to the outside directory */
static bool s_swap_armed, s_no_openat2;

static void s_swap(void)
{
	char sub[400], moved[400];

	if (!s_swap_armed)
		return;
	s_swap_armed = false;
	snprintf(sub, sizeof(sub), "%s/sub", s_scratch);
	snprintf(moved, sizeof(moved), "%s/sub.moved", s_scratch);
	if (rename(sub, moved) || symlink(s_outside, sub))
		fprintf(stderr, "swap failed: %s\n", strerror(errno));
}

static long s_openat2(int dirfd, const char *path, struct open_how *how, size_t size)
{
	s_swap();
	if (s_no_openat2) {
		errno = ENOSYS;
		return -1;
	}
	return syscall(SYS_openat2, dirfd, path, how, size);
}

static void s_unswap(void)
{
	char sub[400], moved[400];

	snprintf(sub, sizeof(sub), "%s/sub", s_scratch);
	snprintf(moved, sizeof(moved), "%s/sub.moved", s_scratch);
	unlink(sub);
	rename(moved, sub);
}

static int s_open(struct bc_safety *s, const char *rel, int flags, char *err, size_t len)
{
	char p[400];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", s_scratch, rel);
	fd = bc_vopen(s, p, flags, 0644, err, len);
	if (fd >= 0)
		close(fd);
	return fd >= 0 ? 0 : fd;
}

static void s_cases(struct bc_safety *s, const char *how)
{
	char err[1024], p[400], q[400];
	int rc;

	printf("%s\n", how);
	/* a plain file, and one made fresh */
	CHECK_MSG(s_open(s, "plain.dat", O_RDWR, err, sizeof(err)) == 0, "%s", err);
	snprintf(p, sizeof(p), "%s/fresh.dat", s_scratch);
	unlink(p);
	CHECK_MSG(s_open(s, "fresh.dat", O_RDWR | O_CREAT | O_EXCL, err, sizeof(err)) == 0, "%s",
		  err);
	/* a hard link to a file outside */
	rc = s_open(s, "hard.dat", O_RDWR, err, sizeof(err));
	CHECK_MSG(rc == -EPERM && strstr(err, "2 links"), "%d %s", rc, err);
	/* a FIFO must not hang the open, nor be opened */
	rc = s_open(s, "fifo", O_RDONLY, err, sizeof(err));
	CHECK_MSG(rc == -EPERM && strstr(err, "FIFO"), "%d %s", rc, err);
	/* as the PREPARE gate asks (a socket cannot be opened otherwise: ENXIO) */
	rc = s_open(s, "sock", O_PATH, err, sizeof(err));
	CHECK_MSG(rc == -EPERM && strstr(err, "socket"), "%d %s", rc, err);
	rc = s_open(s, "fifo", O_PATH, err, sizeof(err));
	CHECK_MSG(rc == -EPERM && strstr(err, "FIFO"), "%d %s", rc, err);
	rc = s_open(s, "hard.dat", O_PATH, err, sizeof(err));
	CHECK_MSG(rc == -EPERM && strstr(err, "2 links"), "%d %s", rc, err);
	rc = s_open(s, "sub", O_RDONLY, err, sizeof(err));
	CHECK_MSG(rc == -EPERM && strstr(err, "directory"), "%d %s", rc, err);
	if (!geteuid()) {
		rc = s_open(s, "null-node", O_RDWR, err, sizeof(err));
		CHECK_MSG(rc == -EPERM && strstr(err, "character device node outside /dev"),
			  "%d %s", rc, err);
	}
	/* a dangling symlink is not created through */
	rc = s_open(s, "dangling.dat", O_RDWR | O_CREAT | O_EXCL, err, sizeof(err));
	snprintf(q, sizeof(q), "%s/made.dat", s_outside);
	CHECK_MSG(rc < 0 && access(q, F_OK), "%d %s", rc, err);
	/* the race: sub/in.dat resolved, then sub swapped for a symlink leading outside */
	s_swap_armed = true;
	rc = s_open(s, "sub/in.dat", O_RDWR, err, sizeof(err));
	CHECK_MSG(rc == -EPERM && strstr(err, "symbolic link"), "%d %s", rc, err);
	s_unswap();
	/* ... and a file created through the swapped directory */
	s_swap_armed = true;
	rc = s_open(s, "sub/new.dat", O_RDWR | O_CREAT | O_EXCL, err, sizeof(err));
	snprintf(q, sizeof(q), "%s/new.dat", s_outside);
	CHECK_MSG(rc == -EPERM && access(q, F_OK), "%d %s", rc, err);
	s_unswap();
	unlink(q);
	/* the untouched path still opens */
	CHECK_MSG(s_open(s, "sub/in.dat", O_RDWR, err, sizeof(err)) == 0, "%s", err);
}

static void s_nul(void)
{
	static const char t1[] =
	    "{\"volumes\": [{\"path\": \"ok\"}, {\"path\": \"v.dat\\u0000/../x\"}]}";
	static const char t2[] = "{\"a\": 1, \"b\\u0000\": \"x\"}";
	static const char t3[] = "{\"a\": \"back\\\\u0000slash\", \"n\": [1, \"\\u00001\"]}";
	static const char t4[] = "{\"a\": \"plain\", \"b\": [true, null, 2.5]}";
	char path[128];
	cJSON *j;

	j = bc_json_parse(t1, sizeof(t1) - 1);
	CHECK(j && bc_json_nul_path(j, t1, sizeof(t1) - 1, path, sizeof(path)));
	CHECK_MSG(!strcmp(path, "volumes[1].path"), "%s", path);
	cJSON_Delete(j);
	j = bc_json_parse(t2, sizeof(t2) - 1);
	CHECK(j && bc_json_nul_path(j, t2, sizeof(t2) - 1, path, sizeof(path)));
	CHECK_MSG(!strcmp(path, "b"), "%s", path);
	cJSON_Delete(j);
	/* an escaped backslash before "u0000" is no NUL; the array's second string is */
	j = bc_json_parse(t3, sizeof(t3) - 1);
	CHECK(j && bc_json_nul_path(j, t3, sizeof(t3) - 1, path, sizeof(path)));
	CHECK_MSG(!strcmp(path, "n[1]"), "%s", path);
	cJSON_Delete(j);
	j = bc_json_parse(t4, sizeof(t4) - 1);
	CHECK(j && !bc_json_nul_path(j, t4, sizeof(t4) - 1, path, sizeof(path)));
	cJSON_Delete(j);
}

int main(void)
{
	struct bc_safety s = {0};
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	char p[400], q[400];
	int fd;

	s_nul();
	if (!mkdtemp(s_root))
		SKIP("mkdtemp: %s", strerror(errno));
	snprintf(s_scratch, sizeof(s_scratch), "%s/scratch", s_root);
	snprintf(s_outside, sizeof(s_outside), "%s/outside", s_root);
	CHECK(!mkdir(s_scratch, 0755) && !mkdir(s_outside, 0755));
	snprintf(s.scratch_dir, sizeof(s.scratch_dir), "%s", s_scratch);
	bc_test_put(s_scratch, "plain.dat", "data");
	bc_test_put(s_outside, "target.dat", "outside");
	snprintf(p, sizeof(p), "%s/target.dat", s_outside);
	snprintf(q, sizeof(q), "%s/hard.dat", s_scratch);
	CHECK(!link(p, q));
	snprintf(q, sizeof(q), "%s/fifo", s_scratch);
	CHECK(!mkfifo(q, 0600));
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/sock", s_scratch);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	CHECK(fd >= 0 && !bind(fd, (struct sockaddr *)&sa, sizeof(sa)));
	close(fd);
	snprintf(q, sizeof(q), "%s/sub", s_scratch);
	CHECK(!mkdir(q, 0755));
	bc_test_put(s_scratch, "sub/in.dat", "in");
	bc_test_put(s_outside, "in.dat", "outside in");
	snprintf(p, sizeof(p), "%s/made.dat", s_outside);
	snprintf(q, sizeof(q), "%s/dangling.dat", s_scratch);
	CHECK(!symlink(p, q));
	if (!geteuid()) {
		snprintf(q, sizeof(q), "%s/null-node", s_scratch);
		CHECK(!mknod(q, S_IFCHR | 0600, makedev(1, 3)));
	}

	bc_vopen_sys.openat2 = s_openat2;
	s_cases(&s, "openat2");
	s_no_openat2 = true;
	s_cases(&s, "the walk (no openat2)");
	/* allowed by name: the hard link opens */
	snprintf(q, sizeof(q), "%s/hard.dat", s_scratch);
	CHECK(!bc_safety_allow(&s, q));
	{
		char err[512];

		CHECK_MSG(s_open(&s, "hard.dat", O_RDWR, err, sizeof(err)) == 0, "%s", err);
	}
	bc_safety_free(&s);
	snprintf(p, sizeof(p), "rm -rf '%s'", s_root);
	CHECK(system(p) == 0);
	TEST_DONE();
}
