/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memtier: hot page selection for NUMA balancing memory tiering mode.
 *
 * A page in a lower tier is promoted when its hint-fault latency (the
 * time from the scan that made it inaccessible to the first access
 * after it) is below a hot threshold, within a per-node promotion rate
 * limit; the threshold adjusts itself so that the candidates match the
 * rate limit.  When the target node has plenty of free memory, every
 * faulting page is promoted.
 *
 * Time is a 32-bit millisecond clock (jiffies_to_msecs(jiffies) in the
 * kernel) passed in by the caller; every comparison on it is wrap-safe.
 */
#ifndef _LINUX_MEMTIER_PROMOTE_H
#define _LINUX_MEMTIER_PROMOTE_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/limits.h>
#include <linux/memtier_promote_types.h>
#include <linux/minmax.h>
#include <linux/sched/sysctl.h>
#include <linux/types.h>

/* Mainline's defaults. */
#define MEMTIER_HOT_THRESHOLD_DEFAULT_MS	1000
#define MEMTIER_RATE_LIMIT_DEFAULT_MBPS		65536
#define MEMTIER_THRESHOLD_ADJUST_STEPS		16

/* The access time field holds at least 4 s (2^12 ms) of history. */
#define MEMTIER_ACCESS_TIME_MIN_BITS		12
#define MEMTIER_RATELIMIT_WINDOW_MS		1000
/* Adjustment periods longer than this are taken as this (24.8 days). */
#define MEMTIER_THRESHOLD_PERIOD_MAX_MS		((unsigned int)S32_MAX)

/* ---------------------------------------------------------------------
 * Access time and hint-fault latency
 *
 * In tiering mode a lower-tier folio's last_cpupid bits hold the time of
 * the scan that made it inaccessible, in milliseconds.  When the field is
 * narrower than MEMTIER_ACCESS_TIME_MIN_BITS, the time is coarsened into
 * buckets of 2^(MIN_BITS - bits) ms so that the field still spans about
 * 4 seconds.  The latency is a masked subtraction, so it stays right when
 * the clock or the field wraps, for latencies below the span.  Inline:
 * the scan stores a time in every PTE it makes inaccessible.
 */

/**
 * memtier_access_time_buckets() - how many low time bits are dropped
 * @bits: the width of the last_cpupid field, 1 to 31 (LAST_CPUPID_SHIFT).
 *
 * Return: log2 of the bucket size in ms; 0 when @bits >= 12.
 */
static inline unsigned int memtier_access_time_buckets(unsigned int bits)
{
	if (bits >= MEMTIER_ACCESS_TIME_MIN_BITS)
		return 0;
	return MEMTIER_ACCESS_TIME_MIN_BITS - bits;
}

/**
 * memtier_access_time_mask() - the time bits the field can represent
 * @bits: the width of the last_cpupid field, 1 to 31.
 *
 * Return: @bits ones, shifted left by the bucket size.
 */
static inline unsigned int memtier_access_time_mask(unsigned int bits)
{
	unsigned int buckets = memtier_access_time_buckets(bits);

	return GENMASK(bits + buckets - 1, buckets);
}

/**
 * memtier_access_time_encode() - the field value recording a time
 * @now_ms: the time of the scan, in ms.
 * @bits: the width of the last_cpupid field, 1 to 31.
 *
 * Return: the value to store with folio_xchg_last_cpupid().
 */
static inline unsigned int memtier_access_time_encode(unsigned int now_ms,
						      unsigned int bits)
{
	return (now_ms >> memtier_access_time_buckets(bits)) &
	       (unsigned int)GENMASK(bits - 1, 0);
}

/**
 * memtier_hint_fault_latency() - time from scan to hint fault
 * @now_ms: the time of the hint fault, in ms.
 * @field: the field value stored at scan time.
 * @bits: the width of the last_cpupid field, 1 to 31.
 *
 * The result is in whole buckets, and modulo the field's span: a page
 * scanned longer ago than the span can look recent, as in mainline.
 *
 * Return: the latency in ms.
 */
