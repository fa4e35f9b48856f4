// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_promote: the decision for one hint fault on a page
 * outside the top tier, from the mode bits, the latency, the target's
 * free space and the knobs; with one named case per mainline weakness
 * that it fixes.
 */
#include <kunit/test.h>
#include <linux/memtier_promote.h>
#include <linux/sched/sysctl.h>

#define TIERING		NUMA_BALANCING_MEMORY_TIERING
#define NORMAL		NUMA_BALANCING_NORMAL

static const struct memtier_promote_tunables mainline_defaults = {
	.hot_threshold_ms = MEMTIER_HOT_THRESHOLD_DEFAULT_MS,
	.rate_limit_mbps = MEMTIER_RATE_LIMIT_DEFAULT_MBPS,
	.scan_period_max_ms = 60000,
	.page_shift = 12,
};

/*
 * A target node as the fault path keeps it: the library's state, and the
 * two vmstat counters (pgpromote_candidate, pgpromote_candidate_nrl) that
 * each decision's pages are added to, where
 * memtier_promote_reason_counter() says.
 */
struct promote_node {
	struct memtier_promote_state state;
	unsigned long nr_cand;
	unsigned long nr_nrl;
};

/* A node whose rate limit window and adjustment period open at @now. */
static struct promote_node *new_node(struct kunit *test, unsigned int now)
{
	struct promote_node *node;

	node = kunit_kzalloc(test, sizeof(*node), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, node);
	node->state.rl.window_start_ms = now;
	memtier_threshold_reset(&node->state.th, now, 0);
	return node;
}

/* One hint fault on @node: decide with its count, then count. */
static enum memtier_promote_reason decide(struct promote_node *node,
					  struct memtier_hint_fault *f,
					  const struct memtier_promote_tunables *tun)
{
	enum memtier_promote_reason r;

	f->nr_cand = node->nr_cand;
	r = memtier_promote_decide(&node->state, f, tun);
	switch (memtier_promote_reason_counter(r)) {
	case MEMTIER_PROMOTE_COUNT_CANDIDATE:
		node->nr_cand += f->nr_pages;
		break;
	case MEMTIER_PROMOTE_COUNT_CANDIDATE_NRL:
		node->nr_nrl += f->nr_pages;
		break;
	case MEMTIER_PROMOTE_COUNT_NONE:
		break;
	}
	return r;
}

struct decide_case {
	const char *name;
	unsigned int mode;
	bool free_space;
	unsigned int latency;
	enum memtier_promote_reason reason;
};

static const struct decide_case decide_cases[] = {
	{ "tiering, hot", TIERING, false, 10, MEMTIER_PROMOTE_HOT },
	{ "tiering, 1 ms under threshold", TIERING, false, 999,
	  MEMTIER_PROMOTE_HOT },
	{ "tiering, exactly at threshold", TIERING, false, 1000,
	  MEMTIER_PROMOTE_COLD },
	{ "tiering, cold", TIERING, false, 4000, MEMTIER_PROMOTE_COLD },
	{ "tiering, cold but free space", TIERING, true, 4000,
	  MEMTIER_PROMOTE_BYPASS },
	{ "tiering+normal, hot", TIERING | NORMAL, false, 10,
	  MEMTIER_PROMOTE_HOT },
	{ "tiering+normal, cold but free space", TIERING | NORMAL, true, 4000,
	  MEMTIER_PROMOTE_BYPASS },
	{ "normal", NORMAL, false, 10, MEMTIER_PROMOTE_TIERING_OFF },
	{ "normal, free space", NORMAL, true, 10,
	  MEMTIER_PROMOTE_TIERING_OFF },
	{ "balancing off", 0, false, 10, MEMTIER_PROMOTE_TIERING_OFF },
	{ "balancing off, free space", 0, true, 4000,
	  MEMTIER_PROMOTE_TIERING_OFF },
};

