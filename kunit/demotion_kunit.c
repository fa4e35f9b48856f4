// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_demotion: preferred and allowed demotion targets,
 * from the documented examples and the edges around them.
 */
#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/string.h>

#include "memtier.h"
#include "fake_machine.h"

#define MAX_EX_NODES 4

/**
 * struct demotion_example - a documented machine and its expected targets
 * @name: where it is documented.
 * @nr_nodes: nodes described.
 * @roles: FM_* per node.
 * @dist: distance matrix, row-major.
 * @tier: tier ID per node.
 * @preferred: expected preferred targets per node, as a bitmap.
 * @allowed: expected allowed targets per node, as a bitmap.
 */
struct demotion_example {
	const char *name;
	int nr_nodes;
	u8 roles[MAX_EX_NODES];
	u8 dist[MAX_EX_NODES * MAX_EX_NODES];
	int tier[MAX_EX_NODES];
	unsigned long preferred[MAX_EX_NODES];
	unsigned long allowed[MAX_EX_NODES];
};

static const struct demotion_example demotion_examples[] = {
	{
		/*
		 * Documentation/admin-guide/mm/memory-tiering.rst's example:
		 * nodes 0-1 CPU+DRAM, nodes 2-3 PMEM.
		 */
		.name = "admin-guide DRAM+PMEM",
		.nr_nodes = 4,
		.roles = { FM_CPU_MEM, FM_CPU_MEM, FM_MEM, FM_MEM },
		.dist = { 10, 20, 30, 40,
			  20, 10, 40, 30,
			  30, 40, 10, 40,
			  40, 30, 40, 10 },
		.tier = { MEMORY_TIER_DRAM, MEMORY_TIER_DRAM,
			  MEMORY_TIER_PMEM, MEMORY_TIER_PMEM },
		.preferred = { BIT(2), BIT(3), 0, 0 },
		.allowed = { BIT(2) | BIT(3), BIT(2) | BIT(3), 0, 0 },
	}, {
		/* mm/memory-tiers.c (6.12), example 1: the same machine. */
		.name = "6.12 example 1",
		.nr_nodes = 4,
		.roles = { FM_CPU_MEM, FM_CPU_MEM, FM_MEM, FM_MEM },
		.dist = { 10, 20, 30, 40,
			  20, 10, 40, 30,
			  30, 40, 10, 40,
			  40, 30, 40, 10 },
		.tier = { 200, 200, 100, 100 },
		.preferred = { BIT(2), BIT(3), 0, 0 },
		.allowed = { BIT(2) | BIT(3), BIT(2) | BIT(3), 0, 0 },
	}, {
		/*
		 * mm/memory-tiers.c (6.12), example 2: nodes 0-1 CPU+DRAM,
		 * node 2 memory-only DRAM, all in one tier.
		 */
		.name = "6.12 example 2",
		.nr_nodes = 3,
		.roles = { FM_CPU_MEM, FM_CPU_MEM, FM_MEM },
		.dist = { 10, 20, 30,
			  20, 10, 30,
			  30, 30, 10 },
		.tier = { 200, 200, 200 },
		.preferred = { 0, 0, 0 },
		.allowed = { 0, 0, 0 },
	}, {
		/*
		 * mm/memory-tiers.c (6.12), example 3, and the admin guide's sysfs
		 * example 1: node 0 CPU+DRAM, node 1 HBM, node 2 PMEM.
		 */
		.name = "6.12 example 3",
		.nr_nodes = 3,
		.roles = { FM_CPU_MEM, FM_MEM, FM_MEM },
		.dist = { 10, 20, 30,
			  20, 10, 40,
			  30, 40, 10 },
		.tier = { MEMORY_TIER_DRAM, MEMORY_TIER_HBM_GPU,
			  MEMORY_TIER_PMEM },
		.preferred = { BIT(2), BIT(0), 0 },
		.allowed = { BIT(2), BIT(0) | BIT(2), 0 },
	},
};

