// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_cost: what the promotion decision costs per hint
 * fault, against 6.12's.
 *
 * A reference copy of 6.12's tiering branch of
 * should_numa_migrate_memory() (kernel/sched/fair.c: the latency from
 * the access time, numa_promotion_adjust_threshold() and
 * numa_promotion_rate_limit()), kept here apart from the library, and
 * the library's decision as the fault path calls it run the same stream
 * of hint faults on one target node.  The library's fault path comes
 * twice: as the posted series has it (numa_tiering_promote(): 6.12's
 * latency, memtier_promote_decide(), the candidate counted), and as the
 * kernel with the %MEMTIER_HOT_REPEAT policy has it, where the access
 * field is read, decoded and written back with the fault's hot bit.
 * What the kernel does around them the same way in both (the free-space
 * check, jiffies_to_msecs(), the exchange of the folio's field, the
 * vmstat counter) is done here by the same functions on both sides, so
 * that the difference is the decision's.
 *
 * memtier_cost_same_decisions checks that both decide alike, so that
 * the timing compares equal work: the same adjusted threshold and the
 * same candidate count after every fault, and the same outcome but at
 * a rate-limit window's first or last page, where the library's
 * windows differ from 6.12's by design (ratelimit.c).
 *
 * memtier_cost_per_fault (slow, for make microbench) times both,
 * alternately, and prints ns per fault; booted with QEMU's -icount
 * shift=0, a guest ns is one instruction, so the numbers are
 * instruction counts and their ratio is exact.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/memtier_promote.h>
#include <linux/minmax.h>
#include <linux/prandom.h>
#include <linux/sched/sysctl.h>
#include <linux/slab.h>
#include <linux/string.h>

/*
 * The last_cpupid field of Debian's amd64 kernel (MAXSMP: 13 CPU bits,
 * 8 PID bits): wide enough that 6.12's latency and the library's (one
 * bit fewer for time) are both exact to the ms over the stream.
 */
#define COST_FIELD_BITS		21
#define COST_REF_TIME_MASK	((1u << COST_FIELD_BITS) - 1)

/* The stream: 8192 faults over about 10 s, one page each. */
#define COST_FAULTS		8192
#define COST_START_MS		100000
#define COST_SPAN_MS		10000
#define COST_ROUNDS		7

/*
 * The knobs, read by both sides from memory as the kernel reads its
 * sysctls (set by cost_stream_new(), so that the compiler cannot fold
 * them into constants).
 */
static unsigned int cost_hot_threshold;
static unsigned int cost_rate_limit_mbps;
static unsigned int cost_scan_period_max;
static unsigned int cost_mode;
static unsigned int cost_hot_policy;

/* The fault's time and the target's free space, set before each call. */
static unsigned long cost_jiffies;
static bool cost_free;

/**
 * struct cost_node - one target node, as each kernel keeps it
 * @nbp_rl_start: 6.12's pgdat->nbp_rl_start.
 * @nbp_rl_nr_cand: 6.12's pgdat->nbp_rl_nr_cand.
 * @nbp_threshold: 6.12's pgdat->nbp_threshold.
 * @nbp_th_start: 6.12's pgdat->nbp_th_start.
 * @nbp_th_nr_cand: 6.12's pgdat->nbp_th_nr_cand.
 * @state: the library's per node state.
 * @cand: the node's pgpromote_candidate.
 * @cand_nrl: the node's pgpromote_candidate_nrl (the library's).
 */
struct cost_node {
	unsigned int nbp_rl_start;
	unsigned long nbp_rl_nr_cand;
	unsigned int nbp_threshold;
	unsigned int nbp_th_start;
	unsigned long nbp_th_nr_cand;
	struct memtier_promote_state state;
	atomic_long_t cand;
	atomic_long_t cand_nrl;
};

/* pgdat_free_space_enough(): out of line in both kernels. */
static noinline bool cost_free_space_enough(struct cost_node *node)
{
	return READ_ONCE(cost_free);
}