static void decide_case_desc(const struct decide_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(decide, decide_cases, decide_case_desc);

static void memtier_promote_rules(struct kunit *test)
{
	const struct decide_case *c = test->param_value;
	struct promote_node *node = new_node(test, 0);
	struct memtier_hint_fault f = {
		.mode = c->mode,
		.target_free_space_enough = c->free_space,
		.now_ms = 10,
		.latency_ms = c->latency,
		.nr_pages = 1,
	};

	KUNIT_EXPECT_EQ(test, decide(node, &f, &mainline_defaults),
			c->reason);
	/* Only a hot page counts as a candidate; only a bypass as bypass. */
	KUNIT_EXPECT_EQ(test, node->nr_cand,
			c->reason == MEMTIER_PROMOTE_HOT ? 1UL : 0UL);
	KUNIT_EXPECT_EQ(test, node->nr_nrl,
			c->reason == MEMTIER_PROMOTE_BYPASS ? 1UL : 0UL);
}

static void memtier_promote_reasons(struct kunit *test)
{
	static const struct {
		enum memtier_promote_reason reason;
		bool migrates;
		enum memtier_promote_counter counter;
		bool hot;
	} table[] = {
		{ MEMTIER_PROMOTE_TIERING_OFF, false,
		  MEMTIER_PROMOTE_COUNT_NONE, false },
		/* Promoted for the free space, not found hot. */
		{ MEMTIER_PROMOTE_BYPASS, true,
		  MEMTIER_PROMOTE_COUNT_CANDIDATE_NRL, false },
		{ MEMTIER_PROMOTE_HOT, true,
		  MEMTIER_PROMOTE_COUNT_CANDIDATE, true },
		{ MEMTIER_PROMOTE_COLD, false,
		  MEMTIER_PROMOTE_COUNT_NONE, false },
		/* Refused, yet a candidate: pgpromote_candidate counts it. */
		{ MEMTIER_PROMOTE_RATELIMITED, false,
		  MEMTIER_PROMOTE_COUNT_CANDIDATE, true },
		/* Remembered only: not a candidate, not rate limited. */
		{ MEMTIER_PROMOTE_FIRST_HOT, false,
		  MEMTIER_PROMOTE_COUNT_NONE, true },
	};
	bool migrates;
	int i;

	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(table),
			(size_t)NR_MEMTIER_PROMOTE_REASONS);
	for (i = 0; i < ARRAY_SIZE(table); i++) {
		migrates = memtier_promote_reason_migrates(table[i].reason);
		KUNIT_EXPECT_EQ(test, migrates, table[i].migrates);
		KUNIT_EXPECT_EQ(test,
				memtier_promote_reason_counter(table[i].reason),
				table[i].counter);
		KUNIT_EXPECT_EQ(test,
				memtier_promote_reason_hot(table[i].reason),
				table[i].hot);
	}
	KUNIT_EXPECT_EQ(test,
			memtier_promote_reason_counter(NR_MEMTIER_PROMOTE_REASONS),
			MEMTIER_PROMOTE_COUNT_NONE);
}

/*
 * Tiering mode switched off between the caller's check and the decision:
 * whatever the free space and the latency, nothing is promoted or
 * counted, and the adjusted threshold is not reset as a bypass would.
 */
static void memtier_promote_tiering_off_decides_nothing(struct kunit *test)
{
	struct promote_node *node = new_node(test, 0);
	struct memtier_hint_fault f = {
		.mode = NORMAL, .target_free_space_enough = true,
		.latency_ms = 0, .nr_pages = 512,
	};
	enum memtier_promote_reason r;
	int i;

	node->state.th.threshold_ms = 437;
	for (i = 0; i < 100; i++) {
		f.now_ms = i * 10;
		r = decide(node, &f, &mainline_defaults);
		KUNIT_EXPECT_EQ(test, r, MEMTIER_PROMOTE_TIERING_OFF);
		KUNIT_EXPECT_FALSE(test, memtier_promote_reason_migrates(r));
	}
	KUNIT_EXPECT_EQ(test, node->nr_cand, 0UL);
	KUNIT_EXPECT_EQ(test, node->nr_nrl, 0UL);
	KUNIT_EXPECT_EQ(test, node->state.th.threshold_ms, 437U);
}

/*
 * Fix: bypass promotions were not counted, so pgpromote_success could
 * exceed pgpromote_candidate.  Over a mixed run, every promoted page is
 * counted, as a candidate or as a bypass.
 */
static void memtier_promote_bypass_counted(struct kunit *test)
{
	struct promote_node *node = new_node(test, 0);
	struct memtier_promote_tunables tun = mainline_defaults;
	struct memtier_hint_fault f = { .mode = TIERING };
	unsigned long promoted = 0;
	enum memtier_promote_reason r;
	unsigned int i;

	tun.rate_limit_mbps = 1;	/* 256 pages/s: the limit bites */
	for (i = 0; i < 5000; i++) {
		f.now_ms = i * 2;
		f.latency_ms = (i * 7919) % 2000;
		f.target_free_space_enough = (i / 500) % 3 == 0;
		f.nr_pages = i % 5 ? 1 : 512;
		r = decide(node, &f, &tun);
		if (memtier_promote_reason_migrates(r))
			promoted += f.nr_pages;
	}
	KUNIT_EXPECT_GT(test, node->nr_nrl, 0UL);
	KUNIT_EXPECT_LE(test, promoted, node->nr_cand + node->nr_nrl);
}

