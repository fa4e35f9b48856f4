// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_toptier: the lowest tier holding a node with CPUs,
 * and every tier above it, is top tier; with no CPU on any memory node,
 * the boundary found before stays, as in mainline.
 */
#include <kunit/test.h>
#include <linux/limits.h>

#include "memtier.h"
#include "fake_machine.h"

#define MAX_TT_NODES 5
/* The boundary a machine had before, kept when it has no CPU tier. */
#define TT_PREV 263

/**
 * struct toptier_case - a machine and which of its nodes are top tier
 * @name: what it shows.
 * @nr_nodes: nodes described.
 * @roles: FM_* per node.
 * @tier: tier ID entry per node, MEMTIER_NO_TIER for none.
 * @top_tier_id: the expected lowest top-tier ID.
 * @toptier: expected memtier_is_toptier() of each node's entry, as a
 *	bitmap.
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
		/* No CPU tier: the boundary found before stays. */
		.name = "CPU-less nodes only: the boundary stays",
		.nr_nodes = 3,
		.roles = { FM_MEM, FM_MEM, FM_MEM },
		.tier = { 100, 300, 200 },
		.top_tier_id = TT_PREV,
		.toptier = BIT(1),
	}, {
		/* QEMU numbers a CPU-only node first: it is in no tier. */
		.name = "CPU-only node, memory-only tiers: the boundary stays",
		.nr_nodes = 4,
		.roles = { FM_CPU, FM_MEM, FM_MEM, FM_CPU },
		.tier = { MEMTIER_NO_TIER, 200, 100, MEMTIER_NO_TIER },
		.top_tier_id = TT_PREV,
		.toptier = BIT(0) | BIT(3),
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
	}, {
		.name = "CPU tier 1, tier 0 below it",
		.nr_nodes = 2,
		.roles = { FM_MEM, FM_CPU_MEM },
		.tier = { 0, 1 },
		.top_tier_id = 1,
		.toptier = BIT(1),
	}, {
		.name = "CPU tier 400, tier 399 below it",
		.nr_nodes = 2,
		.roles = { FM_CPU_MEM, FM_MEM },
		.tier = { 400, 399 },
		.top_tier_id = 400,
		.toptier = BIT(0),
	}, {
		/* The lower CPU tier first in node order, then a higher one. */
		.name = "CPUs in two tiers, the lower one first",
		.nr_nodes = 3,
		.roles = { FM_CPU_MEM, FM_CPU_MEM, FM_MEM },
		.tier = { 129, 213, 87 },
		.top_tier_id = 129,
		.toptier = BIT(0) | BIT(1),
	}, {
		/* In no tier yet: its CPUs do not make a tier top. */
		.name = "CPU node in no tier is ignored",
		.nr_nodes = 3,
		.roles = { FM_CPU_MEM, FM_MEM, FM_CPU_MEM },
		.tier = { 200, 100, MEMTIER_NO_TIER },
		.top_tier_id = 200,
		.toptier = BIT(0) | BIT(2),
	}, {
		.name = "the only CPU node in no tier: the boundary stays",
		.nr_nodes = 3,
		.roles = { FM_CPU_MEM, FM_MEM, FM_MEM },
		.tier = { MEMTIER_NO_TIER, 300, 100 },
		.top_tier_id = TT_PREV,
		.toptier = BIT(0) | BIT(1),
	}, {
		/* Entries that are not tier IDs put their node in no tier. */
		.name = "CPU nodes with invalid IDs are ignored",
		.nr_nodes = 4,
		.roles = { FM_CPU_MEM, FM_MEM, FM_CPU_MEM, FM_CPU_MEM },
		.tier = { 200, 100, -7, 401 },
		.top_tier_id = 200,
		.toptier = BIT(0) | BIT(2) | BIT(3),
	}, {
		.name = "invalid IDs on every CPU node: the boundary stays",
		.nr_nodes = 3,
		.roles = { FM_CPU_MEM, FM_MEM, FM_CPU_MEM },
		.tier = { 401, 143, INT_MIN },
		.top_tier_id = TT_PREV,
		.toptier = BIT(0) | BIT(2),
	}, {
		.name = "memory nodes in no tier: the boundary stays",
		.nr_nodes = 4,
		.roles = { FM_CPU_MEM, FM_MEM, FM_MEM, FM_CPU },
		.tier = { MEMTIER_NO_TIER, 401, -7, MEMTIER_NO_TIER },
		.top_tier_id = TT_PREV,
		.toptier = BIT(0) | BIT(1) | BIT(2) | BIT(3),
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
	int *tiers, top, node;

	fm = fake_machine_new(test, c->nr_nodes, c->roles, NULL);
	tiers = fake_tiers(test, fm, c->tier);

	top = memtier_top_tier_id(&fm->topo, tiers, TT_PREV);
	KUNIT_EXPECT_EQ(test, top, c->top_tier_id);
	for (node = 0; node < c->nr_nodes; node++)
		KUNIT_EXPECT_EQ_MSG(test, memtier_is_toptier(tiers[node], top),
				    !!(c->toptier & BIT(node)),
				    "node %d tier %d top %d", node,
				    tiers[node], top);
}

