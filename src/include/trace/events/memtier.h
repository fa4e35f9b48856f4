/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memtier trace events: the hot page decision of each hint fault on a
 * page outside the top tier, with what it was made from, so that a
 * promotion that did or did not happen can be explained after the fact.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM memtier

#if !defined(_TRACE_MEMTIER_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_MEMTIER_H

#include <linux/memtier_promote.h>
#include <linux/tracepoint.h>

/* The reasons' names, for user space to decode __print_symbolic(). */
TRACE_DEFINE_ENUM(MEMTIER_PROMOTE_TIERING_OFF);
TRACE_DEFINE_ENUM(MEMTIER_PROMOTE_BYPASS);
TRACE_DEFINE_ENUM(MEMTIER_PROMOTE_HOT);
TRACE_DEFINE_ENUM(MEMTIER_PROMOTE_COLD);
TRACE_DEFINE_ENUM(MEMTIER_PROMOTE_FIRST_HOT);
TRACE_DEFINE_ENUM(MEMTIER_PROMOTE_RATELIMITED);

/*
 * latency_ms and window_cand are 0 when the target node's free space
 * decided (the bypass reads neither); window_cand is the node's
 * candidates in the rate limit's window before this fault's, and may
 * be negative while CPUs hold candidate counts not yet folded in.
 */
TRACE_EVENT(memtier_promote_decision,
	    TP_PROTO(int nid, const struct memtier_hint_fault *fault,
		     const struct memtier_promote_tunables *tun,
		     const struct memtier_promote_state *state,
		     enum memtier_promote_reason reason),

	    TP_ARGS(nid, fault, tun, state, reason),

	    TP_STRUCT__entry(__field(int, nid)
			     __field(unsigned long, nr_pages)
			     __field(unsigned int, latency_ms)
			     __field(unsigned int, threshold_ms)
			     __field(long, window_cand)
			     __field(u64, limit_pages)
			     __field(enum memtier_promote_reason, reason)),

	    TP_fast_assign(bool read = !fault->target_free_space_enough;

			   __entry->nid = nid;
			   __entry->nr_pages = fault->nr_pages;
			   __entry->latency_ms = read ? fault->latency_ms : 0;
			   __entry->threshold_ms = !tun->hot_threshold_ms ? 0 :
				   memtier_threshold_current(&state->th,
							     tun->hot_threshold_ms);
			   __entry->window_cand = !read ? 0 : fault->nr_cand -
				   READ_ONCE(state->rl.window_start_cand);
			   __entry->limit_pages =
				   memtier_mbps_to_pages(tun->rate_limit_mbps,
							 tun->page_shift);
			   __entry->reason = reason;),

	    TP_printk("nid=%d nr_pages=%lu latency_ms=%u threshold_ms=%u window_cand=%ld limit_pages=%llu reason=%s",
		      __entry->nid, __entry->nr_pages, __entry->latency_ms,
		      __entry->threshold_ms, __entry->window_cand,
		      __entry->limit_pages,
		      __print_symbolic(__entry->reason,
				       { MEMTIER_PROMOTE_TIERING_OFF, "tiering_off" },
				       { MEMTIER_PROMOTE_BYPASS, "bypass" },
				       { MEMTIER_PROMOTE_HOT, "hot" },
				       { MEMTIER_PROMOTE_COLD, "cold" },
				       { MEMTIER_PROMOTE_FIRST_HOT, "first_hot" },
				       { MEMTIER_PROMOTE_RATELIMITED, "ratelimited" }))
);

#endif /* _TRACE_MEMTIER_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
