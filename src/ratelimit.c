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
 * memtier_ratelimit_open_window() - start a new window, if no one else did
 * @rl: the target node's window.
 * @now_ms: the time of the fault.
 * @start: the window's start as the caller read it.
 * @nr_cand: the node's candidate count, @nr included.
 * @nr: the candidate pages of this fault.
 *
 * Out of line: once a second, where memtier_ratelimit_allow() runs on
 * every hot hint fault.
 *
 * Context: any; of concurrent callers one opens the window.
 * Return: true when this call opened it: its candidate passes whatever
 * its size, as in mainline, so that a folio larger than one window's
 * limit is still promoted, once per window.
 */
bool memtier_ratelimit_open_window(struct memtier_ratelimit *rl,
				   unsigned int now_ms, unsigned int start,
				   unsigned long nr_cand, unsigned long nr)
{
	if (!try_cmpxchg(&rl->window_start_ms, &start, now_ms))
		return false;
	WRITE_ONCE(rl->window_start_cand, nr_cand - nr);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_ratelimit_open_window);