static void demotion_example_desc(const struct demotion_example *ex,
				  char *desc)
{
	strscpy(desc, ex->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(demotion_example, demotion_examples, demotion_example_desc);

static nodemask_t mask_of_bits(unsigned long bits)
{
	nodemask_t mask = NODE_MASK_NONE;

	mask.bits[0] = bits;
	return mask;
}

/* A node's expected targets, as bitmaps of nodes below BITS_PER_LONG. */
static void expect_targets(struct kunit *test, const struct fake_machine *fm,
			   const int *tiers, int node, unsigned long preferred,
			   unsigned long allowed)
{
	nodemask_t want_preferred = mask_of_bits(preferred);
	nodemask_t want_allowed = mask_of_bits(allowed);

	fake_expect_targets(test, fm, tiers, node, &want_preferred,
			    &want_allowed);
}

static void memtier_demotion_documented(struct kunit *test)
{
	const struct demotion_example *ex = test->param_value;
	struct fake_machine *fm;
	int *tiers, node;

	fm = fake_machine_new(test, ex->nr_nodes, ex->roles, ex->dist);
	tiers = fake_tiers(test, fm, ex->tier);

	for (node = 0; node < ex->nr_nodes; node++)
		expect_targets(test, fm, tiers, node, ex->preferred[node],
			       ex->allowed[node]);
}

/*
 * Each tier's lower_tier_mask, as mainline calls it: every node of a
 * tier may demote to the same nodes, whatever its distances, and only
 * its preferred targets depend on where it sits.
 */
static void memtier_demotion_lower_tier_mask(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_CPU_MEM, FM_MEM,
				    FM_MEM };
	static const u8 dist[] = { 10, 20, 30, 25, 45,
				   20, 10, 35, 45, 25,
				   30, 35, 10, 30, 20,
				   25, 45, 30, 10, 40,
				   45, 25, 20, 40, 10 };
	static const int tier[] = { 300, 300, 200, 100, 100 };
	struct fake_machine *fm = fake_machine_new(test, 5, roles, dist);
	int *tiers = fake_tiers(test, fm, tier);

	/* Node 3 is nearer to node 0 than node 2, but a tier further down. */
	expect_targets(test, fm, tiers, 0, BIT(2), BIT(2) | BIT(3) | BIT(4));
	expect_targets(test, fm, tiers, 1, BIT(2), BIT(2) | BIT(3) | BIT(4));
	expect_targets(test, fm, tiers, 2, BIT(4), BIT(3) | BIT(4));
	expect_targets(test, fm, tiers, 3, 0, 0);
	expect_targets(test, fm, tiers, 4, 0, 0);
}

static void memtier_demotion_single_tier(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_MEM, FM_CPU_MEM };
	static const int tier[] = { 250, 250, 250, 250 };
	struct fake_machine *fm = fake_machine_new(test, 4, roles, NULL);
	int *tiers = fake_tiers(test, fm, tier);
	int node;

	for (node = 0; node < 4; node++)
		expect_targets(test, fm, tiers, node, 0, 0);
}

/* Demotion does not need CPUs: memory-only tiers still demote in order. */
static void memtier_demotion_cpuless_only(struct kunit *test)
{
	static const u8 roles[] = { FM_MEM, FM_MEM, FM_MEM };
	static const int tier[] = { 300, 200, 100 };
	struct fake_machine *fm = fake_machine_new(test, 3, roles, NULL);
	int *tiers = fake_tiers(test, fm, tier);

	expect_targets(test, fm, tiers, 0, BIT(1), BIT(1) | BIT(2));
	expect_targets(test, fm, tiers, 1, BIT(2), BIT(2));
	expect_targets(test, fm, tiers, 2, 0, 0);
}

/*
 * A CPU-only node is in no tier: it neither demotes nor is a target.
 * Nor is an absent one; and the entries of nodes without memory are not
 * read, valid tier IDs or not.
 */
