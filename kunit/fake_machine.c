// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fake machine shared by the memtier suites.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/module.h>

#include "memtier.h"
#include "fake_machine.h"

static int fake_distance(const struct memtier_topology *topo, int from, int to)
{
	const struct fake_machine *fm;

	fm = container_of(topo, struct fake_machine, topo);
	return fm->dist[from * fm->nr_nodes + to];
}

/**
 * fake_machine_new() - describe a machine
 * @test: the test, which owns the memory.
 * @nr_nodes: how many nodes @roles and @dist describe.
 * @roles: FM_* per node.
 * @dist: @nr_nodes x @nr_nodes distances, row-major; NULL for 10 on the
 *	diagonal and 20 elsewhere.
 *
 * Return: the machine.
 */
struct fake_machine *fake_machine_new(struct kunit *test, int nr_nodes,
				      const u8 *roles, const u8 *dist)
{
	struct fake_machine *fm;
	int a, b;

	KUNIT_ASSERT_GT(test, nr_nodes, 0);
	KUNIT_ASSERT_LE(test, nr_nodes, MAX_NUMNODES);
	fm = kunit_kzalloc(test, sizeof(*fm), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fm);
	fm->dist = kunit_kcalloc(test, nr_nodes, nr_nodes, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fm->dist);
	fm->nr_nodes = nr_nodes;
	fm->topo.distance = fake_distance;
	for (a = 0; a < nr_nodes; a++) {
		if (roles[a] == FM_CPU_MEM || roles[a] == FM_MEM)
			node_set(a, fm->topo.memory_nodes);
		if (roles[a] == FM_CPU_MEM || roles[a] == FM_CPU)
			node_set(a, fm->topo.cpu_nodes);
		for (b = 0; b < nr_nodes; b++)
			fm->dist[a * nr_nodes + b] = dist ? dist[a * nr_nodes + b] :
					 (a == b ? 10 : 20);
	}
	return fm;
}

/**
 * fake_registry_empty() - take every node out, which frees every tier
 * @reg: the registry.
 *
 * The kernel never tears its registry down; a test must, or leak its
 * tiers.
 */
void fake_registry_empty(struct memtier_registry *reg)
{
	int node;

	for (node = 0; node < MAX_NUMNODES; node++)
		memtier_registry_remove_node(reg, node);
}

static void fake_registry_destroy(void *reg)
{
	fake_registry_empty(reg);
}

/**
 * fake_registry_new() - an empty registry, destroyed when the test ends
 * @test: the test.
 *
 * Return: the registry.
 */
struct memtier_registry *fake_registry_new(struct kunit *test)
{
	struct memtier_registry *reg;

	reg = kunit_kzalloc(test, sizeof(*reg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, reg);
	memtier_registry_init(reg, NULL);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fake_registry_destroy,
						  reg));
	return reg;
}

/**
 * fake_place() - put each memory node in a tier
 * @test: the test.
 * @reg: the registry.
 * @fm: the machine.
 * @tier_of_node: a tier ID per node of @fm, or MEMTIER_NO_TIER to skip.
 */
void fake_place(struct kunit *test, struct memtier_registry *reg,
		struct fake_machine *fm, const int *tier_of_node)
{
	int node, ret;

	for (node = 0; node < fm->nr_nodes; node++) {
		if (tier_of_node[node] == MEMTIER_NO_TIER)
			continue;
		ret = memtier_registry_set_node(reg, &fm->topo, node,
						tier_of_node[node]);
		KUNIT_ASSERT_EQ_MSG(test, 0, ret, "node %d tier %d", node,
				    tier_of_node[node]);
	}
}

static void fake_snapshot_free(void *snap)
{
	memtier_snapshot_free(snap);
}

/**
 * fake_snapshot() - build a snapshot, freed when the test ends
 * @test: the test.
 * @reg: the registry.
 * @fm: the machine.
 *
 * It covers the machine's nodes, as the kernel's covers nr_node_ids.
 *
 * Return: the snapshot.
 */
struct memtier_snapshot *fake_snapshot(struct kunit *test,
				       struct memtier_registry *reg,
				       struct fake_machine *fm)
{
	struct memtier_snapshot *snap;

	snap = memtier_snapshot_alloc(fm->nr_nodes, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, snap);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fake_snapshot_free,
						  snap));
	memtier_snapshot_build(snap, reg, &fm->topo);
	return snap;
}

/**
 * fake_state_destroy() - free a state's tiers and both its snapshots
 * @state: the state; no reader may be left.
 */
void fake_state_destroy(struct memtier_state *state)
{
	fake_registry_empty(&state->reg);
	memtier_snapshot_free(rcu_dereference_protected(state->snap, true));
	RCU_INIT_POINTER(state->snap, NULL);
	memtier_snapshot_free(state->spare);
	state->spare = NULL;
}

/**
 * fake_mask() - a nodemask from a list of nodes
 * @nr: how many nodes.
 * @nodes: the nodes.
 *
 * Return: the mask.
 */
nodemask_t fake_mask(int nr, const int *nodes)
{
	nodemask_t mask = NODE_MASK_NONE;
	int i;

	for (i = 0; i < nr; i++)
		node_set(nodes[i], mask);
	return mask;
}

/**
 * fake_registry_check() - the registry's invariants
 * @test: the test.
 * @reg: the registry.
 * @fm: the machine.
 *
 * Tiers are in strictly descending ID order, none is empty, every node
 * in a tier is a memory node of @fm, and each node's tier pointer agrees
 * with the tiers' node lists: so a node is in at most one tier.
 */
void fake_registry_check(struct kunit *test, struct memtier_registry *reg,
			 struct fake_machine *fm)
{
	nodemask_t seen = NODE_MASK_NONE;
	struct memtier_tier *tier;
	int prev = MAX_MEMORY_TIER_ID + 1, node;

	memtier_for_each_tier(tier, reg) {
		KUNIT_EXPECT_LT(test, tier->id, prev);
		KUNIT_EXPECT_TRUE(test, memtier_tier_id_valid(tier->id));
		KUNIT_EXPECT_FALSE(test, nodes_empty(tier->nodes));
		KUNIT_EXPECT_FALSE(test, nodes_intersects(seen, tier->nodes));
		KUNIT_EXPECT_TRUE(test, nodes_subset(tier->nodes,
						     fm->topo.memory_nodes));
		nodes_or(seen, seen, tier->nodes);
		for_each_node_mask(node, tier->nodes)
			KUNIT_EXPECT_PTR_EQ(test, reg->node_tier[node], tier);
		prev = tier->id;
	}
	for (node = 0; node < MAX_NUMNODES; node++)
		KUNIT_EXPECT_EQ(test, node_isset(node, seen),
				!!reg->node_tier[node]);
}

MODULE_DESCRIPTION("KUnit suites for the memory tiering core");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
