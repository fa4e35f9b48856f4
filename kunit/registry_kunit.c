// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_registry: tiers keyed by ID, each memory node in
 * exactly one tier, and every failed change leaving the state intact.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/sizes.h>

#include "memtier.h"
#include "registry.h"
#include "fake_machine.h"

/* Nodes 0-1 CPU+DRAM, 2-3 memory-only, 4 CPU-only, 5 absent. */
static const u8 roles6[] = { FM_CPU_MEM, FM_CPU_MEM, FM_MEM, FM_MEM, FM_CPU,
			     FM_NONE };

static void memtier_registry_tier_constants(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, MEMORY_TIER_PMEM, 100);
	KUNIT_EXPECT_EQ(test, MEMORY_TIER_DRAM, 200);
	KUNIT_EXPECT_EQ(test, MEMORY_TIER_HBM_GPU, 300);
	KUNIT_EXPECT_EQ(test, MAX_MEMORY_TIER_ID, 400);
	KUNIT_EXPECT_EQ(test, DEFAULT_MEMORY_TIER, MEMORY_TIER_DRAM);
}

static void memtier_registry_starts_empty(struct kunit *test)
{
	struct memtier_registry *reg = fake_registry_new(test);
	int node;

	KUNIT_EXPECT_TRUE(test, list_empty(&reg->tiers));
	KUNIT_EXPECT_EQ(test, reg->default_tier, DEFAULT_MEMORY_TIER);
	for (node = 0; node < MAX_NUMNODES; node++)
		KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(reg, node),
				MEMTIER_NO_TIER);
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(reg, -1),
			MEMTIER_NO_TIER);
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(reg, MAX_NUMNODES),
			MEMTIER_NO_TIER);
}

/*
 * Set up on memory full of garbage: every node starts in no tier, and
 * nothing past the registry is written.  Node numbers out of range are
 * in no tier either, and are never looked up: the words either side of
 * the node array (the ops pointer, the garbage after) are not tiers.
 */
static void memtier_registry_init_poisoned(struct kunit *test)
{
	static const struct memtier_registry_ops no_ops = {};
	const size_t size = sizeof(struct memtier_registry), guard = 64;
	struct memtier_registry *reg;
	u8 *buf;
	int node;

	buf = kunit_kmalloc(test, size + guard, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(buf, 0x5a, size + guard);
	reg = (struct memtier_registry *)buf;
	memtier_registry_init(reg, &no_ops);
	KUNIT_EXPECT_TRUE(test, list_empty(&reg->tiers));
	KUNIT_EXPECT_EQ(test, reg->default_tier, DEFAULT_MEMORY_TIER);
	KUNIT_EXPECT_PTR_EQ(test, reg->ops, &no_ops);
	for (node = 0; node < MAX_NUMNODES; node++)
		KUNIT_EXPECT_NULL_MSG(test, reg->node_tier[node], "node %d",
				      node);
	KUNIT_EXPECT_NULL(test, memchr_inv(buf + size, 0x5a, guard));
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(reg, -1),
			MEMTIER_NO_TIER);
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(reg, MAX_NUMNODES),
			MEMTIER_NO_TIER);
}

static void memtier_registry_default_change(struct kunit *test)
{
	struct memtier_registry *reg = fake_registry_new(test);

	KUNIT_EXPECT_EQ(test, 0, memtier_registry_set_default(reg, 250));
	KUNIT_EXPECT_EQ(test, reg->default_tier, 250);

	KUNIT_EXPECT_EQ(test, -EINVAL, memtier_registry_set_default(reg, -1));
	KUNIT_EXPECT_EQ(test, -EINVAL, memtier_registry_set_default(reg, 401));
	KUNIT_EXPECT_EQ(test, reg->default_tier, 250);
}

