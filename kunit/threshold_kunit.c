// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_threshold: the hot threshold adjusting itself so
 * that the candidates match the rate limit; its band, bounds and period,
 * two closed loops, and every knob value that used to overflow or stick.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/memtier_promote.h>

static void memtier_threshold_defaults(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, MEMTIER_HOT_THRESHOLD_DEFAULT_MS, 1000);
	KUNIT_EXPECT_EQ(test, MEMTIER_THRESHOLD_ADJUST_STEPS, 16);
	KUNIT_EXPECT_EQ(test, memtier_threshold_unit(1000), 125u);
	KUNIT_EXPECT_EQ(test, memtier_threshold_max(1000), 2000u);
}

struct unit_case {
	unsigned int ref, unit, max;
};

static const struct unit_case unit_cases[] = {
	{ 1, 1, 2 },		/* mainline's unit was 0 below 8 ms */
	{ 7, 1, 14 },
	{ 8, 1, 16 },
	{ 15, 1, 30 },
	{ 16, 2, 32 },
	{ 1000, 125, 2000 },
	{ 1001, 125, 2002 },
	{ U32_MAX, U32_MAX / 8, U32_MAX },	/* 2 * ref saturates */
};

static void unit_case_desc(const struct unit_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "ref %u ms", c->ref);
}

KUNIT_ARRAY_PARAM(unit, unit_cases, unit_case_desc);

static void memtier_threshold_unit_and_bounds(struct kunit *test)
{
	const struct unit_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, memtier_threshold_unit(c->ref), c->unit);
	KUNIT_EXPECT_EQ(test, memtier_threshold_max(c->ref), c->max);
}

static void memtier_threshold_current_clamped(struct kunit *test)
{
	struct memtier_threshold th;

	memtier_threshold_reset(&th, 0, 0);
	KUNIT_EXPECT_EQ(test, memtier_threshold_current(&th, 1000), 1000u);
	th.threshold_ms = 500;
	KUNIT_EXPECT_EQ(test, memtier_threshold_current(&th, 1000), 500u);
	/* The knob moved since: the learnt value is kept within its bounds. */
	KUNIT_EXPECT_EQ(test, memtier_threshold_current(&th, 100), 200u);
	KUNIT_EXPECT_EQ(test, memtier_threshold_current(&th, 10000), 1250u);
}

/*
 * The threshold in force for a learnt value on each side of each bound,
 * for references where the unit's floor of 1 ms and the maximum's
 * saturation apply, against the rule written out: at least
 * max(floor(ref / 8), 1), at most min(2 * ref, 2^32 - 1).
 */
static void memtier_threshold_current_edges(struct kunit *test)
{
	static const unsigned int refs[] = {
		1, 7, 8, 9, 15, 17, 1000, 1003, 0x7fffffff, 0x80000000,
		0x80000001, 0xfffffffe, U32_MAX,
	};
	struct memtier_threshold th = {};
	unsigned int i, j, ref, lo, hi;
	u64 cands[10];

	for (i = 0; i < ARRAY_SIZE(refs); i++) {
		ref = refs[i];
		lo = max(ref / 8, 1u);
		hi = min_t(u64, 2ull * ref, U32_MAX);
		cands[0] = 1;
		cands[1] = lo - 1;
		cands[2] = lo;
		cands[3] = lo + 1ull;
		cands[4] = ref;
		cands[5] = hi - 1ull;
		cands[6] = hi;
		cands[7] = hi + 1ull;
		cands[8] = 2ull * ref + 1;
		cands[9] = U32_MAX;
		for (j = 0; j < ARRAY_SIZE(cands); j++) {
			/* Values 0 (none learnt) and above 32 bits: not a case. */
			if (!cands[j] || cands[j] > U32_MAX)
				continue;
			th.threshold_ms = cands[j];
			KUNIT_EXPECT_EQ_MSG(test, memtier_threshold_current(&th, ref),
					    cands[j] < lo ? lo :
					    cands[j] > hi ? hi : (unsigned int)cands[j],
					    "ref %u learnt %llu", ref, cands[j]);
		}
	}
}