static inline unsigned int memtier_hint_fault_latency(unsigned int now_ms,
						      unsigned int field,
						      unsigned int bits)
{
	unsigned int last = field << memtier_access_time_buckets(bits);

	return (now_ms - last) & memtier_access_time_mask(bits);
}

/*
 * The field as the kernel lays it out: the time in the low @bits - 1
 * bits, and above it one bit that is clear when the page's last hint
 * fault was hot, which the %MEMTIER_HOT_REPEAT policy reads.  Clear
 * rather than set, because a new folio's field and that of a folio
 * migrated between tiers are all ones (page_cpupid_reset_last(),
 * folio_migrate_flags()): neither has a hot fault behind it.
 */

/**
 * memtier_access_field_hot() - was the page's last hint fault hot?
 * @field: the last_cpupid field.
 * @bits: its width, 2 to 31 (LAST_CPUPID_SHIFT).
 *
 * Return: true when the fault that last wrote @field was hot.
 */
static inline bool memtier_access_field_hot(unsigned int field,
					    unsigned int bits)
{
	return !(field & BIT(bits - 1));
}

/**
 * memtier_access_field_scan() - the field after a scan
 * @field: the field before the scan.
 * @now_ms: the time of the scan.
 * @bits: the width of the field, 2 to 31.
 *
 * The scan that makes the page inaccessible records its time and keeps
 * what the last hint fault left.
 *
 * Return: the value to store with folio_xchg_last_cpupid().
 */
static inline unsigned int memtier_access_field_scan(unsigned int field,
						     unsigned int now_ms,
						     unsigned int bits)
{
	return memtier_access_time_encode(now_ms, bits - 1) |
	       (field & BIT(bits - 1));
}

/**
 * memtier_access_field_fault() - the field after a hint fault
 * @now_ms: the time of the fault.
 * @bits: the width of the field, 2 to 31.
 * @hot: the fault was hot (memtier_promote_reason_hot()).
 *
 * Return: the value to store with folio_xchg_last_cpupid().
 */
static inline unsigned int memtier_access_field_fault(unsigned int now_ms,
						      unsigned int bits,
						      bool hot)
{
	return memtier_access_time_encode(now_ms, bits - 1) |
	       (hot ? 0 : BIT(bits - 1));
}

/**
 * memtier_access_field_time() - the time a field records
 * @field: the field.
 * @bits: its width, 2 to 31.
 *
 * Return: the time in ms, modulo the field's span, rounded down to its
 * buckets.
 */
static inline unsigned int memtier_access_field_time(unsigned int field,
						     unsigned int bits)
{
	return (field & (unsigned int)GENMASK(bits - 2, 0)) <<
	       memtier_access_time_buckets(bits - 1);
}

/**
 * memtier_access_field_latency() - time from the scan to a hint fault
 * @now_ms: the time of the hint fault.
 * @field: the field, as the scan left it.
 * @bits: its width, 2 to 31.
 *
 * Return: memtier_hint_fault_latency() of the field's time.
 */
static inline unsigned int memtier_access_field_latency(unsigned int now_ms,
							unsigned int field,
							unsigned int bits)
{
	return memtier_hint_fault_latency(now_ms,
					  field & (unsigned int)GENMASK(bits - 2, 0),
					  bits - 1);
}

/* ---------------------------------------------------------------------
 * Free-space bypass (free_space.c)
 */

unsigned long memtier_free_space_margin(unsigned long present_pages,
					unsigned int page_shift);

/* ---------------------------------------------------------------------
 * Promotion rate limit (ratelimit.c)
 */

/**
 * memtier_mbps_to_pages() - a rate limit in pages per second
 * @mbps: the sysctl value in MB/s; 0 lets no candidate through, as in
 *	mainline.
 * @page_shift: PAGE_SHIFT.
 *
 * Computed in 64 bits: mainline's `rate_limit << (20 - PAGE_SHIFT)` on
 * an unsigned int overflowed for limits of 16 TB/s and more.
 *
 * Return: pages per second.
 */
