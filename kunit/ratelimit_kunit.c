// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_ratelimit: 1 s windows over a cumulative candidate
 * counter, exactly at the limit, at the window edges, across clock wrap,
 * and for every limit the sysctl accepts.
 */
#include <kunit/test.h>
#include <linux/memtier_promote.h>

/* A window that began at @start_ms, after @cand candidates. */
static void window_open(struct memtier_ratelimit *rl, unsigned int start_ms,
			unsigned long cand)
{
	rl->window_start_ms = start_ms;
	rl->window_start_cand = cand;
}

struct mbps_case {
	unsigned int mbps;
	unsigned int page_shift;
	u64 pages;
};

static const struct mbps_case mbps_cases[] = {
	{ MEMTIER_RATE_LIMIT_DEFAULT_MBPS, 12, 65536ull * 256 },
	{ 1, 12, 256 },
	{ 1, 16, 16 },
	{ 100, 14, 6400 },
	/* Mainline's unsigned int shift wrapped this to 0xffffff00. */
	{ U32_MAX, 12, (u64)U32_MAX << 8 },
	/* 0 is "promote nothing", as in mainline. */
	{ 0, 12, 0 },
	{ 0, 16, 0 },
};

static void mbps_case_desc(const struct mbps_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u MB/s, %u-bit pages",
		 c->mbps, c->page_shift);
}

KUNIT_ARRAY_PARAM(mbps, mbps_cases, mbps_case_desc);

static void memtier_ratelimit_mbps_to_pages(struct kunit *test)
{
	const struct mbps_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, memtier_mbps_to_pages(c->mbps, c->page_shift),
			c->pages);
}

static void memtier_ratelimit_default(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, MEMTIER_RATE_LIMIT_DEFAULT_MBPS, 65536);
	KUNIT_EXPECT_EQ(test, MEMTIER_RATELIMIT_WINDOW_MS, 1000);
}

/*
 * Feed @nr-page candidates into @rl at @now, the way the fault path does:
 * add to the cumulative counter, then ask.
 */
static bool feed(struct memtier_ratelimit *rl, unsigned long *cand,
		 unsigned int now, unsigned long nr, u64 limit)
{
	*cand += nr;
	return memtier_ratelimit_allow(rl, now, *cand, nr, limit);
}

struct window_step {
	unsigned int at_ms;	/* after the window start */
	unsigned long nr;
	bool allowed;
};

struct window_case {
	const char *name;
	u64 limit;
	struct window_step steps[8];
	int nr_steps;
};

static const struct window_case window_cases[] = {
	{ "exactly at the limit", 10,
	  { { 0, 9, true }, { 1, 1, true }, { 2, 1, false } }, 3 },
	{ "one huge page over", 1000,
	  { { 0, 512, true }, { 10, 512, false }, { 20, 1, false } }, 3 },
	{ "last ms of the window", 4,
	  { { 0, 4, true }, { 999, 1, false } }, 2 },
	{ "first ms of the next window", 4,
	  { { 0, 4, true }, { 999, 1, false }, { 1000, 4, true },
	    { 1001, 1, false } }, 4 },
	{ "refused candidates still count", 4,
	  { { 0, 5, false }, { 500, 1, false } }, 2 },
	{ "a window starts at its first late caller", 4,
	  { { 0, 4, true }, { 1500, 4, true }, { 2499, 1, false },
	    { 2500, 1, true } }, 4 },
	{ "idle for longer than the window", 2,
	  { { 0, 2, true }, { 3600000, 2, true }, { 3600001, 1, false } }, 3 },
	/* As mainline: a window's first candidate passes, whatever its size. */
	{ "a folio over the limit, once per new window", 4,
	  { { 0, 8, false }, { 1000, 8, true }, { 1001, 1, false },
	    { 1999, 1, false }, { 2000, 8, true }, { 2000, 1, false } }, 6 },
	{ "limit 0 pages", 0,
	  { { 0, 1, false }, { 1000, 1, false } }, 2 },
};

