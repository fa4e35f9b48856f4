// SPDX-License-Identifier: GPL-2.0-only
/*
 * The promotion rate limit: per target node, at most rate_limit worth of
 * candidate pages in each 1 s window; past that, hot pages wait for the
 * next window.
 *
 * The window lives beside a cumulative candidate counter, so that the
 * fault path needs no lock: the first caller to see the window expired
 * moves it on with a cmpxchg, and only that caller resets its base.
 */
#include <kunit/visibility.h>
#include <linux/atomic.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/memtier_promote.h>

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
 * harmless: only differences of times are used.
 *
 * Context: any; concurrent callers for one node are safe.
 * Return: true for the candidate that starts a window, and while the
 * window's candidates, @nr included, are at most @limit_pages; false
 * always for a limit of 0.
 */
bool memtier_ratelimit_allow(struct memtier_ratelimit *rl,
			     unsigned int now_ms, unsigned long nr_cand,
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
	    try_cmpxchg(&rl->window_start_ms, &start, now_ms)) {
		WRITE_ONCE(rl->window_start_cand, nr_cand - nr);
		/*
		 * The first candidate of a window passes whatever its size,
		 * as in mainline: a folio larger than one window's limit is
		 * still promoted, once per window.
		 */
		return true;
	}

	/*
	 * The count may lag behind the window's base (a vmstat counter read
	 * without the CPUs' pending deltas): at or below the base, the
	 * candidate is one of the window's first, not 2^64 pages past it.
	 */
	in_window = nr_cand - READ_ONCE(rl->window_start_cand);
	return (long)in_window <= 0 || in_window <= limit_pages;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_ratelimit_allow);
