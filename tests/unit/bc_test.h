/*
 * bc_test.h - the few assertion macros unit tests share. A failed check
 * prints file:line and the expression, and the test exits 1; exit 77 skips.
 */
#ifndef BC_TEST_H
#define BC_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int bc_test_failures;

/* xorshift64: deterministic test input, no libc rand; one sequence per test process */
static uint64_t bc_test_rng = 88172645463325252ull;

static inline uint64_t bc_test_rand(void)
{
	bc_test_rng ^= bc_test_rng << 13;
	bc_test_rng ^= bc_test_rng >> 7;
	bc_test_rng ^= bc_test_rng << 17;
	return bc_test_rng;
}

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
			bc_test_failures++;                                                        \
		}                                                                                  \
	} while (0)

#define CHECK_MSG(cond, ...)                                                                       \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);   \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
			bc_test_failures++;                                                        \
		}                                                                                  \
	} while (0)

#define SKIP(...)                                                                                  \
	do {                                                                                       \
		fprintf(stderr, "skip: " __VA_ARGS__);                                             \
		fputc('\n', stderr);                                                               \
		exit(77);                                                                          \
	} while (0)

#define TEST_DONE()                                                                                \
	do {                                                                                       \
		if (bc_test_failures) {                                                            \
			fprintf(stderr, "%d check(s) failed\n", bc_test_failures);                 \
			return 1;                                                                  \
		}                                                                                  \
		return 0;                                                                          \
	} while (0)

/* fixture trees: write text to root/rel (best effort: a later check fails if it did not) */
static inline void bc_test_put(const char *root, const char *rel, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* root/rel's whole content into buf ("" when missing), NUL-terminated */
static inline void bc_test_read(const char *root, const char *rel, char *buf, size_t len)
{
	char p[512];
	FILE *f;
	size_t n;

	buf[0] = '\0';
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "r");
	if (!f)
		return;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

#endif