/* 1000 candidate pages per 1000 ms period: the band is [900, 1100]. */
#define BAND_LIMIT	1000
#define BAND_PERIOD	1000

struct band_case {
	unsigned long diff;
	unsigned int before, after;
};

static const struct band_case band_cases[] = {
	{ 5000, 1000, 875 },
	{ 1101, 1000, 875 },	/* just over 110%: lower */
	{ 1100, 1000, 1000 },	/* exactly 110%: keep */
	{ 1000, 1000, 1000 },
	{ 900, 1000, 1000 },	/* exactly 90%: keep */
	{ 899, 1000, 1125 },	/* just under 90%: raise */
	{ 0, 1000, 1125 },
	{ 5000, 125, 125 },	/* at the lower bound */
	{ 5000, 200, 125 },	/* never below one unit */
	{ 0, 2000, 2000 },	/* at the upper bound */
	{ 0, 1950, 2000 },	/* never above 2 * ref */
};

static void band_case_desc(const struct band_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%lu candidates at %u ms",
		 c->diff, c->before);
}

KUNIT_ARRAY_PARAM(band, band_cases, band_case_desc);

static void memtier_threshold_band(struct kunit *test)
{
	const struct band_case *c = test->param_value;
	struct memtier_threshold th;

	memtier_threshold_reset(&th, 0, 777);
	th.threshold_ms = c->before;
	KUNIT_EXPECT_TRUE(test, memtier_threshold_adjust(&th, BAND_PERIOD + 1,
							 777 + c->diff,
							 BAND_LIMIT, 1000,
							 BAND_PERIOD));
	KUNIT_EXPECT_EQ(test, th.threshold_ms, c->after);
	KUNIT_EXPECT_EQ(test, th.period_start_ms, BAND_PERIOD + 1u);
	KUNIT_EXPECT_EQ(test, th.period_start_cand, 777 + c->diff);
}

/* As in mainline, a period ends strictly after period_ms. */
static void memtier_threshold_period_edge(struct kunit *test)
{
	struct memtier_threshold th;

	memtier_threshold_reset(&th, 100, 0);
	KUNIT_EXPECT_FALSE(test, memtier_threshold_adjust(&th, 100 + 1000,
							  5000, 1000, 1000,
							  1000));
	KUNIT_EXPECT_EQ(test, th.threshold_ms, 0u);
	KUNIT_EXPECT_TRUE(test, memtier_threshold_adjust(&th, 100 + 1001,
							 5000, 1000, 1000,
							 1000));
	KUNIT_EXPECT_EQ(test, th.threshold_ms, 875u);
	/* A second caller in the same ms finds the new period started. */
	KUNIT_EXPECT_FALSE(test, memtier_threshold_adjust(&th, 100 + 1001,
							  99999, 1000, 1000,
							  1000));
	KUNIT_EXPECT_EQ(test, th.threshold_ms, 875u);
}

static void memtier_threshold_clock_wraps(struct kunit *test)
{
	struct memtier_threshold th;

	memtier_threshold_reset(&th, U32_MAX - 400, 0);
	KUNIT_EXPECT_FALSE(test, memtier_threshold_adjust(&th, 500, 5000,
							  1000, 1000, 1000));
	KUNIT_EXPECT_TRUE(test, memtier_threshold_adjust(&th, 601, 5000,
							 1000, 1000, 1000));
	KUNIT_EXPECT_EQ(test, th.threshold_ms, 875u);
}

static void memtier_threshold_reset_forgets(struct kunit *test)
{
	struct memtier_threshold th;

	memtier_threshold_reset(&th, 0, 0);
	th.threshold_ms = 250;
	memtier_threshold_reset(&th, 42, 4242);
	KUNIT_EXPECT_EQ(test, th.threshold_ms, 0u);
	KUNIT_EXPECT_EQ(test, memtier_threshold_current(&th, 1000), 1000u);
	KUNIT_EXPECT_EQ(test, th.period_start_ms, 42u);
	KUNIT_EXPECT_EQ(test, th.period_start_cand, 4242ul);
}