/* Bypass restarts the threshold from the reference. */
static void memtier_promote_bypass_resets_threshold(struct kunit *test)
{
	struct promote_node *node = new_node(test, 0);
	struct memtier_hint_fault f = {
		.mode = TIERING,
		.target_free_space_enough = true, .now_ms = 5000, .nr_pages = 1,
	};

	node->state.th.threshold_ms = 250;
	node->state.th.period_start_ms = 1234;
	node->state.th.period_start_cand = 77;
	KUNIT_EXPECT_EQ(test, decide(node, &f, &mainline_defaults),
			MEMTIER_PROMOTE_BYPASS);
	KUNIT_EXPECT_EQ(test, node->state.th.threshold_ms, 0u);
	/* The period runs on: only the threshold restarts. */
	KUNIT_EXPECT_EQ(test, node->state.th.period_start_ms, 1234u);
	KUNIT_EXPECT_EQ(test, node->state.th.period_start_cand, 77ul);
}

/*
 * A free-space promotion reads neither the latency, nor the last fault's
 * hotness, nor the candidate count: the kernel does not compute them
 * then.  Given values that would end the adjustment period, open a
 * rate-limit window and find the page hot, the bypass still touches
 * nothing but the threshold.
 */
static void memtier_promote_bypass_reads_no_inputs(struct kunit *test)
{
	struct memtier_promote_tunables tun = mainline_defaults;
	struct memtier_promote_state state = {
		.rl = { .window_start_ms = 3, .window_start_cand = 41 },
		.th = { .threshold_ms = 333, .period_start_ms = 7,
			.period_start_cand = 59 },
	};
	struct memtier_hint_fault f = {
		.mode = TIERING, .target_free_space_enough = true,
		.now_ms = 987654, .latency_ms = 0, .last_fault_hot = true,
		.nr_pages = 512, .nr_cand = 123456789,
	};

	tun.hot_policy = MEMTIER_HOT_REPEAT;
	KUNIT_EXPECT_EQ(test, memtier_promote_decide(&state, &f, &tun),
			MEMTIER_PROMOTE_BYPASS);
	KUNIT_EXPECT_EQ(test, state.th.threshold_ms, 0u);
	KUNIT_EXPECT_EQ(test, state.th.period_start_ms, 7u);
	KUNIT_EXPECT_EQ(test, state.th.period_start_cand, 59ul);
	KUNIT_EXPECT_EQ(test, state.rl.window_start_ms, 3u);
	KUNIT_EXPECT_EQ(test, state.rl.window_start_cand, 41ul);
}

/*
 * One bypass every 30 s, hot faults over the limit in between: the 60 s
 * adjustment period still ends (at the first fault past 60 s) and the
 * threshold comes down.  Restarting the period at each bypass kept it
 * from ever ending.
 */
static void memtier_promote_bypass_keeps_period(struct kunit *test)
{
	struct promote_node *node = new_node(test, 0);
	struct memtier_promote_tunables tun = mainline_defaults;
	struct memtier_hint_fault f = { .mode = TIERING, .nr_pages = 1 };
	unsigned int t;

	tun.rate_limit_mbps = 1;	/* 256 pages/s, 15360 per period */
	for (t = 7; t < 90000; t += 2) {
		f.now_ms = t;
		f.latency_ms = 3;
		/* Bypasses at 30001 and 60001. */
		f.target_free_space_enough = t % 30000 == 1;
		decide(node, &f, &tun);
	}
	/*
	 * The first fault past 60000 ms that is no bypass, 60003, ends the
	 * period: 29996 candidates against a band of 13824 to 16896, so the
	 * threshold steps down once from 1000 ms by 125 ms.
	 */
	KUNIT_EXPECT_EQ(test, node->state.th.period_start_ms, 60003u);
	KUNIT_EXPECT_EQ(test, node->state.th.threshold_ms, 875u);
}

/*
 * A folio larger than a window's limit: 512 pages at 1 MB/s (256 pages
 * a window) is promoted once per new window, as mainline lets a
 * window's first candidate through, and never more often.
 */
static void memtier_promote_thp_over_window_limit(struct kunit *test)
{
	struct promote_node *node = new_node(test, 0);
	struct memtier_promote_tunables tun = mainline_defaults;
	struct memtier_hint_fault f = { .mode = TIERING, .nr_pages = 512 };
	unsigned int t, promoted = 0;

	tun.rate_limit_mbps = 1;
	for (t = 0; t < 10000; t += 100) {
		f.now_ms = t;
		f.latency_ms = 2;
		if (decide(node, &f, &tun) == MEMTIER_PROMOTE_HOT)
			promoted++;
	}
	/* Windows begin at 1000, 2000, ... 9000; the first one was open. */
	KUNIT_EXPECT_EQ(test, promoted, 9u);
}