static inline u64 memtier_mbps_to_pages(unsigned int mbps,
					unsigned int page_shift)
{
	return (u64)mbps << 20 >> page_shift;
}

bool memtier_ratelimit_open_window(struct memtier_ratelimit *rl,
				   unsigned int now_ms, unsigned int start,
				   unsigned long nr_cand, unsigned long nr);

/**
 * memtier_ratelimit_allow() - may these candidates be promoted now?
 * @rl: the target node's window.
 * @now_ms: the time of the fault.
 * @nr_cand: the node's candidate count, @nr included.
 * @nr: the candidate pages of this fault.
 * @limit_pages: pages per window, from memtier_mbps_to_pages().
 *
 * A window is MEMTIER_RATELIMIT_WINDOW_MS long; the first call at least
 * that long after the window began starts a new one.  Clock wrap is
 * harmless: only differences of times are used.  Inline, as every hot
 * hint fault asks; a window opens out of line.
 *
 * Context: any; concurrent callers for one node are safe.
 * Return: true for the candidate that starts a window, and while the
 * window's candidates, @nr included, are at most @limit_pages; false
 * always for a limit of 0.
 */
static inline bool memtier_ratelimit_allow(struct memtier_ratelimit *rl,
					   unsigned int now_ms,
					   unsigned long nr_cand,
					   unsigned long nr, u64 limit_pages)
{
	unsigned int start = READ_ONCE(rl->window_start_ms);
	unsigned long in_window;

	/*
	 * As mainline, 0 lets nothing through: not even a fault that read
	 * its count before another moved the window past it.
	 */
	if (!limit_pages)
		return false;
	if (now_ms - start >= MEMTIER_RATELIMIT_WINDOW_MS &&
	    memtier_ratelimit_open_window(rl, now_ms, start, nr_cand, nr))
		return true;

	/*
	 * The count may lag behind the window's base (a vmstat counter read
	 * without the CPUs' pending deltas): at or below the base, the
	 * candidate is one of the window's first, not 2^64 pages past it.
	 */
	in_window = nr_cand - READ_ONCE(rl->window_start_cand);
	return (long)in_window <= 0 || in_window <= limit_pages;
}

/* ---------------------------------------------------------------------
 * Hot threshold auto-adjustment (threshold.c)
 */

/* The three below are inline: each hint fault reads the threshold. */

/**
 * memtier_threshold_unit() - one adjustment step
 * @ref_ms: the reference threshold.
 *
 * Return: 2 * @ref_ms / MEMTIER_THRESHOLD_ADJUST_STEPS, at least 1 ms.
 */
static inline unsigned int memtier_threshold_unit(unsigned int ref_ms)
{
	/* 2 * ref / steps, without the doubling that could overflow. */
	unsigned int unit = ref_ms / (MEMTIER_THRESHOLD_ADJUST_STEPS / 2);

	return unit ? unit : 1;
}

/**
 * memtier_threshold_max() - the highest adjusted threshold
 * @ref_ms: the reference threshold.
 *
 * Return: 2 * @ref_ms, saturated at UINT_MAX.
 */
static inline unsigned int memtier_threshold_max(unsigned int ref_ms)
{
	return min_t(u64, (u64)ref_ms * 2, UINT_MAX);
}

/**
 * memtier_threshold_current() - the threshold in force
 * @th: the node's threshold state.
 * @ref_ms: the reference threshold.
 *
 * An adjusted value is kept within the bounds of the current @ref_ms, so
 * that changing the knob takes effect at once.
 *
 * Return: the adjusted threshold, or @ref_ms when none is set.
 */
static inline unsigned int
memtier_threshold_current(const struct memtier_threshold *th,
			  unsigned int ref_ms)
{
	unsigned int cur = READ_ONCE(th->threshold_ms);

	if (!cur)
		return ref_ms;
	return clamp(cur, memtier_threshold_unit(ref_ms),
		     memtier_threshold_max(ref_ms));
}

