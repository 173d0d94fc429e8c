/*
 * A minimal unit-test harness.  TEST(name) { ... } registers a test; CHECK
 * and friends record a failure with file and line and carry on, so one run
 * shows every broken expectation.  CHECK_MAIN() runs all tests (or those
 * whose name contains argv[1]) and ends with "NAME: N passed, N failed".
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

static struct check_test check_tests[512];
static int check_ntests;
static int check_failures_in_test;

static inline void check_register(const char *name, check_fn fn)
{
	if (check_ntests < 512)
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
	int passed = 0, failed = 0;
	for (int i = 0; i < check_ntests; i++) {
		if (argc > 1 && !strstr(check_tests[i].name, argv[1]))
			continue;
		check_failures_in_test = 0;
		check_tests[i].fn();
		if (check_failures_in_test) {
			fprintf(stderr, "FAIL %s\n", check_tests[i].name);
			failed++;
		} else {
			passed++;
		}
	}
	printf("%s: %d passed, %d failed\n", suite, passed, failed);
	return failed ? 1 : 0;
}

#define CHECK_MAIN(suite)                                                  \
	int main(int argc, char **argv) { return check_main(suite, argc, argv); }

#endif