/* node_page_state() on SMP: a negative sum of pending deltas reads 0. */
static unsigned long cost_node_page_state(atomic_long_t *counter)
{
	long x = atomic_long_read(counter);

	return x < 0 ? 0 : x;
}

/*
 * --- 6.12, kernel/sched/fair.c, with pgdat and the folio replaced ---
 *
 * Each helper is called once in fair.c, so the compiler inlines it into
 * should_numa_migrate_memory(); here two deciders call them, hence
 * __always_inline, so that 6.12's copy is compiled as fair.c is.
 */

static __always_inline int ref_hint_fault_latency(unsigned int *field)
{
	int last_time, time;

	time = jiffies_to_msecs(READ_ONCE(cost_jiffies));
	last_time = xchg(field, time & COST_REF_TIME_MASK);

	return (time - last_time) & COST_REF_TIME_MASK;
}

/*
 * @at_1000ms: open a window 1000 ms after the last, as the library does,
 * rather than after more than 1000 ms; a constant, so that 6.12's own
 * copy (false) compiles to 6.12's code.
 */
static __always_inline bool ref_rate_limit(struct cost_node *pgdat,
					   unsigned long rate_limit, int nr,
					   const bool at_1000ms)
{
	unsigned long nr_cand;
	unsigned int now, start;

	now = jiffies_to_msecs(READ_ONCE(cost_jiffies));
	atomic_long_add(nr, &pgdat->cand);
	nr_cand = cost_node_page_state(&pgdat->cand);
	start = pgdat->nbp_rl_start;
	if ((at_1000ms ? now - start >= MSEC_PER_SEC :
			 now - start > MSEC_PER_SEC) &&
	    cmpxchg(&pgdat->nbp_rl_start, start, now) == start)
		pgdat->nbp_rl_nr_cand = nr_cand;
	if (nr_cand - pgdat->nbp_rl_nr_cand >= rate_limit)
		return true;
	return false;
}

#define REF_ADJUST_STEPS	16

static __always_inline void ref_adjust_threshold(struct cost_node *pgdat,
						 unsigned long rate_limit,
						 unsigned int ref_th)
{
	unsigned int now, start, th_period, unit_th, th;
	unsigned long nr_cand, ref_cand, diff_cand;

	now = jiffies_to_msecs(READ_ONCE(cost_jiffies));
	th_period = cost_scan_period_max;
	start = pgdat->nbp_th_start;
	if (now - start > th_period &&
	    cmpxchg(&pgdat->nbp_th_start, start, now) == start) {
		ref_cand = rate_limit * cost_scan_period_max / MSEC_PER_SEC;
		nr_cand = cost_node_page_state(&pgdat->cand);
		diff_cand = nr_cand - pgdat->nbp_th_nr_cand;
		unit_th = ref_th * 2 / REF_ADJUST_STEPS;
		th = pgdat->nbp_threshold ? : ref_th;
		if (diff_cand > ref_cand * 11 / 10)
			th = max(th - unit_th, unit_th);
		else if (diff_cand < ref_cand * 9 / 10)
			th = min(th + unit_th, ref_th * 2);
		pgdat->nbp_th_nr_cand = nr_cand;
		pgdat->nbp_threshold = th;
	}
}

/* The tiering branch of should_numa_migrate_memory(). */
static __always_inline bool ref_decide(struct cost_node *pgdat,
				       unsigned int *field, int nr_pages,
				       const bool at_1000ms)
{
	unsigned long rate_limit;
	unsigned int latency, th, def_th;

	if (cost_free_space_enough(pgdat)) {
		/* workload changed, reset hot threshold */
		pgdat->nbp_threshold = 0;
		return true;
	}

	def_th = cost_hot_threshold;
	rate_limit = cost_rate_limit_mbps << (20 - PAGE_SHIFT);
	ref_adjust_threshold(pgdat, rate_limit, def_th);

	th = pgdat->nbp_threshold ? : def_th;
	latency = ref_hint_fault_latency(field);
	if (latency >= th)
		return false;

	return !ref_rate_limit(pgdat, rate_limit, nr_pages, at_1000ms);
}

