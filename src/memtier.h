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
 *
 * Embed it in a larger structure to give @distance its data.
 */
struct memtier_topology {
	nodemask_t memory_nodes;
	nodemask_t cpu_nodes;
	int (*distance)(const struct memtier_topology *topo, int from, int to);
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
			const int *node_tier);

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

int memtier_adistance_to_tier(int adistance, int dram_adistance,
			      unsigned int chunk_bits, int default_tier);
int memtier_tier_to_chunk(int id, int dram_adistance, unsigned int chunk_bits,
			  int default_tier);
int memtier_initial_tier(int request, int adistance, int dram_adistance,
			 unsigned int chunk_bits, int default_tier);

#endif /* _MM_MEMTIER_MEMTIER_H */