/*
 * MEMTIER_HOT_REPEAT: a hot fault is a candidate only after a hot one;
 * the first is remembered, uncounted, and neither a cold fault nor a
 * bypass needs one.
 */
static void memtier_promote_repeat_policy(struct kunit *test)
{
	static const struct {
		unsigned int policy;
		unsigned int latency;
		bool last_hot;
		bool free_space;
		enum memtier_promote_reason reason;
	} table[] = {
		{ MEMTIER_HOT_REPEAT, 999, false, false,
		  MEMTIER_PROMOTE_FIRST_HOT },
		{ MEMTIER_HOT_REPEAT, 999, true, false, MEMTIER_PROMOTE_HOT },
		{ MEMTIER_HOT_REPEAT, 1000, true, false, MEMTIER_PROMOTE_COLD },
		{ MEMTIER_HOT_REPEAT, 1000, false, false, MEMTIER_PROMOTE_COLD },
		{ MEMTIER_HOT_REPEAT, 3, false, true, MEMTIER_PROMOTE_BYPASS },
		{ MEMTIER_HOT_REPEAT, 4000, false, true,
		  MEMTIER_PROMOTE_BYPASS },
		/* Mainline's policy ignores the previous fault. */
		{ MEMTIER_HOT_LATENCY, 999, false, false, MEMTIER_PROMOTE_HOT },
		{ MEMTIER_HOT_LATENCY, 999, true, false, MEMTIER_PROMOTE_HOT },
		{ MEMTIER_HOT_LATENCY, 1000, true, false, MEMTIER_PROMOTE_COLD },
		/* A value no policy has is mainline's. */
		{ NR_MEMTIER_HOT_POLICIES, 7, false, false,
		  MEMTIER_PROMOTE_HOT },
	};
	struct memtier_promote_tunables tun = mainline_defaults;
	struct memtier_hint_fault f = { .mode = TIERING, .nr_pages = 3 };
	struct promote_node *node;
	unsigned long want;
	int i;

	for (i = 0; i < ARRAY_SIZE(table); i++) {
		node = new_node(test, 0);
		tun.hot_policy = table[i].policy;
		f.now_ms = 17 + i;
		f.latency_ms = table[i].latency;
		f.last_fault_hot = table[i].last_hot;
		f.target_free_space_enough = table[i].free_space;
		KUNIT_EXPECT_EQ_MSG(test, decide(node, &f, &tun),
				    table[i].reason, "row %d", i);
		want = table[i].reason == MEMTIER_PROMOTE_HOT ? 3 : 0;
		KUNIT_EXPECT_EQ_MSG(test, node->nr_cand, want, "row %d", i);
	}
}

/*
 * At 1 MB/s, 256 pages a window: 340 pages fault hot once each, then the
 * last 40 of them again, all in one window.  Mainline's policy spends
 * the window on the first 256 and refuses the 40; MEMTIER_HOT_REPEAT
 * counts none of the single faults and promotes the 40.
 */
static void memtier_promote_repeat_spares_limit(struct kunit *test)
{
	static const struct {
		unsigned int policy;
		unsigned int promoted;
		unsigned int promoted_twice_hot;
		unsigned long nr_cand;
	} table[] = {
		{ MEMTIER_HOT_LATENCY, 256, 0, 380 },
		{ MEMTIER_HOT_REPEAT, 40, 40, 40 },
	};
	struct memtier_promote_tunables tun = mainline_defaults;
	struct memtier_hint_fault f = {
		.mode = TIERING, .latency_ms = 5, .nr_pages = 1,
	};
	unsigned int field[340], promoted, twice;
	enum memtier_promote_reason r;
	struct promote_node *node;
	int i, k, p;
	bool hot;

	tun.rate_limit_mbps = 1;
	for (k = 0; k < ARRAY_SIZE(table); k++) {
		node = new_node(test, 0);
		tun.hot_policy = table[k].policy;
		for (i = 0; i < ARRAY_SIZE(field); i++)
			field[i] = memtier_access_field_scan(0x3fff, 0, 14);
		promoted = 0;
		twice = 0;
		for (i = 0; i < ARRAY_SIZE(field) + 40; i++) {
			p = i < 340 ? i : i - 40;
			f.now_ms = 100 + i;
			f.last_fault_hot = memtier_access_field_hot(field[p], 14);
			r = decide(node, &f, &tun);
			hot = memtier_promote_reason_hot(r);
			field[p] = memtier_access_field_fault(f.now_ms, 14,
							      hot);
			promoted += r == MEMTIER_PROMOTE_HOT;
			twice += r == MEMTIER_PROMOTE_HOT && i >= 340;
		}
		KUNIT_EXPECT_EQ(test, promoted, table[k].promoted);
		KUNIT_EXPECT_EQ(test, twice, table[k].promoted_twice_hot);
		KUNIT_EXPECT_EQ(test, node->nr_cand, table[k].nr_cand);
	}
}

