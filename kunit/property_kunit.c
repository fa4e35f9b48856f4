// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_property: seeded, reproducible random topologies
 * (up to 64 nodes) and random moves, checked against the properties the
 * design promises rather than against worked answers.
 */
#include <kunit/test.h>
#include <linux/prandom.h>

#include "memtier.h"
#include "fake_machine.h"

#define PROP_TOPOLOGIES	40	/* per seed */
#define PROP_MOVES	8	/* per topology */
#define PROP_MAX_NODES	min(64, MAX_NUMNODES)

static const u64 prop_seeds[] = {
	0x6d656d7469657201ull, 0x2022062200000007ull, 1, 42,
	0xdeadbeefcafef00dull, 0x0123456789abcdefull, 7777, 0xffffffffffffffffull,
};

static void prop_seed_desc(const u64 *seed, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "seed %#llx", *seed);
}

KUNIT_ARRAY_PARAM(prop_seed, prop_seeds, prop_seed_desc);

static u32 prop_below(struct rnd_state *rs, u32 n)
{
	return prandom_u32_state(rs) % n;
}

/* A tier ID: mostly from a few common values, so tiers share nodes. */
static int prop_tier_id(struct rnd_state *rs)
{
	static const int common[] = { 0, 100, 150, 200, 300, 400 };

	if (prop_below(rs, 4))
		return common[prop_below(rs, ARRAY_SIZE(common))];
	return prop_below(rs, MAX_MEMORY_TIER_ID + 1);
}

static struct fake_machine *prop_machine(struct kunit *test,
					 struct rnd_state *rs, u8 *roles,
					 u8 *dist)
{
	int nr = 1 + prop_below(rs, PROP_MAX_NODES), a, b;

	for (a = 0; a < nr; a++) {
		/* Mostly memory nodes, some CPU-only, a few absent. */
		static const u8 pick[] = { FM_CPU_MEM, FM_CPU_MEM, FM_MEM,
					   FM_MEM, FM_MEM, FM_CPU, FM_NONE };

		roles[a] = pick[prop_below(rs, ARRAY_SIZE(pick))];
		dist[a * nr + a] = 10;
		for (b = 0; b < a; b++) {
			/* Few distinct values, so that ties are common. */
			dist[a * nr + b] = 20 + 10 * prop_below(rs, 4);
			dist[b * nr + a] = dist[a * nr + b];
		}
	}
	return fake_machine_new(test, nr, roles, dist);
}

/* Every property of one snapshot against the registry and the machine. */
static void prop_check(struct kunit *test, struct memtier_registry *reg,
		       struct fake_machine *fm, struct memtier_snapshot *snap,
		       struct rnd_state *rs)
{
	const struct memtier_topology *topo = &fm->topo;
	int node, other, tier, next, best, target;
	int top = MEMTIER_NO_TIER, top_cpu = MEMTIER_NO_TIER;
	nodemask_t pref, allowed;

	fake_registry_check(test, reg, fm);

	/* The lowest tier with a CPU node, else the lowest tier: all top. */
	for (node = 0; node < fm->nr_nodes; node++) {
		tier = memtier_registry_node_tier(reg, node);
		if (tier == MEMTIER_NO_TIER)
			continue;
		if (top == MEMTIER_NO_TIER || tier < top)
			top = tier;
		if (node_isset(node, topo->cpu_nodes) &&
		    (top_cpu == MEMTIER_NO_TIER || tier < top_cpu))
			top_cpu = tier;
	}
	if (top_cpu != MEMTIER_NO_TIER)
		top = top_cpu;
	KUNIT_EXPECT_EQ(test, snap->top_tier_id, top);

