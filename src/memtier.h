/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The policy core of explicit memory tiering, private to mm.
 *
 * The library decides, the kernel acts.  Every function here takes its
 * inputs explicitly (the topology, tier requests, abstract distances)
 * and keeps no global mm state, so that each rule can be exercised by
 * KUnit on a fake machine.
 *
 * Locking: a &struct memtier_registry is serialised by its owner (one
 * mutex in mm/memory-tiers.c).  A &struct memtier_snapshot is immutable
 * once built and is read locklessly under RCU.
 */
#ifndef _MM_MEMTIER_MEMTIER_H
#define _MM_MEMTIER_MEMTIER_H

#include <linux/list.h>
#include <linux/memtier.h>
#include <linux/nodemask.h>
#include <linux/rcupdate.h>
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
 * Tier registry (registry.c)
 */

/**
 * struct memtier_tier - one memory tier
 * @list: entry in &memtier_registry.tiers, highest ID first.
 * @id: the tier ID, 0 to %MAX_MEMORY_TIER_ID.
 * @nodes: the memory nodes in this tier; never empty while registered.
 * @priv: the owner's data (for instance the tier's sysfs device).
 */
struct memtier_tier {
	struct list_head list;
	int id;
	nodemask_t nodes;
	void *priv;
};

struct memtier_registry;

/**
 * struct memtier_registry_ops - what the owner does when tiers come and go
 * @tier_added: called after a tier is created and before any node is put
 *	in it; a non-zero return aborts the change, which is then undone.
 * @tier_removed: called when a tier's last node has left, just before the
 *	tier is freed.
 *
 * Both are optional.
 */
struct memtier_registry_ops {
	int (*tier_added)(struct memtier_registry *reg,
			  struct memtier_tier *tier);
	void (*tier_removed)(struct memtier_registry *reg,
			     struct memtier_tier *tier);
};

/**
 * struct memtier_registry - every memory node, each in exactly one tier
 * @tiers: the tiers, highest ID first.
 * @default_tier: the tier a node joins when no tier is asked for.
 * @ops: the owner's callbacks, may be NULL.
 * @node_tier: the tier of each node, NULL for a node in no tier.
 */
struct memtier_registry {
	struct list_head tiers;
	int default_tier;
	const struct memtier_registry_ops *ops;
	struct memtier_tier *node_tier[MAX_NUMNODES];
};

#define memtier_for_each_tier(tier, reg) \
	list_for_each_entry(tier, &(reg)->tiers, list)

void memtier_registry_init(struct memtier_registry *reg,
			   const struct memtier_registry_ops *ops);
int memtier_registry_set_default(struct memtier_registry *reg, int id);
int memtier_registry_set_node(struct memtier_registry *reg,
			      const struct memtier_topology *topo,
			      int node, int id);
void memtier_registry_remove_node(struct memtier_registry *reg, int node);
int memtier_registry_node_tier(const struct memtier_registry *reg, int node);
struct memtier_tier *memtier_registry_find(const struct memtier_registry *reg,
					   int id);

/* ---------------------------------------------------------------------
 * Demotion targets and top tier: one immutable snapshot (demotion.c,
 * toptier.c)
 */

/**
 * struct memtier_snapshot_tier - a tier as the snapshot saw it
 * @id: the tier ID.
 * @nodes: its memory nodes.
 * @lower_tier_mask: every memory node of every lower tier.
 */
struct memtier_snapshot_tier {
	int id;
	nodemask_t nodes;
	nodemask_t lower_tier_mask;
};

/**
 * struct memtier_snapshot - demotion targets and top tier, built together
 * @nr_nodes: the node IDs covered, 0 to @nr_nodes - 1 (nr_node_ids).
 * @nr_tiers: entries used in @tier.
 * @top_tier_id: the lowest top-tier ID; %MEMTIER_NO_TIER when there is
 *	no tier at all.
 * @not_toptier: the memory nodes that are below the top tier.
 * @node_tier: index in @tier of each node's tier, -1 for none; @nr_nodes
 *	entries.
 * @preferred: per node, the nodes of the next lower tier at the smallest
 *	distance; @nr_nodes entries.
 * @tier: the tiers, highest ID first.  A tier is never empty, so there are
 *	at most as many tiers as nodes, and never more than there are IDs.
 *
 * The size depends only on @nr_nodes (memtier_snapshot_size()), so that
 * a snapshot can be allocated long before the registry changes and built
 * afterwards without any failure in between.
 */