/* The knob's names; anything else is refused. */
static void memtier_promote_policy_names(struct kunit *test)
{
	static const struct {
		const char *buf;
		int policy;
	} table[] = {
		{ "latency", MEMTIER_HOT_LATENCY },
		{ "latency\n", MEMTIER_HOT_LATENCY },
		{ "repeat", MEMTIER_HOT_REPEAT },
		{ "repeat\n", MEMTIER_HOT_REPEAT },
		{ "", -EINVAL },
		{ "\n", -EINVAL },
		{ "repeatx", -EINVAL },
		{ "repea", -EINVAL },
		{ "Repeat", -EINVAL },
		{ " latency", -EINVAL },
		{ "latency repeat", -EINVAL },
		{ "1", -EINVAL },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(table); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    memtier_hot_policy_parse(table[i].buf),
				    table[i].policy, "\"%s\"", table[i].buf);
	KUNIT_EXPECT_STREQ(test, memtier_hot_policy_name(MEMTIER_HOT_LATENCY),
			   "latency");
	KUNIT_EXPECT_STREQ(test, memtier_hot_policy_name(MEMTIER_HOT_REPEAT),
			   "repeat");
	KUNIT_EXPECT_NULL(test, memtier_hot_policy_name(NR_MEMTIER_HOT_POLICIES));
	KUNIT_EXPECT_NULL(test, memtier_hot_policy_name(-1));
	KUNIT_EXPECT_EQ(test, MEMTIER_HOT_LATENCY, 0);
}

static void memtier_promote_tiering_enabled_resets(struct kunit *test)
{
	struct promote_node *node = new_node(test, 0);

	node->nr_cand = 99;
	node->state.th.threshold_ms = 375;
	memtier_promote_tiering_enabled(&node->state, 1234, node->nr_cand);
	KUNIT_EXPECT_EQ(test, node->state.th.threshold_ms, 0u);
	KUNIT_EXPECT_EQ(test, node->state.th.period_start_ms, 1234u);
	KUNIT_EXPECT_EQ(test, node->state.th.period_start_cand, 99ul);
}

/* Hot pages past the rate limit wait for the next window. */
static void memtier_promote_ratelimited(struct kunit *test)
{
	struct promote_node *node = new_node(test, 0);
	struct memtier_promote_tunables tun = mainline_defaults;
	struct memtier_hint_fault f = {
		.mode = TIERING, .latency_ms = 5,
		.nr_pages = 1,
	};
	int i;

	tun.rate_limit_mbps = 1;	/* 256 pages per window */
	for (i = 0; i < 256; i++) {
		f.now_ms = i;
		KUNIT_EXPECT_EQ(test, decide(node, &f, &tun),
				MEMTIER_PROMOTE_HOT);
	}
	f.now_ms = 999;
	KUNIT_EXPECT_EQ(test, decide(node, &f, &tun),
			MEMTIER_PROMOTE_RATELIMITED);
	f.now_ms = 1000;
	KUNIT_EXPECT_EQ(test, decide(node, &f, &tun),
			MEMTIER_PROMOTE_HOT);
	/* Refused candidates count too, as pgpromote_candidate did. */
	KUNIT_EXPECT_EQ(test, node->nr_cand, 258UL);
}

/* The adjusted threshold, not the knob, decides once it has moved. */
static void memtier_promote_uses_adjusted_threshold(struct kunit *test)
{
	struct promote_node *node = new_node(test, 0);
	struct memtier_hint_fault f = {
		.mode = TIERING, .now_ms = 10, .nr_pages = 1,
	};

	node->state.th.threshold_ms = 250;
	f.latency_ms = 249;
	KUNIT_EXPECT_EQ(test, decide(node, &f, &mainline_defaults),
			MEMTIER_PROMOTE_HOT);
	f.latency_ms = 250;
	KUNIT_EXPECT_EQ(test, decide(node, &f, &mainline_defaults),
			MEMTIER_PROMOTE_COLD);
}

struct knob_case {
	const char *name;
	struct memtier_promote_tunables tun;
	unsigned int hot_latency;	/* must promote */
	unsigned int cold_latency;	/* must not */
};

