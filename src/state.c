// SPDX-License-Identifier: GPL-2.0-only
/*
 * The registry and the snapshot its readers see, changed as one.
 *
 * Every change to the registry is followed by a new snapshot, published
 * with one pointer swap: a reader under RCU sees the old demotion
 * targets or the new ones, never none and never a mix.  The snapshot
 * that is replaced is kept, once a grace period has passed, as the spare
 * that the next change builds into.  Two snapshots are allocated when
 * the state is set up and none after that, so no change fails for lack
 * of memory for targets; taking a node out, which memory offline must
 * do once the node has gone, cannot fail at all.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/rcupdate.h>

#include "memtier.h"

/**
 * memtier_state_init() - set up an empty registry and its snapshots
 * @state: the state.
 * @ops: the owner's registry callbacks, or NULL.
 * @nr_nodes: the node IDs to cover, nr_node_ids in the kernel.
 *
 * An empty snapshot is published, so readers always find one.
 *
 * Context: may sleep.
 * Return: 0, or -ENOMEM (nothing is left allocated).
 */
int memtier_state_init(struct memtier_state *state,
		       const struct memtier_registry_ops *ops,
		       unsigned int nr_nodes)
{
	struct memtier_snapshot *snap, *spare;
	struct memtier_topology none = {};

	snap = memtier_snapshot_alloc(nr_nodes, GFP_KERNEL);
	spare = memtier_snapshot_alloc(nr_nodes, GFP_KERNEL);
	if (!snap || !spare) {
		memtier_snapshot_free(snap);
		memtier_snapshot_free(spare);
		return -ENOMEM;
	}
	memtier_registry_init(&state->reg, ops);
	memtier_snapshot_build(snap, &state->reg, &none);
	RCU_INIT_POINTER(state->snap, snap);
	state->spare = spare;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_state_init);

/**
 * memtier_state_publish() - publish the targets of the registry as it is
 * @state: the state.
 * @topo: the machine.
 *
 * For callers that change the registry directly, several nodes at a time
 * (boot), and publish once.
 *
 * Context: the owner's lock held; may sleep (waits for a grace period).
 */
void memtier_state_publish(struct memtier_state *state,
			   const struct memtier_topology *topo)
{
	struct memtier_snapshot *old, *snap = state->spare;

	memtier_snapshot_build(snap, &state->reg, topo);
	old = rcu_replace_pointer(state->snap, snap, true);
	/* Readers of @old are gone after this: it can be built into again. */
	synchronize_rcu();
	state->spare = old;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_state_publish);

/**
 * memtier_state_set_node() - move a memory node to tier @id and publish
 * @state: the state.
 * @topo: the machine.
 * @node: the node.
 * @id: the tier ID.
 *
 * Nothing is published when @node is in tier @id already.
 *
 * Context: the owner's lock held; may sleep.
 * Return: 0, or an error of memtier_registry_set_node(), in which case
 * neither the registry nor the published targets change.
 */
int memtier_state_set_node(struct memtier_state *state,
			   const struct memtier_topology *topo,
			   int node, int id)
{
	int old = memtier_registry_node_tier(&state->reg, node);
	int ret;

	ret = memtier_registry_set_node(&state->reg, topo, node, id);
	/* A node written into its own tier changes no target. */
	if (ret || old == id)
		return ret;
	memtier_state_publish(state, topo);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_state_set_node);

/**
 * memtier_state_remove_node() - take a node out of its tier and publish
 * @state: the state.
 * @topo: the machine, in which @node may already have no memory.
 * @node: the node; one in no tier is ignored.
 *
 * Allocates nothing and cannot fail: memory offline calls it after the
 * node's memory is gone, when there is no going back.
 *
 * Context: the owner's lock held; may sleep.
 */
void memtier_state_remove_node(struct memtier_state *state,
			       const struct memtier_topology *topo, int node)
{
	memtier_registry_remove_node(&state->reg, node);
	memtier_state_publish(state, topo);
}
EXPORT_SYMBOL_IF_KUNIT(memtier_state_remove_node);