static void window_case_desc(const struct window_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(window, window_cases, window_case_desc);

/* Each case runs from three starting clocks: low, mid, and about to wrap. */
static void memtier_ratelimit_windows(struct kunit *test)
{
	static const unsigned int starts[] = { 5000, 0x80000000u,
					       U32_MAX - 700 };
	const struct window_case *c = test->param_value;
	struct memtier_ratelimit rl;
	unsigned long cand;
	int s, i;

	for (s = 0; s < ARRAY_SIZE(starts); s++) {
		cand = 123456;
		window_open(&rl, starts[s], cand);
		for (i = 0; i < c->nr_steps; i++) {
			const struct window_step *st = &c->steps[i];
			bool got;

			got = feed(&rl, &cand, starts[s] + st->at_ms, st->nr,
				   c->limit);
			KUNIT_EXPECT_EQ_MSG(test, got, st->allowed,
					    "start %#x step %d", starts[s], i);
		}
	}
}

/* A second caller in the ms of a rollover does not start yet another window. */
static void memtier_ratelimit_rollover_once(struct kunit *test)
{
	struct memtier_ratelimit rl;
	unsigned long cand = 0;

	window_open(&rl, 0, 0);
	KUNIT_EXPECT_FALSE(test, feed(&rl, &cand, 10, 20, 10));
	KUNIT_EXPECT_TRUE(test, feed(&rl, &cand, 1010, 6, 10));
	KUNIT_EXPECT_EQ(test, rl.window_start_ms, 1010u);
	KUNIT_EXPECT_EQ(test, rl.window_start_cand, 20ul);
	/* Same ms: same window, so 6 + 6 > 10. */
	KUNIT_EXPECT_FALSE(test, feed(&rl, &cand, 1010, 6, 10));
	KUNIT_EXPECT_EQ(test, rl.window_start_cand, 20ul);
}

/* The counter itself may wrap: only differences are used. */
static void memtier_ratelimit_counter_wraps(struct kunit *test)
{
	struct memtier_ratelimit rl;
	unsigned long cand = ULONG_MAX - 5;

	window_open(&rl, 0, cand);
	KUNIT_EXPECT_TRUE(test, feed(&rl, &cand, 1, 8, 10));
	KUNIT_EXPECT_TRUE(test, feed(&rl, &cand, 2, 2, 10));
	KUNIT_EXPECT_FALSE(test, feed(&rl, &cand, 3, 1, 10));
}

/*
 * 6.12 userspace: 0 MB/s lets no candidate through, in the first window
 * or in any later one, whatever the folio size.
 */
static void memtier_ratelimit_zero_mbps_promotes_nothing(struct kunit *test)
{
	u64 limit = memtier_mbps_to_pages(0, 12);
	struct memtier_ratelimit rl;
	unsigned long cand = 0;
	int i;

	window_open(&rl, 0, 0);
	for (i = 0; i < 1000; i++)
		KUNIT_ASSERT_FALSE(test, feed(&rl, &cand, i * 7 + 3,
					      i % 2 ? 1 : 512, limit));
}

/*
 * 0 MB/s with two faults racing: B moves the window on with a count that
 * A read before it; A's check must still refuse, as mainline's does.
 */
static void memtier_ratelimit_zero_mbps_race(struct kunit *test)
{
	struct memtier_ratelimit rl;

	window_open(&rl, 0, 0);
	/* B: count 11, a new window (its base would be 10). */
	KUNIT_EXPECT_FALSE(test, memtier_ratelimit_allow(&rl, 1003, 11, 1, 0));
	/* A: count 10, read before B's; 10 - 10 is within a 0 limit. */
	KUNIT_EXPECT_FALSE(test, memtier_ratelimit_allow(&rl, 1003, 10, 1, 0));
	/* The same interleaving with a limit of 1 page lets A through. */
	window_open(&rl, 0, 0);
	KUNIT_EXPECT_TRUE(test, memtier_ratelimit_allow(&rl, 1003, 11, 1, 1));
	KUNIT_EXPECT_TRUE(test, memtier_ratelimit_allow(&rl, 1003, 10, 1, 1));
}

/*
 * The count comes from the node's vmstat counter, which lags behind the
 * CPUs' pending deltas: a fault may read a count below the base of a
 * window another fault just opened.  Its pages are of that window, not
 * 2^64 pages past it.
 */
static void memtier_ratelimit_count_behind_window(struct kunit *test)
{
	struct memtier_ratelimit rl;

	window_open(&rl, 0, 0);
	/* B opens a window at count 5003: its base is 5000. */
	KUNIT_EXPECT_TRUE(test, memtier_ratelimit_allow(&rl, 1007, 5003, 3, 256));
	KUNIT_EXPECT_EQ(test, rl.window_start_cand, 5000ul);
	/* A read 4877 (123 behind B's base) and 4999 (1 behind): in it. */
	KUNIT_EXPECT_TRUE(test, memtier_ratelimit_allow(&rl, 1008, 4877, 1, 256));
	KUNIT_EXPECT_TRUE(test, memtier_ratelimit_allow(&rl, 1008, 4999, 2, 256));
	/* Ahead of the base, the limit still counts: 5256 in, 5257 out. */
	KUNIT_EXPECT_TRUE(test, memtier_ratelimit_allow(&rl, 1009, 5256, 1, 256));
	KUNIT_EXPECT_FALSE(test, memtier_ratelimit_allow(&rl, 1009, 5257, 1, 256));
}

/* Fix: 4294967295 MB/s does not overflow into a small limit. */
static void memtier_ratelimit_max_mbps_no_overflow(struct kunit *test)
{
	u64 limit = memtier_mbps_to_pages(U32_MAX, 12);
	struct memtier_ratelimit rl;
	unsigned long cand = 0;

	window_open(&rl, 0, 0);
	/* Far more than the 0xffffff00 pages mainline wrapped it to. */
	KUNIT_EXPECT_TRUE(test, feed(&rl, &cand, 1, 0x100000000ul, limit));
	KUNIT_EXPECT_TRUE(test, feed(&rl, &cand, 2, limit - 0x100000000ul,
				     limit));
	KUNIT_EXPECT_FALSE(test, feed(&rl, &cand, 3, 1, limit));
}

/* Promoted pages per window never exceed the limit, whatever the load. */
static void memtier_ratelimit_never_exceeds(struct kunit *test)
{
	static const unsigned long sizes[] = { 1, 1, 1, 512, 3, 1, 16 };
	const u64 limit = 2000;
	unsigned long cand = 0, promoted = 0;
	struct memtier_ratelimit rl;
	unsigned int now, window = 0, i = 0;

	window_open(&rl, 0, 0);
	for (now = 0; now < 20000; now += 3) {
		unsigned long nr = sizes[i++ % ARRAY_SIZE(sizes)];
		bool allowed = feed(&rl, &cand, now, nr, limit);

		if (rl.window_start_ms != window) {
			/* This call started a new window: check the old one. */
			KUNIT_EXPECT_LE(test, (u64)promoted, limit);
			KUNIT_EXPECT_GE(test, rl.window_start_ms - window,
					1000u);
			promoted = 0;
			window = rl.window_start_ms;
		}
		if (allowed)
			promoted += nr;
	}
	KUNIT_EXPECT_LE(test, (u64)promoted, limit);
}

static struct kunit_case memtier_ratelimit_cases[] = {
	KUNIT_CASE(memtier_ratelimit_default),
	KUNIT_CASE_PARAM(memtier_ratelimit_mbps_to_pages, mbps_gen_params),
	KUNIT_CASE_PARAM(memtier_ratelimit_windows, window_gen_params),
	KUNIT_CASE(memtier_ratelimit_rollover_once),
	KUNIT_CASE(memtier_ratelimit_counter_wraps),
	KUNIT_CASE(memtier_ratelimit_zero_mbps_promotes_nothing),
	KUNIT_CASE(memtier_ratelimit_zero_mbps_race),
	KUNIT_CASE(memtier_ratelimit_count_behind_window),
	KUNIT_CASE(memtier_ratelimit_max_mbps_no_overflow),
	KUNIT_CASE(memtier_ratelimit_never_exceeds),
	{}
};

static struct kunit_suite memtier_ratelimit_suite = {
	.name = "memtier_ratelimit",
	.test_cases = memtier_ratelimit_cases,
};

kunit_test_suite(memtier_ratelimit_suite);
