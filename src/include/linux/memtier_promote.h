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
#include <linux/limits.h>
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
 * Access time and hint-fault latency (access_time.c)
 */
unsigned int memtier_access_time_buckets(unsigned int bits);
unsigned int memtier_access_time_mask(unsigned int bits);
unsigned int memtier_access_time_encode(unsigned int now_ms,
					unsigned int bits);
unsigned int memtier_hint_fault_latency(unsigned int now_ms,
					unsigned int field, unsigned int bits);

/* ---------------------------------------------------------------------
 * Free-space bypass (free_space.c)
 */

/**
 * struct memtier_zone_free - one populated zone of the target node
 * @free_pages: its free pages.
 * @promo_wmark: its promotion watermark (WMARK_PROMO), plus whatever
 *	reserve the caller wants kept free on top of it.
 */
struct memtier_zone_free {
	unsigned long free_pages;
	unsigned long promo_wmark;
};

unsigned long memtier_free_space_margin(unsigned long present_pages,
					unsigned int page_shift);
bool memtier_free_space_enough(unsigned long present_pages,
			       const struct memtier_zone_free *zones,
			       unsigned int nr_zones, unsigned int page_shift);

/* ---------------------------------------------------------------------
 * Promotion rate limit (ratelimit.c)
 */

/**
 * struct memtier_ratelimit - one target node's rate-limit window
 * @window_start_ms: when the current 1 s window began.
 * @window_start_cand: the candidate count before the window's first
 *	candidate.
 */
struct memtier_ratelimit {
	unsigned int window_start_ms;
	unsigned long window_start_cand;
};

u64 memtier_mbps_to_pages(unsigned int mbps, unsigned int page_shift);
void memtier_ratelimit_init(struct memtier_ratelimit *rl, unsigned int now_ms,
			    unsigned long nr_cand);
bool memtier_ratelimit_allow(struct memtier_ratelimit *rl,
			     unsigned int now_ms, unsigned long nr_cand,
			     unsigned long nr, u64 limit_pages);

/* ---------------------------------------------------------------------
 * Hot threshold auto-adjustment (threshold.c)
 */

/**
 * struct memtier_threshold - one target node's adjusted hot threshold
 * @threshold_ms: the current threshold; 0 means "the reference".
 * @period_start_ms: when the current adjustment period began.
 * @period_start_cand: the candidate count when it began.
 */
struct memtier_threshold {
	unsigned int threshold_ms;
	unsigned int period_start_ms;
	unsigned long period_start_cand;
};

unsigned int memtier_threshold_unit(unsigned int ref_ms);
unsigned int memtier_threshold_max(unsigned int ref_ms);
unsigned int memtier_threshold_current(const struct memtier_threshold *th,
				       unsigned int ref_ms);
void memtier_threshold_reset(struct memtier_threshold *th,
			     unsigned int now_ms, unsigned long nr_cand);
bool memtier_threshold_adjust(struct memtier_threshold *th,
			      unsigned int now_ms, unsigned long nr_cand,
			      u64 limit_pages, unsigned int ref_ms,
			      unsigned int period_ms);

/* ---------------------------------------------------------------------
 * The decision for one hint fault (promote.c)
 */

/**
 * enum memtier_promote_reason - why a hint fault did or did not promote
 * @MEMTIER_PROMOTE_TIERING_OFF: a lower-tier page with tiering mode off:
 *	not migrated at all.
 * @MEMTIER_PROMOTE_TOPTIER: the page is in a top tier: not a promotion,
 *	the normal NUMA balancing placement applies.
 * @MEMTIER_PROMOTE_BYPASS: promoted: the target node has free space to
 *	spare, so no threshold or rate limit applies.
 * @MEMTIER_PROMOTE_HOT: promoted: hot and within the rate limit.
 * @MEMTIER_PROMOTE_COLD: not promoted: latency at or above the threshold.
 * @MEMTIER_PROMOTE_RATELIMITED: not promoted: hot, over the rate limit.
 * @NR_MEMTIER_PROMOTE_REASONS: the number of reasons.
 */
enum memtier_promote_reason {
	MEMTIER_PROMOTE_TIERING_OFF,
	MEMTIER_PROMOTE_TOPTIER,
	MEMTIER_PROMOTE_BYPASS,
	MEMTIER_PROMOTE_HOT,
	MEMTIER_PROMOTE_COLD,
	MEMTIER_PROMOTE_RATELIMITED,
	NR_MEMTIER_PROMOTE_REASONS
};

/**
 * struct memtier_promote_state - per target node promotion state
 * @nr_candidates: pages found hot and counted against the rate limit
 *	(pgpromote_candidate).
 * @nr_bypass: pages promoted through the free-space bypass, which the
 *	rate limit does not count (pgpromote_candidate_nrl).
 * @rl: the rate-limit window.
 * @th: the adjusted hot threshold.
 */
struct memtier_promote_state {
	atomic_long_t nr_candidates;
	atomic_long_t nr_bypass;
	struct memtier_ratelimit rl;
	struct memtier_threshold th;
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
 */
struct memtier_promote_tunables {
	unsigned int hot_threshold_ms;
	unsigned int rate_limit_mbps;
	unsigned int scan_period_max_ms;
	unsigned int page_shift;
};

/**
 * struct memtier_hint_fault - one hint fault, as the fault path sees it
 * @mode: sysctl numa_balancing, NUMA_BALANCING_* bits.
 * @src_toptier: the page's node is top tier.
 * @target_free_space_enough: memtier_free_space_enough() for the target.
 * @now_ms: the time of the fault.
 * @latency_ms: memtier_hint_fault_latency() of the page.
 * @nr_pages: the folio's pages.
 */
struct memtier_hint_fault {
	unsigned int mode;
	bool src_toptier;
	bool target_free_space_enough;
	unsigned int now_ms;
	unsigned int latency_ms;
	unsigned long nr_pages;
};

void memtier_promote_state_init(struct memtier_promote_state *state,
				unsigned int now_ms);
void memtier_promote_tiering_enabled(struct memtier_promote_state *state,
				     unsigned int now_ms);
enum memtier_promote_reason
memtier_promote_decide(struct memtier_promote_state *state,
		       const struct memtier_hint_fault *fault,
		       const struct memtier_promote_tunables *tun);
bool memtier_promote_reason_migrates(enum memtier_promote_reason reason);
const char *memtier_promote_reason_name(enum memtier_promote_reason reason);

#endif /* _LINUX_MEMTIER_PROMOTE_H */
