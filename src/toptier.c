// SPDX-License-Identifier: GPL-2.0-only
/*
 * The top tier: the highest tier that holds a node with CPUs, and every
 * tier above it.  Promotion only happens out of the tiers below it: a
 * page in a top tier is already as close to the CPUs as tiering can put
 * it.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/memtier.h>

/**
 * memtier_top_tier_id() - the lowest tier ID that is top tier
 * @reg: the registry.
 * @topo: the machine, for which nodes have CPUs.
 *
 * The seeds scanned from the lowest tier up and stopped at the first
 * tier with CPUs; this takes the highest such tier instead, so that a
 * slow node that happens to have CPUs still promotes into the faster
 * tiers above it.
 *
 * When no memory node has CPUs (the CPUs sit on memory-less nodes) the
 * highest tier alone is top tier: it is still the fastest memory the
 * CPUs can reach, and the lower tiers promote into it.
 *
 * Return: the ID of the highest tier holding a node with CPUs, else of
 * the highest tier; %MEMTIER_NO_TIER when the registry is empty.
 */
int memtier_top_tier_id(const struct memtier_registry *reg,
			const struct memtier_topology *topo)
{
	struct memtier_tier *tier;

	memtier_for_each_tier(tier, reg) {
		if (nodes_intersects(tier->nodes, topo->cpu_nodes))
			return tier->id;
	}
	if (list_empty(&reg->tiers))
		return MEMTIER_NO_TIER;
	return list_first_entry(&reg->tiers, struct memtier_tier, list)->id;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_top_tier_id);

/**
 * memtier_node_is_toptier() - is @node in a top tier?
 * @snap: the published snapshot.
 * @node: the node, any value.
 *
 * A node in no tier (CPU-only, absent) counts as top tier, as in the
 * seed series: no page on it is a promotion candidate.
 *
 * Context: any, O(1); under rcu_read_lock() when @snap is published.
 * Return: true unless @node is a memory node below the top tier.
 */
bool memtier_node_is_toptier(const struct memtier_snapshot *snap, int node)
{
	if (node < 0 || node >= MAX_NUMNODES)
		return true;
	return !node_isset(node, snap->not_toptier);
}
EXPORT_SYMBOL_IF_KUNIT(memtier_node_is_toptier);
