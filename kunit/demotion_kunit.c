// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_demotion: preferred and allowed demotion targets,
 * from the documented examples and the edges around them.
 */
#include <kunit/test.h>

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

static void memtier_demotion_documented(struct kunit *test)
{
	const struct demotion_example *ex = test->param_value;
	struct fake_machine *fm;
	struct memtier_registry *reg = fake_registry_new(test);
	struct memtier_snapshot *snap;
	nodemask_t got;
	int node, target;
	u32 rnd;

	fm = fake_machine_new(test, ex->nr_nodes, ex->roles, ex->dist);
	fake_place(test, reg, fm, ex->tier);
	snap = fake_snapshot(test, reg, fm);

	for (node = 0; node < ex->nr_nodes; node++) {
		memtier_preferred_targets(snap, node, &got);
		KUNIT_EXPECT_NODEMASK_EQ(test, got,
					 mask_of_bits(ex->preferred[node]));
		memtier_allowed_targets(snap, node, &got);
		KUNIT_EXPECT_NODEMASK_EQ(test, got,
					 mask_of_bits(ex->allowed[node]));
		KUNIT_EXPECT_EQ(test, memtier_snapshot_node_tier(snap, node),
				ex->tier[node]);
		for (rnd = 0; rnd < 4; rnd++) {
			target = memtier_next_demotion_node(snap, node,
							    rnd * 0x40000000u);
			if (!ex->preferred[node])
				KUNIT_EXPECT_EQ(test, target, NUMA_NO_NODE);
			else
				KUNIT_EXPECT_TRUE(test, target >= 0 &&
						  (ex->preferred[node] &
						   BIT(target)));
		}
	}
}

/* The admin guide's machine, tier by tier: the lower_tier_mask of each. */
static void memtier_demotion_lower_tier_mask(struct kunit *test)
{
	const struct demotion_example *ex = &demotion_examples[0];
	struct fake_machine *fm;
	struct memtier_registry *reg = fake_registry_new(test);
	struct memtier_snapshot *snap;

	fm = fake_machine_new(test, ex->nr_nodes, ex->roles, ex->dist);
	fake_place(test, reg, fm, ex->tier);
	snap = fake_snapshot(test, reg, fm);

	KUNIT_ASSERT_EQ(test, snap->nr_tiers, 2);
	KUNIT_EXPECT_EQ(test, snap->tier[0].id, 200);
	KUNIT_EXPECT_NODEMASK_EQ(test, snap->tier[0].nodes, FAKE_MASK(0, 1));
	KUNIT_EXPECT_NODEMASK_EQ(test, snap->tier[0].lower_tier_mask,
				 FAKE_MASK(2, 3));
	KUNIT_EXPECT_EQ(test, snap->tier[1].id, 100);
	KUNIT_EXPECT_NODEMASK_EQ(test, snap->tier[1].nodes, FAKE_MASK(2, 3));
	KUNIT_EXPECT_NODEMASK_EQ(test, snap->tier[1].lower_tier_mask,
				 FAKE_NO_NODES);
}

static void memtier_demotion_single_tier(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_MEM, FM_CPU_MEM };
	static const int tiers[] = { 250, 250, 250, 250 };
	struct fake_machine *fm = fake_machine_new(test, 4, roles, NULL);
	struct memtier_registry *reg = fake_registry_new(test);
	struct memtier_snapshot *snap;
	nodemask_t got;
	int node;

	fake_place(test, reg, fm, tiers);
	snap = fake_snapshot(test, reg, fm);
	KUNIT_EXPECT_EQ(test, snap->nr_tiers, 1);
	for (node = 0; node < 4; node++) {
		memtier_preferred_targets(snap, node, &got);
		KUNIT_EXPECT_TRUE(test, nodes_empty(got));
		memtier_allowed_targets(snap, node, &got);
		KUNIT_EXPECT_TRUE(test, nodes_empty(got));
		KUNIT_EXPECT_EQ(test, memtier_next_demotion_node(snap, node, 7),
				NUMA_NO_NODE);
	}
}

/* Demotion does not need CPUs: memory-only tiers still demote in order. */
static void memtier_demotion_cpuless_only(struct kunit *test)
{
	static const u8 roles[] = { FM_MEM, FM_MEM, FM_MEM };
	static const int tiers[] = { 300, 200, 100 };
	struct fake_machine *fm = fake_machine_new(test, 3, roles, NULL);
	struct memtier_registry *reg = fake_registry_new(test);
	struct memtier_snapshot *snap;
	nodemask_t got;

	fake_place(test, reg, fm, tiers);
	snap = fake_snapshot(test, reg, fm);
	KUNIT_EXPECT_EQ(test, memtier_next_demotion_node(snap, 0, 0), 1);
	KUNIT_EXPECT_EQ(test, memtier_next_demotion_node(snap, 1, 0), 2);
	KUNIT_EXPECT_EQ(test, memtier_next_demotion_node(snap, 2, 0),
			NUMA_NO_NODE);
	memtier_allowed_targets(snap, 0, &got);
	KUNIT_EXPECT_NODEMASK_EQ(test, got, FAKE_MASK(1, 2));
}