void memtier_threshold_reset(struct memtier_threshold *th,
			     unsigned int now_ms, unsigned long nr_cand);
bool memtier_threshold_end_period(struct memtier_threshold *th,
				  unsigned int now_ms, unsigned int start,
				  unsigned long nr_cand, u64 limit_pages,
				  unsigned int ref_ms, unsigned int period_ms);

/**
 * memtier_threshold_adjust() - adjust once per period
 * @th: the node's threshold state.
 * @now_ms: the time.
 * @nr_cand: the node's candidate count now.
 * @limit_pages: the rate limit in pages per second.
 * @ref_ms: the reference threshold, the hot_threshold_ms knob (not 0).
 * @period_ms: the adjustment period (scan_period_max); at most
 *	MEMTIER_THRESHOLD_PERIOD_MAX_MS is used, so that a huge value
 *	still lets a period end.
 *
 * Inline, as every hint fault asks; a period ends out of line.
 *
 * Context: any; of concurrent callers one adjusts, the others return.
 * Return: true when this call ended a period and adjusted.
 */
static inline bool memtier_threshold_adjust(struct memtier_threshold *th,
					    unsigned int now_ms,
					    unsigned long nr_cand,
					    u64 limit_pages,
					    unsigned int ref_ms,
					    unsigned int period_ms)
{
	unsigned int start = READ_ONCE(th->period_start_ms);

	period_ms = min(period_ms, MEMTIER_THRESHOLD_PERIOD_MAX_MS);
	if (now_ms - start <= period_ms)
		return false;
	return memtier_threshold_end_period(th, now_ms, start, nr_cand,
					    limit_pages, ref_ms, period_ms);
}

/* ---------------------------------------------------------------------
 * The decision for one hint fault (promote.c)
 */

/**
 * enum memtier_promote_reason - why a hint fault did or did not promote
 * @MEMTIER_PROMOTE_TIERING_OFF: not promoted: tiering mode is off (it
 *	was switched off after the caller checked it); nothing is counted.
 * @MEMTIER_PROMOTE_BYPASS: promoted: the target node has free space to
 *	spare, so no threshold or rate limit applies.
 * @MEMTIER_PROMOTE_HOT: promoted: hot and within the rate limit.
 * @MEMTIER_PROMOTE_COLD: not promoted: latency at or above the threshold.
 * @MEMTIER_PROMOTE_RATELIMITED: not promoted: hot, over the rate limit.
 * @MEMTIER_PROMOTE_FIRST_HOT: not promoted: hot, but the policy is
 *	%MEMTIER_HOT_REPEAT and the page's previous hint fault was not.
 * @NR_MEMTIER_PROMOTE_REASONS: the number of reasons.
 */
enum memtier_promote_reason {
	MEMTIER_PROMOTE_TIERING_OFF,
	MEMTIER_PROMOTE_BYPASS,
	MEMTIER_PROMOTE_HOT,
	MEMTIER_PROMOTE_COLD,
	MEMTIER_PROMOTE_RATELIMITED,
	MEMTIER_PROMOTE_FIRST_HOT,
	NR_MEMTIER_PROMOTE_REASONS
};

/**
 * enum memtier_promote_counter - what a decision adds its pages to
 * @MEMTIER_PROMOTE_COUNT_NONE: nothing.
 * @MEMTIER_PROMOTE_COUNT_CANDIDATE: the candidates the rate limit and the
 *	threshold adjustment count (vmstat pgpromote_candidate).
 * @MEMTIER_PROMOTE_COUNT_CANDIDATE_NRL: the pages the free-space bypass
 *	promotes, not rate limited (vmstat pgpromote_candidate_nrl).
 */
enum memtier_promote_counter {
	MEMTIER_PROMOTE_COUNT_NONE,
	MEMTIER_PROMOTE_COUNT_CANDIDATE,
	MEMTIER_PROMOTE_COUNT_CANDIDATE_NRL,
};