static void memtier_registry_tiers_sorted(struct kunit *test)
{
	static const int tiers[] = { 200, 300, 100, 250, MEMTIER_NO_TIER, -1 };
	struct fake_machine *fm = fake_machine_new(test, 6, roles6, NULL);
	struct memtier_registry *reg = fake_registry_new(test);
	static const int order[] = { 300, 250, 200, 100 };
	struct memtier_tier *tier;
	int i = 0;

	fake_place(test, reg, fm, tiers);
	memtier_for_each_tier(tier, reg) {
		KUNIT_ASSERT_LT(test, i, (int)ARRAY_SIZE(order));
		KUNIT_EXPECT_EQ(test, tier->id, order[i]);
		i++;
	}
	KUNIT_EXPECT_EQ(test, i, 4);
	fake_registry_check(test, reg, fm);
}

static void memtier_registry_move_up_down_back(struct kunit *test)
{
	static const int tiers[] = { 200, 200, 200, 200, MEMTIER_NO_TIER, -1 };
	struct fake_machine *fm = fake_machine_new(test, 6, roles6, NULL);
	struct memtier_registry *reg = fake_registry_new(test);

	fake_place(test, reg, fm, tiers);

	KUNIT_EXPECT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 2,
							   300));
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(reg, 2), 300);
	KUNIT_EXPECT_NODEMASK_EQ(test, memtier_registry_find(reg, 200)->nodes,
				 FAKE_MASK(0, 1, 3));
	fake_registry_check(test, reg, fm);

	KUNIT_EXPECT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 2,
							   100));
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(reg, 2), 100);
	/* Its only node left: tier 300 is gone. */
	KUNIT_EXPECT_NULL(test, memtier_registry_find(reg, 300));
	fake_registry_check(test, reg, fm);

	KUNIT_EXPECT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 2,
							   200));
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(reg, 2), 200);
	KUNIT_EXPECT_NULL(test, memtier_registry_find(reg, 100));
	KUNIT_EXPECT_NODEMASK_EQ(test, memtier_registry_find(reg, 200)->nodes,
				 FAKE_MASK(0, 1, 2, 3));
	KUNIT_EXPECT_TRUE(test, list_is_singular(&reg->tiers));
	/* The other nodes never moved. */
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(reg, 0), 200);
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(reg, 3), 200);
	fake_registry_check(test, reg, fm);
}

static void memtier_registry_move_to_same_tier(struct kunit *test)
{
	struct fake_machine *fm = fake_machine_new(test, 6, roles6, NULL);
	struct memtier_registry *reg = fake_registry_new(test);
	struct memtier_tier *tier;

	KUNIT_ASSERT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 3,
							   100));
	tier = memtier_registry_find(reg, 100);
	KUNIT_EXPECT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 3,
							   100));
	/* The same tier object: it was neither freed nor recreated. */
	KUNIT_EXPECT_PTR_EQ(test, memtier_registry_find(reg, 100), tier);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&reg->tiers));
}

static void memtier_registry_last_node_leaves(struct kunit *test)
{
	static const int tiers[] = { 200, 200, 100, 100, MEMTIER_NO_TIER, -1 };
	struct fake_machine *fm = fake_machine_new(test, 6, roles6, NULL);
	struct memtier_registry *reg = fake_registry_new(test);

	fake_place(test, reg, fm, tiers);
	memtier_registry_remove_node(reg, 2);
	KUNIT_EXPECT_NOT_NULL(test, memtier_registry_find(reg, 100));
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(reg, 2),
			MEMTIER_NO_TIER);
	memtier_registry_remove_node(reg, 3);
	KUNIT_EXPECT_NULL(test, memtier_registry_find(reg, 100));
	KUNIT_EXPECT_TRUE(test, list_is_singular(&reg->tiers));
	fake_registry_check(test, reg, fm);

	/* Removing a node in no tier, or out of range, does nothing. */
	memtier_registry_remove_node(reg, 3);
	memtier_registry_remove_node(reg, 4);
	memtier_registry_remove_node(reg, -1);
	memtier_registry_remove_node(reg, MAX_NUMNODES);
	KUNIT_EXPECT_NODEMASK_EQ(test, memtier_registry_find(reg, 200)->nodes,
				 FAKE_MASK(0, 1));
	fake_registry_check(test, reg, fm);
}