static noinline bool ref_fault(struct cost_node *pgdat, unsigned int *field,
			       int nr_pages)
{
	return ref_decide(pgdat, field, nr_pages, false);
}

/* 6.12 with the library's rate-limit windows. */
static noinline bool ref_fault_at_1000ms(struct cost_node *pgdat,
					 unsigned int *field, int nr_pages)
{
	return ref_decide(pgdat, field, nr_pages, true);
}

/* --- the library, as the posted numa_tiering_promote() calls it --- */

/*
 * The posted fault path converts the time once and reads the knobs after
 * the free-space test (numa_tiering_decide()), as 6.12 does.
 */
/* The folio's pages added to the counter the reason names. */
static __always_inline void lib_count(struct cost_node *node,
				      enum memtier_promote_reason reason,
				      int nr_pages)
{
	enum memtier_promote_counter counter;

	counter = memtier_promote_reason_counter(reason);
	if (counter == MEMTIER_PROMOTE_COUNT_CANDIDATE)
		atomic_long_add(nr_pages, &node->cand);
	else if (counter == MEMTIER_PROMOTE_COUNT_CANDIDATE_NRL)
		atomic_long_add(nr_pages, &node->cand_nrl);
}

/* The knobs, read once the free-space test is behind. */
static __always_inline enum memtier_promote_reason
lib_decide_knobs(struct cost_node *node, const struct memtier_hint_fault *fault)
{
	/* The posted series has no policy knob: mainline's rule. */
	const struct memtier_promote_tunables tun = {
		.hot_threshold_ms = cost_hot_threshold,
		.rate_limit_mbps = cost_rate_limit_mbps,
		.scan_period_max_ms = cost_scan_period_max,
		.page_shift = PAGE_SHIFT,
	};

	return memtier_promote_decide(&node->state, fault, &tun);
}

static __always_inline enum memtier_promote_reason
lib_decide(struct cost_node *node, unsigned int *field, int nr_pages)
{
	struct memtier_hint_fault fault = {
		.mode = cost_mode,
		.nr_pages = nr_pages,
	};
	enum memtier_promote_reason reason;
	unsigned int last;

	fault.target_free_space_enough = cost_free_space_enough(node);
	fault.now_ms = jiffies_to_msecs(READ_ONCE(cost_jiffies));
	if (!fault.target_free_space_enough) {
		last = xchg(field, fault.now_ms & COST_REF_TIME_MASK);
		fault.latency_ms = (fault.now_ms - last) & COST_REF_TIME_MASK;
		fault.nr_cand = cost_node_page_state(&node->cand);
	}
	reason = lib_decide_knobs(node, &fault);
	lib_count(node, reason, nr_pages);
	return reason;
}

/* --- the library with the repeat policy's fault path --- */

static __always_inline enum memtier_promote_reason
lib_repeat_decide_knobs(struct cost_node *node,
			const struct memtier_hint_fault *fault)
{
	const struct memtier_promote_tunables tun = {
		.hot_threshold_ms = cost_hot_threshold,
		.rate_limit_mbps = cost_rate_limit_mbps,
		.scan_period_max_ms = cost_scan_period_max,
		.page_shift = PAGE_SHIFT,
		.hot_policy = READ_ONCE(cost_hot_policy),
	};

	return memtier_promote_decide(&node->state, fault, &tun);
}

static __always_inline enum memtier_promote_reason
lib_repeat_decide(struct cost_node *node, unsigned int *field, int nr_pages)
{
	struct memtier_hint_fault fault = {
		.mode = cost_mode,
		.nr_pages = nr_pages,
	};
	const unsigned int bits = COST_FIELD_BITS;
	unsigned int last = READ_ONCE(*field);
	enum memtier_promote_reason reason;

	fault.target_free_space_enough = cost_free_space_enough(node);
	fault.now_ms = jiffies_to_msecs(READ_ONCE(cost_jiffies));
	if (!fault.target_free_space_enough) {
		fault.latency_ms = memtier_access_field_latency(fault.now_ms,
								last, bits);
		fault.last_fault_hot = memtier_access_field_hot(last, bits);
		fault.nr_cand = cost_node_page_state(&node->cand);
	}
	reason = lib_repeat_decide_knobs(node, &fault);
	last = memtier_access_field_fault(fault.now_ms, bits,
					  memtier_promote_reason_hot(reason));
	xchg(field, last);
	lib_count(node, reason, nr_pages);
	return reason;
}

