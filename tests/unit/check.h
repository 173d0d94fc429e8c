/*
 * A minimal unit-test harness.  TEST(name) { ... } registers a test; CHECK
 * and friends record a failure with file and line and carry on, so one run
 * shows every broken expectation.  CHECK_MAIN() runs all tests (or those
 * whose name contains argv[1]) and ends with "NAME: N passed, N failed,
 * N skipped".  SKIP(why) ends a test that cannot run here (no io_uring, no
 * gnuplot): it is counted as skipped, never as passed.
 */
#ifndef SSDBENCH_TESTS_CHECK_H
#define SSDBENCH_TESTS_CHECK_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*check_fn)(void);
struct check_test { const char *name; check_fn fn; };

/* Grown as tests register, so none is dropped; a registration that cannot
   grow the list makes the whole program fail rather than run fewer. */
static struct check_test *check_tests;
static int check_ntests, check_cap, check_lost;
static int check_failures_in_test, check_skipped_test;

static inline void check_register(const char *name, check_fn fn)
{
	if (check_ntests == check_cap) {
		int cap = check_cap ? check_cap * 2 : 64;
		struct check_test *t = realloc(check_tests, sizeof(*t) * (size_t)cap);
		if (!t) {
			check_lost++;
			return;
		}
		check_tests = t;
		check_cap = cap;
	}
	check_tests[check_ntests++] = (struct check_test){ name, fn };
}

#define TEST(name)                                                         \
	static void name(void);                                            \
	__attribute__((constructor)) static void check_reg_##name(void)    \
	{ check_register(#name, name); }                                   \
	static void name(void)

#define CHECK_FAIL(...)                                                    \
	do {                                                               \
		fprintf(stderr, "  %s:%d: ", __FILE__, __LINE__);          \
		fprintf(stderr, __VA_ARGS__);                              \
		fputc('\n', stderr);                                       \
		check_failures_in_test++;                                  \
	} while (0)

/* Ends the test as skipped, with the reason on stderr. */
#define SKIP(...)                                                          \
	do {                                                               \
		fprintf(stderr, "  skip %s: ", __func__);                  \
		fprintf(stderr, __VA_ARGS__);                              \
		fputc('\n', stderr);                                       \
		check_skipped_test = 1;                                    \
		return;                                                    \
	} while (0)

#define CHECK(cond)                                                        \
	do { if (!(cond)) CHECK_FAIL("CHECK(%s) failed", #cond); } while (0)

#define CHECK_EQ_U64(a, b)                                                 \
	do {                                                               \
		uint64_t check_a = (a), check_b = (b);                     \
		if (check_a != check_b)                                    \
			CHECK_FAIL("%s == %s: %" PRIu64 " != %" PRIu64,    \
				   #a, #b, check_a, check_b);              \
	} while (0)

#define CHECK_EQ_STR(a, b)                                                 \
	do {                                                               \
		const char *check_a = (a), *check_b = (b);                 \
		if (!check_a || !check_b || strcmp(check_a, check_b))      \
			CHECK_FAIL("%s == %s: \"%s\" != \"%s\"", #a, #b,   \
				   check_a ? check_a : "(null)",           \
				   check_b ? check_b : "(null)");          \
	} while (0)

/* |a - b| <= tol * |b| */
#define CHECK_REL(a, b, tol)                                               \
	do {                                                               \
		double check_a = (a), check_b = (b);                       \
		if (!(fabs(check_a - check_b) <= (tol) * fabs(check_b)))   \
			CHECK_FAIL("%s ~ %s (rel %g): %.9g vs %.9g", #a,   \
				   #b, (double)(tol), check_a, check_b);   \
	} while (0)

#define CHECK_NEAR(a, b, tol)                                              \
	do {                                                               \
		double check_a = (a), check_b = (b);                       \
		if (!(fabs(check_a - check_b) <= (tol)))                   \
			CHECK_FAIL("%s ~ %s (abs %g): %.9g vs %.9g", #a,   \
				   #b, (double)(tol), check_a, check_b);   \
	} while (0)

static inline int check_main(const char *suite, int argc, char **argv)
{
	int passed = 0, failed = check_lost, skipped = 0;
	if (check_lost)
		fprintf(stderr, "FAIL %d tests could not be registered\n",
			check_lost);
	for (int i = 0; i < check_ntests; i++) {
		if (argc > 1 && !strstr(check_tests[i].name, argv[1]))
			continue;
		check_failures_in_test = 0;
		check_skipped_test = 0;
		check_tests[i].fn();
		if (check_failures_in_test) {
			fprintf(stderr, "FAIL %s\n", check_tests[i].name);
			failed++;
		} else if (check_skipped_test) {
			skipped++;
		} else {
			passed++;
		}
	}
	printf("%s: %d passed, %d failed, %d skipped\n", suite, passed, failed,
	       skipped);
	free(check_tests);
	return failed ? 1 : 0;
}

#define CHECK_MAIN(suite)                                                  \
	int main(int argc, char **argv) { return check_main(suite, argc, argv); }

#endif
