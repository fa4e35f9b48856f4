// SPDX-License-Identifier: GPL-2.0-only
/*
 * Demotion targets, computed as one immutable snapshot of the registry
 * and the topology.
 *
 * For a node in tier T, the next lower non-empty tier L holds its
 * preferred targets: the nodes of L at the smallest distance from it,
 * all of them when several tie.  Its allowed targets are every node of
 * every tier below T (T's lower_tier_mask), the fallback when the
 * preferred nodes are full, in the page allocator's fallback order.
 *
 * The snapshot is built off to the side and published with one pointer
 * swap, so a reader under RCU sees either the old targets or the new
 * ones, never a half-built state.
 */
#include <kunit/static_stub.h>
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/numa.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "memtier.h"

/* At most one tier per node, and never more tiers than there are IDs. */
static unsigned int memtier_snapshot_max_tiers(unsigned int nr_nodes)
{
	return min_t(unsigned int, nr_nodes, MAX_MEMORY_TIER_ID + 1);
}

/**
 * memtier_snapshot_size() - the bytes a snapshot takes
 * @nr_nodes: the node IDs it covers (nr_node_ids).
 *
 * Return: the size memtier_snapshot_alloc() allocates.
 */
size_t memtier_snapshot_size(unsigned int nr_nodes)
{
	size_t size = struct_size_t(struct memtier_snapshot, tier,
				    memtier_snapshot_max_tiers(nr_nodes));

	size = size_add(size, array_size(nr_nodes, sizeof(nodemask_t)));
	return size_add(size, array_size(nr_nodes, sizeof(s16)));
}
EXPORT_SYMBOL_IF_KUNIT(memtier_snapshot_size);

/**
 * memtier_snapshot_alloc() - allocate an empty snapshot
 * @nr_nodes: the node IDs it covers, 1 to %MAX_NUMNODES; the kernel
 *	passes nr_node_ids, so the size follows the machine, not the
 *	configuration's %MAX_NUMNODES.
 * @gfp: allocation flags.
 *
 * The size does not depend on the registry, so a caller can allocate
 * before changing the registry and then build without failing.
 *
 * Return: the snapshot, or NULL.
 */
struct memtier_snapshot *memtier_snapshot_alloc(unsigned int nr_nodes,
						gfp_t gfp)
{
	unsigned int max_tiers = memtier_snapshot_max_tiers(nr_nodes);
	struct memtier_snapshot *snap;

	KUNIT_STATIC_STUB_REDIRECT(memtier_snapshot_alloc, nr_nodes, gfp);

	if (!nr_nodes || nr_nodes > MAX_NUMNODES)
		return NULL;
	snap = kvzalloc(memtier_snapshot_size(nr_nodes), gfp);
	if (!snap)
		return NULL;
	snap->nr_nodes = nr_nodes;
	/* The node-indexed arrays follow the tiers, widest alignment first. */
	snap->preferred = (nodemask_t *)&snap->tier[max_tiers];
	snap->node_tier = (s16 *)&snap->preferred[nr_nodes];
	return snap;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_snapshot_alloc);

/**
 * memtier_snapshot_free() - free a snapshot
 * @snap: the snapshot, or NULL; no reader may still see it.
 */
void memtier_snapshot_free(struct memtier_snapshot *snap)
{
	kvfree(snap);
}
EXPORT_SYMBOL_IF_KUNIT(memtier_snapshot_free);

/* The nodes of @candidates at the smallest distance from @node. */
static void memtier_nearest(const struct memtier_topology *topo, int node,
			    const nodemask_t *candidates, nodemask_t *nearest)
{
	int target, distance, best = INT_MAX;

	nodes_clear(*nearest);
	for_each_node_mask(target, *candidates) {
		distance = topo->distance(topo, node, target);
		if (distance > best)
			continue;
		if (distance < best) {
			best = distance;
			nodes_clear(*nearest);
		}
		node_set(target, *nearest);
	}
}

/**
 * memtier_snapshot_build() - compute demotion targets and top tier
 * @snap: a snapshot from memtier_snapshot_alloc(), not yet published.
 * @reg: the registry.
 * @topo: the machine.
 *
 * A registered node that is no longer in @topo's memory nodes is left
 * out, and a tier left empty by that is skipped: "next lower tier"
 * always means the next lower tier with memory.
 *
 * Context: the caller holds the lock that serialises @reg.
 */