static noinline enum memtier_promote_reason
lib_fault(struct cost_node *node, unsigned int *field, int nr_pages)
{
	return lib_decide(node, field, nr_pages);
}

static noinline enum memtier_promote_reason
lib_repeat_fault(struct cost_node *node, unsigned int *field, int nr_pages)
{
	return lib_repeat_decide(node, field, nr_pages);
}

/* What the fault path returns, for the timing. */
static noinline bool lib_fault_bool(struct cost_node *node,
				    unsigned int *field, int nr_pages)
{
	return memtier_promote_reason_migrates(lib_decide(node, field,
							  nr_pages));
}

static noinline bool lib_repeat_fault_bool(struct cost_node *node,
					   unsigned int *field, int nr_pages)
{
	return memtier_promote_reason_migrates(lib_repeat_decide(node, field,
								 nr_pages));
}

/* The driver's own cost, subtracted from both. */
static noinline bool empty_fault(struct cost_node *node, unsigned int *field,
				 int nr_pages)
{
	return false;
}

/* --- the stream --- */

/**
 * struct cost_fault - one hint fault of the stream
 * @jiffies: its time.
 * @scan_ms: when the scan before it marked the page.
 * @free: the target node had free space to spare.
 */
struct cost_fault {
	unsigned long jiffies;
	unsigned int scan_ms;
	bool free;
};

/*
 * The deciders: 6.12, 6.12 with the library's windows, the library as
 * posted, the library with the repeat policy's access field.
 */
enum cost_side {
	COST_612, COST_612_AT_1000MS, COST_LIB, COST_LIB_REPEAT,
	NR_COST_SIDES
};

/**
 * struct cost_stream - the faults, and each decider's pages and node
 * @f: the faults, one page each.
 * @field: each page's last_cpupid field, in the decider's layout.
 * @node: the target node, as each decider keeps it.
 */
struct cost_stream {
	struct cost_fault f[COST_FAULTS];
	unsigned int field[NR_COST_SIDES][COST_FAULTS];
	struct cost_node node[NR_COST_SIDES];
};

/*
 * Faults about 1.2 ms apart, each on a page scanned 0 to 2 s before (so
 * that the threshold in force splits them), one in 16 with free space
 * to spare on the target.
 */
static struct cost_stream *cost_stream_new(struct kunit *test)
{
	struct cost_stream *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct rnd_state rs;
	unsigned int i, now;

	KUNIT_ASSERT_NOT_NULL(test, s);
	/*
	 * hot_threshold_ms 1000, 1 MB/s (256 pages a second, about half the
	 * stream's hot faults), a 1 s adjustment period: the rate limit
	 * binds and the threshold moves.
	 */
	WRITE_ONCE(cost_hot_threshold, 1000);
	WRITE_ONCE(cost_rate_limit_mbps, 1);
	WRITE_ONCE(cost_scan_period_max, 1000);
	WRITE_ONCE(cost_mode, NUMA_BALANCING_MEMORY_TIERING);
	WRITE_ONCE(cost_hot_policy, MEMTIER_HOT_LATENCY);
	prandom_seed_state(&rs, 0x636f7374);
	for (i = 0; i < COST_FAULTS; i++) {
		now = COST_START_MS + div_u64((u64)i * COST_SPAN_MS, COST_FAULTS);
		s->f[i].jiffies = msecs_to_jiffies(now);
		now = jiffies_to_msecs(s->f[i].jiffies);
		s->f[i].scan_ms = now - prandom_u32_state(&rs) % 2001;
		s->f[i].free = !(prandom_u32_state(&rs) % 16);
	}
	return s;
}