static const struct knob_case knob_cases[] = {
	{ "rate limit 4294967295 MB/s", { 1000, U32_MAX, 60000, 12 }, 999,
	  1000 },
	{ "hot threshold 1 ms", { 1, 65536, 60000, 12 }, 0, 1 },
	{ "hot threshold 7 ms", { 7, 65536, 60000, 12 }, 6, 7 },
	{ "hot threshold 4294967295 ms", { U32_MAX, 65536, 60000, 12 },
	  U32_MAX - 1, U32_MAX },
	{ "scan period 4294967295 ms", { 1000, 65536, U32_MAX, 12 }, 999,
	  1000 },
	{ "scan period 0 ms", { 1000, 65536, 0, 12 }, 999, 1000 },
	{ "64K pages", { 1000, 65536, 60000, 16 }, 999, 1000 },
};

static void knob_case_desc(const struct knob_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(knob, knob_cases, knob_case_desc);

/*
 * Fix: no value the knobs accept overflows or silently switches
 * promotion off: hot pages are promoted, cold ones are not, and a
 * sustained load keeps promoting across windows and periods.
 */
static void memtier_promote_knob_values(struct kunit *test)
{
	const struct knob_case *c = test->param_value;
	struct promote_node *node = new_node(test, 0);
	struct memtier_hint_fault f = {
		.mode = TIERING, .nr_pages = 1,
	};
	enum memtier_promote_reason reason;
	unsigned long promoted = 0;
	unsigned int t;

	f.now_ms = 1;
	f.latency_ms = c->cold_latency;
	KUNIT_EXPECT_EQ(test, decide(node, &f, &c->tun),
			MEMTIER_PROMOTE_COLD);
	f.latency_ms = c->hot_latency;
	KUNIT_EXPECT_EQ(test, decide(node, &f, &c->tun),
			MEMTIER_PROMOTE_HOT);

	/* Ten minutes of one hot fault per 10 ms. */
	for (t = 0; t < 600000; t += 10) {
		f.now_ms = 2 + t;
		f.latency_ms = 0;
		reason = decide(node, &f, &c->tun);
		if (memtier_promote_reason_migrates(reason))
			promoted++;
	}
	/* 100 faults/s is below every limit here: all are promoted. */
	KUNIT_EXPECT_EQ(test, promoted, 60000ul);
}

/*
 * A hot threshold below one clock tick.  Scan and fault times come from
 * jiffies_to_msecs(), so at HZ=250 every latency is a multiple of 4 ms,
 * and a 1 ms reference lets through latency 0 only: a fault in the same
 * tick as the scan.  The adjustment keeps it so: with no candidates the
 * threshold rises one step (at least 1 ms, where 6.12's step is 0) to
 * its ceiling of 2 ms, which still refuses 4 ms.  Both kernels promote
 * the same faults.
 */
static void memtier_promote_sub_tick_threshold(struct kunit *test)
{
	/* 1 ms, 1 MB/s, 1 s adjustment periods, 4 KiB pages. */
	const struct memtier_promote_tunables tun = { 1, 1, 1000, 12 };
	struct promote_node *node = new_node(test, 0);
	struct memtier_hint_fault f = { .mode = TIERING, .nr_pages = 1 };
	unsigned int t, th, lowest = UINT_MAX, highest = 0;

	/* 20 s of a fault every tick, each one tick after its scan. */
	for (t = 4; t <= 20000; t += 4) {
		f.now_ms = t;
		f.latency_ms = 4;
		KUNIT_EXPECT_EQ(test, decide(node, &f, &tun),
				MEMTIER_PROMOTE_COLD);
		th = memtier_threshold_current(&node->state.th, tun.hot_threshold_ms);
		lowest = min(lowest, th);
		highest = max(highest, th);
	}
	KUNIT_EXPECT_EQ(test, lowest, 1u);
	KUNIT_EXPECT_EQ(test, highest, 2u);
	/* Same tick: hot, whatever the adjustment made of the threshold. */
	f.now_ms = t;
	f.latency_ms = 0;
	KUNIT_EXPECT_EQ(test, decide(node, &f, &tun),
			MEMTIER_PROMOTE_HOT);
}

/*
 * 6.12 userspace: a rate limit of 0 MB/s or a hot threshold of 0 ms
 * promotes nothing, over many windows and adjustment periods, but what
 * the free-space bypass lets through.  A hot page refused by the 0 MB/s
 * limit is still a candidate, as mainline counts it.
 */
static void memtier_promote_zero_knobs_promote_nothing(struct kunit *test)
{
	static const struct {
		struct memtier_promote_tunables tun;
		enum memtier_promote_reason refused;
	} zero[] = {
		{ { 1000, 0, 60000, 12 }, MEMTIER_PROMOTE_RATELIMITED },
		{ { 0, 65536, 60000, 12 }, MEMTIER_PROMOTE_COLD },
		{ { 0, 0, 37, 16 }, MEMTIER_PROMOTE_COLD },
	};
	struct promote_node *node;
	struct memtier_hint_fault f = { .mode = TIERING };
	unsigned long counted;
	unsigned int i, t;

	for (i = 0; i < ARRAY_SIZE(zero); i++) {
		node = new_node(test, 3);
		counted = 0;
		for (t = 0; t < 200000; t += 13) {
			f.now_ms = 3 + t;
			f.latency_ms = t % 3;
			f.nr_pages = t % 7 ? 1 : 512;
			f.target_free_space_enough = false;
			KUNIT_ASSERT_EQ_MSG(test,
					    decide(node, &f, &zero[i].tun),
					    zero[i].refused, "knobs %u at %u", i,
					    t);
			if (zero[i].refused == MEMTIER_PROMOTE_RATELIMITED)
				counted += f.nr_pages;
		}
		KUNIT_EXPECT_EQ(test, node->nr_cand, counted);
		f.target_free_space_enough = true;
		KUNIT_EXPECT_EQ(test, decide(node, &f, &zero[i].tun),
				MEMTIER_PROMOTE_BYPASS);
	}
}

/*
 * max(1 GiB, present / 16) in pages, both sides of where present / 16
 * overtakes 1 GiB, for 4 KiB and 64 KiB pages: with 4 KiB pages 1 GiB is
 * 262144 pages, which present / 16 reaches at 4194304 pages and passes
 * at 4194320.
 */
static const struct {
	unsigned long present_pages;
	unsigned int page_shift;
	unsigned long margin;
} margin_cases[] = {
	{ 0, 12, 262144 },
	{ 3000017, 12, 262144 },
	{ 4194303, 12, 262144 },
	{ 4194320, 12, 262145 },
	{ 5000011, 12, 312500 },
	{ 100, 16, 16384 },
	{ 262159, 16, 16384 },
	{ 262160, 16, 16385 },
};

static void memtier_promote_free_space_margin(struct kunit *test)
{
	unsigned long margin;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(margin_cases); i++) {
		margin = memtier_free_space_margin(margin_cases[i].present_pages,
						   margin_cases[i].page_shift);
		KUNIT_EXPECT_EQ_MSG(test, margin, margin_cases[i].margin,
				    "present %lu, page shift %u",
				    margin_cases[i].present_pages,
				    margin_cases[i].page_shift);
	}
}