static void memtier_demotion_cpu_only_node(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU, FM_MEM, FM_MEM, FM_CPU, FM_NONE };
	static const int tier[] = { MEMTIER_NO_TIER, 200, 100,
				    MEMTIER_NO_TIER, MEMTIER_NO_TIER };
	struct fake_machine *fm = fake_machine_new(test, 5, roles, NULL);
	int *tiers = fake_tiers(test, fm, tier);
	int pass;

	for (pass = 0; pass < 2; pass++) {
		expect_targets(test, fm, tiers, 0, 0, 0);
		expect_targets(test, fm, tiers, 1, BIT(2), BIT(2));
		expect_targets(test, fm, tiers, 2, 0, 0);
		expect_targets(test, fm, tiers, 3, 0, 0);
		expect_targets(test, fm, tiers, 4, 0, 0);

		/*
		 * Again with IDs the nodes without memory would get: read,
		 * node 0 would demote, and node 3 or 4 would be the next
		 * tier of node 1 and of node 2.
		 */
		tiers[0] = 300;
		tiers[3] = 150;
		tiers[4] = 50;
	}
}

/*
 * Node numbers out of range, or absent, are nobody's: no targets.  Read
 * as if in range, -1 and -7 would be memory nodes in tier 400, through
 * fake_machine's and fake_tiers()' guards.
 */
static void memtier_demotion_bad_node(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_NONE };
	static const int tier[] = { 200, 100, MEMTIER_NO_TIER };
	/* The extremes last: a broken range check may crash on them. */
	static const int bad[] = { -1, -7, 2, MAX_NUMNODES, MAX_NUMNODES + 1,
				   INT_MIN, INT_MAX };
	struct fake_machine *fm = fake_machine_new(test, 3, roles, NULL);
	int *tiers = fake_tiers(test, fm, tier);
	unsigned int i;

	/* Node 0, the other side of -1, does demote. */
	expect_targets(test, fm, tiers, 0, BIT(1), BIT(1));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		expect_targets(test, fm, tiers, bad[i], 0, 0);
}

/*
 * Both ends of the node range, on a machine of %MAX_NUMNODES nodes: the
 * last node demotes and is a target, the one after it is nobody.
 * Read as if in range, %MAX_NUMNODES would be the first bit of the CPU
 * mask (node 0 has CPUs) and fake_tiers()' guard, a memory node in tier
 * 400: a range check one off shows.
 */
static void memtier_demotion_node_range_ends(struct kunit *test)
{
	const int last = MAX_NUMNODES - 1;
	nodemask_t none = NODE_MASK_NONE, want;
	struct fake_machine *fm;
	int *tiers;
	u8 *roles;

	roles = kunit_kmalloc(test, MAX_NUMNODES, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, roles);
	memset(roles, FM_NONE, MAX_NUMNODES);
	roles[0] = FM_CPU_MEM;
	roles[last] = FM_MEM;
	fm = fake_machine_new(test, MAX_NUMNODES, roles, NULL);
	tiers = fake_tiers(test, fm, NULL);
	tiers[0] = 200;
	tiers[last] = 100;

	want = FAKE_MASK(last);
	fake_expect_targets(test, fm, tiers, 0, &want, &want);
	fake_expect_targets(test, fm, tiers, last, &none, &none);
	fake_expect_targets(test, fm, tiers, MAX_NUMNODES, &none, &none);

	/* The last node above node 0: now it demotes, to node 0. */
	tiers[last] = 300;
	want = FAKE_MASK(0);
	fake_expect_targets(test, fm, tiers, last, &want, &want);
	fake_expect_targets(test, fm, tiers, 0, &none, &none);
	fake_expect_targets(test, fm, tiers, MAX_NUMNODES, &none, &none);
}

/* HBM above two DRAM nodes: it prefers the nearer DRAM node. */
static void memtier_demotion_hbm_above_dram(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_CPU_MEM, FM_MEM, FM_MEM };
	static const u8 dist[] = { 10, 20, 15, 40,
				   20, 10, 25, 30,
				   15, 25, 10, 40,
				   40, 30, 40, 10 };
	static const int tier[] = { MEMORY_TIER_DRAM, MEMORY_TIER_DRAM,
				    MEMORY_TIER_HBM_GPU, MEMORY_TIER_PMEM };
	struct fake_machine *fm = fake_machine_new(test, 4, roles, dist);
	int *tiers = fake_tiers(test, fm, tier);

	expect_targets(test, fm, tiers, 2, BIT(0), BIT(0) | BIT(1) | BIT(3));
	expect_targets(test, fm, tiers, 0, BIT(3), BIT(3));
	expect_targets(test, fm, tiers, 1, BIT(3), BIT(3));
	expect_targets(test, fm, tiers, 3, 0, 0);
}

