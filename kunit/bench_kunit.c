// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_bench: a deterministic, trace-driven benchmark of
 * the promotion decisions, run on the library's own decision code.
 *
 * The machine is a fast tier of BENCH_FAST_PAGES 4 KiB pages and a slow
 * tier without limit.  Each workload is one seeded trace of page numbers,
 * a fixed number of accesses per ms of virtual time, replayed once per
 * policy, rate limit and width of the access time field.  A page is
 * allocated on its first access, in the fast tier while it has room and
 * in the slow tier after that.
 *
 * Every scan period the NUMA balancing scanner marks each
 * slow-tier page PROT_NONE and stores the scan time in the last_cpupid
 * field with memtier_access_field_scan().  A page still marked is
 * skipped and keeps its older time, as change_prot_numa() skips a
 * PROT_NONE entry; fast-tier pages are not scanned.  The first access to
 * a marked page is a hint fault: it unmarks the page, and its latency,
 * memtier_access_field_latency(), goes to the policy; the library's
 * policies record in the field whether the fault was hot.  A promotion into a
 * full fast tier first demotes the page chosen by a CLOCK (second chance)
 * hand over the fast tier, an approximation of the LRU; the access bit
 * is set on every fast-tier access.
 *
 * Two ceilings: Belady's MIN with bypass, the clairvoyant optimum of a
 * fast tier of the same size that may promote after any slow-tier
 * access, which no online policy here can beat; and the best static
 * placement of each phase of the trace, which none beats on these
 * traces (an empirical bound: a policy that moves pages can).
 *
 * Besides the kernel's policies, three peers a user could pick instead
 * run on the same information, the hint faults of the same scan: a
 * frequency policy in the style of Memtis and HeMem, a region policy in
 * the style of DAMON, and pghot's two faults in a window.  A sweep
 * repeats every workload over trace seeds, access rates and scan
 * periods.
 *
 * The full sweep is slow (KUNIT_CASE_SLOW); memtier_bench_fast, a short
 * subset, is not, so that make kunit checks the rate limit and the
 * ceilings on every run.  Output: "bench" lines per workload, policy,
 * rate limit and field width, and "benchts" time series lines, which
 * scripts/bench-report.py turns into tables and plots; the model is
 * described in docs/bench.rst.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/array_size.h>
#include <linux/bits.h>
#include <linux/math64.h>
#include <linux/memtier_promote.h>
#include <linux/minmax.h>
#include <linux/mm_types.h>
#include <linux/prandom.h>
#include <linux/sched/sysctl.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

/* The machine: a 16 MiB fast tier, working sets of up to 64 MiB. */
#define BENCH_PAGE_SHIFT	12
#define BENCH_FAST_PAGES	4096
#define BENCH_PAGE_BITS		14
#define BENCH_MAX_PAGES		BIT(BENCH_PAGE_BITS)

/*
 * Virtual time: 40 s of 16 accesses per ms, 640000 accesses a run; the
 * fast subset runs 8 s.  At this rate base promotes 8-9 MB/s on gauss
 * and zipf, over four times the smallest rate limit the knob can set.
 */
#define BENCH_RUN_MS		40000
#define BENCH_FAST_RUN_MS	8000
#define BENCH_ACCESSES_PER_MS	16
/*
 * The 32-bit ms clock starts a quarter of the run before it wraps, so
 * that every run crosses the wrap: with HZ=1000 the kernel's
 * jiffies_to_msecs(jiffies) wraps 5 minutes after boot.
 */
static unsigned int bench_epoch_ms(unsigned int run_ms)
{
	return 0U - run_ms / 4;
}

/* NUMA balancing: a fixed scan period, the default scan_period_min. */
#define BENCH_SCAN_PERIOD_MS	1000

/*
 * The sweep: each workload again with other trace seeds (seed 0 is the
 * workload's own), a quarter and twice the access rate, and a scan
 * period four times as long, every combination.
 */
#define BENCH_NR_SEEDS		3
static const unsigned int bench_sweep_rates[] = { 4, 16, 32 };
static const unsigned int bench_sweep_scans_ms[] = { 1000, 4000 };

#define BENCH_MAX_ACCESSES_PER_MS	32
#define BENCH_MAX_ACCESSES	(BENCH_RUN_MS * BENCH_MAX_ACCESSES_PER_MS)

/*
 * The last_cpupid field: as wide as this kernel's, and 12 bits, mainline's
 * smallest full-resolution width, which here leaves 11 time bits in 2 ms
 * buckets (one bit remembers a hot fault) and a 4 s span that makes a
 * page idle for longer look recently scanned more often.  When the two
 * are the same, the second is not run again.
 */
#if LAST_CPUPID_SHIFT
#define BENCH_KERNEL_TIME_BITS	LAST_CPUPID_SHIFT
#else
/* No NUMA balancing, no field: the narrowest full-resolution one. */
#define BENCH_KERNEL_TIME_BITS	MEMTIER_ACCESS_TIME_MIN_BITS
#endif
static const unsigned int bench_time_bits[] = {
	BENCH_KERNEL_TIME_BITS, MEMTIER_ACCESS_TIME_MIN_BITS,
};

#define NR_BENCH_TIME_BITS	ARRAY_SIZE(bench_time_bits)

/*
 * The rate limits, in MB/s (the knob's unit): 1 MB/s, 256 pages a
 * second, is the smallest the knob can set with 4 KiB pages; at 8 MB/s
 * the limit hardly binds.
 */
static const unsigned int bench_limits_mbps[] = { 1, 2, 4, 8 };

#define NR_BENCH_LIMITS		ARRAY_SIZE(bench_limits_mbps)

/* The hot threshold: the default. */
#define BENCH_HOT_THRESHOLD_MS	MEMTIER_HOT_THRESHOLD_DEFAULT_MS
/* pghot: the previous hint fault at most this many scan periods ago. */
#define BENCH_PGHOT_WINDOW_SCANS	2
/*
 * memtis: a page's hint faults are counted up to this; when one count
 * reaches it every count is halved (HeMem's cooling).
 */
#define BENCH_MEMTIS_COOL	8
/* memtis: the fewest hint faults that make a page hot. */
#define BENCH_MEMTIS_MIN_HOT	2
/* damon: pages per region, 1024 regions over the largest working set. */
#define BENCH_DAMON_REGION_SHIFT	4
#define BENCH_DAMON_NR_REGIONS	(BENCH_MAX_PAGES >> BENCH_DAMON_REGION_SHIFT)
/*
 * damon: a region's score is a moving average of its hint faults per
 * scan, in 1/16ths: at most a fault per page per scan.
 */
#define BENCH_DAMON_SCORE_SHIFT	4
#define BENCH_DAMON_MAX_SCORE	(1U << (BENCH_DAMON_REGION_SHIFT + \
					BENCH_DAMON_SCORE_SHIFT))
/*
 * counts: a page's score is its accesses per scan period, in 1/4ths,
 * summed over the scans with a decay of 1/8 a scan (about the last
 * eight scans); the histogram that sets the hot score stops at a score
 * of 4092, 127 accesses a scan, far above the hot set's least.
 */
#define BENCH_COUNTS_SCALE	4
#define BENCH_COUNTS_DECAY_SHIFT	3
#define BENCH_COUNTS_MAX_SCORE	(1023 * BENCH_COUNTS_SCALE)
/* The policy the kernel selects by default. */
#define BENCH_DEFAULT_POLICY	BENCH_AUTOADJUST

/* The moving hot set: 90% of the accesses in 3072 pages. */
#define BENCH_HOT_PAGES		(BENCH_FAST_PAGES * 3 / 4)
#define BENCH_HOT_PCT		90

/* Metrics: 250 ms buckets, a time series point per second. */
#define BENCH_BUCKET_MS		250
#define BENCH_NR_BUCKETS	(BENCH_RUN_MS / BENCH_BUCKET_MS)
#define BENCH_TS_MS		1000
#define BENCH_SETTLE_PCT	90

/* Belady: a page with no next access. */
#define BENCH_NEVER		U32_MAX

enum bench_policy {
	BENCH_NONE,
	BENCH_BASE,
	BENCH_THRESHOLD,
	BENCH_RATELIMIT,
	BENCH_AUTOADJUST,
	BENCH_REPEAT,
	BENCH_PGHOT,
	BENCH_MEMTIS,
	BENCH_DAMON,
	BENCH_COUNTS,
	BENCH_STATIC,
	BENCH_BELADY,
	NR_BENCH_POLICIES
};

/*
 * The first ceiling: every policy before it is an online policy.  The
 * first, none, never promotes: the fast tier stays as first touch filled
 * it, the access ratio a policy reaches with no promotion traffic.
 */
#define BENCH_FIRST_CEILING	BENCH_STATIC

