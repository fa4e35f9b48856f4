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
 * @prev_top_id: what this returned the last time, or the ID of chunk 0
 *	(memtier_chunk_tier(0, default tier)) the first time.
 *
 * As establish_demotion_targets() in mainline: scanning from the lowest
 * tier up, the first tier with a CPU node is the boundary.  A CPU node's
 * own memory is therefore never a promotion source, wherever its tier
 * is: the hint fault that would promote it comes from its own CPUs.
 *
 * When no memory node has CPUs (every CPU sits on a memory-less node),
 * there is no such tier, and mainline keeps the boundary it found last,
 * or, on a machine that never had one, the fastest chunk of abstract
 * distance: so does this.
 *
 * Return: the ID of the lowest tier holding a node with CPUs, else
 * @prev_top_id.
 */
int memtier_top_tier_id(const struct memtier_topology *topo,
			const int *node_tier, int prev_top_id)
{
	int lowest_cpu = INT_MAX, node, id;

	for_each_node_mask(node, topo->memory_nodes) {
		id = node_tier[node];
		if (memtier_tier_id_valid(id) &&
		    node_isset(node, topo->cpu_nodes))
			lowest_cpu = min(lowest_cpu, id);
	}
	return lowest_cpu != INT_MAX ? lowest_cpu : prev_top_id;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_top_tier_id);
