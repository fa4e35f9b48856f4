// SPDX-License-Identifier: GPL-2.0-only
/*
 * The top tier: the lowest tier that holds a node with CPUs, and every
 * tier above it.  Promotion only happens out of the tiers below it: a
 * page in a top tier is already as close to a CPU as tiering can put it,
 * and NUMA balancing in tiering mode neither scans nor promotes it.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/minmax.h>

#include "memtier.h"

/**
 * memtier_top_tier_id() - the lowest tier ID that is top tier
 * @topo: the machine, for which nodes have CPUs and memory.
 * @node_tier: the tier ID of each node, as for memtier_demotion_targets().
 *
 * As node_is_toptier() in mainline: scanning from the lowest tier up,
 * the first tier with a CPU node is the boundary.  A CPU node's own
 * memory is therefore never a promotion source, wherever its tier is:
 * the hint fault that would promote it comes from its own CPUs.
 *
 * When no memory node has CPUs (every CPU sits on a memory-less node),
 * every tier is top tier.  A NUMA hint fault promotes to the faulting
 * CPU's node, which has no memory there, so no promotion could succeed;
 * scanning lower tiers for it would only cost hint faults.  Mainline
 * keeps whatever boundary it found before in that case.
 *
 * Return: the ID of the lowest tier holding a node with CPUs, else of
 * the lowest tier; %MEMTIER_NO_TIER when no memory node is in a tier.
 */
int memtier_top_tier_id(const struct memtier_topology *topo,
			const int *node_tier)
{
	int lowest = INT_MAX, lowest_cpu = INT_MAX, node, id;

	for_each_node_mask(node, topo->memory_nodes) {
		id = node_tier[node];
		if (!memtier_tier_id_valid(id))
			continue;
		lowest = min(lowest, id);
		if (node_isset(node, topo->cpu_nodes))
			lowest_cpu = min(lowest_cpu, id);
	}
	if (lowest_cpu != INT_MAX)
		return lowest_cpu;
	return lowest != INT_MAX ? lowest : MEMTIER_NO_TIER;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_top_tier_id);
