// SPDX-License-Identifier: GPL-2.0-only
/*
 * Demotion targets, from each memory node's tier ID and the topology.
 *
 * For a node in tier T, the next lower tier with memory, L, holds its
 * preferred targets: the nodes of L taken in the page allocator's
 * fallback order (find_next_best_node()) for as long as they are at the
 * distance of the first one.  Its allowed targets are every node of
 * every tier below T, the fallback when the preferred nodes are full.
 * This is establish_demotion_targets() of mainline, with tiers named by
 * ID rather than by abstract distance chunk.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/numa.h>

#include "memtier.h"

/*
 * The nodes of @candidates that the fallback order gives @node first, up
 * to the first one at another distance than the first's.  That order
 * weighs a node's CPUs and load with its distance, so a nearer node can
 * come after a farther one, and is then not preferred, as in mainline.
 */
static void memtier_nearest(const struct memtier_topology *topo, int node,
			    const nodemask_t *candidates, nodemask_t *nearest)
{
	int target, distance, best = -1;
	nodemask_t used;

	nodes_clear(*nearest);
	nodes_andnot(used, topo->memory_nodes, *candidates);
	while ((target = topo->next_best(topo, node, &used)) != NUMA_NO_NODE) {
		distance = topo->distance(topo, node, target);
		if (best != -1 && distance != best)
			break;
		best = distance;
		node_set(target, *nearest);
	}
}

/* The tier ID of @node, or MEMTIER_NO_TIER when it has no memory. */
static int memtier_tier_of(const struct memtier_topology *topo,
			   const int *node_tier, int node)
{
	if (node < 0 || node >= MAX_NUMNODES ||
	    !node_isset(node, topo->memory_nodes) ||
	    !memtier_tier_id_valid(node_tier[node]))
		return MEMTIER_NO_TIER;
	return node_tier[node];
}

/**
 * memtier_demotion_targets() - where a node demotes to
 * @topo: the machine.
 * @node_tier: the tier ID of each node, %MAX_NUMNODES entries; only
 *	those of @topo's memory nodes are read, and a memory node whose
 *	entry is not a tier ID (%MEMTIER_NO_TIER) is in no tier yet.
 * @node: the node, any value.
 * @preferred: set to the nodes of the next lower tier with memory at the
 *	smallest distance from @node; empty when there is none.
 * @allowed: set to every memory node of every tier below @node's.
 *
 * A node in no tier (no memory, not placed yet, out of range) demotes
 * nowhere.
 *
 * Context: any; O(memory nodes) plus one fallback-order step per
 * preferred node and one more.
 */
void memtier_demotion_targets(const struct memtier_topology *topo,
			      const int *node_tier, int node,
			      nodemask_t *preferred, nodemask_t *allowed)
{
	int id = memtier_tier_of(topo, node_tier, node);
	int lower = MEMTIER_NO_TIER, target, target_id;
	nodemask_t next_tier = NODE_MASK_NONE;

	nodes_clear(*preferred);
	nodes_clear(*allowed);
	if (id == MEMTIER_NO_TIER)
		return;
	for_each_node_mask(target, topo->memory_nodes) {
		target_id = memtier_tier_of(topo, node_tier, target);
		if (target_id == MEMTIER_NO_TIER || target_id >= id)
			continue;
		node_set(target, *allowed);
		lower = max(lower, target_id);
	}
	for_each_node_mask(target, *allowed) {
		if (node_tier[target] == lower)
			node_set(target, next_tier);
	}
	memtier_nearest(topo, node, &next_tier, preferred);
}
EXPORT_SYMBOL_IF_KUNIT(memtier_demotion_targets);