/**
 * enum memtier_hot_policy - which hint faults find a page hot
 * @MEMTIER_HOT_LATENCY: one, with a latency below the threshold; the
 *	mainline policy.
 * @MEMTIER_HOT_REPEAT: two in a row, each with a latency below the
 *	threshold: a page touched once after a scan, as a sequential pass
 *	touches it, is not promoted, and fewer candidates compete for the
 *	rate limit.
 * @NR_MEMTIER_HOT_POLICIES: the number of policies.
 */
enum memtier_hot_policy {
	MEMTIER_HOT_LATENCY,
	MEMTIER_HOT_REPEAT,
	NR_MEMTIER_HOT_POLICIES
};

/**
 * struct memtier_promote_tunables - the administrator's knobs
 * @hot_threshold_ms: debugfs numa_balancing/hot_threshold_ms; 0 finds
 *	no page hot.
 * @rate_limit_mbps: sysctl numa_balancing_promote_rate_limit_MBps; 0
 *	lets no candidate through.
 * @scan_period_max_ms: numa_balancing/scan_period_max_ms, the
 *	threshold adjustment period.
 * @page_shift: PAGE_SHIFT.
 * @hot_policy: debugfs numa_balancing/hot_page_policy, an
 *	enum memtier_hot_policy; any other value is %MEMTIER_HOT_LATENCY.
 */
struct memtier_promote_tunables {
	unsigned int hot_threshold_ms;
	unsigned int rate_limit_mbps;
	unsigned int scan_period_max_ms;
	unsigned int page_shift;
	unsigned int hot_policy;
};

/**
 * struct memtier_hint_fault - one hint fault, as the fault path sees it
 * @mode: sysctl numa_balancing, NUMA_BALANCING_* bits.
 * @target_free_space_enough: a zone of the target node has
 *	memtier_free_space_margin() free pages above its promotion
 *	watermark.
 * @now_ms: the time of the fault.
 * @latency_ms: memtier_access_field_latency() of the page.
 * @last_fault_hot: memtier_access_field_hot() of the page.
 * @nr_pages: the folio's pages.
 * @nr_cand: the target node's candidate count before this fault, what
 *	%MEMTIER_PROMOTE_COUNT_CANDIDATE has counted so far.
 *
 * @latency_ms, @last_fault_hot and @nr_cand are read only in tiering
 * mode and when @target_free_space_enough is false: a free-space
 * promotion needs none of them, and the caller need not compute them.
 */
struct memtier_hint_fault {
	unsigned int mode;
	bool target_free_space_enough;
	unsigned int now_ms;
	unsigned int latency_ms;
	bool last_fault_hot;
	unsigned long nr_pages;
	unsigned long nr_cand;
};

void memtier_promote_tiering_enabled(struct memtier_promote_state *state,
				     unsigned int now_ms, unsigned long nr_cand);

/**
 * memtier_promote_decide() - promote the page of this hint fault?
 * @state: the target node's state; updated.
 * @fault: the fault.
 * @tun: the knobs.
 *
 * Inline, so that the fault path's knobs and fault stay in registers.
 *
 * Context: the NUMA hint fault path; lockless.
 * Return: the reason; memtier_promote_reason_migrates() tells whether
 * it means "promote", memtier_promote_reason_counter() where the
 * caller counts the folio's pages.
 */