/*
 * No memory node in a tier: the boundary given is kept, whatever it is;
 * a boundary of MEMTIER_NO_TIER makes every ID top.
 */
static void memtier_toptier_no_tier(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU, FM_CPU, FM_NONE };
	struct fake_machine *fm = fake_machine_new(test, 3, roles, NULL);
	int *tiers = fake_tiers(test, fm, NULL);
	int top;

	KUNIT_EXPECT_EQ(test, memtier_top_tier_id(&fm->topo, tiers, TT_PREV),
			TT_PREV);
	KUNIT_EXPECT_EQ(test, memtier_top_tier_id(&fm->topo, tiers, 0), 0);
	top = memtier_top_tier_id(&fm->topo, tiers, MEMTIER_NO_TIER);
	KUNIT_EXPECT_EQ(test, top, MEMTIER_NO_TIER);
	/* Which is -1, as the kernel's callers document it. */
	KUNIT_EXPECT_EQ(test, top, -1);
	KUNIT_EXPECT_TRUE(test, memtier_is_toptier(MEMTIER_NO_TIER, top));
	KUNIT_EXPECT_TRUE(test, memtier_is_toptier(0, top));
	KUNIT_EXPECT_TRUE(test, memtier_is_toptier(400, top));

	/* Valid IDs on nodes without memory change nothing. */
	tiers[0] = 200;
	tiers[1] = 100;
	tiers[2] = 50;
	KUNIT_EXPECT_EQ(test, memtier_top_tier_id(&fm->topo, tiers, TT_PREV),
			TT_PREV);
}

/*
 * Only the entries of memory nodes are read: a CPU-only or absent node's
 * ID, or the old ID of a node whose memory went away, counts for nothing.
 */
static void memtier_toptier_non_memory_entries(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU, FM_NONE, FM_CPU_MEM, FM_MEM };
	static const int tier[] = { 50, 20, 200, 100 };
	struct fake_machine *fm = fake_machine_new(test, 4, roles, NULL);
	int *tiers = fake_tiers(test, fm, tier);

	KUNIT_EXPECT_EQ(test, memtier_top_tier_id(&fm->topo, tiers, TT_PREV),
			200);

	/* Node 2's memory goes, its CPUs and entry stay: no CPU tier. */
	node_clear(2, fm->topo.memory_nodes);
	KUNIT_EXPECT_EQ(test, memtier_top_tier_id(&fm->topo, tiers, 200), 200);
	KUNIT_EXPECT_EQ(test, memtier_top_tier_id(&fm->topo, tiers, TT_PREV),
			TT_PREV);

	/* And node 3's: nothing is left in a tier. */
	node_clear(3, fm->topo.memory_nodes);
	KUNIT_EXPECT_EQ(test, memtier_top_tier_id(&fm->topo, tiers, TT_PREV),
			TT_PREV);
}

