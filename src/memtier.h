/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The policy core of explicit memory tiering, private to mm.
 *
 * The library decides, the kernel acts.  Every function here takes its
 * inputs explicitly (the topology, tier requests, abstract distances)
 * and keeps no global mm state, so that each rule can be exercised by
 * KUnit on a fake machine.
 *
 * Locking: none; the caller serialises what it passes in.
 */
#ifndef _MM_MEMTIER_MEMTIER_H
#define _MM_MEMTIER_MEMTIER_H

#include <linux/memtier.h>
#include <linux/nodemask.h>
#include <linux/types.h>

/**
 * struct memtier_topology - the machine, as the caller sees it
 * @memory_nodes: nodes with memory (N_MEMORY).
 * @cpu_nodes: nodes with CPUs (N_CPU).
 * @distance: the distance from node @from to node @to, as node_distance().
 * @next_best: the next memory node for @node that is not in @used, in
 *	the page allocator's fallback order (find_next_best_node()): set
 *	in @used and returned; %NUMA_NO_NODE when every memory node is.
 *
 * Embed it in a larger structure to give the callbacks their data.
 */
struct memtier_topology {
	nodemask_t memory_nodes;
	nodemask_t cpu_nodes;
	int (*distance)(const struct memtier_topology *topo, int from, int to);
	int (*next_best)(const struct memtier_topology *topo, int node,
			 nodemask_t *used);
};

/* ---------------------------------------------------------------------
 * Demotion targets and the top tier (demotion.c, toptier.c)
 *
 * A memory node's tier is an int per node, %MAX_NUMNODES of them, which
 * the caller keeps and passes in: only the entries of the topology's
 * memory nodes are read.
 */

void memtier_demotion_targets(const struct memtier_topology *topo,
			      const int *node_tier, int node,
			      nodemask_t *preferred, nodemask_t *allowed);
int memtier_top_tier_id(const struct memtier_topology *topo,
			const int *node_tier, int prev_top_id);

/**
 * memtier_is_toptier() - is a tier ID in the top tier?
 * @id: the node's tier ID, or %MEMTIER_NO_TIER.
 * @top_tier_id: what memtier_top_tier_id() returned.
 *
 * A node in no tier (CPU-only, absent) counts as top tier, as in
 * mainline: no page on it is a promotion candidate.  So does every tier
 * when there is no tier at all.
 *
 * Inline: the NUMA balancing scan asks for every page it makes
 * inaccessible, and the hint fault path asks again.
 *
 * Return: true unless @id is a tier below @top_tier_id.
 */
static inline bool memtier_is_toptier(int id, int top_tier_id)
{
	return !memtier_tier_id_valid(id) || id >= top_tier_id;
}

/* ---------------------------------------------------------------------
 * Tier IDs and abstract distance chunks (adistance.c)
 *
 * Mainline groups memory by chunks of abstract distance of
 * MEMTIER_CHUNK_SIZE, DRAM's being chunk 4: each chunk with memory is a
 * memory_tierN, N its number.  A node placed by its distance gets its
 * chunk's ID; one chunk holds one ID.
 */

int memtier_chunk_tier(int chunk, int default_tier);
int memtier_adistance_to_tier(int adistance, int default_tier);
int memtier_tier_to_chunk(int id, int default_tier);
int memtier_chunk_holder(const nodemask_t *memory_nodes, const int *node_tier,
			 int node, int id, int default_tier);
int memtier_initial_tier(const nodemask_t *memory_nodes, const int *node_tier,
			 int node, int request, int adistance,
			 int default_tier);

#endif /* _MM_MEMTIER_MEMTIER_H */