/*
 * The decision drives the threshold adjustment: with the counter of
 * candidates (not bypasses), over the scan_period_max_ms period, against
 * the rate limit the knob gives in pages.  1 MB/s with 4 KiB pages and a
 * 1300 ms period allow 256 * 1300 / 1000 = 332 candidates a period; the
 * band is [332 * 9 / 10, 332 * 11 / 10] = [298, 365].  Each row
 * is the candidates of one period and the threshold the next starts
 * with.
 */
static const struct {
	unsigned int candidates;
	unsigned int threshold;
} wiring_periods[] = {
	{ 365, 1000 },	/* the top of the band, a bypass beside: kept */
	{ 366, 875 },	/* just over: one 125 ms step down */
	{ 500, 750 },	/* over: down again */
	{ 365, 750 },	/* at the top of the band: kept */
	{ 298, 750 },	/* at the bottom: kept */
	{ 297, 875 },	/* just under: up */
	{ 2, 1000 },	/* hardly any: up */
	{ 332, 1000 },	/* on the limit: kept */
};

static void memtier_promote_drives_adjustment(struct kunit *test)
{
	/* An arbitrary start near the wrap: no assumption of time 0. */
	const unsigned int t0 = 0xfffff000, period = 1300;
	struct promote_node *node = new_node(test, t0);
	struct memtier_promote_tunables tun = mainline_defaults;
	struct memtier_hint_fault f = {
		.mode = TIERING, .latency_ms = 10, .nr_pages = 1,
	};
	struct memtier_hint_fault bypass = {
		.mode = TIERING, .latency_ms = 5000, .nr_pages = 1,
		.target_free_space_enough = true,
	};
	unsigned int start = t0, i, k, n;

	tun.rate_limit_mbps = 1;
	tun.scan_period_max_ms = period;
	for (i = 0; i < ARRAY_SIZE(wiring_periods); i++) {
		/*
		 * Besides these, the period counts the fault at its last ms
		 * and, after the first, the fault that ended the previous
		 * one: both are candidates.
		 */
		n = wiring_periods[i].candidates - (i ? 2 : 1);
		for (k = 0; k < n; k++) {
			f.now_ms = start + 1 + k * (period - 2) / n;
			decide(node, &f, &tun);
		}
		if (i == 0) {
			bypass.now_ms = start + 2;
			KUNIT_EXPECT_EQ(test, decide(node, &bypass, &tun),
					MEMTIER_PROMOTE_BYPASS);
		}
		/* Exactly period_ms in: the period has not ended yet. */
		f.now_ms = start + period;
		decide(node, &f, &tun);
		KUNIT_EXPECT_EQ_MSG(test, node->state.th.period_start_ms, start,
				    "period %u ended early", i);
		/* One ms more: this fault ends it. */
		start += period + 1;
		f.now_ms = start;
		decide(node, &f, &tun);
		KUNIT_EXPECT_EQ_MSG(test, node->state.th.period_start_ms, start,
				    "period %u did not end", i);
		KUNIT_EXPECT_EQ_MSG(test,
				    memtier_threshold_current(&node->state.th, 1000),
				    wiring_periods[i].threshold, "period %u", i);
	}
}