static inline enum memtier_promote_reason
memtier_promote_decide(struct memtier_promote_state *state,
		       const struct memtier_hint_fault *fault,
		       const struct memtier_promote_tunables *tun)
{
	unsigned int ref;
	u64 limit;

	/*
	 * The caller saw tiering mode on, but the sysctl may have changed
	 * since: without it, nothing is decided, counted or reset here.
	 */
	if (!(fault->mode & NUMA_BALANCING_MEMORY_TIERING))
		return MEMTIER_PROMOTE_TIERING_OFF;
	if (fault->target_free_space_enough) {
		/*
		 * The workload changed: the threshold learns anew, as in
		 * mainline, but its period runs on; restarting it at every
		 * bypass would keep it from ever ending.
		 */
		WRITE_ONCE(state->th.threshold_ms, 0);
		return MEMTIER_PROMOTE_BYPASS;
	}

	/*
	 * A threshold of 0 ms finds no page hot, whatever was adjusted
	 * before (mainline kept an earlier adjusted value in force).
	 */
	ref = tun->hot_threshold_ms;
	if (!ref)
		return MEMTIER_PROMOTE_COLD;
	limit = memtier_mbps_to_pages(tun->rate_limit_mbps, tun->page_shift);
	memtier_threshold_adjust(&state->th, fault->now_ms, fault->nr_cand,
				 limit, ref, tun->scan_period_max_ms);
	if (fault->latency_ms >= memtier_threshold_current(&state->th, ref))
		return MEMTIER_PROMOTE_COLD;
	/*
	 * One hot fault may be a single pass over the page: remembered, not
	 * yet a candidate, so that it does not use up the rate limit.
	 */
	if (tun->hot_policy == MEMTIER_HOT_REPEAT && !fault->last_fault_hot)
		return MEMTIER_PROMOTE_FIRST_HOT;

	/* A hot page counts as a candidate, whether or not it passes. */
	if (!memtier_ratelimit_allow(&state->rl, fault->now_ms,
				     fault->nr_cand + fault->nr_pages,
				     fault->nr_pages, limit))
		return MEMTIER_PROMOTE_RATELIMITED;
	return MEMTIER_PROMOTE_HOT;
}

int memtier_hot_policy_parse(const char *buf);
const char *memtier_hot_policy_name(unsigned int policy);

/* Inline, as the fault path acts on each decision with these three. */

/**
 * memtier_promote_reason_migrates() - does the reason mean "promote"?
 * @reason: a result of memtier_promote_decide().
 *
 * Return: true for %MEMTIER_PROMOTE_BYPASS and %MEMTIER_PROMOTE_HOT.
 */
static inline bool
memtier_promote_reason_migrates(enum memtier_promote_reason reason)
{
	return reason == MEMTIER_PROMOTE_BYPASS ||
	       reason == MEMTIER_PROMOTE_HOT;
}

/**
 * memtier_promote_reason_counter() - where a decision is counted
 * @reason: a result of memtier_promote_decide().
 *
 * A hot page is a candidate whether or not the rate limit lets it
 * through, as mainline counts pgpromote_candidate; a free-space bypass
 * is counted apart, since the rate limit does not apply to it; nothing
 * else is counted.  The candidate count is the input the rate limit and
 * the threshold adjustment read back (&memtier_hint_fault.nr_cand).
 *
 * Return: the counter for the folio's pages.
 */
static inline enum memtier_promote_counter
memtier_promote_reason_counter(enum memtier_promote_reason reason)
{
	switch (reason) {
	case MEMTIER_PROMOTE_HOT:
	case MEMTIER_PROMOTE_RATELIMITED:
		return MEMTIER_PROMOTE_COUNT_CANDIDATE;
	case MEMTIER_PROMOTE_BYPASS:
		return MEMTIER_PROMOTE_COUNT_CANDIDATE_NRL;
	default:
		return MEMTIER_PROMOTE_COUNT_NONE;
	}
}

/**
 * memtier_promote_reason_hot() - did the decision find the page hot?
 * @reason: a result of memtier_promote_decide().
 *
 * The caller records it in the page's field with
 * memtier_access_field_fault(), for %MEMTIER_HOT_REPEAT to read at the
 * next hint fault.
 *
 * Return: true for %MEMTIER_PROMOTE_HOT, %MEMTIER_PROMOTE_RATELIMITED and
 * %MEMTIER_PROMOTE_FIRST_HOT.
 */
static inline bool
memtier_promote_reason_hot(enum memtier_promote_reason reason)
{
	return reason == MEMTIER_PROMOTE_HOT ||
	       reason == MEMTIER_PROMOTE_RATELIMITED ||
	       reason == MEMTIER_PROMOTE_FIRST_HOT;
}

#endif /* _LINUX_MEMTIER_PROMOTE_H */