/* A CPU-only node is in no tier: it neither demotes nor is a target. */
static void memtier_demotion_cpu_only_node(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU, FM_MEM, FM_MEM, FM_CPU };
	static const int tiers[] = { MEMTIER_NO_TIER, 200, 100,
				     MEMTIER_NO_TIER };
	struct fake_machine *fm = fake_machine_new(test, 4, roles, NULL);
	struct memtier_registry *reg = fake_registry_new(test);
	struct memtier_snapshot *snap;
	nodemask_t got;

	fake_place(test, reg, fm, tiers);
	snap = fake_snapshot(test, reg, fm);
	KUNIT_EXPECT_EQ(test, memtier_next_demotion_node(snap, 0, 0),
			NUMA_NO_NODE);
	memtier_preferred_targets(snap, 0, &got);
	KUNIT_EXPECT_TRUE(test, nodes_empty(got));
	memtier_allowed_targets(snap, 3, &got);
	KUNIT_EXPECT_TRUE(test, nodes_empty(got));
	KUNIT_EXPECT_EQ(test, memtier_snapshot_node_tier(snap, 0),
			MEMTIER_NO_TIER);
	memtier_allowed_targets(snap, 1, &got);
	KUNIT_EXPECT_NODEMASK_EQ(test, got, FAKE_MASK(2));
}

/* Out-of-range node numbers are nobody's and demote nowhere. */
static void memtier_demotion_bad_node(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM };
	static const int tiers[] = { 200, 100 };
	struct fake_machine *fm = fake_machine_new(test, 2, roles, NULL);
	struct memtier_registry *reg = fake_registry_new(test);
	struct memtier_snapshot *snap;
	nodemask_t got = FAKE_MASK(0);

	fake_place(test, reg, fm, tiers);
	snap = fake_snapshot(test, reg, fm);
	KUNIT_EXPECT_EQ(test, memtier_next_demotion_node(snap, -1, 0),
			NUMA_NO_NODE);
	KUNIT_EXPECT_EQ(test, memtier_next_demotion_node(snap, MAX_NUMNODES,
							 0), NUMA_NO_NODE);
	memtier_allowed_targets(snap, -1, &got);
	KUNIT_EXPECT_TRUE(test, nodes_empty(got));
	got = FAKE_MASK(0);
	memtier_preferred_targets(snap, MAX_NUMNODES, &got);
	KUNIT_EXPECT_TRUE(test, nodes_empty(got));
	KUNIT_EXPECT_EQ(test, memtier_snapshot_node_tier(snap, -1),
			MEMTIER_NO_TIER);
}

/* HBM above two DRAM nodes: it prefers the nearer DRAM node. */
static void memtier_demotion_hbm_above_dram(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_CPU_MEM, FM_MEM, FM_MEM };
	static const u8 dist[] = { 10, 20, 15, 40,
				   20, 10, 25, 30,
				   15, 25, 10, 40,
				   40, 30, 40, 10 };
	static const int tiers[] = { MEMORY_TIER_DRAM, MEMORY_TIER_DRAM,
				     MEMORY_TIER_HBM_GPU, MEMORY_TIER_PMEM };
	struct fake_machine *fm = fake_machine_new(test, 4, roles, dist);
	struct memtier_registry *reg = fake_registry_new(test);
	struct memtier_snapshot *snap;
	nodemask_t got;

	fake_place(test, reg, fm, tiers);
	snap = fake_snapshot(test, reg, fm);
	memtier_preferred_targets(snap, 2, &got);
	KUNIT_EXPECT_NODEMASK_EQ(test, got, FAKE_MASK(0));
	memtier_allowed_targets(snap, 2, &got);
	KUNIT_EXPECT_NODEMASK_EQ(test, got, FAKE_MASK(0, 1, 3));
	memtier_preferred_targets(snap, 0, &got);
	KUNIT_EXPECT_NODEMASK_EQ(test, got, FAKE_MASK(3));
	memtier_preferred_targets(snap, 1, &got);
	KUNIT_EXPECT_NODEMASK_EQ(test, got, FAKE_MASK(3));
}

