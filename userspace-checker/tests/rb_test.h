/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal test harness after tools/testing/selftests/kselftest_harness.h:
 * TEST(name) registers a test, EXPECT_*() says what was expected when it
 * fails, the output is TAP, and the last line is "N passed, N failed".
 * TEST_HARNESS_MAIN goes at the end of exactly one file.
 */
#ifndef _RB_TEST_H
#define _RB_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rb_test_meta {
	const char	*name;
	void		(*fn)(struct rb_test_meta *);
	int		failed;
};

#define RB_TEST_MAX 256
static struct rb_test_meta rb_tests[RB_TEST_MAX];
static int rb_nr_tests;

#define TEST(name)							\
	static void name(struct rb_test_meta *_metadata);		\
	static void __attribute__((constructor)) _register_##name(void)	\
	{								\
		if (rb_nr_tests < RB_TEST_MAX)				\
			rb_tests[rb_nr_tests++] =			\
				(struct rb_test_meta){ #name, name, 0 };\
	}								\
	static void name(struct rb_test_meta *_metadata)

#define __EXPECT(cond, fmt, ...) do {					\
	if (!(cond)) {							\
		_metadata->failed = 1;					\
		printf("# %s:%d: %s: " fmt "\n", __FILE__, __LINE__,	\
		       _metadata->name, ##__VA_ARGS__);			\
	}								\
} while (0)

#define EXPECT_EQ(expected, seen, what) do {				\
	long long _e = (long long)(expected), _s = (long long)(seen);	\
	__EXPECT(_e == _s, "%s: expected %s == %lld, got %lld", what,	\
		 #seen, _e, _s);					\
} while (0)

#define EXPECT_NE(unexpected, seen, what) do {				\
	long long _e = (long long)(unexpected), _s = (long long)(seen);	\
	__EXPECT(_e != _s, "%s: expected %s != %lld", what, #seen, _e);	\
} while (0)

#define EXPECT_TRUE(cond, what)						\
	__EXPECT(cond, "%s: expected %s", what, #cond)

#define EXPECT_STR_CONTAINS(haystack, needle, what)			\
	__EXPECT(strstr((haystack), (needle)), "%s: expected \"%s\" in \"%s\"", \
		 what, needle, haystack)

#define TEST_HARNESS_MAIN						\
int main(int argc, char **argv)						\
{									\
	int pass = 0, fail = 0;						\
									\
	printf("TAP version 13\n1..%d\n", rb_nr_tests);			\
	for (int i = 0; i < rb_nr_tests; i++) {				\
		if (argc > 1 && strcmp(argv[1], rb_tests[i].name))	\
			continue;					\
		rb_tests[i].fn(&rb_tests[i]);				\
		printf("%sok %d %s\n", rb_tests[i].failed ? "not " : "",\
		       i + 1, rb_tests[i].name);			\
		if (rb_tests[i].failed)					\
			fail++;						\
		else							\
			pass++;						\
	}								\
	printf("%d passed, %d failed\n", pass, fail);			\
	return fail ? 1 : 0;						\
}

#endif /* _RB_TEST_H */