/* Every page as its scan left it, the node as tiering mode found it. */
static void cost_stream_reset(struct cost_stream *s, enum cost_side side)
{
	unsigned int i;

	for (i = 0; i < COST_FAULTS; i++)
		s->field[side][i] = side == COST_LIB_REPEAT ?
			memtier_access_field_scan(~0u, s->f[i].scan_ms,
						  COST_FIELD_BITS) :
			s->f[i].scan_ms & COST_REF_TIME_MASK;
	memset(&s->node[side], 0, sizeof(s->node[side]));
}

static void cost_set_fault(const struct cost_fault *f)
{
	WRITE_ONCE(cost_jiffies, f->jiffies);
	WRITE_ONCE(cost_free, f->free);
}

/*
 * Both decide every fault of the stream alike.  With 6.12's own rate
 * limit, the threshold each has in force and the candidates each has
 * counted are the same after every fault; the outcomes differ only in
 * which hot faults a window lets through, as 6.12 opens a window more
 * than 1000 ms after the last and the library 1000 ms after, so that
 * 6.12's windows drift later.  With that one comparison made as the
 * library makes it, every outcome is the same.
 */
static void memtier_cost_same_decisions(struct kunit *test)
{
	struct cost_stream *s = cost_stream_new(test);
	struct cost_node *ref = &s->node[COST_612];
	struct cost_node *ref_at = &s->node[COST_612_AT_1000MS];
	struct cost_node *lib = &s->node[COST_LIB];
	struct cost_node *rep = &s->node[COST_LIB_REPEAT];
	unsigned int promoted[NR_COST_SIDES] = {}, apart = 0;
	unsigned int bypass = 0, cold = 0, limited = 0, adjusted = 0;
	unsigned int i, last_th = 0;
	enum memtier_promote_reason r, r_rep;
	bool ref_p, ref_at_p, lib_p;

	cost_stream_reset(s, COST_612);
	cost_stream_reset(s, COST_612_AT_1000MS);
	cost_stream_reset(s, COST_LIB);
	cost_stream_reset(s, COST_LIB_REPEAT);
	for (i = 0; i < COST_FAULTS; i++) {
		cost_set_fault(&s->f[i]);
		ref_p = ref_fault(ref, &s->field[COST_612][i], 1);
		ref_at_p = ref_fault_at_1000ms(ref_at,
					       &s->field[COST_612_AT_1000MS][i], 1);
		r = lib_fault(lib, &s->field[COST_LIB][i], 1);
		r_rep = lib_repeat_fault(rep, &s->field[COST_LIB_REPEAT][i], 1);
		lib_p = memtier_promote_reason_migrates(r);
		/* The repeat policy's field changes nothing under latency. */
		KUNIT_ASSERT_EQ_MSG(test, r_rep, r, "fault %u: reason", i);
		KUNIT_ASSERT_EQ_MSG(test, atomic_long_read(&rep->cand),
				    atomic_long_read(&lib->cand),
				    "fault %u: candidates (repeat's field)", i);
		KUNIT_ASSERT_EQ_MSG(test, atomic_long_read(&lib->cand),
				    atomic_long_read(&ref->cand),
				    "fault %u: candidates", i);
		KUNIT_ASSERT_EQ_MSG(test, lib->state.th.threshold_ms,
				    ref->nbp_threshold, "fault %u: threshold", i);
		KUNIT_ASSERT_EQ_MSG(test, lib_p, ref_at_p,
				    "fault %u: promoted (reason %d)", i, r);
		/*
		 * All left the fault's time in the page, but where the page
		 * moves for free space: 6.12 leaves the scan's time there.
		 */
		if (r != MEMTIER_PROMOTE_BYPASS) {
			KUNIT_ASSERT_EQ_MSG(test,
					    memtier_access_field_time(s->field[COST_LIB_REPEAT][i],
								      COST_FIELD_BITS),
					    s->field[COST_612][i], "fault %u: field", i);
			KUNIT_ASSERT_EQ_MSG(test, s->field[COST_LIB][i],
					    s->field[COST_612][i], "fault %u: field", i);
		}
		promoted[COST_612] += ref_p;
		promoted[COST_612_AT_1000MS] += ref_at_p;
		promoted[COST_LIB] += lib_p;
		apart += ref_p != lib_p;
		bypass += r == MEMTIER_PROMOTE_BYPASS;
		cold += r == MEMTIER_PROMOTE_COLD;
		limited += r == MEMTIER_PROMOTE_RATELIMITED;
		adjusted += ref->nbp_threshold && ref->nbp_threshold != last_th;
		last_th = ref->nbp_threshold;
	}
	kunit_info(test, "%u faults: %u free-space, %u cold, %u rate limited; promoted: 6.12 %u (%u apart from the library), at 1000 ms %u, library %u; threshold moved %u times",
		   COST_FAULTS, bypass, cold, limited, promoted[COST_612], apart,
		   promoted[COST_612_AT_1000MS], promoted[COST_LIB], adjusted);
	/* The stream takes every branch, and the threshold moves. */
	KUNIT_EXPECT_GT(test, bypass, 0);
	KUNIT_EXPECT_GT(test, cold, 0);
	KUNIT_EXPECT_GT(test, limited, 0);
	KUNIT_EXPECT_GT(test, adjusted, 3);
}

