// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fake machine shared by the memtier suites.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/topology.h>

#include "memtier.h"
#include "fake_machine.h"

static int fake_distance(const struct memtier_topology *topo, int from, int to)
{
	const struct fake_machine *fm;

	fm = container_of(topo, struct fake_machine, topo);
	return fm->dist[from * fm->nr_nodes + to];
}

/*
 * find_next_best_node() of mm/page_alloc.c, on the fake machine: the
 * nearest memory node not yet used, a node below @node and a node with
 * CPUs each one further, the less loaded first among equals, then the
 * lower numbered.
 */
static int fake_next_best(const struct memtier_topology *topo, int node,
			  nodemask_t *used)
{
	const struct fake_machine *fm;
	int n, val, min_val = INT_MAX, best_node = NUMA_NO_NODE;

	fm = container_of(topo, struct fake_machine, topo);
	if (!node_isset(node, *used) && node_isset(node, topo->memory_nodes)) {
		node_set(node, *used);
		return node;
	}
	for_each_node_mask(n, topo->memory_nodes) {
		if (node_isset(n, *used))
			continue;
		val = fake_distance(topo, node, n);
		val += (n < node);
		if (node_isset(n, topo->cpu_nodes))
			val += PENALTY_FOR_NODE_WITH_CPUS;
		val *= MAX_NUMNODES;
		val += fm->load[n];
		if (val < min_val) {
			min_val = val;
			best_node = n;
		}
	}
	if (best_node >= 0)
		node_set(best_node, *used);
	return best_node;
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
	fm->load = kunit_kcalloc(test, nr_nodes, sizeof(*fm->load), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fm->load);
	fm->guard = ~0UL;
	fm->nr_nodes = nr_nodes;
	fm->topo.distance = fake_distance;
	fm->topo.next_best = fake_next_best;
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
 * fake_tiers() - the tier ID of each node, as the kernel keeps it
 * @test: the test, which owns the memory.
 * @fm: the machine.
 * @tier_of_node: an entry per node of @fm, copied as it is: a tier ID,
 *	%MEMTIER_NO_TIER or any other value; NULL for none.
 *
 * Every other entry is %MEMTIER_NO_TIER.  Around the %MAX_NUMNODES
 * entries the library may read are entries it must not, each
 * %FAKE_TIER_GUARD, a valid tier ID: %FAKE_TIER_GUARDS before node 0's
 * and one after the last node's.  A read out of range then gives a
 * wrong answer that a test can see, not whatever the allocator left.
 *
 * Return: the entries, indexed by node; the test may change them, and
 * they are freed when it ends.
 */
int *fake_tiers(struct kunit *test, const struct fake_machine *fm,
		const int *tier_of_node)
{
	int *tiers, node;

	tiers = kunit_kmalloc_array(test,
				    FAKE_TIER_GUARDS + MAX_NUMNODES + 1,
				    sizeof(*tiers), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tiers);
	tiers += FAKE_TIER_GUARDS;
	for (node = -FAKE_TIER_GUARDS; node < 0; node++)
		tiers[node] = FAKE_TIER_GUARD;
	for (node = 0; node < MAX_NUMNODES; node++)
		tiers[node] = MEMTIER_NO_TIER;
	tiers[MAX_NUMNODES] = FAKE_TIER_GUARD;
	if (tier_of_node) {
		for (node = 0; node < fm->nr_nodes; node++)
			tiers[node] = tier_of_node[node];
	}
	return tiers;
}

/**
 * fake_targets() - a node's demotion targets, over masks full of junk
 * @fm: the machine.
 * @node_tier: the tier ID of each node, as from fake_tiers().
 * @node: the node, any value.
 * @preferred: set to its preferred targets.
 * @allowed: set to its allowed targets.
 *
 * Both masks hold every node when memtier_demotion_targets() is called,
 * so that a mask it leaves unwritten shows.
 */
void fake_targets(const struct fake_machine *fm, const int *node_tier,
		  int node, nodemask_t *preferred, nodemask_t *allowed)
{
	nodes_setall(*preferred);
	nodes_setall(*allowed);
	memtier_demotion_targets(&fm->topo, node_tier, node, preferred,
				 allowed);
}

/**
 * fake_expect_targets() - check a node's demotion targets
 * @test: the test.
 * @fm: the machine.
 * @node_tier: the tier ID of each node, as from fake_tiers().
 * @node: the node, any value.
 * @preferred: the preferred targets it must get.
 * @allowed: the allowed targets it must get.
 *
 * As fake_targets(), then one expectation per mask, naming the node.
 */
void fake_expect_targets(struct kunit *test, const struct fake_machine *fm,
			 const int *node_tier, int node,
			 const nodemask_t *preferred,
			 const nodemask_t *allowed)
{
	nodemask_t got_preferred, got_allowed;

	fake_targets(fm, node_tier, node, &got_preferred, &got_allowed);
	KUNIT_EXPECT_TRUE_MSG(test, nodes_equal(got_preferred, *preferred),
			      "node %d: preferred %*pbl, want %*pbl", node,
			      nodemask_pr_args(&got_preferred),
			      nodemask_pr_args(preferred));
	KUNIT_EXPECT_TRUE_MSG(test, nodes_equal(got_allowed, *allowed),
			      "node %d: allowed %*pbl, want %*pbl", node,
			      nodemask_pr_args(&got_allowed),
			      nodemask_pr_args(allowed));
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

MODULE_DESCRIPTION("KUnit suites for the memory tiering core");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
