/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memtier: the per-node state of hot page selection for NUMA balancing
 * memory tiering mode, embedded in struct pglist_data.
 *
 * Only the types: <linux/mmzone.h> includes this header, and with it
 * nearly every file of the kernel.  The functions that act on the state
 * are in <linux/memtier_promote.h>, which only the NUMA balancing scan
 * and hint fault paths include.
 */
#ifndef _LINUX_MEMTIER_PROMOTE_TYPES_H
#define _LINUX_MEMTIER_PROMOTE_TYPES_H

#include <linux/types.h>

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

/**
 * struct memtier_promote_state - per target node promotion state
 * @rl: the rate-limit window.
 * @th: the adjusted hot threshold.
 *
 * The node's candidate count is not kept here: the caller counts what
 * memtier_promote_reason_counter() says, where it counts anyway, and
 * passes the count in with each fault.
 */
struct memtier_promote_state {
	struct memtier_ratelimit rl;
	struct memtier_threshold th;
};

#endif /* _LINUX_MEMTIER_PROMOTE_TYPES_H */
