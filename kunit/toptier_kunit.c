// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_toptier: the lowest tier holding a node with CPUs,
 * and every tier above it, is top tier; with no CPU on any memory node,
 * every tier is.
 */
#include <kunit/test.h>

#include "memtier.h"
#include "fake_machine.h"

#define MAX_TT_NODES 5

/**
 * struct toptier_case - a machine and which of its nodes are top tier
 * @name: what it shows.
 * @nr_nodes: nodes described.
 * @roles: FM_* per node.
 * @tier: tier ID per node, MEMTIER_NO_TIER for none.
 * @top_tier_id: the expected lowest top-tier ID.
 * @toptier: expected node_is_toptier() per node, as a bitmap.
 */
struct toptier_case {
	const char *name;
	int nr_nodes;
	u8 roles[MAX_TT_NODES];
	int tier[MAX_TT_NODES];
	int top_tier_id;
	unsigned long toptier;
};

static const struct toptier_case toptier_cases[] = {
	{
		.name = "admin-guide DRAM+PMEM",
		.nr_nodes = 4,
		.roles = { FM_CPU_MEM, FM_CPU_MEM, FM_MEM, FM_MEM },
		.tier = { 200, 200, 100, 100 },
		.top_tier_id = 200,
		.toptier = BIT(0) | BIT(1),
	}, {
		.name = "HBM above CPU DRAM is top too",
		.nr_nodes = 3,
		.roles = { FM_CPU_MEM, FM_MEM, FM_MEM },
		.tier = { 200, 300, 100 },
		.top_tier_id = 200,
		.toptier = BIT(0) | BIT(1),
	}, {
		.name = "memory-only DRAM beside CPU DRAM",
		.nr_nodes = 3,
		.roles = { FM_CPU_MEM, FM_MEM, FM_MEM },
		.tier = { 200, 200, 100 },
		.top_tier_id = 200,
		.toptier = BIT(0) | BIT(1),
	}, {
		.name = "single tier",
		.nr_nodes = 3,
		.roles = { FM_CPU_MEM, FM_MEM, FM_MEM },
		.tier = { 200, 200, 200 },
		.top_tier_id = 200,
		.toptier = BIT(0) | BIT(1) | BIT(2),
	}, {
		.name = "CPUs in the lowest tier",
		.nr_nodes = 3,
		.roles = { FM_MEM, FM_MEM, FM_CPU_MEM },
		.tier = { 300, 200, 100 },
		.top_tier_id = 100,
		.toptier = BIT(0) | BIT(1) | BIT(2),
	}, {
		/* The lowest CPU tier is the boundary: everything is top. */
		.name = "CPUs in two tiers: the lowest counts",
		.nr_nodes = 3,
		.roles = { FM_CPU_MEM, FM_MEM, FM_CPU_MEM },
		.tier = { 200, 150, 100 },
		.top_tier_id = 100,
		.toptier = BIT(0) | BIT(1) | BIT(2),
	}, {
		/* A memory-only tier between and one below the CPU tiers. */
		.name = "CPUs in two tiers, a tier below both",
		.nr_nodes = 4,
		.roles = { FM_CPU_MEM, FM_MEM, FM_CPU_MEM, FM_MEM },
		.tier = { 213, 171, 129, 87 },
		.top_tier_id = 129,
		.toptier = BIT(0) | BIT(1) | BIT(2),
	}, {
		/* One tier above the CPU tier, one just below it. */
		.name = "the CPU tier and its neighbours",
		.nr_nodes = 3,
		.roles = { FM_MEM, FM_CPU_MEM, FM_MEM },
		.tier = { 144, 143, 142 },
		.top_tier_id = 143,
		.toptier = BIT(0) | BIT(1),
	}, {
		/* No fault can promote into a memory-less CPU node. */
		.name = "CPU-less nodes only: every tier is top",
		.nr_nodes = 3,
		.roles = { FM_MEM, FM_MEM, FM_MEM },
		.tier = { 100, 300, 200 },
		.top_tier_id = 100,
		.toptier = BIT(0) | BIT(1) | BIT(2),
	}, {
		/* QEMU numbers a CPU-only node first: it is in no tier. */
		.name = "CPU-only node, memory-only tiers: all top",
		.nr_nodes = 4,
		.roles = { FM_CPU, FM_MEM, FM_MEM, FM_CPU },
		.tier = { MEMTIER_NO_TIER, 200, 100, MEMTIER_NO_TIER },
		.top_tier_id = 100,
		.toptier = BIT(0) | BIT(1) | BIT(2) | BIT(3),
	}, {
		.name = "absent nodes count as top",
		.nr_nodes = 5,
		.roles = { FM_CPU_MEM, FM_NONE, FM_MEM, FM_NONE, FM_MEM },
		.tier = { 200, MEMTIER_NO_TIER, 100, MEMTIER_NO_TIER, 0 },
		.top_tier_id = 200,
		.toptier = BIT(0) | BIT(1) | BIT(3),
	}, {
		.name = "tier 0 and tier 400",
		.nr_nodes = 3,
		.roles = { FM_MEM, FM_CPU_MEM, FM_MEM },
		.tier = { 400, 0, 0 },
		.top_tier_id = 0,
		.toptier = BIT(0) | BIT(1) | BIT(2),
	},
};