struct tier_id_case {
	int id;
	int ret;
};

static const struct tier_id_case tier_id_cases[] = {
	{ .id = -1, .ret = -EINVAL },
	{ .id = 0, .ret = 0 },
	{ .id = 1, .ret = 0 },
	{ .id = 399, .ret = 0 },
	{ .id = 400, .ret = 0 },
	{ .id = 401, .ret = -EINVAL },
	{ .id = INT_MIN, .ret = -EINVAL },
	{ .id = INT_MAX, .ret = -EINVAL },
};

static void tier_id_case_desc(const struct tier_id_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "id %d", c->id);
}

KUNIT_ARRAY_PARAM(tier_id, tier_id_cases, tier_id_case_desc);

/* Node 2 starts in tier 100; moving it to each ID succeeds or changes nothing. */
static void memtier_registry_tier_id_range(struct kunit *test)
{
	const struct tier_id_case *c = test->param_value;
	struct fake_machine *fm = fake_machine_new(test, 6, roles6, NULL);
	struct memtier_registry *reg = fake_registry_new(test);

	KUNIT_ASSERT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 2,
							   100));
	KUNIT_EXPECT_EQ(test, c->ret,
			memtier_registry_set_node(reg, &fm->topo, 2, c->id));
	KUNIT_EXPECT_EQ(test, memtier_tier_id_valid(c->id), c->ret == 0);
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(reg, 2),
			c->ret ? 100 : c->id);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&reg->tiers));
	fake_registry_check(test, reg, fm);
}

static void memtier_registry_tier_id_valid_long(struct kunit *test)
{
	/* User input is parsed as long: no truncation may sneak in. */
	KUNIT_EXPECT_FALSE(test, memtier_tier_id_valid(LONG_MAX));
	KUNIT_EXPECT_FALSE(test, memtier_tier_id_valid(LONG_MIN));
	KUNIT_EXPECT_FALSE(test, memtier_tier_id_valid(0x100000000L + 200));
	KUNIT_EXPECT_TRUE(test, memtier_tier_id_valid(200L));
}

struct bad_node_case {
	const char *what;
	int node;
	int ret;
};

static const struct bad_node_case bad_node_cases[] = {
	{ "negative", -1, -EINVAL },
	{ "beyond MAX_NUMNODES", MAX_NUMNODES, -EINVAL },
	{ "CPU-only", 4, -ENODEV },
	{ "absent", 5, -ENODEV },
	{ "absent, never described", MAX_NUMNODES - 1, -ENODEV },
};

static void bad_node_case_desc(const struct bad_node_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s node %d", c->what, c->node);
}

KUNIT_ARRAY_PARAM(bad_node, bad_node_cases, bad_node_case_desc);

static void memtier_registry_bad_node(struct kunit *test)
{
	static const int tiers[] = { 200, 200, 100, 100, MEMTIER_NO_TIER, -1 };
	const struct bad_node_case *c = test->param_value;
	struct fake_machine *fm = fake_machine_new(test, 6, roles6, NULL);
	struct memtier_registry *reg = fake_registry_new(test);

	fake_place(test, reg, fm, tiers);
	KUNIT_EXPECT_EQ(test, c->ret,
			memtier_registry_set_node(reg, &fm->topo, c->node,
						  300));
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(reg, c->node),
			MEMTIER_NO_TIER);
	KUNIT_EXPECT_NULL(test, memtier_registry_find(reg, 300));
	KUNIT_EXPECT_NODEMASK_EQ(test, memtier_registry_find(reg, 200)->nodes,
				 FAKE_MASK(0, 1));
	KUNIT_EXPECT_NODEMASK_EQ(test, memtier_registry_find(reg, 100)->nodes,
				 FAKE_MASK(2, 3));
	fake_registry_check(test, reg, fm);
}

static struct memtier_tier *fail_tier_alloc(int id)
{
	return NULL;
}