	for (node = 0; node < fm->nr_nodes; node++) {
		tier = memtier_registry_node_tier(reg, node);
		/* Every memory node in exactly one tier, others in none. */
		KUNIT_EXPECT_EQ(test, tier != MEMTIER_NO_TIER,
				node_isset(node, topo->memory_nodes));
		KUNIT_EXPECT_EQ(test, memtier_snapshot_node_tier(snap, node),
				tier);

		memtier_preferred_targets(snap, node, &pref);
		memtier_allowed_targets(snap, node, &allowed);
		KUNIT_EXPECT_TRUE(test, nodes_subset(pref, allowed));

		/* The next lower tier, and the nearest distance into it. */
		next = MEMTIER_NO_TIER;
		for (other = 0; other < fm->nr_nodes; other++) {
			int t = memtier_registry_node_tier(reg, other);

			if (tier != MEMTIER_NO_TIER && t != MEMTIER_NO_TIER &&
			    t < tier && t > next)
				next = t;
		}
		best = INT_MAX;
		for (other = 0; other < fm->nr_nodes; other++)
			if (next != MEMTIER_NO_TIER &&
			    memtier_registry_node_tier(reg, other) == next)
				best = min(best, (int)fm->dist[node * fm->nr_nodes + other]);

		for (other = 0; other < fm->nr_nodes; other++) {
			int t = memtier_registry_node_tier(reg, other);
			bool lower = tier != MEMTIER_NO_TIER &&
				     t != MEMTIER_NO_TIER && t < tier;

			/* Never into its own tier or a higher one. */
			KUNIT_EXPECT_EQ_MSG(test, node_isset(other, allowed),
					    lower, "node %d (tier %d) -> %d (tier %d)",
					    node, tier, other, t);
			KUNIT_EXPECT_EQ_MSG(test, node_isset(other, pref),
					    lower && t == next &&
					    fm->dist[node * fm->nr_nodes + other] == best,
					    "node %d (tier %d) -> %d (tier %d)",
					    node, tier, other, t);
		}

		target = memtier_next_demotion_node(snap, node,
						    prandom_u32_state(rs));
		if (nodes_empty(pref))
			KUNIT_EXPECT_EQ(test, target, NUMA_NO_NODE);
		else
			KUNIT_EXPECT_TRUE(test, target >= 0 &&
					  node_isset(target, pref));

		/* Top-tier nodes form an upper set of tiers... */
		for (other = 0; other < fm->nr_nodes; other++) {
			int t = memtier_registry_node_tier(reg, other);
			bool is_top;

			if (tier == MEMTIER_NO_TIER || t == MEMTIER_NO_TIER ||
			    t < tier)
				continue;
			if (memtier_node_is_toptier(snap, node)) {
				is_top = memtier_node_is_toptier(snap, other);
				KUNIT_EXPECT_TRUE(test, is_top);
			}
		}
		/* ...starting at the lowest tier with CPUs, else at the lowest. */
		KUNIT_EXPECT_EQ_MSG(test, memtier_node_is_toptier(snap, node),
				    tier == MEMTIER_NO_TIER || tier >= top,
				    "node %d tier %d top %d", node, tier, top);
	}
}

static void memtier_property_random_topologies(struct kunit *test)
{
	u8 *roles, *dist;
	struct rnd_state rs;
	int round, move, node, id, ret;

	roles = kunit_kzalloc(test, MAX_NUMNODES, GFP_KERNEL);
	dist = kunit_kzalloc(test, PROP_MAX_NODES * PROP_MAX_NODES,
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, roles);
	KUNIT_ASSERT_NOT_NULL(test, dist);
	prandom_seed_state(&rs, *(const u64 *)test->param_value);

	for (round = 0; round < PROP_TOPOLOGIES; round++) {
		struct fake_machine *fm = prop_machine(test, &rs, roles, dist);
		struct memtier_registry *reg = fake_registry_new(test);
		struct memtier_snapshot *snap = fake_snapshot(test, reg, fm);

		for (node = 0; node < fm->nr_nodes; node++) {
			if (!node_isset(node, fm->topo.memory_nodes))
				continue;
			ret = memtier_registry_set_node(reg, &fm->topo, node,
							prop_tier_id(&rs));
			KUNIT_ASSERT_EQ(test, 0, ret);
		}
		memtier_snapshot_build(snap, reg, &fm->topo);
		prop_check(test, reg, fm, snap, &rs);

		for (move = 0; move < PROP_MOVES; move++) {
			node = prop_below(&rs, fm->nr_nodes);
			id = prop_tier_id(&rs);
			ret = memtier_registry_set_node(reg, &fm->topo,
							node, id);
			if (node_isset(node, fm->topo.memory_nodes))
				KUNIT_EXPECT_EQ(test, 0, ret);
			else
				KUNIT_EXPECT_EQ(test, -ENODEV, ret);
			memtier_snapshot_build(snap, reg, &fm->topo);
			prop_check(test, reg, fm, snap, &rs);
		}
		if (test->status == KUNIT_FAILURE) {
			kunit_info(test, "first failure in round %d", round);
			return;
		}
	}
}

static struct kunit_case memtier_property_cases[] = {
	KUNIT_CASE_PARAM(memtier_property_random_topologies,
			 prop_seed_gen_params),
	{}
};

static struct kunit_suite memtier_property_suite = {
	.name = "memtier_property",
	.test_cases = memtier_property_cases,
};

kunit_test_suite(memtier_property_suite);