/*
 * A workload model for the closed loops: a hot set whose pages fault
 * back within 100 ms, making exactly the rate limit's worth of candidates
 * per period, and a warm tail spread over 300-1000 ms latencies making
 * twice as many more.  At the default 1000 ms threshold the candidates
 * are 3x the limit; any threshold in [100, 300] ms selects the hot set
 * alone.
 */
static u64 model_candidates(u64 ref_cand, unsigned int th)
{
	if (th < 100)
		return ref_cand * th / 100;
	if (th <= 300)
		return ref_cand;
	if (th >= 1000)
		return 3 * ref_cand;
	return ref_cand + 2 * ref_cand * (th - 300) / 700;
}

static void memtier_threshold_closed_loop_3x(struct kunit *test)
{
	/* Mainline's defaults: 65536 MB/s, 1000 ms, 60 s periods. */
	const u64 limit = memtier_mbps_to_pages(65536, 12);
	const unsigned int period = 60000;
	const u64 ref_cand = limit * period / 1000;
	struct memtier_threshold th;
	unsigned long cand = 0;
	unsigned int now = 0, cur;
	int p, settled = -1;
	bool adjusted;
	u64 made;

	memtier_threshold_reset(&th, now, cand);
	KUNIT_EXPECT_EQ(test, model_candidates(ref_cand, 1000), 3 * ref_cand);
	for (p = 0; p < 20; p++) {
		cur = memtier_threshold_current(&th, 1000);
		made = model_candidates(ref_cand, cur);
		if (settled < 0 && made * 10 >= ref_cand * 9 &&
		    made * 10 <= ref_cand * 11)
			settled = p;
		if (settled >= 0) {
			/* Once within ±10% it stays there. */
			KUNIT_EXPECT_GE(test, made * 10, ref_cand * 9);
			KUNIT_EXPECT_LE(test, made * 10, ref_cand * 11);
		}
		cand += made;
		now += period + 1;
		adjusted = memtier_threshold_adjust(&th, now, cand, limit,
						    1000, period);
		KUNIT_ASSERT_TRUE(test, adjusted);
		/* Over the limit, it never rises. */
		if (settled < 0)
			KUNIT_EXPECT_LT(test,
					memtier_threshold_current(&th, 1000),
					cur);
	}
	KUNIT_EXPECT_GE(test, settled, 0);
	/* 1000 ms down to 250 ms takes six steps of 125 ms. */
	KUNIT_EXPECT_LE(test, settled, 6);
	KUNIT_EXPECT_EQ(test, memtier_threshold_current(&th, 1000), 250u);
}

static void memtier_threshold_closed_loop_half(struct kunit *test)
{
	const u64 limit = 1000;
	const unsigned int period = 1000;
	struct memtier_threshold th;
	unsigned long cand = 0;
	unsigned int now = 0, prev = 1000, cur;
	bool adjusted;
	int p;

	memtier_threshold_reset(&th, now, cand);
	for (p = 0; p < 12; p++) {
		cand += limit / 2;
		now += period + 1;
		adjusted = memtier_threshold_adjust(&th, now, cand, limit,
						    1000, period);
		KUNIT_ASSERT_TRUE(test, adjusted);
		cur = memtier_threshold_current(&th, 1000);
		KUNIT_EXPECT_EQ(test, cur, min(prev + 125, 2000u));
		prev = cur;
	}
	/* 1000 ms up to the 2000 ms bound in eight steps, and held there. */
	KUNIT_EXPECT_EQ(test, prev, 2000u);
}