/* Preferred comes from the next lower tier only, even if a lower one is nearer. */
static void memtier_demotion_next_tier_not_nearest(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_MEM };
	static const u8 dist[] = { 10, 40, 15,
				   40, 10, 40,
				   15, 40, 10 };
	static const int tier[] = { 300, 200, 100 };
	struct fake_machine *fm = fake_machine_new(test, 3, roles, dist);
	int *tiers = fake_tiers(test, fm, tier);

	expect_targets(test, fm, tiers, 0, BIT(1), BIT(1) | BIT(2));
	expect_targets(test, fm, tiers, 1, BIT(2), BIT(2));
}

/*
 * The next lower tier is the next ID that a memory node has, however far
 * down: 300 demotes to 150 with nothing at 200, and 150 to 149.
 */
static void memtier_demotion_next_tier_skips_gaps(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_MEM };
	static const u8 dist[] = { 10, 40, 15,
				   40, 10, 35,
				   15, 35, 10 };
	static const int tier[] = { 300, 150, 149 };
	struct fake_machine *fm = fake_machine_new(test, 3, roles, dist);
	int *tiers = fake_tiers(test, fm, tier);

	expect_targets(test, fm, tiers, 0, BIT(1), BIT(1) | BIT(2));
	expect_targets(test, fm, tiers, 1, BIT(2), BIT(2));
	expect_targets(test, fm, tiers, 2, 0, 0);

	/* 151 is just above 150: node 2 is the next tier down now. */
	tiers[2] = 151;
	expect_targets(test, fm, tiers, 0, BIT(2), BIT(1) | BIT(2));
	expect_targets(test, fm, tiers, 2, BIT(1), BIT(1));
	expect_targets(test, fm, tiers, 1, 0, 0);
}

/* Equally near targets are all preferred. */
static void memtier_demotion_distance_ties(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_MEM, FM_MEM };
	static const u8 dist[] = { 10, 30, 30, 50,
				   30, 10, 40, 40,
				   30, 40, 10, 40,
				   50, 40, 40, 10 };
	static const int tier[] = { 200, 100, 100, 100 };
	struct fake_machine *fm = fake_machine_new(test, 4, roles, dist);
	int *tiers = fake_tiers(test, fm, tier);

	expect_targets(test, fm, tiers, 0, BIT(1) | BIT(2),
		       BIT(1) | BIT(2) | BIT(3));
	expect_targets(test, fm, tiers, 1, 0, 0);
	expect_targets(test, fm, tiers, 2, 0, 0);
	expect_targets(test, fm, tiers, 3, 0, 0);
}

/*
 * The fallback order, not the distance alone, picks the preferred nodes,
 * as find_next_best_node() does in mainline: from node 3, node 1 (20
 * away, CPUs, one page of load) scores (20 + 1 + 1) * MAX_NUMNODES + 1
 * and node 2 (21 away, no CPUs) (21 + 1) * MAX_NUMNODES, so node 2 comes
 * first, and node 1, at another distance, is not preferred: the nearer
 * node is not a preferred target.  Without the load, node 1 comes first
 * (a tie goes to the lower number) and is the only one.
 */
static void memtier_demotion_fallback_order(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU, FM_CPU_MEM, FM_MEM, FM_CPU_MEM };
	static const u8 dist[] = { 10, 20, 20, 20,
				   20, 10, 20, 20,
				   20, 20, 10, 21,
				   20, 20, 21, 10 };
	static const int tier[] = { MEMTIER_NO_TIER, 100, 100, 200 };
	struct fake_machine *fm = fake_machine_new(test, 4, roles, dist);
	int *tiers = fake_tiers(test, fm, tier);

	fm->load[1] = 1;
	expect_targets(test, fm, tiers, 3, BIT(2), BIT(1) | BIT(2));
	fm->load[1] = 0;
	expect_targets(test, fm, tiers, 3, BIT(1), BIT(1) | BIT(2));
}