static void toptier_case_desc(const struct toptier_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(toptier, toptier_cases, toptier_case_desc);

static void memtier_toptier_machines(struct kunit *test)
{
	const struct toptier_case *c = test->param_value;
	struct fake_machine *fm;
	struct memtier_registry *reg = fake_registry_new(test);
	struct memtier_snapshot *snap;
	int node;

	fm = fake_machine_new(test, c->nr_nodes, c->roles, NULL);
	fake_place(test, reg, fm, c->tier);
	snap = fake_snapshot(test, reg, fm);

	KUNIT_EXPECT_EQ(test, memtier_top_tier_id(reg, &fm->topo),
			c->top_tier_id);
	KUNIT_EXPECT_EQ(test, snap->top_tier_id, c->top_tier_id);
	for (node = 0; node < c->nr_nodes; node++)
		KUNIT_EXPECT_EQ_MSG(test, memtier_node_is_toptier(snap, node),
				    !!(c->toptier & BIT(node)), "node %d",
				    node);
}

static void memtier_toptier_empty_registry(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU, FM_CPU };
	struct fake_machine *fm = fake_machine_new(test, 2, roles, NULL);
	struct memtier_registry *reg = fake_registry_new(test);
	struct memtier_snapshot *snap = fake_snapshot(test, reg, fm);

	KUNIT_EXPECT_EQ(test, memtier_top_tier_id(reg, &fm->topo),
			MEMTIER_NO_TIER);
	KUNIT_EXPECT_EQ(test, snap->nr_tiers, 0);
	KUNIT_EXPECT_TRUE(test, memtier_node_is_toptier(snap, 0));
	KUNIT_EXPECT_TRUE(test, memtier_node_is_toptier(snap, 1));
}

static void memtier_toptier_bad_node(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM };
	static const int tiers[] = { 200, 100 };
	struct fake_machine *fm = fake_machine_new(test, 2, roles, NULL);
	struct memtier_registry *reg = fake_registry_new(test);
	struct memtier_snapshot *snap;

	fake_place(test, reg, fm, tiers);
	snap = fake_snapshot(test, reg, fm);
	KUNIT_EXPECT_FALSE(test, memtier_node_is_toptier(snap, 1));
	KUNIT_EXPECT_TRUE(test, memtier_node_is_toptier(snap, -1));
	KUNIT_EXPECT_TRUE(test, memtier_node_is_toptier(snap, MAX_NUMNODES));
}

/* Moving the slow node up to the CPU tier makes it top; and back. */
static void memtier_toptier_follows_moves(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM };
	static const int tiers[] = { 200, 100 };
	struct fake_machine *fm = fake_machine_new(test, 2, roles, NULL);
	struct memtier_registry *reg = fake_registry_new(test);
	struct memtier_snapshot *snap;

	fake_place(test, reg, fm, tiers);
	snap = fake_snapshot(test, reg, fm);
	KUNIT_EXPECT_FALSE(test, memtier_node_is_toptier(snap, 1));

	KUNIT_ASSERT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 1,
							   200));
	snap = fake_snapshot(test, reg, fm);
	KUNIT_EXPECT_TRUE(test, memtier_node_is_toptier(snap, 1));

	/* Above the CPU tier: still top. */
	KUNIT_ASSERT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 1,
							   300));
	snap = fake_snapshot(test, reg, fm);
	KUNIT_EXPECT_TRUE(test, memtier_node_is_toptier(snap, 1));
	KUNIT_EXPECT_EQ(test, snap->top_tier_id, 200);

	/* The CPU node below it: the CPU tier is still the reference. */
	KUNIT_ASSERT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 0,
							   100));
	snap = fake_snapshot(test, reg, fm);
	KUNIT_EXPECT_EQ(test, snap->top_tier_id, 100);
	KUNIT_EXPECT_TRUE(test, memtier_node_is_toptier(snap, 0));
	KUNIT_EXPECT_TRUE(test, memtier_node_is_toptier(snap, 1));
}

static struct kunit_case memtier_toptier_cases[] = {
	KUNIT_CASE_PARAM(memtier_toptier_machines, toptier_gen_params),
	KUNIT_CASE(memtier_toptier_empty_registry),
	KUNIT_CASE(memtier_toptier_bad_node),
	KUNIT_CASE(memtier_toptier_follows_moves),
	{}
};

static struct kunit_suite memtier_toptier_suite = {
	.name = "memtier_toptier",
	.test_cases = memtier_toptier_cases,
};

kunit_test_suite(memtier_toptier_suite);