typedef bool (*cost_fn)(struct cost_node *node, unsigned int *field,
			int nr_pages);

/* ns for the whole stream, the fields and node as the scan left them. */
static u64 cost_time(struct cost_stream *s, cost_fn fn, enum cost_side side)
{
	struct cost_node *node = &s->node[side];
	unsigned int *field = s->field[side];
	unsigned int i;
	u64 t0, t1;

	cost_stream_reset(s, side);
	t0 = ktime_get_ns();
	for (i = 0; i < COST_FAULTS; i++) {
		cost_set_fault(&s->f[i]);
		fn(node, &field[i], 1);
	}
	t1 = ktime_get_ns();
	return t1 - t0;
}

/* Hundredths of @num / @den, rounded. */
static u64 cost_hundredths(u64 num, u64 den)
{
	return den ? div64_u64(num * 100 + den / 2, den) : 0;
}

/*
 * The least of COST_ROUNDS runs of each, alternating, less the driver's
 * own loop (an empty decider): under -icount shift=0 a guest ns is an
 * instruction, and the least run is the one no interrupt landed in.
 */
static void memtier_cost_per_fault(struct kunit *test)
{
	struct cost_stream *s = cost_stream_new(test);
	u64 ref = U64_MAX, lib = U64_MAX, rep = U64_MAX, loop = U64_MAX;
	unsigned int round;

	for (round = 0; round < COST_ROUNDS; round++) {
		loop = min(loop, cost_time(s, empty_fault, COST_612));
		ref = min(ref, cost_time(s, ref_fault, COST_612));
		lib = min(lib, cost_time(s, lib_fault_bool, COST_LIB));
		rep = min(rep, cost_time(s, lib_repeat_fault_bool,
					 COST_LIB_REPEAT));
	}
	KUNIT_ASSERT_GT(test, ref, loop);
	KUNIT_ASSERT_GT(test, lib, loop);
	KUNIT_ASSERT_GT(test, rep, loop);
	kunit_info(test, "cost: ns per fault x100: 6.12 %llu library %llu loop %llu ratio x100 %llu repeat %llu ratio x100 %llu\n",
		   cost_hundredths(ref - loop, COST_FAULTS),
		   cost_hundredths(lib - loop, COST_FAULTS),
		   cost_hundredths(loop, COST_FAULTS),
		   cost_hundredths(lib - loop, ref - loop),
		   cost_hundredths(rep - loop, COST_FAULTS),
		   cost_hundredths(rep - loop, ref - loop));
}

static struct kunit_case memtier_cost_cases[] = {
	KUNIT_CASE(memtier_cost_same_decisions),
	KUNIT_CASE_SLOW(memtier_cost_per_fault),
	{}
};

static struct kunit_suite memtier_cost_suite = {
	.name = "memtier_cost",
	.test_cases = memtier_cost_cases,
};

kunit_test_suite(memtier_cost_suite);