struct memtier_snapshot {
	unsigned int nr_nodes;
	int nr_tiers;
	int top_tier_id;
	nodemask_t not_toptier;
	s16 *node_tier;
	nodemask_t *preferred;
	struct memtier_snapshot_tier tier[];
};

size_t memtier_snapshot_size(unsigned int nr_nodes);
struct memtier_snapshot *memtier_snapshot_alloc(unsigned int nr_nodes,
						gfp_t gfp);
void memtier_snapshot_free(struct memtier_snapshot *snap);
void memtier_snapshot_build(struct memtier_snapshot *snap,
			    const struct memtier_registry *reg,
			    const struct memtier_topology *topo);
int memtier_next_demotion_node(const struct memtier_snapshot *snap, int node,
			       u32 rnd);
void memtier_allowed_targets(const struct memtier_snapshot *snap, int node,
			     nodemask_t *targets);
void memtier_preferred_targets(const struct memtier_snapshot *snap, int node,
			       nodemask_t *targets);
int memtier_snapshot_node_tier(const struct memtier_snapshot *snap, int node);

int memtier_adistance_to_tier(int adistance, int dram_adistance,
			      unsigned int chunk_bits, int default_tier);
int memtier_tier_to_chunk(int id, int dram_adistance, unsigned int chunk_bits,
			  int default_tier);
int memtier_initial_tier(int request, int adistance, int dram_adistance,
			 unsigned int chunk_bits, int default_tier);

int memtier_top_tier_id(const struct memtier_registry *reg,
			const struct memtier_topology *topo);

/**
 * memtier_node_is_toptier() - is @node in a top tier?
 * @snap: the published snapshot.
 * @node: the node, any value.
 *
 * A node in no tier (CPU-only, absent) counts as top tier, as in
 * mainline: no page on it is a promotion candidate.
 *
 * Inline: the NUMA balancing scan asks for every page it makes
 * inaccessible, and the hint fault path asks again.
 *
 * Context: any, O(1); under rcu_read_lock() when @snap is published.
 * Return: true unless @node is a memory node below the top tier.
 */
static inline bool
memtier_node_is_toptier(const struct memtier_snapshot *snap, int node)
{
	if (node < 0 || node >= snap->nr_nodes)
		return true;
	return !node_isset(node, snap->not_toptier);
}

/* ---------------------------------------------------------------------
 * The registry with its published snapshot (state.c)
 */

/**
 * struct memtier_state - the tiers and the snapshot their readers see
 * @reg: the registry; changed only under the owner's lock.
 * @snap: the published snapshot, read under RCU.
 * @spare: a snapshot no reader can see, the next one to be published.
 *
 * Every change builds @spare and publishes it; the snapshot it replaces
 * becomes the spare once no reader can see it.  So after
 * memtier_state_init() no change allocates a snapshot, and taking a node
 * out (memory offline) cannot fail.
 */
struct memtier_state {
	struct memtier_registry reg;
	struct memtier_snapshot __rcu *snap;
	struct memtier_snapshot *spare;
};

int memtier_state_init(struct memtier_state *state,
		       const struct memtier_registry_ops *ops,
		       unsigned int nr_nodes);
void memtier_state_publish(struct memtier_state *state,
			   const struct memtier_topology *topo);
int memtier_state_set_node(struct memtier_state *state,
			   const struct memtier_topology *topo,
			   int node, int id);
void memtier_state_remove_node(struct memtier_state *state,
			       const struct memtier_topology *topo, int node);

#endif /* _MM_MEMTIER_MEMTIER_H */