/*
 * The memory tiering series of 2022 took the node out of its tier in
 * node_update_memory_tier() before creating the new one, and left it in
 * no tier when that failed.
 */
static void memtier_registry_failed_move_keeps_state(struct kunit *test)
{
	static const int tiers[] = { 200, 200, 100, MEMTIER_NO_TIER,
				     MEMTIER_NO_TIER, -1 };
	struct fake_machine *fm = fake_machine_new(test, 6, roles6, NULL);
	struct memtier_registry *reg = fake_registry_new(test);
	struct memtier_tier *pmem;

	fake_place(test, reg, fm, tiers);
	pmem = memtier_registry_find(reg, 100);

	kunit_activate_static_stub(test, memtier_tier_alloc, fail_tier_alloc);
	/* Node 2 is tier 100's only node: a lost node would lose the tier. */
	KUNIT_EXPECT_EQ(test, -ENOMEM,
			memtier_registry_set_node(reg, &fm->topo, 2, 300));
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(reg, 2), 100);
	KUNIT_EXPECT_PTR_EQ(test, memtier_registry_find(reg, 100), pmem);
	KUNIT_EXPECT_NODEMASK_EQ(test, pmem->nodes, FAKE_MASK(2));
	KUNIT_EXPECT_NULL(test, memtier_registry_find(reg, 300));
	/* A new node cannot join a tier that does not exist yet either. */
	KUNIT_EXPECT_EQ(test, -ENOMEM,
			memtier_registry_set_node(reg, &fm->topo, 3, 300));
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(reg, 3),
			MEMTIER_NO_TIER);
	/* Moving into an existing tier allocates nothing and still works. */
	KUNIT_EXPECT_EQ(test, 0,
			memtier_registry_set_node(reg, &fm->topo, 2, 200));
	KUNIT_EXPECT_NULL(test, memtier_registry_find(reg, 100));
	fake_registry_check(test, reg, fm);
	kunit_deactivate_static_stub(test, memtier_tier_alloc);

	KUNIT_EXPECT_EQ(test, 0,
			memtier_registry_set_node(reg, &fm->topo, 2, 300));
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(reg, 2), 300);
	fake_registry_check(test, reg, fm);
}

struct ops_log {
	int added[8];
	int removed[8];
	int nr_added;
	int nr_removed;
	int fail_id;
};

struct logged_registry {
	struct memtier_registry reg;
	struct ops_log *log;
};

static struct ops_log *ops_log_of(struct memtier_registry *reg)
{
	return container_of(reg, struct logged_registry, reg)->log;
}

static int log_tier_added(struct memtier_registry *reg,
			  struct memtier_tier *tier)
{
	struct ops_log *log = ops_log_of(reg);

	if (tier->id == log->fail_id)
		return -EBUSY;
	/* The tier is linked, and still empty. */
	if (WARN_ON(!nodes_empty(tier->nodes)))
		return -EINVAL;
	log->added[log->nr_added++ % 8] = tier->id;
	return 0;
}

static void log_tier_removed(struct memtier_registry *reg,
			     struct memtier_tier *tier)
{
	struct ops_log *log = ops_log_of(reg);

	log->removed[log->nr_removed++ % 8] = tier->id;
}

static const struct memtier_registry_ops log_ops = {
	.tier_added = log_tier_added,
	.tier_removed = log_tier_removed,
};

static struct memtier_registry *logged_registry(struct kunit *test,
						struct ops_log *log)
{
	struct logged_registry *lr;

