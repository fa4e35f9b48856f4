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
 *
 * The decision, memtier_promote_decide(), is inline in
 * <linux/memtier_promote.h>: the fault path calls it on every hint
 * fault on a lower-tier page.  Here: what tiering mode's switch and the
 * policy knob need.
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