static const char * const bench_policy_names[] = {
	[BENCH_NONE] = "none",
	[BENCH_BASE] = "base",
	[BENCH_THRESHOLD] = "threshold",
	[BENCH_RATELIMIT] = "ratelimit",
	[BENCH_AUTOADJUST] = "autoadjust",
	[BENCH_REPEAT] = "repeat",
	[BENCH_PGHOT] = "pghot",
	[BENCH_MEMTIS] = "memtis",
	[BENCH_DAMON] = "damon",
	[BENCH_COUNTS] = "counts",
	[BENCH_STATIC] = "static",
	[BENCH_BELADY] = "belady",
};

/* What a policy's result depends on, besides the trace. */
#define BENCH_USES_LIMIT	BIT(0)
#define BENCH_USES_LATENCY	BIT(1)

static const unsigned int bench_policy_uses[] = {
	[BENCH_NONE] = 0,
	[BENCH_BASE] = 0,
	[BENCH_THRESHOLD] = BENCH_USES_LATENCY,
	[BENCH_RATELIMIT] = BENCH_USES_LIMIT | BENCH_USES_LATENCY,
	[BENCH_AUTOADJUST] = BENCH_USES_LIMIT | BENCH_USES_LATENCY,
	[BENCH_REPEAT] = BENCH_USES_LIMIT | BENCH_USES_LATENCY,
	[BENCH_PGHOT] = BENCH_USES_LIMIT,
	[BENCH_MEMTIS] = BENCH_USES_LIMIT,
	[BENCH_DAMON] = BENCH_USES_LIMIT,
	[BENCH_COUNTS] = BENCH_USES_LIMIT,
	[BENCH_STATIC] = 0,
	[BENCH_BELADY] = 0,
};

enum bench_kind {
	BENCH_GAUSS,
	BENCH_ZIPF,
	BENCH_HOTMOVE,
	BENCH_UNIFORM,
};

struct bench_workload {
	const char *name;
	enum bench_kind kind;
	unsigned int nr_pages;
	u64 seed;
};

static const struct bench_workload bench_workloads[] = {
	[BENCH_GAUSS] = { "gauss", BENCH_GAUSS, 3 * BENCH_FAST_PAGES,
			  0x6a09e667f3bcc908ull },
	[BENCH_ZIPF] = { "zipf", BENCH_ZIPF, 4 * BENCH_FAST_PAGES,
			 0xbb67ae8584caa73bull },
	[BENCH_HOTMOVE] = { "hotmove", BENCH_HOTMOVE, 4 * BENCH_FAST_PAGES,
			    0x3c6ef372fe94f82bull },
	[BENCH_UNIFORM] = { "uniform", BENCH_UNIFORM, 2 * BENCH_FAST_PAGES,
			    0xa54ff53a5f1d36f1ull },
};

/**
 * struct bench_trace - one workload's accesses and its ceilings' inputs
 * @wl: the workload.
 * @seed: which of its seeds, 0 for the workload's own.
 * @run_ms: its length in virtual time.
 * @accesses_per_ms: its access rate.
 * @nr_accesses: its accesses, @accesses_per_ms per ms.
 * @page: the page of each access; access i is at i / @accesses_per_ms ms.
 * @next: for each access, the index of the next access to the same
 *	page, or BENCH_NEVER: what Belady's MIN knows in advance.
 * @move_ms: when the popularity changes (the hot set moves), else
 *	@run_ms.
 * @static_fast: per phase (before and after @move_ms), the pages the
 *	static ceiling keeps in the fast tier: the BENCH_FAST_PAGES most
 *	accessed in that phase of the trace.
 */
struct bench_trace {
	const struct bench_workload *wl;
	unsigned int seed;
	unsigned int run_ms;
	unsigned int accesses_per_ms;
	unsigned int nr_accesses;
	u16 *page;
	u32 *next;
	unsigned int move_ms;
	u8 static_fast[2][BENCH_MAX_PAGES];
};

/* Page flags. */
#define BP_ALLOC	BIT(0)	/* touched, so mapped somewhere */
#define BP_FAST		BIT(1)	/* in the fast tier */
#define BP_MARKED	BIT(2)	/* PROT_NONE since a scan: next access faults */
#define BP_REF		BIT(3)	/* the access bit, for the CLOCK hand */
#define BP_HIST		BIT(4)	/* pghot: @hist_ms is a hint fault */

/**
 * struct bench_page - one page of the working set
 * @hist_ms: pghot: the time of its last remembered hint fault.
 * @next: belady: the index of its next access.
 * @field: its last_cpupid field: memtier_access_field_*().
 * @slot: belady: its place in the heap of the fast tier.
 * @flags: BP_*.
 * @count: memtis: its hint faults, cooled.
 * @seen: counts: its accesses since the last scan, every one seen.
 * @score: counts: its accesses per scan period, decayed, in
 *	1/BENCH_COUNTS_SCALE.
 */
struct bench_page {
	u32 hist_ms;
	u32 next;
	u32 field;
	u16 slot;
	u8 flags;
	u8 count;
	u16 seen;
	u16 score;
};

/**
 * struct bench_sim - one replay of a trace under one policy
 * @tr: the trace.
 * @policy: the policy.
 * @time_bits: the width of the access time field.
 * @scan_ms: the scan period.
 * @tun: the knobs, as the kernel would pass them.
 * @limit_pages: the rate limit in pages per window.
 * @ref_ms: the reference hot threshold.
 * @pages: every page of the working set.
 * @slot_page: the page in each fast-tier slot, @nr_fast used; for
 *	belady a max-heap on &bench_page.next.
 * @nr_fast: the pages in the fast tier.
 * @hand: the CLOCK hand, a slot.
 * @state: autoadjust, repeat: the fast node's promotion state.
 * @rl: ratelimit and the peers: their rate-limit window.
 * @nr_cand: every rate-limited policy: the candidate count.
 * @memtis_hist: memtis: the allocated pages with each hint-fault count.
 * @memtis_hot: memtis: the least count that is hot.
 * @damon_faults: damon: each region's hint faults since the last scan.
 * @damon_score: damon: each region's score.
 * @damon_pages: damon: at the last scan, the pages of regions with each
 *	score.
 * @damon_hot: damon: the least score that is hot.
 * @counts_pages: counts: at the last scan, the pages with each score.
 * @counts_hot: counts: the least score that is hot.
 * @win_rl: the rate-limit window in use, NULL for none.
 * @win_start: the start of the window being counted.
 * @win_promoted: pages promoted as hot in that window.
 * @win_max: the most in any window.
 * @win_gap_min: the least time between two windows' starts.
 * @t: the time of the access being replayed, from the start of the run.
 * @sec_hot: pages promoted as hot in each second of the run.
 * @nr_hot: with a rate limit, the pages promoted as hot under it.
 * @nr_faults: hint faults.
 * @nr_promoted: pages promoted.
 * @nr_demoted: pages demoted.
 * @nr_first_fast: pages allocated in the fast tier.
 * @acc: accesses per bucket.
 * @fast: accesses served by the fast tier per bucket.
 * @promo: pages promoted per bucket.
 */
struct bench_sim {
	const struct bench_trace *tr;
	enum bench_policy policy;
	unsigned int time_bits;
	unsigned int scan_ms;
	struct memtier_promote_tunables tun;
	u64 limit_pages;
	unsigned int ref_ms;
	struct bench_page pages[BENCH_MAX_PAGES];
	u16 slot_page[BENCH_FAST_PAGES];
	unsigned int nr_fast;
	unsigned int hand;
	struct memtier_promote_state state;
	struct memtier_ratelimit rl;
	unsigned long nr_cand;
	u32 memtis_hist[BENCH_MEMTIS_COOL + 1];
	unsigned int memtis_hot;
	u16 damon_faults[BENCH_DAMON_NR_REGIONS];
	u16 damon_score[BENCH_DAMON_NR_REGIONS];
	u32 damon_pages[BENCH_DAMON_MAX_SCORE + 1];
	unsigned int damon_hot;
	u32 counts_pages[BENCH_COUNTS_MAX_SCORE + 1];
	unsigned int counts_hot;
	const struct memtier_ratelimit *win_rl;
	unsigned int win_start;
	unsigned long win_promoted;
	unsigned long win_max;
	unsigned int win_gap_min;
	unsigned int t;
	u16 sec_hot[BENCH_RUN_MS / MEMTIER_RATELIMIT_WINDOW_MS];
	unsigned long nr_hot;
	unsigned long nr_faults;
	unsigned long nr_promoted;
	unsigned long nr_demoted;
	unsigned long nr_first_fast;
	u32 acc[BENCH_NR_BUCKETS];
	u32 fast[BENCH_NR_BUCKETS];
	u32 promo[BENCH_NR_BUCKETS];
};

struct bench_result {
	bool valid;
	u64 accesses;
	u64 fast_hits;
	u64 late_accesses;
	u64 late_fast_hits;
	unsigned long promoted;
	unsigned long demoted;
	unsigned long hot;
	unsigned long win_max;
	int settle_ms;
};

/* The results of a sweep, per policy, rate limit and field width. */
struct bench_results {
	struct bench_result r[NR_BENCH_POLICIES][NR_BENCH_LIMITS]
			     [NR_BENCH_TIME_BITS];
};