/* Change a node's tier and recompute: the targets follow, and only those. */
static void memtier_demotion_follows_moves(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_MEM };
	static const int tier[] = { 200, 200, 100 };
	struct fake_machine *fm = fake_machine_new(test, 3, roles, NULL);
	int *tiers = fake_tiers(test, fm, tier);
	int pass;

	/* The first pass is before any move, the second after moving back. */
	for (pass = 0; pass < 2; pass++) {
		expect_targets(test, fm, tiers, 0, BIT(2), BIT(2));
		expect_targets(test, fm, tiers, 1, BIT(2), BIT(2));
		expect_targets(test, fm, tiers, 2, 0, 0);
		if (pass)
			break;

		/* Node 1 up to 300: it now demotes to node 0, then node 2. */
		tiers[1] = 300;
		expect_targets(test, fm, tiers, 1, BIT(0), BIT(0) | BIT(2));
		expect_targets(test, fm, tiers, 0, BIT(2), BIT(2));
		expect_targets(test, fm, tiers, 2, 0, 0);

		/* Node 1 down to 50: the bottom, node 2 demotes to it. */
		tiers[1] = 50;
		expect_targets(test, fm, tiers, 1, 0, 0);
		expect_targets(test, fm, tiers, 2, BIT(1), BIT(1));
		expect_targets(test, fm, tiers, 0, BIT(2), BIT(1) | BIT(2));

		/* And back: the first targets again. */
		tiers[1] = 200;
	}
}

/* The last node leaving a tier: the tier above now demotes past it. */
static void memtier_demotion_tier_emptied(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_MEM };
	static const int tier[] = { 300, 200, 100 };
	struct fake_machine *fm = fake_machine_new(test, 3, roles, NULL);
	int *tiers = fake_tiers(test, fm, tier);

	tiers[1] = MEMTIER_NO_TIER;
	expect_targets(test, fm, tiers, 0, BIT(2), BIT(2));
	expect_targets(test, fm, tiers, 1, 0, 0);
	expect_targets(test, fm, tiers, 2, 0, 0);
}

/*
 * A memory node not in a tier yet (%MEMTIER_NO_TIER, below every ID as
 * a number) is neither a source nor a target: not even of the lowest
 * tier, nor of a node it is nearest to.
 */
static void memtier_demotion_unplaced_node(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_MEM, FM_MEM };
	static const u8 dist[] = { 10, 12, 30, 30,
				   12, 10, 14, 14,
				   30, 14, 10, 40,
				   30, 14, 40, 10 };
	static const int tier[] = { 200, MEMTIER_NO_TIER, 100, 100 };
	struct fake_machine *fm = fake_machine_new(test, 4, roles, dist);
	int *tiers = fake_tiers(test, fm, tier);

	expect_targets(test, fm, tiers, 0, BIT(2) | BIT(3), BIT(2) | BIT(3));
	expect_targets(test, fm, tiers, 1, 0, 0);
	expect_targets(test, fm, tiers, 2, 0, 0);
	expect_targets(test, fm, tiers, 3, 0, 0);

	/* Placed, at 150: now it is the next tier of node 0. */
	tiers[1] = 150;
	expect_targets(test, fm, tiers, 0, BIT(1), BIT(1) | BIT(2) | BIT(3));
	expect_targets(test, fm, tiers, 1, BIT(2) | BIT(3), BIT(2) | BIT(3));
}

/*
 * An entry that is not a tier ID puts its memory node in no tier: 400
 * and 0 are IDs, 401 and -7 (and the extremes) are not.
 */
static void memtier_demotion_invalid_ids(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_MEM, FM_MEM, FM_MEM,
				    FM_MEM, FM_MEM };
	static const int tier[] = { 400, 401, 200, -7, 0, INT_MIN, INT_MAX };
	struct fake_machine *fm = fake_machine_new(test, 7, roles, NULL);
	int *tiers = fake_tiers(test, fm, tier);

	expect_targets(test, fm, tiers, 0, BIT(2), BIT(2) | BIT(4));
	expect_targets(test, fm, tiers, 1, 0, 0);
	expect_targets(test, fm, tiers, 2, BIT(4), BIT(4));
	expect_targets(test, fm, tiers, 3, 0, 0);
	expect_targets(test, fm, tiers, 4, 0, 0);
	expect_targets(test, fm, tiers, 5, 0, 0);
	expect_targets(test, fm, tiers, 6, 0, 0);
}

