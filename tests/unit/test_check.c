/*
 * The harness itself: every registered test runs, however many there are
 * (the list once had room for 512 and dropped the rest without a word),
 * and a skipped test is counted as skipped, not passed.
 */
#include "check.h"

#include <unistd.h>

#define N_TESTS 700

static int ran;

#define T1(n) TEST(many_##n) { ran++; }
#define T10(n) T1(n##0) T1(n##1) T1(n##2) T1(n##3) T1(n##4) T1(n##5) \
	T1(n##6) T1(n##7) T1(n##8) T1(n##9)
#define T100(n) T10(n##0) T10(n##1) T10(n##2) T10(n##3) T10(n##4) \
	T10(n##5) T10(n##6) T10(n##7) T10(n##8) T10(n##9)
T100(1) T100(2) T100(3) T100(4) T100(5) T100(6) T100(7)

static int skipped_ran_on;

TEST(skips_are_not_passes)
{
	SKIP("the harness's own skip");
	skipped_ran_on = 1;	/* not reached */
}

/* Runs after main returns: main's line counts only what ran. */
__attribute__((destructor)) static void all_ran(void)
{
	if (ran != N_TESTS || skipped_ran_on) {
		fprintf(stderr, "FAIL %d of %d registered tests ran\n", ran,
			N_TESTS);
		_exit(1);
	}
}

CHECK_MAIN("check")