	lr = kunit_kzalloc(test, sizeof(*lr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lr);
	memtier_registry_init(&lr->reg, &log_ops);
	lr->log = log;
	return &lr->reg;
}

static void memtier_registry_ops_called(struct kunit *test)
{
	struct fake_machine *fm = fake_machine_new(test, 6, roles6, NULL);
	struct ops_log log = { .fail_id = -1 };
	struct memtier_registry *reg = logged_registry(test, &log);

	KUNIT_ASSERT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 0,
							   200));
	KUNIT_ASSERT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 1,
							   200));
	KUNIT_ASSERT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 2,
							   100));
	KUNIT_EXPECT_EQ(test, log.nr_added, 2);
	KUNIT_EXPECT_EQ(test, log.added[0], 200);
	KUNIT_EXPECT_EQ(test, log.added[1], 100);
	KUNIT_EXPECT_EQ(test, log.nr_removed, 0);

	KUNIT_ASSERT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 2,
							   200));
	KUNIT_EXPECT_EQ(test, log.nr_removed, 1);
	KUNIT_EXPECT_EQ(test, log.removed[0], 100);

	/* Tier 200 goes with its last node, not before. */
	memtier_registry_remove_node(reg, 0);
	memtier_registry_remove_node(reg, 2);
	KUNIT_EXPECT_EQ(test, log.nr_removed, 1);
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(reg, 0),
			MEMTIER_NO_TIER);
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(reg, 1), 200);
	memtier_registry_remove_node(reg, 1);
	KUNIT_EXPECT_EQ(test, log.nr_removed, 2);
	KUNIT_EXPECT_EQ(test, log.removed[1], 200);
	KUNIT_EXPECT_TRUE(test, list_empty(&reg->tiers));
}

static void memtier_registry_tier_added_fails(struct kunit *test)
{
	struct fake_machine *fm = fake_machine_new(test, 6, roles6, NULL);
	struct ops_log log = { .fail_id = 300 };
	struct memtier_registry *reg = logged_registry(test, &log);

	KUNIT_ASSERT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 2,
							   100));
	KUNIT_EXPECT_EQ(test, -EBUSY,
			memtier_registry_set_node(reg, &fm->topo, 2, 300));
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(reg, 2), 100);
	KUNIT_EXPECT_NULL(test, memtier_registry_find(reg, 300));
	KUNIT_EXPECT_TRUE(test, list_is_singular(&reg->tiers));
	KUNIT_EXPECT_EQ(test, log.nr_removed, 0);
	fake_registry_check(test, reg, fm);
	fake_registry_empty(reg);
}

/*
 * Tiers given up are freed: a tier whose creation the owner refused,
 * and a tier whose last node left.  2^17 of each leave the free page
 * count within 4 MB of where it was, where a leak of even 64 bytes a
 * tier would be 8 MB; the slack covers the per-CPU counter deltas.
 */
static void memtier_registry_tiers_freed(struct kunit *test)
{
	struct fake_machine *fm = fake_machine_new(test, 6, roles6, NULL);
	struct ops_log log = { .fail_id = 300 };
	struct memtier_registry *reg = logged_registry(test, &log);
	const long slack = SZ_4M >> PAGE_SHIFT;
	long before, after;
	int i;

	KUNIT_ASSERT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 2,
							   100));
	before = global_zone_page_state(NR_FREE_PAGES);
	for (i = 0; i < (1 << 17); i++)
		if (memtier_registry_set_node(reg, &fm->topo, 2, 300) !=
		    -EBUSY)
			break;
	after = global_zone_page_state(NR_FREE_PAGES);
	KUNIT_EXPECT_EQ(test, i, 1 << 17);
	/* KASAN's quarantine holds freed objects back: nothing to compare. */
	if (!IS_ENABLED(CONFIG_KASAN))
		KUNIT_EXPECT_LT(test, before - after, slack);

	before = global_zone_page_state(NR_FREE_PAGES);
	for (i = 0; i < (1 << 17); i++)
		if (memtier_registry_set_node(reg, &fm->topo, 2,
					      i & 1 ? 100 : 150))
			break;
	after = global_zone_page_state(NR_FREE_PAGES);
	KUNIT_EXPECT_EQ(test, i, 1 << 17);
	/* KASAN's quarantine holds freed objects back: nothing to compare. */
	if (!IS_ENABLED(CONFIG_KASAN))
		KUNIT_EXPECT_LT(test, before - after, slack);
	fake_registry_empty(reg);
}