/*
 * A node whose memory went away keeps its old entry until its owner
 * clears it: it is skipped, and so is the tier it leaves empty.
 */
static void memtier_demotion_offline_node_skipped(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_MEM };
	static const int tier[] = { 300, 200, 100 };
	struct fake_machine *fm = fake_machine_new(test, 3, roles, NULL);
	int *tiers = fake_tiers(test, fm, tier);

	node_clear(1, fm->topo.memory_nodes);
	expect_targets(test, fm, tiers, 0, BIT(2), BIT(2));
	expect_targets(test, fm, tiers, 1, 0, 0);
	expect_targets(test, fm, tiers, 2, 0, 0);

	/* Its memory back, with the same entry: the targets of before. */
	node_set(1, fm->topo.memory_nodes);
	expect_targets(test, fm, tiers, 0, BIT(1), BIT(1) | BIT(2));
	expect_targets(test, fm, tiers, 1, BIT(2), BIT(2));
}

/* Recomputing into masks that hold earlier targets leaves none of them. */
static void memtier_demotion_recompute_clears(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_MEM };
	static const int tier[] = { 300, 200, 100 };
	struct fake_machine *fm = fake_machine_new(test, 3, roles, NULL);
	int *tiers = fake_tiers(test, fm, tier);
	nodemask_t preferred, allowed;

	nodes_setall(preferred);
	nodes_setall(allowed);
	memtier_demotion_targets(&fm->topo, tiers, 0, &preferred, &allowed);
	KUNIT_EXPECT_NODEMASK_EQ(test, preferred, FAKE_MASK(1));
	KUNIT_EXPECT_NODEMASK_EQ(test, allowed, FAKE_MASK(1, 2));

	/* Node 0 alone in a tier: it keeps nothing of before. */
	tiers[1] = MEMTIER_NO_TIER;
	tiers[2] = MEMTIER_NO_TIER;
	memtier_demotion_targets(&fm->topo, tiers, 0, &preferred, &allowed);
	KUNIT_EXPECT_TRUE(test, nodes_empty(preferred));
	KUNIT_EXPECT_TRUE(test, nodes_empty(allowed));

	/* A node in no tier clears them as well. */
	tiers[1] = 200;
	memtier_demotion_targets(&fm->topo, tiers, 0, &preferred, &allowed);
	KUNIT_EXPECT_FALSE(test, nodes_empty(allowed));
	memtier_demotion_targets(&fm->topo, tiers, 2, &preferred, &allowed);
	KUNIT_EXPECT_TRUE(test, nodes_empty(preferred));
	KUNIT_EXPECT_TRUE(test, nodes_empty(allowed));
}

static struct kunit_case memtier_demotion_cases[] = {
	KUNIT_CASE_PARAM(memtier_demotion_documented,
			 demotion_example_gen_params),
	KUNIT_CASE(memtier_demotion_lower_tier_mask),
	KUNIT_CASE(memtier_demotion_single_tier),
	KUNIT_CASE(memtier_demotion_cpuless_only),
	KUNIT_CASE(memtier_demotion_cpu_only_node),
	KUNIT_CASE(memtier_demotion_bad_node),
	KUNIT_CASE(memtier_demotion_node_range_ends),
	KUNIT_CASE(memtier_demotion_hbm_above_dram),
	KUNIT_CASE(memtier_demotion_next_tier_not_nearest),
	KUNIT_CASE(memtier_demotion_next_tier_skips_gaps),
	KUNIT_CASE(memtier_demotion_distance_ties),
	KUNIT_CASE(memtier_demotion_fallback_order),
	KUNIT_CASE(memtier_demotion_follows_moves),
	KUNIT_CASE(memtier_demotion_tier_emptied),
	KUNIT_CASE(memtier_demotion_unplaced_node),
	KUNIT_CASE(memtier_demotion_invalid_ids),
	KUNIT_CASE(memtier_demotion_offline_node_skipped),
	KUNIT_CASE(memtier_demotion_recompute_clears),
	{}
};

static struct kunit_suite memtier_demotion_suite = {
	.name = "memtier_demotion",
	.test_cases = memtier_demotion_cases,
};

kunit_test_suite(memtier_demotion_suite);