/* Fix: with a 1 ms or 7 ms knob mainline's step was 0 and nothing moved. */
static void memtier_threshold_small_knob_moves(struct kunit *test)
{
	static const unsigned int refs[] = { 1, 7 };
	struct memtier_threshold th;
	unsigned int now, i;
	int p;

	for (i = 0; i < ARRAY_SIZE(refs); i++) {
		memtier_threshold_reset(&th, 0, 0);
		now = 0;
		for (p = 0; p < 20; p++) {
			now += 1001;
			memtier_threshold_adjust(&th, now, 0, 1000, refs[i],
						 1000);
		}
		KUNIT_EXPECT_EQ(test, memtier_threshold_current(&th, refs[i]),
				2 * refs[i]);
		for (p = 0; p < 20; p++) {
			now += 1001;
			memtier_threshold_adjust(&th, now, 100000ul * (p + 1),
						 1000, refs[i], 1000);
		}
		KUNIT_EXPECT_EQ(test, memtier_threshold_current(&th, refs[i]),
				1u);
	}
}

/*
 * Fix: the largest rate limit times the largest period is 2^40 pages/s
 * times 2^32 ms, past 64 bits in mainline's product; and a period of
 * U32_MAX ms could never end.
 */
static void memtier_threshold_huge_period(struct kunit *test)
{
	const u64 limit = memtier_mbps_to_pages(U32_MAX, 12);
	/* limit * S32_MAX / 1000, the candidates the limit allows. */
	const u64 ref_cand = 2361183239785555165ull;
	struct memtier_threshold th;
	unsigned int start = 1000, end;
	bool adjusted;

	KUNIT_EXPECT_EQ(test, limit, 0xffffffff00ull);
	memtier_threshold_reset(&th, start, 0);
	end = start + MEMTIER_THRESHOLD_PERIOD_MAX_MS;
	adjusted = memtier_threshold_adjust(&th, end, 1, limit, 1000, U32_MAX);
	KUNIT_EXPECT_FALSE(test, adjusted);
	adjusted = memtier_threshold_adjust(&th, end + 1, 1, limit, 1000,
					    U32_MAX);
	KUNIT_EXPECT_TRUE(test, adjusted);
	/* Far below the limit: raise. */
	KUNIT_EXPECT_EQ(test, th.threshold_ms, 1125u);

	/* Just over 110% of the unwrapped product: lower. */
	start = th.period_start_ms;
	end = start + MEMTIER_THRESHOLD_PERIOD_MAX_MS;
	adjusted = memtier_threshold_adjust(&th, end + 1,
					    1 + ref_cand + ref_cand / 10 + 1,
					    limit, 1000, U32_MAX);
	KUNIT_EXPECT_TRUE(test, adjusted);
	KUNIT_EXPECT_EQ(test, th.threshold_ms, 1000u);
}

/* No rate limit: candidates are never too many, the threshold rises. */
/*
 * At the largest knob, 4294967295 ms (which 6.12 accepts), a rise near
 * the top saturates at the knob's value instead of wrapping to a small
 * threshold: one unit (ref / 8, 536870911 ms) is more than the room
 * left above the threshold.
 */
static void memtier_threshold_rise_saturates(struct kunit *test)
{
	const unsigned int ref = 4294967295u, start = 77;
	struct memtier_threshold th;

	memtier_threshold_reset(&th, start, 0);
	th.threshold_ms = ref - 5;
	/* No candidates in a period the limit gives 1000: light, raise. */
	KUNIT_EXPECT_TRUE(test, memtier_threshold_adjust(&th, start + 1001, 0,
							 1000, ref, 1000));
	KUNIT_EXPECT_EQ(test, th.threshold_ms, ref);
	/* Raised from one unit below the top as well: the top. */
	th.threshold_ms = ref - 536870911u;
	KUNIT_EXPECT_TRUE(test, memtier_threshold_adjust(&th, start + 2002, 0,
							 1000, ref, 1000));
	KUNIT_EXPECT_EQ(test, th.threshold_ms, ref);
}

static void memtier_threshold_unlimited_rises(struct kunit *test)
{
	struct memtier_threshold th;
	unsigned int now = 0;
	bool adjusted;
	int p;

	memtier_threshold_reset(&th, 0, 0);
	for (p = 0; p < 10; p++) {
		now += 1001;
		adjusted = memtier_threshold_adjust(&th, now,
						    ULONG_MAX / 2 * (p & 1),
						    U64_MAX, 1000, 1000);
		KUNIT_ASSERT_TRUE(test, adjusted);
	}
	KUNIT_EXPECT_EQ(test, th.threshold_ms, 2000u);
}