/* ---------------------------------------------------------------------
 * Workloads
 */

/* Uniform in [0, @n). */
static u32 bench_below(struct rnd_state *rnd, u32 n)
{
	return ((u64)prandom_u32_state(rnd) * n) >> 32;
}

/*
 * pmbench-like Gaussian over [0, @n): mean n / 2, sigma n / 8.  The sum
 * of twelve 16-bit uniforms has mean 6 * 65535 and sigma 65536 (Irwin-
 * Hall); samples beyond 4 sigma are drawn again.
 */
static u32 bench_gauss(struct rnd_state *rnd, u32 n)
{
	const u32 lo = 6 * 65535 - 4 * 65536;
	u32 sum, r;
	u64 x;
	int i;

	for (;;) {
		sum = 0;
		for (i = 0; i < 6; i++) {
			r = prandom_u32_state(rnd);
			sum += (r & 0xffff) + (r >> 16);
		}
		if (sum < lo)
			continue;
		/* (sum - lo) / 65536 sigmas of n / 8 pages from 0. */
		x = ((u64)(sum - lo) * n) >> 19;
		if (x < n)
			return x;
	}
}

/* Zipf, exponent 1: the first page with @cdf[page] > a uniform draw. */
static u32 bench_zipf(struct rnd_state *rnd, const u64 *cdf, u32 n)
{
	u64 r = mul_u64_u32_shr(cdf[n - 1], prandom_u32_state(rnd), 32);
	u32 lo = 0, hi = n - 1, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (cdf[mid] > r)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static int bench_cmp_desc(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* The static ceiling's fast tier for a phase: its most accessed pages. */
static void bench_static_pick(u8 *fast, u64 *count, unsigned int n)
{
	const u64 mask = BENCH_MAX_PAGES - 1;
	unsigned int p;

	/* Ties go to the lower page number. */
	for (p = 0; p < n; p++)
		count[p] = count[p] << BENCH_PAGE_BITS | (mask - p);
	sort(count, n, sizeof(*count), bench_cmp_desc, NULL);
	for (p = 0; p < BENCH_FAST_PAGES; p++)
		fast[mask - (count[p] & mask)] = 1;
}

KUNIT_DEFINE_ACTION_WRAPPER(bench_kvfree, kvfree, const void *);

static void *bench_kvmalloc(struct kunit *test, size_t n, size_t size)
{
	void *p = kvmalloc_array(n, size, GFP_KERNEL | __GFP_ZERO);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, bench_kvfree, p),
			0);
	return p;
}

/* Belady's knowledge: each access's next access to the same page. */
static void bench_trace_next(struct kunit *test, struct bench_trace *tr)
{
	u32 *last = kunit_kmalloc_array(test, BENCH_MAX_PAGES, sizeof(*last),
					GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, last);
	memset32(last, BENCH_NEVER, BENCH_MAX_PAGES);
	for (i = tr->nr_accesses; i-- > 0;) {
		tr->next[i] = last[tr->page[i]];
		last[tr->page[i]] = i;
	}
}

/*
 * The trace of @wl's workload with its seed number @seed (0: its own
 * seed; others step by the 64-bit golden ratio), @run_ms long at
 * @accesses_per_ms.
 */