void memtier_snapshot_build(struct memtier_snapshot *snap,
			    const struct memtier_registry *reg,
			    const struct memtier_topology *topo)
{
	struct memtier_snapshot_tier *st;
	struct memtier_tier *tier;
	nodemask_t lower = NODE_MASK_NONE, covered = NODE_MASK_NONE;
	int node, i;

	snap->nr_tiers = 0;
	snap->top_tier_id = memtier_top_tier_id(reg, topo);
	nodes_clear(snap->not_toptier);
	for (node = 0; node < snap->nr_nodes; node++) {
		snap->node_tier[node] = -1;
		nodes_clear(snap->preferred[node]);
	}

	/* Node IDs the snapshot does not cover cannot be possible nodes. */
	for (node = 0; node < snap->nr_nodes; node++)
		node_set(node, covered);
	nodes_and(covered, covered, topo->memory_nodes);

	memtier_for_each_tier(tier, reg)
		nodes_or(lower, lower, tier->nodes);
	nodes_and(lower, lower, covered);

	memtier_for_each_tier(tier, reg) {
		st = &snap->tier[snap->nr_tiers];
		nodes_and(st->nodes, tier->nodes, covered);
		if (nodes_empty(st->nodes))
			continue;
		st->id = tier->id;
		nodes_andnot(lower, lower, st->nodes);
		st->lower_tier_mask = lower;
		for_each_node_mask(node, st->nodes)
			snap->node_tier[node] = snap->nr_tiers;
		if (tier->id < snap->top_tier_id)
			nodes_or(snap->not_toptier, snap->not_toptier,
				 st->nodes);
		snap->nr_tiers++;
	}

	for (i = 0; i + 1 < snap->nr_tiers; i++) {
		for_each_node_mask(node, snap->tier[i].nodes)
			memtier_nearest(topo, node, &snap->tier[i + 1].nodes,
					&snap->preferred[node]);
	}
}
EXPORT_SYMBOL_IF_KUNIT(memtier_snapshot_build);

static const struct memtier_snapshot_tier *
memtier_snapshot_tier_of(const struct memtier_snapshot *snap, int node)
{
	if (node < 0 || node >= snap->nr_nodes || snap->node_tier[node] < 0)
		return NULL;
	return &snap->tier[snap->node_tier[node]];
}

/**
 * memtier_snapshot_node_tier() - the tier ID of a node in a snapshot
 * @snap: the snapshot.
 * @node: the node, any value.
 *
 * Return: the ID, or %MEMTIER_NO_TIER.
 */
int memtier_snapshot_node_tier(const struct memtier_snapshot *snap, int node)
{
	const struct memtier_snapshot_tier *st;

	st = memtier_snapshot_tier_of(snap, node);
	return st ? st->id : MEMTIER_NO_TIER;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_snapshot_node_tier);

/**
 * memtier_next_demotion_node() - pick one preferred demotion target
 * @snap: the snapshot.
 * @node: the node pages are demoted from.
 * @rnd: a random number (get_random_u32()), which spreads the load over
 *	preferred nodes that tie.
 *
 * Return: a node of @node's preferred targets, or %NUMA_NO_NODE when it
 * has none (its tier is the lowest, or it is in no tier).
 */
int memtier_next_demotion_node(const struct memtier_snapshot *snap, int node,
			       u32 rnd)
{
	const nodemask_t *preferred;
	unsigned int weight;

	if (!memtier_snapshot_tier_of(snap, node))
		return NUMA_NO_NODE;
	preferred = &snap->preferred[node];
	weight = nodes_weight(*preferred);
	if (!weight)
		return NUMA_NO_NODE;
	return find_nth_bit(preferred->bits, MAX_NUMNODES,
			    reciprocal_scale(rnd, weight));
}
EXPORT_SYMBOL_IF_KUNIT(memtier_next_demotion_node);

/**
 * memtier_preferred_targets() - the preferred demotion targets of a node
 * @snap: the snapshot.
 * @node: the node, any value.
 * @targets: set to the nodes of the next lower tier at the smallest
 *	distance from @node; empty when there are none.
 */
void memtier_preferred_targets(const struct memtier_snapshot *snap, int node,
			       nodemask_t *targets)
{
	if (!memtier_snapshot_tier_of(snap, node)) {
		nodes_clear(*targets);
		return;
	}
	*targets = snap->preferred[node];
}
EXPORT_SYMBOL_IF_KUNIT(memtier_preferred_targets);

/**
 * memtier_allowed_targets() - every node a node may demote to
 * @snap: the snapshot.
 * @node: the node, any value.
 * @targets: set to every memory node of every tier below @node's tier;
 *	empty for the lowest tier or a node in no tier.
 */
void memtier_allowed_targets(const struct memtier_snapshot *snap, int node,
			     nodemask_t *targets)
{
	const struct memtier_snapshot_tier *st;

	st = memtier_snapshot_tier_of(snap, node);
	if (!st) {
		nodes_clear(*targets);
		return;
	}
	*targets = st->lower_tier_mask;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_allowed_targets);