/*
 * The candidates a limit allows in a period saturate rather than wrap:
 * here limit / 1000 * period still fits in 64 bits, the whole product
 * does not.  Wrapped, it would be tiny and the threshold would drop.
 */
static void memtier_threshold_period_pages_saturate(struct kunit *test)
{
	const u64 limit = 18428315757951600999ull;
	struct memtier_threshold th;
	bool adjusted;

	memtier_threshold_reset(&th, 0, 0);
	adjusted = memtier_threshold_adjust(&th, 1002, 1000000, limit, 1000,
					    1001);
	KUNIT_EXPECT_TRUE(test, adjusted);
	KUNIT_EXPECT_EQ(test, th.threshold_ms, 1125u);
}

/*
 * The band at limits and periods that are not round: the expected edges
 * come from mainline's own arithmetic, ref = limit * period / 1000 and
 * the band [ref * 9 / 10, ref * 11 / 10], computed here in 64 bits where
 * these values cannot overflow; the library gets there another way.
 */
struct odd_band_case {
	u64 limit;
	unsigned int period;
};

static const struct odd_band_case odd_band_cases[] = {
	{ 1237, 1000 },		/* ref 1237: band [1113, 1360] */
	{ 1237, 1777 },		/* ref 2198 */
	{ 256, 1300 },		/* 1 MB/s, 4 KiB pages: ref 332 */
	{ 33, 997 },		/* ref 32 */
	{ 999999, 61 },		/* ref 60999 */
	{ 7919, 104729 },	/* two primes: ref 829348 */
#if BITS_PER_LONG == 64
	/*
	 * The longest period, and a limit that is not whole pages per ms:
	 * the remainder's share, 999 * period, needs more than 32 bits.
	 */
	{ 1999, 2147483647 },	/* ref 4292819810 */
	{ 123457, 2147483647 },	/* ref 265121888607 */
#endif
};

static void odd_band_case_desc(const struct odd_band_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%llu pages/s, %u ms",
		 c->limit, c->period);
}

KUNIT_ARRAY_PARAM(odd_band, odd_band_cases, odd_band_case_desc);

/* One adjustment from 1000 ms after @diff candidates in a period. */
static unsigned int adjust_once(struct kunit *test, u64 limit,
				unsigned int period, unsigned long diff)
{
	/* Not 0 and not round, so that the state's own start matters. */
	const unsigned int start = 0x9e3779b9;
	const unsigned long base = 0x5bd1e995;
	struct memtier_threshold th;

	memtier_threshold_reset(&th, start, base);
	th.threshold_ms = 1000;
	KUNIT_EXPECT_TRUE(test, memtier_threshold_adjust(&th,
							 start + period + 1,
							 base + diff, limit,
							 1000, period));
	return th.threshold_ms;
}

static void memtier_threshold_band_odd(struct kunit *test)
{
	const struct odd_band_case *c = test->param_value;
	u64 ref = c->limit * c->period / 1000;
	u64 high = ref * 11 / 10, low = ref * 9 / 10;

	KUNIT_ASSERT_GT(test, low, 0ull);
	KUNIT_EXPECT_EQ(test, adjust_once(test, c->limit, c->period, high + 1),
			875u);
	KUNIT_EXPECT_EQ(test, adjust_once(test, c->limit, c->period, high),
			1000u);
	KUNIT_EXPECT_EQ(test, adjust_once(test, c->limit, c->period, ref),
			1000u);
	KUNIT_EXPECT_EQ(test, adjust_once(test, c->limit, c->period, low),
			1000u);
	KUNIT_EXPECT_EQ(test, adjust_once(test, c->limit, c->period, low - 1),
			1125u);
}

