// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_bench: a deterministic, trace-driven benchmark of
 * the promotion decisions, run on the library's own decision code.
 *
 * The machine is a fast tier of BENCH_FAST_PAGES 4 KiB pages and a slow
 * tier without limit.  Each workload is one seeded trace of page numbers,
 * BENCH_ACCESSES_PER_MS accesses per ms of virtual time, replayed once
 * per policy.  A page is allocated on its first access, in the fast tier
 * while it has room and in the slow tier after that.
 *
 * Every BENCH_SCAN_PERIOD_MS the NUMA balancing scanner marks each
 * slow-tier page PROT_NONE and stores the scan time in a BENCH_TIME_BITS
 * wide field with memtier_access_time_encode().  A page still marked is
 * skipped and keeps its older time, as change_prot_numa() skips a
 * PROT_NONE entry; fast-tier pages are not scanned.  The first access to
 * a marked page is a hint fault: it unmarks the page, and its latency,
 * memtier_hint_fault_latency(), goes to the policy.  A promotion into a
 * full fast tier first demotes the page chosen by a CLOCK (second chance)
 * hand over the fast tier, an approximation of the LRU; the access bit
 * is set on every fast-tier access.
 *
 * Every case is slow (KUNIT_CASE_SLOW).  It prints one "bench" line per
 * workload and policy and "benchts" time series lines, which
 * scripts/bench-report.py turns into tables and a plot; the model is
 * described in docs/bench.rst.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/math64.h>
#include <linux/memtier_promote.h>
#include <linux/minmax.h>
#include <linux/prandom.h>
#include <linux/sched/sysctl.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

/* The machine: a 4 MiB fast tier, working sets of up to 16 MiB. */
#define BENCH_PAGE_SHIFT	12
#define BENCH_FAST_PAGES	1024
#define BENCH_PAGE_BITS		12
#define BENCH_MAX_PAGES		BIT(BENCH_PAGE_BITS)

/* Virtual time: 40 s of 4 accesses per ms, 160000 accesses a run. */
#define BENCH_RUN_MS		40000
#define BENCH_ACCESSES_PER_MS	4
#define BENCH_NR_ACCESSES	(BENCH_RUN_MS * BENCH_ACCESSES_PER_MS)
/*
 * The 32-bit ms clock starts 10 s before it wraps: with HZ=1000 the
 * kernel's jiffies_to_msecs(jiffies) wraps 5 minutes after boot.
 */
#define BENCH_EPOCH_MS		(0U - BENCH_RUN_MS / 4)

/* NUMA balancing: a fixed scan period, a 12-bit access time field. */
#define BENCH_SCAN_PERIOD_MS	1000
#define BENCH_TIME_BITS		MEMTIER_ACCESS_TIME_MIN_BITS

/* The knobs: 1 MB/s is 256 pages/s, a quarter of the fast tier. */
#define BENCH_HOT_THRESHOLD_MS	MEMTIER_HOT_THRESHOLD_DEFAULT_MS
#define BENCH_RATE_LIMIT_MBPS	1
/* freq2 and auto2: the previous hint fault at most this long ago. */
#define BENCH_FREQ2_WINDOW_MS	(2 * BENCH_SCAN_PERIOD_MS)

/* The moving hot set: 90% of the accesses in 768 pages. */
#define BENCH_HOT_PAGES		(BENCH_FAST_PAGES * 3 / 4)
#define BENCH_HOT_PCT		90

/* Metrics: 250 ms buckets, a time series point per second. */
#define BENCH_BUCKET_MS		250
#define BENCH_NR_BUCKETS	(BENCH_RUN_MS / BENCH_BUCKET_MS)
#define BENCH_TS_MS		1000
#define BENCH_SETTLE_PCT	90

enum bench_policy {
	BENCH_BASE,
	BENCH_THRESHOLD,
	BENCH_RATELIMIT,
	BENCH_AUTOADJUST,
	BENCH_FREQ2,
	BENCH_AUTO2,
	BENCH_ORACLE,
	NR_BENCH_POLICIES
};