/* Preferred comes from the next lower tier only, even if a lower one is nearer. */
static void memtier_demotion_next_tier_not_nearest(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_MEM };
	static const u8 dist[] = { 10, 40, 15,
				   40, 10, 40,
				   15, 40, 10 };
	static const int tiers[] = { 300, 200, 100 };
	struct fake_machine *fm = fake_machine_new(test, 3, roles, dist);
	struct memtier_registry *reg = fake_registry_new(test);
	struct memtier_snapshot *snap;
	nodemask_t got;

	fake_place(test, reg, fm, tiers);
	snap = fake_snapshot(test, reg, fm);
	memtier_preferred_targets(snap, 0, &got);
	KUNIT_EXPECT_NODEMASK_EQ(test, got, FAKE_MASK(1));
	memtier_allowed_targets(snap, 0, &got);
	KUNIT_EXPECT_NODEMASK_EQ(test, got, FAKE_MASK(1, 2));
}

/* Equally near targets are all preferred, and the random pick spreads. */
static void memtier_demotion_distance_ties(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_MEM, FM_MEM };
	static const u8 dist[] = { 10, 30, 30, 50,
				   30, 10, 40, 40,
				   30, 40, 10, 40,
				   50, 40, 40, 10 };
	static const int tiers[] = { 200, 100, 100, 100 };
	struct fake_machine *fm = fake_machine_new(test, 4, roles, dist);
	struct memtier_registry *reg = fake_registry_new(test);
	struct memtier_snapshot *snap;
	unsigned int hits[4] = { 0 };
	nodemask_t got;
	int target;
	u32 i;

	fake_place(test, reg, fm, tiers);
	snap = fake_snapshot(test, reg, fm);
	memtier_preferred_targets(snap, 0, &got);
	KUNIT_EXPECT_NODEMASK_EQ(test, got, FAKE_MASK(1, 2));

	KUNIT_EXPECT_EQ(test, memtier_next_demotion_node(snap, 0, 0), 1);
	KUNIT_EXPECT_EQ(test, memtier_next_demotion_node(snap, 0, U32_MAX), 2);
	for (i = 0; i < 1024; i++) {
		target = memtier_next_demotion_node(snap, 0, i * 4194301u);
		KUNIT_ASSERT_TRUE(test, target == 1 || target == 2);
		hits[target]++;
	}
	/* Evenly spread random numbers pick each tie about half the time. */
	KUNIT_EXPECT_GT(test, hits[1], 400u);
	KUNIT_EXPECT_GT(test, hits[2], 400u);
}

/* Moving a node changes the targets of the next snapshot, and only those. */
static void memtier_demotion_follows_moves(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_MEM };
	static const int tiers[] = { 200, 200, 100 };
	struct fake_machine *fm = fake_machine_new(test, 3, roles, NULL);
	struct memtier_registry *reg = fake_registry_new(test);
	struct memtier_snapshot *before, *snap;
	nodemask_t got;

	fake_place(test, reg, fm, tiers);
	before = fake_snapshot(test, reg, fm);
	KUNIT_EXPECT_EQ(test, memtier_next_demotion_node(before, 0, 0), 2);

	/* Node 1 up to 300: it now demotes to node 0, then node 2. */
	KUNIT_ASSERT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 1,
							   300));
	snap = fake_snapshot(test, reg, fm);
	KUNIT_EXPECT_EQ(test, memtier_next_demotion_node(snap, 1, 0), 0);
	memtier_allowed_targets(snap, 1, &got);
	KUNIT_EXPECT_NODEMASK_EQ(test, got, FAKE_MASK(0, 2));
	/* The old snapshot is untouched: readers of it see the old order. */
	KUNIT_EXPECT_EQ(test, memtier_snapshot_node_tier(before, 1), 200);
	KUNIT_EXPECT_EQ(test, memtier_next_demotion_node(before, 1, 0), 2);

	/* Node 1 down to 50: now it is the bottom, node 2 demotes to it. */
	KUNIT_ASSERT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 1,
							   50));
	snap = fake_snapshot(test, reg, fm);
	KUNIT_EXPECT_EQ(test, memtier_next_demotion_node(snap, 1, 0),
			NUMA_NO_NODE);
	KUNIT_EXPECT_EQ(test, memtier_next_demotion_node(snap, 2, 0), 1);
	memtier_allowed_targets(snap, 0, &got);
	KUNIT_EXPECT_NODEMASK_EQ(test, got, FAKE_MASK(1, 2));

	/* And back: the first snapshot's targets again. */
	KUNIT_ASSERT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 1,
							   200));
	snap = fake_snapshot(test, reg, fm);
	KUNIT_EXPECT_EQ(test, memtier_next_demotion_node(snap, 1, 0), 2);
	KUNIT_EXPECT_EQ(test, memtier_next_demotion_node(snap, 2, 0),
			NUMA_NO_NODE);
	KUNIT_ASSERT_EQ(test, snap->nr_nodes, before->nr_nodes);
	KUNIT_EXPECT_EQ(test, memcmp(snap->preferred, before->preferred,
				     array_size(snap->nr_nodes,
						sizeof(*snap->preferred))), 0);
}