/*
 * The period's end on both sides of the clock's wrap: a period that
 * starts before it and ends after, and one that starts and ends just
 * below it; each probed at exactly period_ms (not over) and one ms more.
 */
static void memtier_threshold_wrap_edges(struct kunit *test)
{
	static const unsigned int starts[] = {
		U32_MAX - 400,		/* ends 600 ms after the wrap */
		U32_MAX - 1300,		/* ends 300 ms before it */
		U32_MAX,		/* starts at the last ms */
		0,			/* starts at the first */
	};
	const unsigned int period = 1001;
	struct memtier_threshold th;
	unsigned int end;
	bool adjusted;
	int i;

	for (i = 0; i < ARRAY_SIZE(starts); i++) {
		memtier_threshold_reset(&th, starts[i], 17);
		end = starts[i] + period;
		adjusted = memtier_threshold_adjust(&th, end, 99999, 1000,
						    1000, period);
		KUNIT_EXPECT_FALSE_MSG(test, adjusted, "start %#x", starts[i]);
		KUNIT_EXPECT_EQ(test, th.period_start_ms, starts[i]);
		adjusted = memtier_threshold_adjust(&th, end + 1, 99999, 1000,
						    1000, period);
		KUNIT_EXPECT_TRUE_MSG(test, adjusted, "start %#x", starts[i]);
		KUNIT_EXPECT_EQ(test, th.period_start_ms, end + 1);
		KUNIT_EXPECT_EQ(test, th.threshold_ms, 875u);
	}
}

/*
 * Reset on memory full of garbage, at an arbitrary time: nothing of the
 * garbage survives into the next decision.
 */
static void memtier_threshold_reset_poisoned(struct kunit *test)
{
	struct memtier_threshold th;

	memset(&th, 0xa5, sizeof(th));
	memtier_threshold_reset(&th, 0x12345678, 0xabcdef);
	KUNIT_EXPECT_EQ(test, memtier_threshold_current(&th, 777), 777u);
	/* The period counts from the reset, and candidates from its count. */
	KUNIT_EXPECT_FALSE(test, memtier_threshold_adjust(&th,
							  0x12345678 + 1000,
							  0xabcdef, 1000,
							  777, 1000));
	KUNIT_EXPECT_TRUE(test, memtier_threshold_adjust(&th,
							 0x12345678 + 1001,
							 0xabcdef + 1000, 1000,
							 777, 1000));
	KUNIT_EXPECT_EQ(test, memtier_threshold_current(&th, 777), 777u);
}

static struct kunit_case memtier_threshold_cases[] = {
	KUNIT_CASE(memtier_threshold_defaults),
	KUNIT_CASE_PARAM(memtier_threshold_unit_and_bounds, unit_gen_params),
	KUNIT_CASE(memtier_threshold_current_clamped),
	KUNIT_CASE(memtier_threshold_current_edges),
	KUNIT_CASE_PARAM(memtier_threshold_band, band_gen_params),
	KUNIT_CASE(memtier_threshold_period_edge),
	KUNIT_CASE(memtier_threshold_clock_wraps),
	KUNIT_CASE(memtier_threshold_reset_forgets),
	KUNIT_CASE(memtier_threshold_closed_loop_3x),
	KUNIT_CASE(memtier_threshold_closed_loop_half),
	KUNIT_CASE(memtier_threshold_small_knob_moves),
	KUNIT_CASE(memtier_threshold_huge_period),
	KUNIT_CASE(memtier_threshold_unlimited_rises),
	KUNIT_CASE(memtier_threshold_rise_saturates),
	KUNIT_CASE(memtier_threshold_period_pages_saturate),
	KUNIT_CASE_PARAM(memtier_threshold_band_odd, odd_band_gen_params),
	KUNIT_CASE(memtier_threshold_wrap_edges),
	KUNIT_CASE(memtier_threshold_reset_poisoned),
	{}
};

static struct kunit_suite memtier_threshold_suite = {
	.name = "memtier_threshold",
	.test_cases = memtier_threshold_cases,
};

kunit_test_suite(memtier_threshold_suite);
