// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hot threshold auto-adjustment.
 *
 * Which threshold separates hot from cold depends on the workload and the
 * machine, so each target node adjusts its own: once per adjustment
 * period it compares the period's candidates with what the rate limit
 * lets through in a period.  Well over (110%), the threshold drops one
 * unit, selecting fewer and hotter pages; well under (90%), it rises one
 * unit.  The unit is 2 * ref / MEMTIER_THRESHOLD_ADJUST_STEPS and the
 * threshold stays within [unit, 2 * ref].
 *
 * All of it is computed so that no value a knob accepts overflows or
 * makes the controller stick: a unit of 0 (below 8 ms) would never move
 * the threshold, and a period that never ends would never adjust it.
 */
#include <kunit/visibility.h>
#include <linux/atomic.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/memtier_promote.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/time64.h>

/**
 * memtier_threshold_reset() - forget the adjustment, start a new period
 * @th: the node's threshold state.
 * @now_ms: the time.
 * @nr_cand: the node's candidate count now.
 *
 * Called when tiering mode is switched on: what was learnt no longer
 * describes the workload.  (A free-space bypass forgets only the
 * threshold; its period runs on.)
 */
void memtier_threshold_reset(struct memtier_threshold *th,
			     unsigned int now_ms, unsigned long nr_cand)
{
	WRITE_ONCE(th->threshold_ms, 0);
	WRITE_ONCE(th->period_start_ms, now_ms);
	WRITE_ONCE(th->period_start_cand, nr_cand);
}
EXPORT_SYMBOL_IF_KUNIT(memtier_threshold_reset);

/* Candidates the rate limit lets through in @period_ms; saturating. */
static u64 memtier_period_pages(u64 limit_pages, unsigned int period_ms)
{
	u32 rem;
	u64 quot = div_u64_rem(limit_pages, MSEC_PER_SEC, &rem);
	u64 pages;

	if (check_mul_overflow(quot, (u64)period_ms, &pages))
		return U64_MAX;
	/* rem < 1000 and period_ms < 2^32: no overflow here. */
	if (check_add_overflow(pages,
			       div_u64((u64)rem * period_ms, MSEC_PER_SEC),
			       &pages))
		return U64_MAX;
	return pages;
}

/**
 * memtier_threshold_end_period() - end a period that has run its length
 * @th: the node's threshold state.
 * @now_ms: the time.
 * @start: the period's start, as the caller read it.
 * @nr_cand: the node's candidate count now.
 * @limit_pages: the rate limit in pages per second.
 * @ref_ms: the reference threshold (not 0).
 * @period_ms: the adjustment period, at most
 *	MEMTIER_THRESHOLD_PERIOD_MAX_MS.
 *
 * The rare half of memtier_threshold_adjust(), out of line.
 *
 * Context: any; of concurrent callers one adjusts, the others return.
 * Return: true when this call ended the period and adjusted.
 */
bool memtier_threshold_end_period(struct memtier_threshold *th,
				  unsigned int now_ms, unsigned int start,
				  unsigned long nr_cand, u64 limit_pages,
				  unsigned int ref_ms, unsigned int period_ms)
{
	unsigned int unit, cur;
	u64 ref_cand, diff_cand, tenth, high, low;
	u32 rem;

	if (!try_cmpxchg(&th->period_start_ms, &start, now_ms))
		return false;

	ref_cand = memtier_period_pages(limit_pages, period_ms);
	diff_cand = nr_cand - READ_ONCE(th->period_start_cand);
	/*
	 * Mainline's ref * 11 / 10 and ref * 9 / 10, rounded down as there,
	 * as ref + floor(ref / 10) and ref - ceil(ref / 10): no overflow.
	 */
	tenth = div_u64_rem(ref_cand, 10, &rem);
	if (check_add_overflow(ref_cand, tenth, &high))
		high = U64_MAX;
	low = ref_cand - tenth - (rem != 0);

	unit = memtier_threshold_unit(ref_ms);
	cur = memtier_threshold_current(th, ref_ms);
	if (diff_cand > high)
		cur = max(cur - unit, unit);
	else if (diff_cand < low)
		cur = min_t(u64, (u64)cur + unit, memtier_threshold_max(ref_ms));

	WRITE_ONCE(th->period_start_cand, nr_cand);
	WRITE_ONCE(th->threshold_ms, cur);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_threshold_end_period);