/*
 * Node numbers out of range are refused before the node array is
 * indexed: the words either side of it (the ops pointer before, the
 * owner's data after) must not be taken for a node's tier.
 */
static void memtier_registry_node_out_of_range(struct kunit *test)
{
	struct fake_machine *fm = fake_machine_new(test, 6, roles6, NULL);
	struct ops_log log = { .fail_id = -1 };
	struct memtier_registry *reg = logged_registry(test, &log);
	struct logged_registry *lr;

	lr = container_of(reg, struct logged_registry, reg);
	KUNIT_ASSERT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 0,
							   200));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			memtier_registry_set_node(reg, &fm->topo, -1, 200));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			memtier_registry_set_node(reg, &fm->topo,
						  MAX_NUMNODES, 200));
	memtier_registry_remove_node(reg, -1);
	memtier_registry_remove_node(reg, MAX_NUMNODES);
	KUNIT_EXPECT_PTR_EQ(test, reg->ops, &log_ops);
	KUNIT_EXPECT_PTR_EQ(test, lr->log, &log);
	KUNIT_EXPECT_EQ(test, log.nr_removed, 0);
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(reg, 0), 200);
	fake_registry_empty(reg);
}

static const struct memtier_registry_ops only_added_ops = {
	.tier_added = log_tier_added,
};

static const struct memtier_registry_ops only_removed_ops = {
	.tier_removed = log_tier_removed,
};

/* Either callback may be left out. */
static void memtier_registry_ops_optional(struct kunit *test)
{
	struct fake_machine *fm = fake_machine_new(test, 6, roles6, NULL);
	struct ops_log log = { .fail_id = -1 };
	struct memtier_registry *reg = logged_registry(test, &log);

	reg->ops = &only_added_ops;
	KUNIT_ASSERT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 2,
							   100));
	KUNIT_ASSERT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 2,
							   300));
	KUNIT_EXPECT_EQ(test, log.nr_added, 2);
	KUNIT_EXPECT_EQ(test, log.nr_removed, 0);

	reg->ops = &only_removed_ops;
	KUNIT_ASSERT_EQ(test, 0, memtier_registry_set_node(reg, &fm->topo, 2,
							   200));
	KUNIT_EXPECT_EQ(test, log.nr_added, 2);
	KUNIT_EXPECT_EQ(test, log.nr_removed, 1);
	KUNIT_EXPECT_EQ(test, log.removed[0], 300);
	fake_registry_check(test, reg, fm);
	fake_registry_empty(reg);
}

static struct kunit_case memtier_registry_cases[] = {
	KUNIT_CASE(memtier_registry_tier_constants),
	KUNIT_CASE(memtier_registry_starts_empty),
	KUNIT_CASE(memtier_registry_init_poisoned),
	KUNIT_CASE(memtier_registry_default_change),
	KUNIT_CASE(memtier_registry_tiers_sorted),
	KUNIT_CASE(memtier_registry_move_up_down_back),
	KUNIT_CASE(memtier_registry_move_to_same_tier),
	KUNIT_CASE(memtier_registry_last_node_leaves),
	KUNIT_CASE_PARAM(memtier_registry_tier_id_range, tier_id_gen_params),
	KUNIT_CASE(memtier_registry_tier_id_valid_long),
	KUNIT_CASE_PARAM(memtier_registry_bad_node, bad_node_gen_params),
	KUNIT_CASE(memtier_registry_failed_move_keeps_state),
	KUNIT_CASE(memtier_registry_ops_called),
	KUNIT_CASE(memtier_registry_tier_added_fails),
	KUNIT_CASE(memtier_registry_tiers_freed),
	KUNIT_CASE(memtier_registry_node_out_of_range),
	KUNIT_CASE(memtier_registry_ops_optional),
	{}
};

static struct kunit_suite memtier_registry_suite = {
	.name = "memtier_registry",
	.test_cases = memtier_registry_cases,
};

kunit_test_suite(memtier_registry_suite);
