// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_property: seeded, reproducible random topologies
 * (up to 64 nodes), random tier entries (some not tier IDs) and random
 * moves, checked against the definitions the design gives and the
 * properties it promises rather than against worked answers.
 */
#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/minmax.h>
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

/*
 * A node's tier entry: mostly a tier ID from a few common values, so that
 * tiers share nodes; some from the whole range; a few not a tier at all.
 */
static int prop_tier_entry(struct rnd_state *rs)
{
	static const int common[] = { 0, 100, 150, 200, 300, 400 };
	static const int none[] = { MEMTIER_NO_TIER, MEMTIER_NO_TIER, -7, 401,
				    INT_MIN, INT_MAX };

	switch (prop_below(rs, 8)) {
	case 0:
		return none[prop_below(rs, ARRAY_SIZE(none))];
	case 1:
		return prop_below(rs, 401);
	default:
		return common[prop_below(rs, ARRAY_SIZE(common))];
	}
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

/*
 * A node's tier as the design defines it, written out apart from the
 * library: a memory node of the machine with an entry from 0 to 400.
 */
static int prop_tier(const struct fake_machine *fm, const int *tiers,
		     int node)
{
	if (node < 0 || node >= fm->nr_nodes ||
	    !node_isset(node, fm->topo.memory_nodes) ||
	    tiers[node] < 0 || tiers[node] > 400)
		return MEMTIER_NO_TIER;
	return tiers[node];
}

/* The boundary before, kept when no memory node has CPUs. */
#define PROP_PREV_TOP 337

/* The lowest tier with a CPU node, else the boundary before. */
static int prop_top(const struct fake_machine *fm, const int *tiers)
{
	int top_cpu = MEMTIER_NO_TIER, node, tier;

	for (node = 0; node < fm->nr_nodes; node++) {
		tier = prop_tier(fm, tiers, node);
		if (tier == MEMTIER_NO_TIER)
			continue;
		if (node_isset(node, fm->topo.cpu_nodes) &&
		    (top_cpu == MEMTIER_NO_TIER || tier < top_cpu))
			top_cpu = tier;
	}
	return top_cpu != MEMTIER_NO_TIER ? top_cpu : PROP_PREV_TOP;
}

static int prop_dist(const struct fake_machine *fm, int from, int to)
{
	return fm->dist[from * fm->nr_nodes + to];
}

/* One node's targets and top-tier answer against the definitions. */
static void prop_check_node(struct kunit *test, const struct fake_machine *fm,
			    const int *tiers, int node, int top)
{
	int tier = prop_tier(fm, tiers, node), next = MEMTIER_NO_TIER;
	nodemask_t want_pref = NODE_MASK_NONE, want_allowed = NODE_MASK_NONE;
	nodemask_t pref, allowed;
	int other, t, best = INT_MAX, far = -1;

	/*
	 * Every node of every lower tier; the preferred ones from the next
	 * lower, at one distance, no nearer than the nearest of that tier
	 * and no farther than the fallback order's penalties (a CPU, a
	 * lower number) allow.  memtier_mainline checks the exact order.
	 */
	if (tier != MEMTIER_NO_TIER) {
		for (other = 0; other < fm->nr_nodes; other++) {
			t = prop_tier(fm, tiers, other);
			if (t == MEMTIER_NO_TIER || t >= tier)
				continue;
			node_set(other, want_allowed);
			next = max(next, t);
		}
		for_each_node_mask(other, want_allowed) {
			if (tiers[other] == next) {
				node_set(other, want_pref);
				best = min(best, prop_dist(fm, node, other));
			}
		}
	}

	fake_targets(fm, tiers, node, &pref, &allowed);
	KUNIT_EXPECT_TRUE_MSG(test, nodes_equal(allowed, want_allowed),
			      "node %d (tier %d): allowed %*pbl, want %*pbl",
			      node, tier, nodemask_pr_args(&allowed),
			      nodemask_pr_args(&want_allowed));
	KUNIT_EXPECT_TRUE_MSG(test, nodes_subset(pref, want_pref),
			      "node %d (tier %d): preferred %*pbl, not within %*pbl",
			      node, tier, nodemask_pr_args(&pref),
			      nodemask_pr_args(&want_pref));
	for_each_node_mask(other, pref) {
		t = prop_dist(fm, node, other);
		KUNIT_EXPECT_TRUE_MSG(test, far == -1 || t == far,
				      "node %d: preferred at %d and %d",
				      node, far, t);
		KUNIT_EXPECT_LE_MSG(test, t, best + 2, "node %d", node);
		far = t;
	}
	/* Preferred targets are allowed ones, and there are some if any. */
	KUNIT_EXPECT_TRUE(test, nodes_subset(pref, allowed));
	KUNIT_EXPECT_EQ(test, nodes_empty(pref), nodes_empty(allowed));

	if (node < 0 || node >= fm->nr_nodes)
		return;
	/* Top tier: from the lowest tier with CPUs, else as before, up. */
	KUNIT_EXPECT_EQ_MSG(test, memtier_is_toptier(tier, top),
			    tier == MEMTIER_NO_TIER || tier >= top,
			    "node %d tier %d top %d", node, tier, top);
	/* ...so top-tier nodes form an upper set of tiers. */
	if (tier == MEMTIER_NO_TIER || !memtier_is_toptier(tier, top))
		return;
	for (other = 0; other < fm->nr_nodes; other++) {
		t = prop_tier(fm, tiers, other);
		if (t != MEMTIER_NO_TIER && t >= tier)
			KUNIT_EXPECT_TRUE(test, memtier_is_toptier(t, top));
	}
}

/* Every property of one machine and its tier entries. */
static void prop_check(struct kunit *test, const struct fake_machine *fm,
		       const int *tiers)
{
	int top = prop_top(fm, tiers), node;

	KUNIT_EXPECT_EQ(test,
			memtier_top_tier_id(&fm->topo, tiers, PROP_PREV_TOP), top);
	/* The machine's nodes, and the node numbers just outside them. */
	for (node = -1; node <= fm->nr_nodes; node++)
		prop_check_node(test, fm, tiers, node, top);
	prop_check_node(test, fm, tiers, MAX_NUMNODES, top);
}

static void memtier_property_random_topologies(struct kunit *test)
{
	u8 *roles, *dist;
	struct rnd_state rs;
	int round, move, node, *tiers;

	roles = kunit_kzalloc(test, MAX_NUMNODES, GFP_KERNEL);
	dist = kunit_kzalloc(test, PROP_MAX_NODES * PROP_MAX_NODES,
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, roles);
	KUNIT_ASSERT_NOT_NULL(test, dist);
	prandom_seed_state(&rs, *(const u64 *)test->param_value);

	for (round = 0; round < PROP_TOPOLOGIES; round++) {
		struct fake_machine *fm = prop_machine(test, &rs, roles, dist);

		tiers = fake_tiers(test, fm, NULL);
		for (node = 0; node < fm->nr_nodes; node++)
			tiers[node] = prop_tier_entry(&rs);
		/* A tier ID past the machine's nodes, never to be read. */
		if (fm->nr_nodes < MAX_NUMNODES) {
			node = fm->nr_nodes +
			       prop_below(&rs, MAX_NUMNODES - fm->nr_nodes);
			tiers[node] = prop_below(&rs, 401);
		}
		prop_check(test, fm, tiers);

		for (move = 0; move < PROP_MOVES; move++) {
			node = prop_below(&rs, fm->nr_nodes);
			/* Memory going or coming, its entry left as it was. */
			if (prop_below(&rs, 4))
				tiers[node] = prop_tier_entry(&rs);
			else if (node_isset(node, fm->topo.memory_nodes))
				node_clear(node, fm->topo.memory_nodes);
			else
				node_set(node, fm->topo.memory_nodes);
			prop_check(test, fm, tiers);
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
