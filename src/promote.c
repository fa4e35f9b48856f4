// SPDX-License-Identifier: GPL-2.0-only
/*
 * The promotion decision for one NUMA-balancing hint fault.
 *
 * In tiering mode a page in a lower tier is promoted:
 *  - at once, when the target node has free space to spare (the bypass);
 *  - else when its hint-fault latency is below the node's adjusted hot
 *    threshold (with %MEMTIER_HOT_REPEAT, and its previous hint fault's
 *    was too) and the node's rate limit still has room.
 *
 * The caller asks only for a page that records its access time
 * (folio_use_access_time()); other pages keep the normal placement
 * rules.  Bypass promotions are counted apart from the candidates, as
 * upstream's 337135e6124b counts them in pgpromote_candidate_nrl, and no
 * knob value overflows.  A rate limit of 0 MB/s or a hot threshold of
 * 0 ms promotes nothing but what the free-space bypass lets through
 * (mainline kept an adjusted threshold in force after 0 ms).
 */
#include <kunit/visibility.h>
#include <linux/atomic.h>
#include <linux/array_size.h>
#include <linux/export.h>
#include <linux/memtier_promote.h>
#include <linux/sched/sysctl.h>
#include <linux/string.h>

/**
 * memtier_promote_tiering_enabled() - tiering mode was just switched on
 * @state: a target node's state.
 * @now_ms: the time.
 * @nr_cand: the node's candidate count now.
 *
 * The adjusted threshold restarts from the reference.
 */
void memtier_promote_tiering_enabled(struct memtier_promote_state *state,
				     unsigned int now_ms, unsigned long nr_cand)
{
	memtier_threshold_reset(&state->th, now_ms, nr_cand);
}
EXPORT_SYMBOL_IF_KUNIT(memtier_promote_tiering_enabled);

/**
 * memtier_promote_decide() - promote the page of this hint fault?
 * @state: the target node's state; updated.
 * @fault: the fault.
 * @tun: the knobs.
 *
 * Context: the NUMA hint fault path; lockless.
 * Return: the reason; memtier_promote_reason_migrates() tells whether
 * it means "promote", memtier_promote_reason_counter() where the
 * caller counts the folio's pages.
 */
enum memtier_promote_reason
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
EXPORT_SYMBOL_IF_KUNIT(memtier_promote_decide);

static const char * const memtier_hot_policy_names[] = {
	[MEMTIER_HOT_LATENCY] = "latency",
	[MEMTIER_HOT_REPEAT] = "repeat",
};

/**
 * memtier_hot_policy_parse() - a policy from what was written to the knob
 * @buf: a policy's name, with or without a trailing newline.
 *
 * Return: the enum memtier_hot_policy named, or -EINVAL.
 */
int memtier_hot_policy_parse(const char *buf)
{
	return sysfs_match_string(memtier_hot_policy_names, buf);
}
EXPORT_SYMBOL_IF_KUNIT(memtier_hot_policy_parse);

/**
 * memtier_hot_policy_name() - a policy's name, as the knob shows it
 * @policy: an enum memtier_hot_policy.
 *
 * Return: its name, or NULL when @policy is none.
 */
const char *memtier_hot_policy_name(unsigned int policy)
{
	if (policy >= ARRAY_SIZE(memtier_hot_policy_names))
		return NULL;
	return memtier_hot_policy_names[policy];
}
EXPORT_SYMBOL_IF_KUNIT(memtier_hot_policy_name);
