// SPDX-License-Identifier: GPL-2.0-only
/*
 * The top tier: the lowest tier that holds a node with CPUs, and every
 * tier above it.  Promotion only happens out of the tiers below it: a
 * page in a top tier is already as close to a CPU as tiering can put it,
 * and NUMA balancing in tiering mode neither scans nor promotes it.
 */
#include <kunit/visibility.h>
#include <linux/export.h>

#include "memtier.h"

/**
 * memtier_top_tier_id() - the lowest tier ID that is top tier
 * @reg: the registry.
 * @topo: the machine, for which nodes have CPUs and memory.
 *
 * As node_is_toptier() in mainline: scanning from the lowest tier up,
 * the first tier with a CPU node is the boundary.  A CPU node's own
 * memory is therefore never a promotion source, wherever its tier is:
 * the hint fault that would promote it comes from its own CPUs.
 *
 * When no memory node has CPUs (every CPU sits on a memory-less node),
 * every tier is top tier.  A NUMA hint fault promotes to the faulting
 * CPU's node, which has no memory there, so no promotion could succeed;
 * scanning lower tiers for it would only cost hint faults.
 *
 * Return: the ID of the lowest tier holding a node with CPUs, else of
 * the lowest tier; %MEMTIER_NO_TIER when no tier has memory.
 */
int memtier_top_tier_id(const struct memtier_registry *reg,
			const struct memtier_topology *topo)
{
	int lowest = MEMTIER_NO_TIER;
	struct memtier_tier *tier;
	nodemask_t nodes;

	list_for_each_entry_reverse(tier, &reg->tiers, list) {
		nodes_and(nodes, tier->nodes, topo->memory_nodes);
		if (nodes_empty(nodes))
			continue;
		if (lowest == MEMTIER_NO_TIER)
			lowest = tier->id;
		if (nodes_intersects(nodes, topo->cpu_nodes))
			return tier->id;
	}
	return lowest;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_top_tier_id);