/* The last node leaving a tier: the tier above now demotes past it. */
static void memtier_demotion_tier_emptied(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_MEM };
	static const int tiers[] = { 300, 200, 100 };
	struct fake_machine *fm = fake_machine_new(test, 3, roles, NULL);
	struct memtier_registry *reg = fake_registry_new(test);
	struct memtier_snapshot *snap;

	fake_place(test, reg, fm, tiers);
	memtier_registry_remove_node(reg, 1);
	snap = fake_snapshot(test, reg, fm);
	KUNIT_EXPECT_EQ(test, snap->nr_tiers, 2);
	KUNIT_EXPECT_EQ(test, memtier_next_demotion_node(snap, 0, 0), 2);
}

/* A registered node whose memory went away is skipped, and so is its tier. */
static void memtier_demotion_offline_node_skipped(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_MEM };
	static const int tiers[] = { 300, 200, 100 };
	struct fake_machine *fm = fake_machine_new(test, 3, roles, NULL);
	struct memtier_registry *reg = fake_registry_new(test);
	struct memtier_snapshot *snap;
	nodemask_t got;

	fake_place(test, reg, fm, tiers);
	node_clear(1, fm->topo.memory_nodes);
	snap = fake_snapshot(test, reg, fm);
	KUNIT_EXPECT_EQ(test, snap->nr_tiers, 2);
	KUNIT_EXPECT_EQ(test, memtier_next_demotion_node(snap, 0, 0), 2);
	memtier_allowed_targets(snap, 0, &got);
	KUNIT_EXPECT_NODEMASK_EQ(test, got, FAKE_MASK(2));
	KUNIT_EXPECT_EQ(test, memtier_snapshot_node_tier(snap, 1),
			MEMTIER_NO_TIER);
}

/* Building into a used snapshot leaves nothing of its previous contents. */
static void memtier_demotion_rebuild_clears(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_MEM };
	static const int tiers[] = { 300, 200, 100 };
	struct fake_machine *fm = fake_machine_new(test, 3, roles, NULL);
	struct memtier_registry *reg = fake_registry_new(test);
	struct memtier_snapshot *snap;
	nodemask_t got;

	fake_place(test, reg, fm, tiers);
	snap = fake_snapshot(test, reg, fm);
	memtier_registry_remove_node(reg, 1);
	memtier_registry_remove_node(reg, 2);
	memtier_snapshot_build(snap, reg, &fm->topo);
	KUNIT_EXPECT_EQ(test, snap->nr_tiers, 1);
	memtier_preferred_targets(snap, 0, &got);
	KUNIT_EXPECT_TRUE(test, nodes_empty(got));
	memtier_allowed_targets(snap, 0, &got);
	KUNIT_EXPECT_TRUE(test, nodes_empty(got));
	KUNIT_EXPECT_EQ(test, memtier_snapshot_node_tier(snap, 2),
			MEMTIER_NO_TIER);
}

static struct kunit_case memtier_demotion_cases[] = {
	KUNIT_CASE_PARAM(memtier_demotion_documented,
			 demotion_example_gen_params),
	KUNIT_CASE(memtier_demotion_lower_tier_mask),
	KUNIT_CASE(memtier_demotion_single_tier),
	KUNIT_CASE(memtier_demotion_cpuless_only),
	KUNIT_CASE(memtier_demotion_cpu_only_node),
	KUNIT_CASE(memtier_demotion_bad_node),
	KUNIT_CASE(memtier_demotion_hbm_above_dram),
	KUNIT_CASE(memtier_demotion_next_tier_not_nearest),
	KUNIT_CASE(memtier_demotion_distance_ties),
	KUNIT_CASE(memtier_demotion_follows_moves),
	KUNIT_CASE(memtier_demotion_tier_emptied),
	KUNIT_CASE(memtier_demotion_offline_node_skipped),
	KUNIT_CASE(memtier_demotion_rebuild_clears),
	{}
};

static struct kunit_suite memtier_demotion_suite = {
	.name = "memtier_demotion",
	.test_cases = memtier_demotion_cases,
};

kunit_test_suite(memtier_demotion_suite);