static struct bench_trace *bench_trace_build(struct kunit *test,
					     const struct bench_workload *wl,
					     unsigned int run_ms,
					     unsigned int accesses_per_ms,
					     unsigned int seed)
{
	unsigned int n = wl->nr_pages, i, p, phase;
	struct bench_trace *tr;
	struct rnd_state rnd;
	u64 *cdf = NULL;
	u64 *count;
	u64 sum;

	BUILD_BUG_ON(BENCH_RUN_MS % BENCH_TS_MS ||
		     BENCH_FAST_RUN_MS % BENCH_TS_MS ||
		     BENCH_TS_MS % BENCH_BUCKET_MS);
	BUILD_BUG_ON(BENCH_MAX_ACCESSES >= BENCH_NEVER);
	KUNIT_ASSERT_LE(test, run_ms, BENCH_RUN_MS);
	KUNIT_ASSERT_GT(test, accesses_per_ms, 0);
	KUNIT_ASSERT_LE(test, accesses_per_ms, BENCH_MAX_ACCESSES_PER_MS);

	tr = kunit_kzalloc(test, sizeof(*tr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tr);
	count = kunit_kcalloc(test, 2 * BENCH_MAX_PAGES, sizeof(*count),
			      GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, count);
	tr->wl = wl;
	tr->seed = seed;
	tr->run_ms = run_ms;
	tr->accesses_per_ms = accesses_per_ms;
	tr->nr_accesses = run_ms * accesses_per_ms;
	tr->page = bench_kvmalloc(test, tr->nr_accesses, sizeof(*tr->page));
	tr->next = bench_kvmalloc(test, tr->nr_accesses, sizeof(*tr->next));
	tr->move_ms = wl->kind == BENCH_HOTMOVE ? run_ms / 2 : run_ms;

	if (wl->kind == BENCH_ZIPF) {
		/* Page k has weight 2^32 / (k + 1); fixed point, no FPU. */
		cdf = kunit_kmalloc_array(test, n, sizeof(*cdf), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, cdf);
		for (sum = 0, p = 0; p < n; p++) {
			sum += div_u64(1ull << 32, p + 1);
			cdf[p] = sum;
		}
	}

	prandom_seed_state(&rnd, wl->seed + seed * 0x9e3779b97f4a7c15ull);
	/* All four words start equal: warm up, as prandom_warmup() does. */
	for (i = 0; i < 10; i++)
		prandom_u32_state(&rnd);

	for (i = 0; i < tr->nr_accesses; i++) {
		phase = i / accesses_per_ms >= tr->move_ms;
		switch (wl->kind) {
		case BENCH_GAUSS:
			p = bench_gauss(&rnd, n);
			break;
		case BENCH_ZIPF:
			p = bench_zipf(&rnd, cdf, n);
			break;
		case BENCH_HOTMOVE:
			if (bench_below(&rnd, 100) < BENCH_HOT_PCT)
				p = phase * n / 2 +
				    bench_below(&rnd, BENCH_HOT_PAGES);
			else
				p = bench_below(&rnd, n);
			break;
		default:
			p = bench_below(&rnd, n);
			break;
		}
		tr->page[i] = p;
		count[phase * BENCH_MAX_PAGES + p]++;
	}

	bench_static_pick(tr->static_fast[0], count, n);
	if (tr->move_ms < run_ms)
		bench_static_pick(tr->static_fast[1], count + BENCH_MAX_PAGES,
				  n);
	else
		memcpy(tr->static_fast[1], tr->static_fast[0],
		       sizeof(tr->static_fast[1]));
	bench_trace_next(test, tr);
	kunit_kfree(test, count);
	if (cdf)
		kunit_kfree(test, cdf);
	return tr;
}

/* A sweep builds many traces: each is freed once replayed. */
static void bench_trace_free(struct kunit *test, struct bench_trace *tr)
{
	kunit_release_action(test, bench_kvfree, tr->page);
	kunit_release_action(test, bench_kvfree, tr->next);
	kunit_kfree(test, tr);
}

/* ---------------------------------------------------------------------
 * The simulator
 */

static void bench_sim_init(struct bench_sim *sim,
			   const struct bench_trace *tr,
			   enum bench_policy policy, unsigned int limit_mbps,
			   unsigned int time_bits, unsigned int scan_ms)
{
	memset(sim, 0, sizeof(*sim));
	sim->tr = tr;
	sim->policy = policy;
	sim->time_bits = time_bits;
	sim->scan_ms = scan_ms;
	sim->tun.hot_threshold_ms = BENCH_HOT_THRESHOLD_MS;
	sim->tun.rate_limit_mbps = limit_mbps;
	/* The scan period is fixed: scan_period_max is that period. */
	sim->tun.scan_period_max_ms = scan_ms;
	sim->tun.page_shift = BENCH_PAGE_SHIFT;
	sim->limit_pages = memtier_mbps_to_pages(limit_mbps, BENCH_PAGE_SHIFT);
	sim->ref_ms = BENCH_HOT_THRESHOLD_MS;
	sim->state.rl.window_start_ms = bench_epoch_ms(tr->run_ms);
	memtier_threshold_reset(&sim->state.th, bench_epoch_ms(tr->run_ms), 0);
	sim->rl.window_start_ms = bench_epoch_ms(tr->run_ms);
	sim->win_gap_min = UINT_MAX;
	sim->memtis_hot = BENCH_MEMTIS_MIN_HOT;
	sim->damon_hot = BENCH_DAMON_MAX_SCORE + 1;
	sim->counts_hot = BENCH_COUNTS_MAX_SCORE + 1;

	if (policy == BENCH_RATELIMIT || policy == BENCH_PGHOT ||
	    policy == BENCH_MEMTIS || policy == BENCH_DAMON ||
	    policy == BENCH_COUNTS)
		sim->win_rl = &sim->rl;
	else if (policy == BENCH_AUTOADJUST || policy == BENCH_REPEAT)
		sim->win_rl = &sim->state.rl;
	if (policy == BENCH_REPEAT)
		sim->tun.hot_policy = MEMTIER_HOT_REPEAT;
	if (sim->win_rl)
		sim->win_start = sim->win_rl->window_start_ms;
}

/*
 * memtis: the least count, at least BENCH_MEMTIS_MIN_HOT, from which the
 * pages counted hot fit the fast tier, as Memtis sets its hot threshold
 * from the histogram of its pages' access counts.
 */
static void bench_memtis_threshold(struct bench_sim *sim)
{
	unsigned int t, pages = 0;

	for (t = BENCH_MEMTIS_COOL; t >= BENCH_MEMTIS_MIN_HOT; t--) {
		if (pages + sim->memtis_hist[t] > BENCH_FAST_PAGES)
			break;
		pages += sim->memtis_hist[t];
	}
	sim->memtis_hot = t + 1;
}

/* memtis: HeMem's cooling, every count halved. */
static void bench_memtis_cool(struct bench_sim *sim)
{
	unsigned int p;

	memset(sim->memtis_hist, 0, sizeof(sim->memtis_hist));
	for (p = 0; p < sim->tr->wl->nr_pages; p++) {
		struct bench_page *pg = &sim->pages[p];

		if (!(pg->flags & BP_ALLOC))
			continue;
		pg->count >>= 1;
		sim->memtis_hist[pg->count]++;
	}
}

/*
 * damon: at each scan every region's score moves halfway to its hint
 * faults since the scan before (DAMON's nr_accesses, sampled by the
 * scan), and the hot score becomes the least from which the regions'
 * pages fit the fast tier, as a DAMOS quota goes to the regions
 * accessed most.
 */
static void bench_damon_aggregate(struct bench_sim *sim)
{
	unsigned int nr = sim->tr->wl->nr_pages >> BENCH_DAMON_REGION_SHIFT;
	unsigned int r, score, pages = 0;

	memset(sim->damon_pages, 0, sizeof(sim->damon_pages));
	for (r = 0; r < nr; r++) {
		score = sim->damon_faults[r] << BENCH_DAMON_SCORE_SHIFT;
		sim->damon_score[r] = (sim->damon_score[r] + score) / 2;
		sim->damon_faults[r] = 0;
		sim->damon_pages[sim->damon_score[r]] +=
			1U << BENCH_DAMON_REGION_SHIFT;
	}
	for (score = BENCH_DAMON_MAX_SCORE; score > 0; score--) {
		if (pages + sim->damon_pages[score] > BENCH_FAST_PAGES)
			break;
		pages += sim->damon_pages[score];
	}
	sim->damon_hot = score + 1;
}

/*
 * counts: at each scan every page's score decays by 1/8 and adds its
 * accesses since the scan before, all of them, in either tier; the hot
 * score becomes the least from which the pages fit the fast tier.  No
 * kernel mechanism sees every access (tiering mode does not even scan
 * the top tier): this is the reference of selection by the past on the
 * same rate limit and demotion, not a policy the kernel could run.
 */
static void bench_counts_aggregate(struct bench_sim *sim)
{
	unsigned int p, score, pages = 0;

	memset(sim->counts_pages, 0, sizeof(sim->counts_pages));
	for (p = 0; p < sim->tr->wl->nr_pages; p++) {
		struct bench_page *pg = &sim->pages[p];

		score = pg->score - (pg->score >> BENCH_COUNTS_DECAY_SHIFT) +
			pg->seen * BENCH_COUNTS_SCALE;
		pg->score = min_t(unsigned int, score, U16_MAX);
		pg->seen = 0;
		sim->counts_pages[min_t(unsigned int, pg->score,
					BENCH_COUNTS_MAX_SCORE)]++;
	}
	for (score = BENCH_COUNTS_MAX_SCORE; score > 0; score--) {
		if (pages + sim->counts_pages[score] > BENCH_FAST_PAGES)
			break;
		pages += sim->counts_pages[score];
	}
	sim->counts_hot = score + 1;
}

/* Mark every slow-tier page not marked yet, with the scan time. */
static void bench_scan(struct bench_sim *sim, unsigned int now)
{
	unsigned int p;

	for (p = 0; p < sim->tr->wl->nr_pages; p++) {
		struct bench_page *pg = &sim->pages[p];

		if ((pg->flags & (BP_ALLOC | BP_FAST | BP_MARKED)) ==
		    BP_ALLOC) {
			pg->flags |= BP_MARKED;
			pg->field = memtier_access_field_scan(pg->field, now,
							      sim->time_bits);
		}
	}
	if (sim->policy == BENCH_MEMTIS)
		bench_memtis_threshold(sim);
	else if (sim->policy == BENCH_DAMON)
		bench_damon_aggregate(sim);
	else if (sim->policy == BENCH_COUNTS)
		bench_counts_aggregate(sim);
}

/* Second chance: the first slot whose page has not been accessed. */
static unsigned int bench_clock_victim(struct bench_sim *sim)
{
	struct bench_page *pg;
	unsigned int slot;

	for (;;) {
		slot = sim->hand;
		sim->hand = (slot + 1) % BENCH_FAST_PAGES;
		pg = &sim->pages[sim->slot_page[slot]];
		if (!(pg->flags & BP_REF))
			return slot;
		pg->flags &= ~BP_REF;
	}
}

static void bench_promote(struct bench_sim *sim, unsigned int p,
			  unsigned int b)
{
	struct bench_page *victim;
	unsigned int slot;

	if (sim->nr_fast < BENCH_FAST_PAGES) {
		slot = sim->nr_fast++;
	} else {
		slot = bench_clock_victim(sim);
		victim = &sim->pages[sim->slot_page[slot]];
		/* Migrated: mapped again, so unmarked until the next scan. */
		victim->flags &= ~(BP_FAST | BP_REF | BP_HIST);
		/* folio_migrate_flags(): a new tier, a field of all ones. */
		victim->field = GENMASK(sim->time_bits - 1, 0);
		sim->nr_demoted++;
	}
	sim->slot_page[slot] = p;
	sim->pages[p].flags |= BP_FAST | BP_REF;
	sim->pages[p].flags &= ~BP_HIST;
	sim->nr_promoted++;
	sim->promo[b]++;
}

/* Count the hot promotions of each rate-limit window, for the check. */
static void bench_window(struct bench_sim *sim, bool hot)
{
	unsigned int start = sim->win_rl->window_start_ms;

	if (start != sim->win_start) {
		sim->win_gap_min = min(sim->win_gap_min, start - sim->win_start);
		sim->win_start = start;
		sim->win_promoted = 0;
	}
	if (hot) {
		sim->sec_hot[sim->t / MEMTIER_RATELIMIT_WINDOW_MS]++;
		sim->nr_hot++;
		sim->win_promoted++;
		sim->win_max = max(sim->win_max, sim->win_promoted);
	}
}

/*
 * The seeds' full algorithm, or with MEMTIER_HOT_REPEAT the kernel's
 * other policy: the library decides, and the field remembers whether
 * the fault was hot, as the kernel's fault path does.
 */
static bool bench_autoadjust(struct bench_sim *sim, struct bench_page *pg,
			     unsigned int now, unsigned int latency, bool room)
{
	struct memtier_hint_fault fault = {
		.mode = NUMA_BALANCING_MEMORY_TIERING,
		.target_free_space_enough = room,
		.now_ms = now,
		.latency_ms = latency,
		.last_fault_hot = memtier_access_field_hot(pg->field,
							   sim->time_bits),
		.nr_pages = 1,
		.nr_cand = sim->nr_cand,
	};
	enum memtier_promote_reason reason;

	reason = memtier_promote_decide(&sim->state, &fault, &sim->tun);
	if (memtier_promote_reason_counter(reason) ==
	    MEMTIER_PROMOTE_COUNT_CANDIDATE)
		sim->nr_cand++;
	bench_window(sim, reason == MEMTIER_PROMOTE_HOT);
	pg->field = memtier_access_field_fault(now, sim->time_bits,
					       memtier_promote_reason_hot(reason));
	return memtier_promote_reason_migrates(reason);
}

/* A candidate of a policy with its own window, under the rate limit. */
static bool bench_limited(struct bench_sim *sim, unsigned int now)
{
	bool allow;

	sim->nr_cand++;
	allow = memtier_ratelimit_allow(&sim->rl, now, sim->nr_cand, 1,
					sim->limit_pages);
	bench_window(sim, allow);
	return allow;
}

/*
 * pghot: was the page's previous hint fault at most two scan periods
 * ago?  This one is remembered in its place.
 */
static bool bench_pghot(struct bench_sim *sim, struct bench_page *pg,
			unsigned int now)
{
	bool second = (pg->flags & BP_HIST) &&
		      now - pg->hist_ms <=
		      BENCH_PGHOT_WINDOW_SCANS * sim->scan_ms;

	pg->flags |= BP_HIST;
	pg->hist_ms = now;
	return second;
}

/* memtis: count the fault; hot from the threshold of the last scan. */
static bool bench_memtis(struct bench_sim *sim, struct bench_page *pg)
{
	bool hot;

	sim->memtis_hist[pg->count]--;
	pg->count++;
	sim->memtis_hist[pg->count]++;
	hot = pg->count >= sim->memtis_hot;
	if (pg->count == BENCH_MEMTIS_COOL) {
		bench_memtis_cool(sim);
		bench_memtis_threshold(sim);
	}
	return hot;
}

/* damon: count the fault; hot if its region's score is. */
static bool bench_damon(struct bench_sim *sim, const struct bench_page *pg)
{
	unsigned int r = (pg - sim->pages) >> BENCH_DAMON_REGION_SHIFT;

	sim->damon_faults[r]++;
	return sim->damon_score[r] >= sim->damon_hot;
}

/* Whether the policy promotes the page of this hint fault. */
static bool bench_decide(struct bench_sim *sim, struct bench_page *pg,
			 unsigned int now, unsigned int latency)
{
	/* The seeds' free-space bypass, kept by every policy. */
	bool room = sim->nr_fast < BENCH_FAST_PAGES;

	switch (sim->policy) {
	case BENCH_NONE:
		return room;
	case BENCH_BASE:
		return true;
	case BENCH_THRESHOLD:
		return room || latency < sim->ref_ms;
	case BENCH_RATELIMIT:
		return room ||
		       (latency < sim->ref_ms && bench_limited(sim, now));
	case BENCH_AUTOADJUST:
	case BENCH_REPEAT:
		return bench_autoadjust(sim, pg, now, latency, room);
	case BENCH_PGHOT:
		return bench_pghot(sim, pg, now) ? bench_limited(sim, now) :
		       room;
	case BENCH_MEMTIS:
		return bench_memtis(sim, pg) ? bench_limited(sim, now) : room;
	case BENCH_DAMON:
		return bench_damon(sim, pg) ? bench_limited(sim, now) : room;
	case BENCH_COUNTS:
		return pg->score >= sim->counts_hot ? bench_limited(sim, now) :
		       room;
	default:
		return false;
	}
}

/* The page's first access: allocated, in the fast tier if it may. */
static void bench_first_touch(struct bench_sim *sim, unsigned int p,
			      unsigned int phase)
{
	struct bench_page *pg = &sim->pages[p];
	bool fast;

	pg->flags |= BP_ALLOC;
	sim->memtis_hist[0]++;
	/* page_cpupid_reset_last(): all ones. */
	pg->field = GENMASK(sim->time_bits - 1, 0);
	if (sim->policy == BENCH_STATIC)
		fast = sim->tr->static_fast[phase][p];
	else
		fast = sim->nr_fast < BENCH_FAST_PAGES;
	if (!fast)
		return;
	if (sim->policy != BENCH_STATIC)
		sim->slot_page[sim->nr_fast] = p;
	sim->nr_fast++;
	sim->nr_first_fast++;
	pg->flags |= BP_FAST;
}

/* The hot set moved: the static ceiling migrates at once to its new set. */
static void bench_static_move(struct bench_sim *sim, unsigned int b)
{
	const u8 *want = sim->tr->static_fast[1];
	unsigned int p;

	for (p = 0; p < sim->tr->wl->nr_pages; p++) {
		struct bench_page *pg = &sim->pages[p];
		bool fast = pg->flags & BP_FAST;

		if (!(pg->flags & BP_ALLOC) || fast == !!want[p])
			continue;
		pg->flags ^= BP_FAST;
		if (want[p]) {
			sim->nr_fast++;
			sim->nr_promoted++;
			sim->promo[b]++;
		} else {
			sim->nr_fast--;
			sim->nr_demoted++;
		}
	}
}

/*
 * Belady's MIN with bypass.  The fast tier is a max-heap on the index of
 * each page's next access.  After a slow-tier access, the page is
 * promoted when the fast tier has room, or when the fast page used
 * furthest in the future is used later than this one, which is then
 * demoted.  Among all placements whose hits are accesses to pages
 * already in the fast tier, this one serves the most.
 */
static u32 bench_heap_key(const struct bench_sim *sim, unsigned int slot)
{
	return sim->pages[sim->slot_page[slot]].next;
}

static void bench_heap_set(struct bench_sim *sim, unsigned int slot,
			   unsigned int p)
{
	sim->slot_page[slot] = p;
	sim->pages[p].slot = slot;
}

static void bench_heap_up(struct bench_sim *sim, unsigned int slot)
{
	unsigned int p = sim->slot_page[slot], parent;

	while (slot) {
		parent = (slot - 1) / 2;
		if (bench_heap_key(sim, parent) >= sim->pages[p].next)
			break;
		bench_heap_set(sim, slot, sim->slot_page[parent]);
		slot = parent;
	}
	bench_heap_set(sim, slot, p);
}

static void bench_heap_down(struct bench_sim *sim, unsigned int slot)
{
	unsigned int p = sim->slot_page[slot], child;

	for (;;) {
		child = 2 * slot + 1;
		if (child >= sim->nr_fast)
			break;
		if (child + 1 < sim->nr_fast &&
		    bench_heap_key(sim, child + 1) > bench_heap_key(sim, child))
			child++;
		if (bench_heap_key(sim, child) <= sim->pages[p].next)
			break;
		bench_heap_set(sim, slot, sim->slot_page[child]);
		slot = child;
	}
	bench_heap_set(sim, slot, p);
}

static void bench_belady_access(struct bench_sim *sim, unsigned int p,
				unsigned int i, unsigned int b)
{
	struct bench_page *pg = &sim->pages[p];
	struct bench_page *victim;

	sim->acc[b]++;
	pg->next = sim->tr->next[i];
	if (!(pg->flags & BP_ALLOC) && sim->nr_fast < BENCH_FAST_PAGES) {
		pg->flags |= BP_ALLOC | BP_FAST;
		sim->nr_first_fast++;
		bench_heap_set(sim, sim->nr_fast++, p);
		bench_heap_up(sim, pg->slot);
		sim->fast[b]++;
		return;
	}
	pg->flags |= BP_ALLOC;
	if (pg->flags & BP_FAST) {
		sim->fast[b]++;
		/* Its next access is later than this one: it moves up. */
		bench_heap_up(sim, pg->slot);
		return;
	}
	if (pg->next == BENCH_NEVER)
		return;
	if (sim->nr_fast < BENCH_FAST_PAGES) {
		bench_heap_set(sim, sim->nr_fast++, p);
		bench_heap_up(sim, pg->slot);
	} else {
		victim = &sim->pages[sim->slot_page[0]];
		if (victim->next <= pg->next)
			return;
		victim->flags &= ~BP_FAST;
		sim->nr_demoted++;
		bench_heap_set(sim, 0, p);
		bench_heap_down(sim, 0);
	}
	pg->flags |= BP_FAST;
	sim->nr_promoted++;
	sim->promo[b]++;
}

static void bench_access(struct bench_sim *sim, unsigned int p,
			 unsigned int t, unsigned int phase)
{
	struct bench_page *pg = &sim->pages[p];
	unsigned int b = t / BENCH_BUCKET_MS;
	unsigned int now = bench_epoch_ms(sim->tr->run_ms) + t;
	unsigned int latency;

	sim->acc[b]++;
	if (pg->seen < U16_MAX)
		pg->seen++;
	if (!(pg->flags & BP_ALLOC))
		bench_first_touch(sim, p, phase);
	if (pg->flags & BP_FAST) {
		pg->flags |= BP_REF;
		sim->fast[b]++;
		return;
	}
	if (!(pg->flags & BP_MARKED))
		return;

	pg->flags &= ~BP_MARKED;
	sim->nr_faults++;
	latency = memtier_access_field_latency(now, pg->field, sim->time_bits);
	if (bench_decide(sim, pg, now, latency))
		bench_promote(sim, p, b);
}

static void bench_run(struct bench_sim *sim, const struct bench_trace *tr,
		      enum bench_policy policy, unsigned int limit_mbps,
		      unsigned int time_bits, unsigned int scan_ms)
{
	unsigned int i, t = 0, phase = 0;

	bench_sim_init(sim, tr, policy, limit_mbps, time_bits, scan_ms);
	for (i = 0; i < tr->nr_accesses; i++) {
		if (i % tr->accesses_per_ms == 0) {
			t = i / tr->accesses_per_ms;
			sim->t = t;
			if (t == tr->move_ms) {
				phase = 1;
				if (policy == BENCH_STATIC)
					bench_static_move(sim,
							  t / BENCH_BUCKET_MS);
			}
			/* The ceilings need no scan. */
			if (policy < BENCH_FIRST_CEILING && t &&
			    t % scan_ms == 0)
				bench_scan(sim, bench_epoch_ms(tr->run_ms) + t);
		}
		if (policy == BENCH_BELADY)
			bench_belady_access(sim, tr->page[i], i,
					    t / BENCH_BUCKET_MS);
		else
			bench_access(sim, tr->page[i], t, phase);
	}
}

/* ---------------------------------------------------------------------
 * Metrics
 */

/* Milli-MB/s (MB = 2^20 bytes, as the rate limit knob) for pages in ms. */
static u64 bench_mmbps(u64 pages, unsigned int ms)
{
	return div64_u64(pages * 1000 * 1000 << BENCH_PAGE_SHIFT >> 20, ms);
}

static u64 bench_milli(u64 num, u64 den)
{
	return den ? div64_u64(num * 1000, den) : 0;
}

static unsigned int bench_nr_buckets(const struct bench_trace *tr)
{
	return tr->run_ms / BENCH_BUCKET_MS;
}

/*
 * After the move, when the ratio of a bucket first reaches 90% of the
 * ratio over the last quarter of the run after the move; -1 for none.
 */
static int bench_settle_ms(const struct bench_sim *sim)
{
	unsigned int nr = bench_nr_buckets(sim->tr);
	unsigned int first = sim->tr->move_ms / BENCH_BUCKET_MS;
	unsigned int from = nr - (nr - first) / 4;
	u64 fin_acc = 0, fin_fast = 0;
	unsigned int b;

	if (first >= nr)
		return -1;
	for (b = from; b < nr; b++) {
		fin_acc += sim->acc[b];
		fin_fast += sim->fast[b];
	}
	for (b = first; b < nr; b++)
		if ((u64)sim->fast[b] * 100 * fin_acc >=
		    (u64)BENCH_SETTLE_PCT * fin_fast * sim->acc[b])
			return (b + 1) * BENCH_BUCKET_MS - sim->tr->move_ms;
	return -1;
}

static void bench_collect(const struct bench_sim *sim, struct bench_result *r)
{
	unsigned int b;

	memset(r, 0, sizeof(*r));
	r->valid = true;
	for (b = 0; b < bench_nr_buckets(sim->tr); b++) {
		r->accesses += sim->acc[b];
		r->fast_hits += sim->fast[b];
		/* The second half of the run, after the warm-up. */
		if (b >= bench_nr_buckets(sim->tr) / 2) {
			r->late_accesses += sim->acc[b];
			r->late_fast_hits += sim->fast[b];
		}
	}
	r->promoted = sim->nr_promoted;
	r->demoted = sim->nr_demoted;
	r->hot = sim->nr_hot;
	r->win_max = sim->win_max;
	/* Never promoting, none finds no hot set to settle on. */
	r->settle_ms = sim->policy == BENCH_NONE ? -1 : bench_settle_ms(sim);
}

static void bench_print(struct kunit *test, const struct bench_trace *tr,
			enum bench_policy policy, unsigned int limit_mbps,
			unsigned int time_bits, unsigned int scan_ms,
			const struct bench_result *r)
{
	u64 ratio = bench_milli(r->fast_hits, r->accesses);
	u64 late = bench_milli(r->late_fast_hits, r->late_accesses);
	u64 promo = bench_mmbps(r->promoted, tr->run_ms);
	u64 demo = bench_mmbps(r->demoted, tr->run_ms);
	char settle[12];

	if (r->settle_ms < 0)
		strscpy(settle, "na", sizeof(settle));
	else
		snprintf(settle, sizeof(settle), "%d", r->settle_ms);
	kunit_info(test,
		   "bench workload=%s policy=%s limit_mbps=%u access_ratio=%llu.%03llu promote_mbps=%llu.%03llu demote_mbps=%llu.%03llu time_bits=%u settle_ms=%s seed=%u accesses_per_ms=%u scan_ms=%u late_ratio=%llu.%03llu\n",
		   tr->wl->name, bench_policy_names[policy], limit_mbps,
		   ratio / 1000, ratio % 1000, promo / 1000, promo % 1000,
		   demo / 1000, demo % 1000, time_bits, settle, tr->seed,
		   tr->accesses_per_ms, scan_ms, late / 1000, late % 1000);
}

/* The time series of a run, a point per BENCH_TS_MS. */
static void bench_print_series(struct kunit *test, const struct bench_sim *sim)
{
	const struct bench_trace *tr = sim->tr;
	unsigned int k, b;
	u64 acc, fast, pages, ratio, promo;

	for (k = 0; k < tr->run_ms / BENCH_TS_MS; k++) {
		acc = 0;
		fast = 0;
		pages = 0;
		for (b = k * BENCH_TS_MS / BENCH_BUCKET_MS;
		     b < (k + 1) * BENCH_TS_MS / BENCH_BUCKET_MS; b++) {
			acc += sim->acc[b];
			fast += sim->fast[b];
			pages += sim->promo[b];
		}
		ratio = bench_milli(fast, acc);
		promo = bench_mmbps(pages, BENCH_TS_MS);
		kunit_info(test,
			   "benchts workload=%s policy=%s limit_mbps=%u t_ms=%u access_ratio=%llu.%03llu promote_mbps=%llu.%03llu\n",
			   tr->wl->name, bench_policy_names[sim->policy],
			   sim->tun.rate_limit_mbps, (k + 1) * BENCH_TS_MS,
			   ratio / 1000, ratio % 1000, promo / 1000,
			   promo % 1000);
	}
}

/* The simulator's own bookkeeping, after a run. */
static void bench_check_sim(struct kunit *test, const struct bench_sim *sim)
{
	unsigned int p, b, slot, fast = 0;
	u64 acc = 0;

	for (b = 0; b < ARRAY_SIZE(sim->acc); b++)
		acc += sim->acc[b];
	KUNIT_EXPECT_EQ(test, acc, (u64)sim->tr->nr_accesses);
	for (p = 0; p < sim->tr->wl->nr_pages; p++)
		fast += !!(sim->pages[p].flags & BP_FAST);
	KUNIT_EXPECT_EQ(test, fast, sim->nr_fast);
	KUNIT_EXPECT_LE(test, sim->nr_fast, BENCH_FAST_PAGES);
	KUNIT_EXPECT_EQ(test, (unsigned long)sim->nr_fast,
			sim->nr_first_fast + sim->nr_promoted -
			sim->nr_demoted);
	/* The slots hold the fast tier (the static ceiling has none). */
	if (sim->policy != BENCH_STATIC)
		for (slot = 0; slot < sim->nr_fast; slot++) {
			p = sim->slot_page[slot];
			KUNIT_EXPECT_TRUE(test, sim->pages[p].flags & BP_FAST);
			if (sim->policy == BENCH_BELADY)
				KUNIT_EXPECT_EQ(test, sim->pages[p].slot, slot);
		}
	/*
	 * counts: the pages scored hot at the last scan fit the fast tier,
	 * and those of one score less would not (if any scored that).
	 */
	if (sim->policy == BENCH_COUNTS && sim->counts_hot > 1) {
		unsigned int hot = 0, below = 0, score;

		for (p = 0; p < sim->tr->wl->nr_pages; p++) {
			score = min_t(unsigned int, sim->pages[p].score,
				      BENCH_COUNTS_MAX_SCORE);
			hot += score >= sim->counts_hot;
			below += score == sim->counts_hot - 1;
		}
		KUNIT_EXPECT_LE(test, hot, BENCH_FAST_PAGES);
		KUNIT_EXPECT_GT(test, hot + below, BENCH_FAST_PAGES);
	}
	/* Belady's heap: no page is used later than its parent. */
	if (sim->policy == BENCH_BELADY)
		for (slot = 1; slot < sim->nr_fast; slot++)
			KUNIT_EXPECT_LE(test, bench_heap_key(sim, slot),
					bench_heap_key(sim, (slot - 1) / 2));
}

/* ---------------------------------------------------------------------
 * The sweep
 */

static void bench_config(struct kunit *test, const struct bench_trace *tr)
{
	/* The library takes widths of 1 to 31 bits. */
	BUILD_BUG_ON(BENCH_KERNEL_TIME_BITS > 31);
	kunit_info(test,
		   "benchcfg workload=%s fast_pages=%u page_kib=%u run_ms=%u accesses_per_ms=%u scan_period_ms=%u time_bits=%u,%u hot_threshold_ms=%u limits_mbps=%u,%u,%u,%u series_limit_mbps=%u default_policy=%s\n",
		   tr->wl->name, BENCH_FAST_PAGES,
		   1U << (BENCH_PAGE_SHIFT - 10), tr->run_ms,
		   tr->accesses_per_ms, BENCH_SCAN_PERIOD_MS,
		   bench_time_bits[0], bench_time_bits[1],
		   BENCH_HOT_THRESHOLD_MS, bench_limits_mbps[0],
		   bench_limits_mbps[1], bench_limits_mbps[2],
		   bench_limits_mbps[3], bench_limits_mbps[0],
		   bench_policy_names[BENCH_DEFAULT_POLICY]);
}

/* What bench_sweep() prints, and at which widths it runs. */
#define BENCH_LINES	BIT(0)	/* the bench lines */
#define BENCH_SERIES	BIT(1)	/* benchcfg, benchts of the first run */
#define BENCH_ONE_WIDTH	BIT(2)	/* the kernel's field width only */

/*
 * Run the policies of @policies (a bit per policy) at every rate limit
 * and field width on which their result depends, with a scan every
 * @scan_ms, copy the result to the others, and check the rate limit of
 * every run.  @flags: BENCH_*.
 */
static struct bench_results *bench_sweep(struct kunit *test,
					 const struct bench_trace *tr,
					 unsigned long policies,
					 unsigned int scan_ms,
					 unsigned long flags)
{
	unsigned int nr_widths = flags & BENCH_ONE_WIDTH ? 1 :
				 NR_BENCH_TIME_BITS;
	struct bench_results *res;
	struct bench_result *r;
	struct bench_sim *sim;
	unsigned int pol, l, w, sl, sw, uses, sec;
	u64 windows;

	sim = bench_kvmalloc(test, 1, sizeof(*sim));
	res = bench_kvmalloc(test, 1, sizeof(*res));
	/*
	 * The windows a run can have: each starts at least a window after
	 * the one before, the first at the run's start.
	 */
	BUILD_BUG_ON(BENCH_RUN_MS % MEMTIER_RATELIMIT_WINDOW_MS ||
		     BENCH_FAST_RUN_MS % MEMTIER_RATELIMIT_WINDOW_MS);
	windows = tr->run_ms / MEMTIER_RATELIMIT_WINDOW_MS;

	if (flags & BENCH_SERIES)
		bench_config(test, tr);
	for (pol = 0; pol < NR_BENCH_POLICIES; pol++) {
		if (!(policies & BIT(pol)))
			continue;
		uses = bench_policy_uses[pol];
		for (l = 0; l < NR_BENCH_LIMITS; l++) {
			for (w = 0; w < nr_widths; w++) {
				r = &res->r[pol][l][w];
				/* The run this one would repeat, if any. */
				sl = uses & BENCH_USES_LIMIT ? l : 0;
				sw = uses & BENCH_USES_LATENCY &&
				     bench_time_bits[w] != bench_time_bits[0] ?
				     w : 0;
				if (sl != l || sw != w) {
					*r = res->r[pol][sl][sw];
					continue;
				}
				bench_run(sim, tr, pol, bench_limits_mbps[l],
					  bench_time_bits[w], scan_ms);
				bench_check_sim(test, sim);
				bench_collect(sim, r);
				if (flags & BENCH_SERIES && !l && !w)
					bench_print_series(test, sim);
				if (!sim->win_rl)
					continue;
				/* A rate limit holds in every one of its windows, */
				KUNIT_EXPECT_LE_MSG(test, (u64)r->win_max,
						    sim->limit_pages,
						    "%s: %s over %u MB/s",
						    tr->wl->name,
						    bench_policy_names[pol],
						    bench_limits_mbps[l]);
				/* which are a window apart, */
				KUNIT_EXPECT_GE(test, sim->win_gap_min,
						MEMTIER_RATELIMIT_WINDOW_MS);
				/*
				 * so that a second of the run, which overlaps
				 * two windows at most, sees two limits at most,
				 */
				for (sec = 0; sec < windows; sec++)
					KUNIT_EXPECT_LE(test,
							(u64)sim->sec_hot[sec],
							2 * sim->limit_pages);
				/* and the run one limit per window. */
				KUNIT_EXPECT_LE(test, (u64)r->hot,
						sim->limit_pages * windows);
			}
		}
	}

	if (!(flags & BENCH_LINES)) {
		kunit_release_action(test, bench_kvfree, sim);
		return res;
	}
	for (pol = 0; pol < NR_BENCH_POLICIES; pol++)
		for (l = 0; l < NR_BENCH_LIMITS; l++)
			for (w = 0; w < NR_BENCH_TIME_BITS; w++)
				if (res->r[pol][l][w].valid &&
				    (!w || bench_time_bits[w] != bench_time_bits[0]))
					bench_print(test, tr, pol,
						    bench_limits_mbps[l],
						    bench_time_bits[w], scan_ms,
						    &res->r[pol][l][w]);
	kunit_release_action(test, bench_kvfree, sim);
	return res;
}

/* No online policy serves more from the fast tier than either ceiling. */
static void bench_check_ceiling(struct kunit *test,
				const struct bench_trace *tr,
				const struct bench_results *res,
				enum bench_policy ceiling)
{
	u64 most = res->r[ceiling][0][0].fast_hits;
	const struct bench_result *r;
	unsigned int pol, l, w;

	KUNIT_ASSERT_TRUE(test, res->r[ceiling][0][0].valid);
	for (pol = 0; pol < BENCH_FIRST_CEILING; pol++) {
		for (l = 0; l < NR_BENCH_LIMITS; l++) {
			for (w = 0; w < NR_BENCH_TIME_BITS; w++) {
				r = &res->r[pol][l][w];
				if (r->valid)
					KUNIT_EXPECT_LE_MSG(test, r->fast_hits,
							    most,
							    "%s: %s at %u MB/s, %u bits, beats %s",
							    tr->wl->name,
							    bench_policy_names[pol],
							    bench_limits_mbps[l],
							    bench_time_bits[w],
							    bench_policy_names[ceiling]);
			}
		}
	}
}

static void bench_check_ceilings(struct kunit *test,
				 const struct bench_trace *tr,
				 const struct bench_results *res)
{
	bench_check_ceiling(test, tr, res, BENCH_STATIC);
	bench_check_ceiling(test, tr, res, BENCH_BELADY);
}

static struct bench_results *bench_workload(struct kunit *test,
					    enum bench_kind kind)
{
	const struct bench_trace *tr;
	struct bench_results *res;

	tr = bench_trace_build(test, &bench_workloads[kind], BENCH_RUN_MS,
			       BENCH_ACCESSES_PER_MS, 0);
	res = bench_sweep(test, tr, BIT(NR_BENCH_POLICIES) - 1,
			  BENCH_SCAN_PERIOD_MS, BENCH_LINES | BENCH_SERIES);
	bench_check_ceilings(test, tr, res);
	return res;
}

/* The smallest limit, at the kernel's field width. */
#define BENCH_R(res, pol)	(&(res)->r[pol][0][0])

static void memtier_bench_gauss(struct kunit *test)
{
	struct bench_results *res = bench_workload(test, BENCH_GAUSS);

	/*
	 * The seeds' point: hot page selection cuts promotion traffic, and
	 * serves at least as many accesses from the fast tier.
	 */
	KUNIT_EXPECT_LT(test, BENCH_R(res, BENCH_AUTOADJUST)->promoted,
			BENCH_R(res, BENCH_BASE)->promoted);
	KUNIT_EXPECT_GE(test, BENCH_R(res, BENCH_AUTOADJUST)->fast_hits,
			BENCH_R(res, BENCH_BASE)->fast_hits);
	KUNIT_EXPECT_LT(test, BENCH_R(res, BENCH_THRESHOLD)->promoted,
			BENCH_R(res, BENCH_BASE)->promoted);
	/*
	 * What hint faults do not tell: counts, which sees every access in
	 * both tiers, serves more accesses from the fast tier than the
	 * default with less traffic, under the same limit and demotion.
	 */
	KUNIT_EXPECT_GT(test, BENCH_R(res, BENCH_COUNTS)->fast_hits,
			BENCH_R(res, BENCH_AUTOADJUST)->fast_hits);
	KUNIT_EXPECT_LT(test, BENCH_R(res, BENCH_COUNTS)->promoted,
			BENCH_R(res, BENCH_AUTOADJUST)->promoted);
}

static void memtier_bench_zipf(struct kunit *test)
{
	struct bench_results *res = bench_workload(test, BENCH_ZIPF);

	KUNIT_EXPECT_LT(test, BENCH_R(res, BENCH_AUTOADJUST)->promoted,
			BENCH_R(res, BENCH_BASE)->promoted);
}

static void memtier_bench_hotmove(struct kunit *test)
{
	struct bench_results *res = bench_workload(test, BENCH_HOTMOVE);
	int pol;

	/* Every policy that promotes finds the new hot set. */
	for (pol = BENCH_NONE + 1; pol < NR_BENCH_POLICIES; pol++)
		KUNIT_EXPECT_GE_MSG(test, BENCH_R(res, pol)->settle_ms, 0,
				    "hotmove: %s never settles",
				    bench_policy_names[pol]);
	/* The static ceiling migrates at once: it settles in one bucket. */
	KUNIT_EXPECT_EQ(test, BENCH_R(res, BENCH_STATIC)->settle_ms,
			BENCH_BUCKET_MS);
}

static void memtier_bench_uniform(struct kunit *test)
{
	struct bench_results *res = bench_workload(test, BENCH_UNIFORM);

	/* No page is hotter than another: promotion gains nothing. */
	KUNIT_EXPECT_LT(test, BENCH_R(res, BENCH_AUTOADJUST)->promoted,
			BENCH_R(res, BENCH_BASE)->promoted);
}

/* Same seed, same trace, same decisions: the numbers can be compared. */
static void memtier_bench_reproducible(struct kunit *test)
{
	const struct bench_workload *wl = &bench_workloads[BENCH_HOTMOVE];
	struct bench_trace *a = bench_trace_build(test, wl, BENCH_RUN_MS,
						  BENCH_ACCESSES_PER_MS, 0);
	struct bench_trace *b = bench_trace_build(test, wl, BENCH_RUN_MS,
						  BENCH_ACCESSES_PER_MS, 0);
	struct bench_sim *x, *y;

	KUNIT_EXPECT_EQ(test, memcmp(a->page, b->page,
				     a->nr_accesses * sizeof(*a->page)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(a->static_fast, b->static_fast,
				     sizeof(a->static_fast)), 0);

	x = bench_kvmalloc(test, 1, sizeof(*x));
	y = bench_kvmalloc(test, 1, sizeof(*y));
	bench_run(x, a, BENCH_AUTOADJUST, bench_limits_mbps[0],
		  BENCH_KERNEL_TIME_BITS, BENCH_SCAN_PERIOD_MS);
	bench_run(y, b, BENCH_AUTOADJUST, bench_limits_mbps[0],
		  BENCH_KERNEL_TIME_BITS, BENCH_SCAN_PERIOD_MS);
	KUNIT_EXPECT_EQ(test, x->nr_promoted, y->nr_promoted);
	KUNIT_EXPECT_EQ(test, x->nr_demoted, y->nr_demoted);
	KUNIT_EXPECT_EQ(test, memcmp(x->fast, y->fast, sizeof(x->fast)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(x->promo, y->promo, sizeof(x->promo)), 0);
	/* The run did something worth reproducing. */
	KUNIT_EXPECT_GT(test, x->nr_promoted, 0ul);
}

/*
 * Belady's MIN on a trace small enough to follow by hand: two rounds
 * over F + 1 pages, F the fast tier's size, then three more accesses to
 * the last page.  Round one fills the fast tier by first touch; its
 * last page is used later than every resident one, so it is not
 * promoted.  In round two every resident page is used for the last
 * time, so the last page, used again at once, is promoted in place of
 * one of them, and its three last accesses hit.
 */
static void memtier_bench_belady_by_hand(struct kunit *test)
{
	const unsigned int f = BENCH_FAST_PAGES, n = f + 1, extra = 3;
	struct bench_trace *tr;
	struct bench_sim *sim;
	u64 hits = 0;
	unsigned int i, b;

	tr = kunit_kzalloc(test, sizeof(*tr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tr);
	tr->wl = &bench_workloads[BENCH_UNIFORM];
	tr->nr_accesses = 2 * n + extra;
	tr->run_ms = BENCH_TS_MS;
	tr->move_ms = tr->run_ms;
	tr->page = bench_kvmalloc(test, tr->nr_accesses, sizeof(*tr->page));
	tr->next = bench_kvmalloc(test, tr->nr_accesses, sizeof(*tr->next));
	for (i = 0; i < tr->nr_accesses; i++)
		tr->page[i] = i < 2 * n ? i % n : f;
	bench_trace_next(test, tr);
	KUNIT_EXPECT_EQ(test, tr->next[f], f + n);
	KUNIT_EXPECT_EQ(test, tr->next[n], BENCH_NEVER);
	KUNIT_EXPECT_EQ(test, tr->next[2 * n - 1], 2 * n);

	sim = bench_kvmalloc(test, 1, sizeof(*sim));
	bench_sim_init(sim, tr, BENCH_BELADY, bench_limits_mbps[0],
		       BENCH_KERNEL_TIME_BITS, BENCH_SCAN_PERIOD_MS);
	for (i = 0; i < tr->nr_accesses; i++) {
		bench_belady_access(sim, tr->page[i], i, 0);
		/* Not promoted at the end of round one. */
		if (i == f)
			KUNIT_EXPECT_FALSE(test,
					   sim->pages[f].flags & BP_FAST);
	}
	for (b = 0; b < ARRAY_SIZE(sim->fast); b++)
		hits += sim->fast[b];
	bench_check_sim(test, sim);

	KUNIT_EXPECT_EQ(test, sim->nr_first_fast, (unsigned long)f);
	KUNIT_EXPECT_EQ(test, hits, (u64)2 * f + extra);
	KUNIT_EXPECT_EQ(test, sim->nr_promoted, 1ul);
	KUNIT_EXPECT_EQ(test, sim->nr_demoted, 1ul);
	KUNIT_EXPECT_TRUE(test, sim->pages[f].flags & BP_FAST);
}

/*
 * The fast subset make kunit runs: an 8 s Gaussian, the rate-limited
 * policies at every limit and width, and both ceilings.  It fails when
 * a policy promotes over the rate limit in any window, or beats a
 * ceiling.
 */
static void memtier_bench_fast(struct kunit *test)
{
	const struct bench_trace *tr;
	struct bench_results *res;

	tr = bench_trace_build(test, &bench_workloads[BENCH_GAUSS],
			       BENCH_FAST_RUN_MS, BENCH_ACCESSES_PER_MS, 0);
	res = bench_sweep(test, tr,
			  BIT(BENCH_BASE) | BIT(BENCH_RATELIMIT) |
			  BIT(BENCH_AUTOADJUST) | BIT(BENCH_REPEAT) |
			  BIT(BENCH_PGHOT) | BIT(BENCH_MEMTIS) |
			  BIT(BENCH_DAMON) | BIT(BENCH_STATIC) |
			  BIT(BENCH_BELADY), BENCH_SCAN_PERIOD_MS, 0);
	bench_check_ceilings(test, tr, res);
	/* At 1 MB/s the limit binds: base promotes more than the rest. */
	KUNIT_EXPECT_LT(test, BENCH_R(res, BENCH_AUTOADJUST)->promoted,
			BENCH_R(res, BENCH_BASE)->promoted);
	KUNIT_EXPECT_GT(test, BENCH_R(res, BENCH_AUTOADJUST)->hot, 0ul);
}

/*
 * Every workload again over the trace seeds, access rates and scan
 * periods of the sweep, at the kernel's field width: the online
 * policies and both ceilings, whose lines the report turns into
 * verdicts per configuration.  The main cases run the first
 * configuration.  Belady's bound holds in each; the static placement,
 * not a bound, is checked by the main cases only.
 */
static void bench_sweep_trace(struct kunit *test,
			      const struct bench_workload *wl,
			      unsigned int seed, unsigned int accesses_per_ms)
{
	struct bench_results *res;
	struct bench_trace *tr;
	unsigned int s, scan_ms;

	tr = bench_trace_build(test, wl, BENCH_RUN_MS, accesses_per_ms, seed);
	for (s = 0; s < ARRAY_SIZE(bench_sweep_scans_ms); s++) {
		scan_ms = bench_sweep_scans_ms[s];
		/* The main cases' configuration. */
		if (!seed && accesses_per_ms == BENCH_ACCESSES_PER_MS &&
		    scan_ms == BENCH_SCAN_PERIOD_MS)
			continue;
		res = bench_sweep(test, tr, BIT(NR_BENCH_POLICIES) - 1, scan_ms,
				  BENCH_LINES | BENCH_ONE_WIDTH);
		bench_check_ceiling(test, tr, res, BENCH_BELADY);
		kunit_release_action(test, bench_kvfree, res);
	}
	bench_trace_free(test, tr);
}

static void memtier_bench_sweep(struct kunit *test)
{
	unsigned int k, seed, a;

	for (k = 0; k < ARRAY_SIZE(bench_workloads); k++)
		for (seed = 0; seed < BENCH_NR_SEEDS; seed++)
			for (a = 0; a < ARRAY_SIZE(bench_sweep_rates); a++)
				bench_sweep_trace(test, &bench_workloads[k],
						  seed, bench_sweep_rates[a]);
}

static struct kunit_case memtier_bench_cases[] = {
	KUNIT_CASE(memtier_bench_belady_by_hand),
	KUNIT_CASE(memtier_bench_fast),
	KUNIT_CASE_SLOW(memtier_bench_gauss),
	KUNIT_CASE_SLOW(memtier_bench_zipf),
	KUNIT_CASE_SLOW(memtier_bench_hotmove),
	KUNIT_CASE_SLOW(memtier_bench_uniform),
	KUNIT_CASE_SLOW(memtier_bench_reproducible),
	KUNIT_CASE_SLOW(memtier_bench_sweep),
	{}
};

static struct kunit_suite memtier_bench_suite = {
	.name = "memtier_bench",
	.test_cases = memtier_bench_cases,
};

kunit_test_suite(memtier_bench_suite);