static const char * const bench_policy_names[] = {
	[BENCH_BASE] = "base",
	[BENCH_THRESHOLD] = "threshold",
	[BENCH_RATELIMIT] = "ratelimit",
	[BENCH_AUTOADJUST] = "autoadjust",
	[BENCH_FREQ2] = "freq2",
	[BENCH_AUTO2] = "auto2",
	[BENCH_ORACLE] = "oracle",
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
 * struct bench_trace - one workload's accesses and its oracle
 * @wl: the workload.
 * @page: the page of each access; access i is at i / ACCESSES_PER_MS ms.
 * @move_ms: when the popularity changes (the hot set moves), else the
 *	run's length.
 * @oracle: per phase (before and after @move_ms), the pages the oracle
 *	keeps in the fast tier: the BENCH_FAST_PAGES most accessed in that
 *	phase of the trace.
 */
struct bench_trace {
	const struct bench_workload *wl;
	u16 *page;
	unsigned int move_ms;
	u8 oracle[2][BENCH_MAX_PAGES];
};

/* Page flags. */
#define BP_ALLOC	BIT(0)	/* touched, so mapped somewhere */
#define BP_FAST		BIT(1)	/* in the fast tier */
#define BP_MARKED	BIT(2)	/* PROT_NONE since a scan: next access faults */
#define BP_REF		BIT(3)	/* the access bit, for the CLOCK hand */
#define BP_HIST		BIT(4)	/* freq2/auto2: @hist_ms is a hint fault */

struct bench_page {
	u32 hist_ms;
	u16 field;
	u8 flags;
};

/**
 * struct bench_sim - one replay of a trace under one policy
 * @tr: the trace.
 * @policy: the policy.
 * @tun: the knobs, as the kernel would pass them.
 * @limit_pages: the rate limit in pages per window.
 * @ref_ms: the reference hot threshold.
 * @pages: every page of the working set.
 * @slot_page: the page in each fast-tier slot, @nr_fast used.
 * @nr_fast: the pages in the fast tier.
 * @hand: the CLOCK hand, a slot.
 * @state: autoadjust, auto2: the fast node's promotion state.
 * @rl: ratelimit: its rate-limit window.
 * @nr_cand: ratelimit, autoadjust, auto2: the candidate count.
 * @win_rl: the rate-limit window in use, NULL for none.
 * @win_start: the start of the window being counted.
 * @win_promoted: pages promoted as hot in that window.
 * @win_max: the most in any window.
 * @nr_hot: with a rate limit, the pages promoted as hot under it.
 * @nr_bypass: pages promoted while the fast tier had room.
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
	const struct memtier_ratelimit *win_rl;
	unsigned int win_start;
	unsigned long win_promoted;
	unsigned long win_max;
	unsigned long nr_hot;
	unsigned long nr_bypass;
	unsigned long nr_faults;
	unsigned long nr_promoted;
	unsigned long nr_demoted;
	unsigned long nr_first_fast;
	u32 acc[BENCH_NR_BUCKETS];
	u32 fast[BENCH_NR_BUCKETS];
	u32 promo[BENCH_NR_BUCKETS];
};

struct bench_result {
	u64 accesses;
	u64 fast_hits;
	unsigned long promoted;
	unsigned long demoted;
	unsigned long hot;
	unsigned long win_max;
	int settle_ms;
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
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* The oracle's fast tier for a phase: its most accessed pages. */
static void bench_oracle_pick(u8 *fast, u32 *count, unsigned int n)
{
	const u32 mask = BENCH_MAX_PAGES - 1;
	unsigned int p;

	/* Ties go to the lower page number. */
	for (p = 0; p < n; p++)
		count[p] = count[p] << BENCH_PAGE_BITS | (mask - p);
	sort(count, n, sizeof(*count), bench_cmp_desc, NULL);
	for (p = 0; p < BENCH_FAST_PAGES; p++)
		fast[mask - (count[p] & mask)] = 1;
}

KUNIT_DEFINE_ACTION_WRAPPER(bench_kvfree, kvfree, const void *);

static struct bench_trace *bench_trace_build(struct kunit *test,
					     const struct bench_workload *wl)
{
	unsigned int n = wl->nr_pages, i, p, phase;
	struct bench_trace *tr;
	struct rnd_state rnd;
	u64 *cdf = NULL;
	u32 *count;
	u64 sum;
	int ret;

	BUILD_BUG_ON((u64)BENCH_NR_ACCESSES << BENCH_PAGE_BITS > U32_MAX);
	BUILD_BUG_ON(BENCH_RUN_MS % BENCH_TS_MS ||
		     BENCH_TS_MS % BENCH_BUCKET_MS);

	tr = kunit_kzalloc(test, sizeof(*tr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tr);
	count = kunit_kcalloc(test, 2 * BENCH_MAX_PAGES, sizeof(*count),
			      GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, count);
	tr->page = kvmalloc_array(BENCH_NR_ACCESSES, sizeof(*tr->page),
				  GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tr->page);
	ret = kunit_add_action_or_reset(test, bench_kvfree, tr->page);
	KUNIT_ASSERT_EQ(test, ret, 0);
	tr->wl = wl;
	tr->move_ms = wl->kind == BENCH_HOTMOVE ? BENCH_RUN_MS / 2 :
						  BENCH_RUN_MS;

	if (wl->kind == BENCH_ZIPF) {
		/* Page k has weight 2^32 / (k + 1); fixed point, no FPU. */
		cdf = kunit_kmalloc_array(test, n, sizeof(*cdf), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, cdf);
		for (sum = 0, p = 0; p < n; p++) {
			sum += div_u64(1ull << 32, p + 1);
			cdf[p] = sum;
		}
	}

	prandom_seed_state(&rnd, wl->seed);
	/* All four words start equal: warm up, as prandom_warmup() does. */
	for (i = 0; i < 10; i++)
		prandom_u32_state(&rnd);

	for (i = 0; i < BENCH_NR_ACCESSES; i++) {
		phase = i / BENCH_ACCESSES_PER_MS >= tr->move_ms;
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

	bench_oracle_pick(tr->oracle[0], count, n);
	if (tr->move_ms < BENCH_RUN_MS)
		bench_oracle_pick(tr->oracle[1], count + BENCH_MAX_PAGES, n);
	else
		memcpy(tr->oracle[1], tr->oracle[0], sizeof(tr->oracle[1]));
	return tr;
}

/* ---------------------------------------------------------------------
 * The simulator
 */

static void bench_sim_init(struct bench_sim *sim,
			   const struct bench_trace *tr,
			   enum bench_policy policy)
{
	memset(sim, 0, sizeof(*sim));
	sim->tr = tr;
	sim->policy = policy;
	sim->tun.hot_threshold_ms = BENCH_HOT_THRESHOLD_MS;
	sim->tun.rate_limit_mbps = BENCH_RATE_LIMIT_MBPS;
	/* The scan period is fixed: scan_period_max is that period. */
	sim->tun.scan_period_max_ms = BENCH_SCAN_PERIOD_MS;
	sim->tun.page_shift = BENCH_PAGE_SHIFT;
	sim->limit_pages = memtier_mbps_to_pages(BENCH_RATE_LIMIT_MBPS,
						 BENCH_PAGE_SHIFT);
	sim->ref_ms = BENCH_HOT_THRESHOLD_MS;
	memtier_promote_state_init(&sim->state, BENCH_EPOCH_MS);
	memtier_ratelimit_init(&sim->rl, BENCH_EPOCH_MS, 0);

	if (policy == BENCH_RATELIMIT)
		sim->win_rl = &sim->rl;
	else if (policy == BENCH_AUTOADJUST || policy == BENCH_AUTO2)
		sim->win_rl = &sim->state.rl;
	if (sim->win_rl)
		sim->win_start = sim->win_rl->window_start_ms;
}

/* Mark every slow-tier page not marked yet, with the scan time. */
static void bench_scan(struct bench_sim *sim, unsigned int now)
{
	u16 field = memtier_access_time_encode(now, BENCH_TIME_BITS);
	unsigned int p;

	for (p = 0; p < sim->tr->wl->nr_pages; p++) {
		struct bench_page *pg = &sim->pages[p];

		if ((pg->flags & (BP_ALLOC | BP_FAST | BP_MARKED)) ==
		    BP_ALLOC) {
			pg->flags |= BP_MARKED;
			pg->field = field;
		}
	}
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
		sim->nr_bypass++;
	} else {
		slot = bench_clock_victim(sim);
		victim = &sim->pages[sim->slot_page[slot]];
		/* Migrated: mapped again, so unmarked until the next scan. */
		victim->flags &= ~(BP_FAST | BP_REF | BP_HIST);
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
		sim->win_start = start;
		sim->win_promoted = 0;
	}
	if (hot) {
		sim->nr_hot++;
		sim->win_promoted++;
		sim->win_max = max(sim->win_max, sim->win_promoted);
	}
}

/* The seeds' full algorithm: the library decides. */
static bool bench_autoadjust(struct bench_sim *sim, unsigned int now,
			     unsigned int latency, bool room)
{
	struct memtier_hint_fault fault = {
		.mode = NUMA_BALANCING_MEMORY_TIERING,
		.src_toptier = false,
		.target_free_space_enough = room,
		.now_ms = now,
		.latency_ms = latency,
		.nr_pages = 1,
		.nr_cand = sim->nr_cand,
	};
	enum memtier_promote_reason reason;

	reason = memtier_promote_decide(&sim->state, &fault, &sim->tun);
	if (memtier_promote_reason_counter(reason) ==
	    MEMTIER_PROMOTE_COUNT_CANDIDATE)
		sim->nr_cand++;
	bench_window(sim, reason == MEMTIER_PROMOTE_HOT);
	return memtier_promote_reason_migrates(reason);
}

/* Was the previous (hot) hint fault of the page recent?  Then forget it. */
static bool bench_second_fault(struct bench_page *pg, unsigned int now,
			       bool record)
{
	bool second = (pg->flags & BP_HIST) &&
		      now - pg->hist_ms <= BENCH_FREQ2_WINDOW_MS;

	pg->flags &= ~BP_HIST;
	if (record) {
		pg->flags |= BP_HIST;
		pg->hist_ms = now;
	}
	return second;
}

/* Whether the policy promotes the page of this hint fault. */
static bool bench_decide(struct bench_sim *sim, struct bench_page *pg,
			 unsigned int now, unsigned int latency)
{
	/* The seeds' free-space bypass, kept by every policy. */
	bool room = sim->nr_fast < BENCH_FAST_PAGES;
	bool allow, hot;

	switch (sim->policy) {
	case BENCH_BASE:
		return true;
	case BENCH_THRESHOLD:
		return room || latency < sim->ref_ms;
	case BENCH_RATELIMIT:
		if (room)
			return true;
		if (latency >= sim->ref_ms)
			return false;
		sim->nr_cand++;
		allow = memtier_ratelimit_allow(&sim->rl, now, sim->nr_cand, 1,
						sim->limit_pages);
		bench_window(sim, allow);
		return allow;
	case BENCH_AUTOADJUST:
		return bench_autoadjust(sim, now, latency, room);
	case BENCH_FREQ2:
		return bench_second_fault(pg, now, true) || room;
	case BENCH_AUTO2:
		/*
		 * Two hot hint faults in a row, by the threshold in force;
		 * only the second is a candidate for the library.
		 */
		hot = latency < memtier_threshold_current(&sim->state.th,
							  sim->ref_ms);
		if (!bench_second_fault(pg, now, hot) && !room)
			return false;
		return bench_autoadjust(sim, now, latency, room);
	default:
		return false;
	}
}

static void bench_first_touch(struct bench_sim *sim, unsigned int p,
			      unsigned int phase)
{
	struct bench_page *pg = &sim->pages[p];
	bool fast;

	pg->flags |= BP_ALLOC;
	if (sim->policy == BENCH_ORACLE)
		fast = sim->tr->oracle[phase][p];
	else
		fast = sim->nr_fast < BENCH_FAST_PAGES;
	if (!fast)
		return;
	if (sim->policy != BENCH_ORACLE)
		sim->slot_page[sim->nr_fast] = p;
	sim->nr_fast++;
	sim->nr_first_fast++;
	pg->flags |= BP_FAST;
}

/* The hot set moved: the oracle migrates at once to its new set. */
static void bench_oracle_move(struct bench_sim *sim, unsigned int b)
{
	const u8 *want = sim->tr->oracle[1];
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

static void bench_access(struct bench_sim *sim, unsigned int p,
			 unsigned int t, unsigned int phase)
{
	struct bench_page *pg = &sim->pages[p];
	unsigned int b = t / BENCH_BUCKET_MS;
	unsigned int now = BENCH_EPOCH_MS + t;
	unsigned int latency;

	sim->acc[b]++;
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
	latency = memtier_hint_fault_latency(now, pg->field, BENCH_TIME_BITS);
	if (bench_decide(sim, pg, now, latency))
		bench_promote(sim, p, b);
}

static void bench_run(struct bench_sim *sim, const struct bench_trace *tr,
		      enum bench_policy policy)
{
	unsigned int i, t = 0, phase = 0;

	bench_sim_init(sim, tr, policy);
	for (i = 0; i < BENCH_NR_ACCESSES; i++) {
		if (i % BENCH_ACCESSES_PER_MS == 0) {
			t = i / BENCH_ACCESSES_PER_MS;
			if (t == tr->move_ms) {
				phase = 1;
				if (policy == BENCH_ORACLE)
					bench_oracle_move(sim,
							  t / BENCH_BUCKET_MS);
			}
			/* The oracle needs no scan. */
			if (policy != BENCH_ORACLE && t &&
			    t % BENCH_SCAN_PERIOD_MS == 0)
				bench_scan(sim, BENCH_EPOCH_MS + t);
		}
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

/*
 * After the move, when the ratio of a bucket first reaches 90% of the
 * ratio over the last quarter of the run after the move; -1 for none.
 */
static int bench_settle_ms(const struct bench_sim *sim)
{
	unsigned int first = sim->tr->move_ms / BENCH_BUCKET_MS;
	unsigned int from = BENCH_NR_BUCKETS - (BENCH_NR_BUCKETS - first) / 4;
	u64 fin_acc = 0, fin_fast = 0;
	unsigned int b;

	if (first >= BENCH_NR_BUCKETS)
		return -1;
	for (b = from; b < BENCH_NR_BUCKETS; b++) {
		fin_acc += sim->acc[b];
		fin_fast += sim->fast[b];
	}
	for (b = first; b < BENCH_NR_BUCKETS; b++)
		if ((u64)sim->fast[b] * 100 * fin_acc >=
		    (u64)BENCH_SETTLE_PCT * fin_fast * sim->acc[b])
			return (b + 1) * BENCH_BUCKET_MS - sim->tr->move_ms;
	return -1;
}

static void bench_collect(const struct bench_sim *sim, struct bench_result *r)
{
	unsigned int b;

	memset(r, 0, sizeof(*r));
	for (b = 0; b < BENCH_NR_BUCKETS; b++) {
		r->accesses += sim->acc[b];
		r->fast_hits += sim->fast[b];
	}
	r->promoted = sim->nr_promoted;
	r->demoted = sim->nr_demoted;
	r->hot = sim->nr_hot;
	r->win_max = sim->win_max;
	r->settle_ms = bench_settle_ms(sim);
}

static void bench_print(struct kunit *test, const struct bench_sim *sim,
			const struct bench_result *r)
{
	const char *wl = sim->tr->wl->name;
	const char *pol = bench_policy_names[sim->policy];
	u64 ratio = bench_milli(r->fast_hits, r->accesses);
	u64 promo = bench_mmbps(r->promoted, BENCH_RUN_MS);
	u64 demo = bench_mmbps(r->demoted, BENCH_RUN_MS);
	unsigned int k, b;
	char settle[12];
	u64 acc, fast, pages;

	if (r->settle_ms < 0)
		strscpy(settle, "na", sizeof(settle));
	else
		snprintf(settle, sizeof(settle), "%d", r->settle_ms);
	kunit_info(test,
		   "bench workload=%s policy=%s access_ratio=%llu.%03llu promote_mbps=%llu.%03llu demote_mbps=%llu.%03llu settle_ms=%s\n",
		   wl, pol, ratio / 1000, ratio % 1000, promo / 1000,
		   promo % 1000, demo / 1000, demo % 1000, settle);

	for (k = 0; k < BENCH_RUN_MS / BENCH_TS_MS; k++) {
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
			   "benchts workload=%s policy=%s t_ms=%u access_ratio=%llu.%03llu promote_mbps=%llu.%03llu\n",
			   wl, pol, (k + 1) * BENCH_TS_MS, ratio / 1000,
			   ratio % 1000, promo / 1000, promo % 1000);
	}
}

/* The simulator's own bookkeeping, after a run. */
static void bench_check_sim(struct kunit *test, const struct bench_sim *sim)
{
	unsigned int p, fast = 0;

	for (p = 0; p < sim->tr->wl->nr_pages; p++)
		fast += !!(sim->pages[p].flags & BP_FAST);
	KUNIT_EXPECT_EQ(test, fast, sim->nr_fast);
	KUNIT_EXPECT_LE(test, sim->nr_fast, BENCH_FAST_PAGES);
	KUNIT_EXPECT_EQ(test, (unsigned long)sim->nr_fast,
			sim->nr_first_fast + sim->nr_promoted -
			sim->nr_demoted);
	if (sim->policy != BENCH_ORACLE)
		KUNIT_EXPECT_LE(test, sim->nr_promoted, sim->nr_faults);
}

/* ---------------------------------------------------------------------
 * The cases
 */

static void bench_config(struct kunit *test)
{
	kunit_info(test,
		   "benchcfg fast_pages=%u page_kib=%u run_ms=%u accesses_per_ms=%u scan_period_ms=%u time_bits=%u hot_threshold_ms=%u rate_limit_mbps=%u\n",
		   BENCH_FAST_PAGES, 1U << (BENCH_PAGE_SHIFT - 10),
		   BENCH_RUN_MS, BENCH_ACCESSES_PER_MS, BENCH_SCAN_PERIOD_MS,
		   BENCH_TIME_BITS, BENCH_HOT_THRESHOLD_MS,
		   BENCH_RATE_LIMIT_MBPS);
}

static struct bench_result *bench_workload(struct kunit *test,
					   enum bench_kind kind)
{
	const struct bench_workload *wl = &bench_workloads[kind];
	struct bench_trace *tr = bench_trace_build(test, wl);
	const struct bench_result *oracle;
	struct bench_result *res;
	struct bench_sim *sim;
	u64 limit;
	int pol;

	sim = kunit_kzalloc(test, sizeof(*sim), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sim);
	res = kunit_kcalloc(test, NR_BENCH_POLICIES, sizeof(*res), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, res);

	bench_config(test);
	for (pol = 0; pol < NR_BENCH_POLICIES; pol++) {
		bench_run(sim, tr, pol);
		bench_check_sim(test, sim);
		bench_collect(sim, &res[pol]);
		bench_print(test, sim, &res[pol]);

		/* A rate limit holds in every one of its windows. */
		if (sim->win_rl)
			KUNIT_EXPECT_LE_MSG(test, (u64)res[pol].win_max,
					    sim->limit_pages,
					    "%s: %s over the rate limit",
					    wl->name, bench_policy_names[pol]);
	}

	/* Nothing beats the best static placement of each phase. */
	oracle = &res[BENCH_ORACLE];
	for (pol = 0; pol < BENCH_ORACLE; pol++)
		KUNIT_EXPECT_GE_MSG(test, oracle->fast_hits,
				    res[pol].fast_hits,
				    "%s: %s beats the oracle", wl->name,
				    bench_policy_names[pol]);

	/* And over the run, at most one window's worth per window. */
	limit = memtier_mbps_to_pages(BENCH_RATE_LIMIT_MBPS, BENCH_PAGE_SHIFT);
	limit *= BENCH_RUN_MS / MEMTIER_RATELIMIT_WINDOW_MS + 1;
	KUNIT_EXPECT_LE(test, (u64)res[BENCH_RATELIMIT].hot, limit);
	KUNIT_EXPECT_LE(test, (u64)res[BENCH_AUTOADJUST].hot, limit);
	KUNIT_EXPECT_LE(test, (u64)res[BENCH_AUTO2].hot, limit);
	return res;
}

static void memtier_bench_gauss(struct kunit *test)
{
	struct bench_result *res = bench_workload(test, BENCH_GAUSS);

	/*
	 * The seeds' point: hot page selection cuts promotion traffic, and
	 * serves at least as many accesses from the fast tier.
	 */
	KUNIT_EXPECT_LT(test, res[BENCH_AUTOADJUST].promoted,
			res[BENCH_BASE].promoted);
	KUNIT_EXPECT_GE(test, res[BENCH_AUTOADJUST].fast_hits,
			res[BENCH_BASE].fast_hits);
	KUNIT_EXPECT_LT(test, res[BENCH_THRESHOLD].promoted,
			res[BENCH_BASE].promoted);
}

static void memtier_bench_zipf(struct kunit *test)
{
	struct bench_result *res = bench_workload(test, BENCH_ZIPF);

	KUNIT_EXPECT_LT(test, res[BENCH_AUTOADJUST].promoted,
			res[BENCH_BASE].promoted);
}

static void memtier_bench_hotmove(struct kunit *test)
{
	struct bench_result *res = bench_workload(test, BENCH_HOTMOVE);
	int pol;

	/* Every policy finds the new hot set. */
	for (pol = 0; pol < NR_BENCH_POLICIES; pol++)
		KUNIT_EXPECT_GE_MSG(test, res[pol].settle_ms, 0,
				    "hotmove: %s never settles",
				    bench_policy_names[pol]);
	/* The oracle migrates at once: it settles in the first bucket. */
	KUNIT_EXPECT_EQ(test, res[BENCH_ORACLE].settle_ms, BENCH_BUCKET_MS);
}

static void memtier_bench_uniform(struct kunit *test)
{
	struct bench_result *res = bench_workload(test, BENCH_UNIFORM);

	/* No page is hotter than another: promotion gains nothing. */
	KUNIT_EXPECT_EQ(test, res[BENCH_ORACLE].promoted, 0ul);
	KUNIT_EXPECT_LT(test, res[BENCH_AUTOADJUST].promoted,
			res[BENCH_BASE].promoted);
}

/* Same seed, same trace, same decisions: the numbers can be compared. */
static void memtier_bench_reproducible(struct kunit *test)
{
	const struct bench_workload *wl = &bench_workloads[BENCH_HOTMOVE];
	struct bench_trace *a = bench_trace_build(test, wl);
	struct bench_trace *b = bench_trace_build(test, wl);
	struct bench_sim *x, *y;

	KUNIT_EXPECT_EQ(test, memcmp(a->page, b->page,
				     BENCH_NR_ACCESSES * sizeof(*a->page)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(a->oracle, b->oracle, sizeof(a->oracle)),
			0);

	x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, x);
	y = kunit_kzalloc(test, sizeof(*y), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, y);
	bench_run(x, a, BENCH_AUTOADJUST);
	bench_run(y, b, BENCH_AUTOADJUST);
	KUNIT_EXPECT_EQ(test, x->nr_promoted, y->nr_promoted);
	KUNIT_EXPECT_EQ(test, x->nr_demoted, y->nr_demoted);
	KUNIT_EXPECT_EQ(test, memcmp(x->fast, y->fast, sizeof(x->fast)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(x->promo, y->promo, sizeof(x->promo)), 0);
	/* The run did something worth reproducing. */
	KUNIT_EXPECT_GT(test, x->nr_promoted, 0ul);
}

static struct kunit_case memtier_bench_cases[] = {
	KUNIT_CASE_SLOW(memtier_bench_gauss),
	KUNIT_CASE_SLOW(memtier_bench_zipf),
	KUNIT_CASE_SLOW(memtier_bench_hotmove),
	KUNIT_CASE_SLOW(memtier_bench_uniform),
	KUNIT_CASE_SLOW(memtier_bench_reproducible),
	{}
};

static struct kunit_suite memtier_bench_suite = {
	.name = "memtier_bench",
	.test_cases = memtier_bench_cases,
};

kunit_test_suite(memtier_bench_suite);