/**
 * struct toptier_probe - one memtier_is_toptier() question
 * @id: the node's tier ID.
 * @top: the lowest top-tier ID.
 * @toptier: the answer.
 */
struct toptier_probe {
	int id;
	int top;
	bool toptier;
};

/*
 * Both sides of each boundary: around a top tier no constant holds, and
 * at the ends of the range of IDs.
 */
static const struct toptier_probe toptier_probes[] = {
	{ 172, 173, false }, { 173, 173, true }, { 174, 173, true },
	{ 0, 173, false }, { 1, 173, false }, { 400, 173, true },
	/* Not tier IDs: a node in no tier is top. */
	{ MEMTIER_NO_TIER, 173, true }, { -7, 173, true },
	{ INT_MIN, 173, true }, { 401, 173, true }, { INT_MAX, 173, true },
	{ 399, 400, false }, { 400, 400, true }, { 401, 400, true },
	{ 0, 0, true }, { 1, 0, true }, { MEMTIER_NO_TIER, 0, true },
	{ 0, 1, false }, { -7, 1, true },
	/* No tier at all: everything is top. */
	{ 0, MEMTIER_NO_TIER, true }, { 400, MEMTIER_NO_TIER, true },
	{ MEMTIER_NO_TIER, MEMTIER_NO_TIER, true },
};

static void memtier_toptier_is_toptier(struct kunit *test)
{
	const struct toptier_probe *p;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(toptier_probes); i++) {
		p = &toptier_probes[i];
		KUNIT_EXPECT_EQ_MSG(test, memtier_is_toptier(p->id, p->top),
				    p->toptier, "id %d top %d", p->id, p->top);
	}
}

/*
 * Change one node's tier at a time and recompute: the slow node up to
 * the CPU tier and above it, then the CPU node down, out and back.
 */
static void memtier_toptier_follows_moves(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM };
	static const int tier[] = { 200, 100 };
	/* Node @node moves to @id: the boundary, and node 1's side of it. */
	static const struct {
		int node, id, top;
		bool node1_top;
	} steps[] = {
		{ 1, 100, 200, false },			/* as placed */
		{ 1, 200, 200, true },			/* into the CPU tier */
		{ 1, 300, 200, true },			/* above it: still top */
		{ 0, 100, 100, true },			/* the CPU tier moves down */
		{ 0, MEMTIER_NO_TIER, 100, true },	/* no CPU tier: it stays */
		{ 0, 299, 299, true },			/* just below node 1 */
		{ 1, 298, 299, false },			/* node 1 below it again */
	};
	struct fake_machine *fm = fake_machine_new(test, 2, roles, NULL);
	int *tiers = fake_tiers(test, fm, tier);
	int i, top = TT_PREV;

	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		tiers[steps[i].node] = steps[i].id;
		top = memtier_top_tier_id(&fm->topo, tiers, top);
		KUNIT_EXPECT_EQ_MSG(test, top, steps[i].top, "step %d", i);
		/* The only CPU node is top tier wherever it is. */
		KUNIT_EXPECT_TRUE_MSG(test, memtier_is_toptier(tiers[0], top),
				      "step %d", i);
		KUNIT_EXPECT_EQ_MSG(test, memtier_is_toptier(tiers[1], top),
				    steps[i].node1_top, "step %d", i);
	}
}

static struct kunit_case memtier_toptier_cases[] = {
	KUNIT_CASE_PARAM(memtier_toptier_machines, toptier_gen_params),
	KUNIT_CASE(memtier_toptier_no_tier),
	KUNIT_CASE(memtier_toptier_non_memory_entries),
	KUNIT_CASE(memtier_toptier_is_toptier),
	KUNIT_CASE(memtier_toptier_follows_moves),
	{}
};

static struct kunit_suite memtier_toptier_suite = {
	.name = "memtier_toptier",
	.test_cases = memtier_toptier_cases,
};

kunit_test_suite(memtier_toptier_suite);