/*
 * The state as a node's pglist_data starts it, zeroed, with tiering mode
 * switched on at an arbitrary time: the adjustment period starts at the
 * switch, the first rate limit window at the first candidate.
 */
static void memtier_promote_starts_zeroed(struct kunit *test)
{
	const unsigned int t0 = 0x7654321;
	struct promote_node *node;
	struct memtier_promote_tunables tun = mainline_defaults;
	struct memtier_hint_fault f = {
		.mode = TIERING, .latency_ms = 999, .nr_pages = 256,
	};

	node = kunit_kzalloc(test, sizeof(*node), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, node);
	memtier_promote_tiering_enabled(&node->state, t0, 0);
	KUNIT_EXPECT_EQ(test, memtier_threshold_current(&node->state.th, 1000),
			1000u);

	/* 1 MB/s: the window the first fault opens holds 256 pages. */
	tun.rate_limit_mbps = 1;
	f.now_ms = t0 + 7;
	KUNIT_EXPECT_EQ(test, decide(node, &f, &tun),
			MEMTIER_PROMOTE_HOT);
	f.nr_pages = 1;
	KUNIT_EXPECT_EQ(test, decide(node, &f, &tun),
			MEMTIER_PROMOTE_RATELIMITED);
	f.now_ms = t0 + 1006;
	KUNIT_EXPECT_EQ(test, decide(node, &f, &tun),
			MEMTIER_PROMOTE_RATELIMITED);
	f.now_ms = t0 + 1007;
	KUNIT_EXPECT_EQ(test, decide(node, &f, &tun),
			MEMTIER_PROMOTE_HOT);
	KUNIT_EXPECT_EQ(test, node->nr_cand, 259UL);
	KUNIT_EXPECT_EQ(test, node->state.rl.window_start_ms, t0 + 1007);
	KUNIT_EXPECT_EQ(test, node->state.th.period_start_ms, t0);
}

static struct kunit_case memtier_promote_cases[] = {
	KUNIT_CASE_PARAM(memtier_promote_rules, decide_gen_params),
	KUNIT_CASE(memtier_promote_reasons),
	KUNIT_CASE(memtier_promote_tiering_off_decides_nothing),
	KUNIT_CASE(memtier_promote_bypass_counted),
	KUNIT_CASE(memtier_promote_bypass_resets_threshold),
	KUNIT_CASE(memtier_promote_bypass_reads_no_inputs),
	KUNIT_CASE(memtier_promote_bypass_keeps_period),
	KUNIT_CASE(memtier_promote_thp_over_window_limit),
	KUNIT_CASE(memtier_promote_repeat_policy),
	KUNIT_CASE(memtier_promote_repeat_spares_limit),
	KUNIT_CASE(memtier_promote_policy_names),
	KUNIT_CASE(memtier_promote_tiering_enabled_resets),
	KUNIT_CASE(memtier_promote_ratelimited),
	KUNIT_CASE(memtier_promote_uses_adjusted_threshold),
	KUNIT_CASE_PARAM(memtier_promote_knob_values, knob_gen_params),
	KUNIT_CASE(memtier_promote_sub_tick_threshold),
	KUNIT_CASE(memtier_promote_zero_knobs_promote_nothing),
	KUNIT_CASE(memtier_promote_free_space_margin),
	KUNIT_CASE(memtier_promote_drives_adjustment),
	KUNIT_CASE(memtier_promote_starts_zeroed),
	{}
};

static struct kunit_suite memtier_promote_suite = {
	.name = "memtier_promote",
	.test_cases = memtier_promote_cases,
};

kunit_test_suite(memtier_promote_suite);
