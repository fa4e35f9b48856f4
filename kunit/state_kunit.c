// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_state: the registry and its published snapshot
 * change as one; after set-up no change allocates, so taking a node out
 * (memory offline) cannot fail; snapshots are sized by the node count.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sizes.h>

#include "memtier.h"
#include "fake_machine.h"

static void state_destroy(void *state)
{
	fake_state_destroy(state);
}

static struct memtier_state *new_state(struct kunit *test,
				       struct fake_machine *fm)
{
	struct memtier_state *state;

	state = kunit_kzalloc(test, sizeof(*state), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, state);
	KUNIT_ASSERT_EQ(test, 0, memtier_state_init(state, NULL, fm->nr_nodes));
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, state_destroy, state));
	return state;
}

static const struct memtier_snapshot *published(struct memtier_state *state)
{
	return rcu_access_pointer(state->snap);
}

/* memtier_state_set_node() on the fake machine. */
static int set_node(struct memtier_state *state, struct fake_machine *fm,
		    int node, int id)
{
	return memtier_state_set_node(state, &fm->topo, node, id);
}

static int alloc_calls;

static struct memtier_snapshot *failing_alloc(unsigned int nr_nodes,
					      gfp_t gfp)
{
	alloc_calls++;
	return NULL;
}

static void memtier_state_starts_empty(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_CPU };
	struct fake_machine *fm = fake_machine_new(test, 3, roles, NULL);
	struct memtier_state *state = new_state(test, fm);

	KUNIT_ASSERT_NOT_NULL(test, published(state));
	KUNIT_EXPECT_NOT_NULL(test, state->spare);
	KUNIT_EXPECT_PTR_NE(test, published(state),
			    (const struct memtier_snapshot *)state->spare);
	KUNIT_EXPECT_EQ(test, published(state)->nr_tiers, 0);
	KUNIT_EXPECT_EQ(test, published(state)->nr_nodes, 3u);
	KUNIT_EXPECT_EQ(test, published(state)->top_tier_id, MEMTIER_NO_TIER);
}

/* Each change publishes the spare and keeps the old snapshot as spare. */
static void memtier_state_publish_swaps(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM };
	struct fake_machine *fm = fake_machine_new(test, 2, roles, NULL);
	struct memtier_state *state = new_state(test, fm);
	const struct memtier_snapshot *before, *spare;
	nodemask_t got;

	before = published(state);
	spare = state->spare;
	KUNIT_ASSERT_EQ(test, 0, set_node(state, fm, 0, 200));
	KUNIT_ASSERT_EQ(test, 0, set_node(state, fm, 1, 57));
	/* Two changes: back to the first pair, each in the other role. */
	KUNIT_EXPECT_PTR_EQ(test, published(state), before);
	KUNIT_EXPECT_PTR_EQ(test, (const struct memtier_snapshot *)state->spare,
			    spare);
	KUNIT_EXPECT_EQ(test, memtier_snapshot_node_tier(published(state), 1),
			57);
	memtier_allowed_targets(published(state), 0, &got);
	KUNIT_EXPECT_NODEMASK_EQ(test, got, FAKE_MASK(1));
}

/* Writing a node into its own tier publishes nothing, waits for nothing. */
static void memtier_state_same_tier_publishes_nothing(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM };
	struct fake_machine *fm = fake_machine_new(test, 2, roles, NULL);
	struct memtier_state *state = new_state(test, fm);
	const struct memtier_snapshot *before;

	KUNIT_ASSERT_EQ(test, 0, set_node(state, fm, 0, 200));
	KUNIT_ASSERT_EQ(test, 0, set_node(state, fm, 1, 133));
	before = published(state);
	KUNIT_EXPECT_EQ(test, 0, set_node(state, fm, 1, 133));
	KUNIT_EXPECT_PTR_EQ(test, published(state), before);
	/* A real move does publish. */
	KUNIT_EXPECT_EQ(test, 0, set_node(state, fm, 1, 134));
	KUNIT_EXPECT_PTR_NE(test, published(state), before);
	KUNIT_EXPECT_EQ(test, memtier_snapshot_node_tier(published(state), 1),
			134);
}

/* A change that fails leaves the registry and the published targets. */
static void memtier_state_failed_change(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_CPU };
	struct fake_machine *fm = fake_machine_new(test, 3, roles, NULL);
	struct memtier_state *state = new_state(test, fm);
	const struct memtier_snapshot *before;

	KUNIT_ASSERT_EQ(test, 0, set_node(state, fm, 0, 200));
	KUNIT_ASSERT_EQ(test, 0, set_node(state, fm, 1, 100));
	before = published(state);
	KUNIT_EXPECT_EQ(test, set_node(state, fm, 1, 401),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, set_node(state, fm, 2, 100),
			-ENODEV);
	KUNIT_EXPECT_PTR_EQ(test, published(state), before);
	KUNIT_EXPECT_EQ(test, memtier_snapshot_node_tier(before, 1), 100);
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(&state->reg, 1), 100);
}

/*
 * Memory offline: with every allocation of a snapshot failing, taking a
 * node out still succeeds, allocates nothing, and the node is no longer
 * a target; the other changes that follow allocate nothing either.
 */
static void memtier_state_offline_allocates_nothing(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_MEM };
	struct fake_machine *fm = fake_machine_new(test, 3, roles, NULL);
	struct memtier_state *state = new_state(test, fm);
	nodemask_t got;

	KUNIT_ASSERT_EQ(test, 0, set_node(state, fm, 0, 200));
	KUNIT_ASSERT_EQ(test, 0, set_node(state, fm, 1, 100));
	KUNIT_ASSERT_EQ(test, 0, set_node(state, fm, 2, 100));

	alloc_calls = 0;
	kunit_activate_static_stub(test, memtier_snapshot_alloc, failing_alloc);
	node_clear(1, fm->topo.memory_nodes);
	memtier_state_remove_node(state, &fm->topo, 1);
	KUNIT_EXPECT_EQ(test, memtier_registry_node_tier(&state->reg, 1),
			MEMTIER_NO_TIER);
	KUNIT_EXPECT_EQ(test, memtier_snapshot_node_tier(published(state), 1),
			MEMTIER_NO_TIER);
	memtier_allowed_targets(published(state), 0, &got);
	KUNIT_EXPECT_NODEMASK_EQ(test, got, FAKE_MASK(2));

	/* The last node of a tier: the tier goes, node 0 demotes nowhere. */
	node_clear(2, fm->topo.memory_nodes);
	memtier_state_remove_node(state, &fm->topo, 2);
	KUNIT_EXPECT_EQ(test, published(state)->nr_tiers, 1);
	KUNIT_EXPECT_EQ(test, memtier_next_demotion_node(published(state), 0,
							 0), NUMA_NO_NODE);

	/* Back online, into an existing tier: still no allocation. */
	node_set(1, fm->topo.memory_nodes);
	KUNIT_EXPECT_EQ(test, 0, set_node(state, fm, 1, 200));
	KUNIT_EXPECT_EQ(test, alloc_calls, 0);
	kunit_deactivate_static_stub(test, memtier_snapshot_alloc);
}

/*
 * A state for the set-up cases, zeroed, off the stack: its registry has
 * per-node arrays, 8 KB at NODES_SHIFT=10.
 */
static struct memtier_state *new_zeroed_state(struct kunit *test)
{
	struct memtier_state *state = kunit_kzalloc(test, sizeof(*state),
						    GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, state);
	return state;
}

/* Set-up is where allocation can fail: then nothing is left behind. */
static void memtier_state_init_fails_cleanly(struct kunit *test)
{
	struct memtier_state *state = new_zeroed_state(test);

	alloc_calls = 0;
	kunit_activate_static_stub(test, memtier_snapshot_alloc, failing_alloc);
	KUNIT_EXPECT_EQ(test, memtier_state_init(state, NULL, 4), -ENOMEM);
	kunit_deactivate_static_stub(test, memtier_snapshot_alloc);
	KUNIT_EXPECT_EQ(test, alloc_calls, 2);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(state->snap));
	KUNIT_EXPECT_NULL(test, state->spare);
}

/* The first snapshot is allocated, the spare is not. */
static struct memtier_snapshot *spare_fails(unsigned int nr_nodes, gfp_t gfp)
{
	if (alloc_calls++ & 1)
		return NULL;
	return kvzalloc(memtier_snapshot_size(nr_nodes), gfp);
}

/*
 * When only the spare cannot be allocated, the first snapshot is freed:
 * 64 MB worth of such failures leave the free page count within 4 MB of
 * where it was.
 */
static void memtier_state_init_half_fails_frees(struct kunit *test)
{
	const unsigned int nr = MAX_NUMNODES;
	const int rounds = SZ_64M / memtier_snapshot_size(nr);
	struct memtier_state *state = new_zeroed_state(test);
	long before, after;
	int i, ret = 0;

	alloc_calls = 0;
	kunit_activate_static_stub(test, memtier_snapshot_alloc, spare_fails);
	before = global_zone_page_state(NR_FREE_PAGES);
	for (i = 0; i < rounds && !ret; i++)
		ret = memtier_state_init(state, NULL, nr) != -ENOMEM;
	after = global_zone_page_state(NR_FREE_PAGES);
	kunit_deactivate_static_stub(test, memtier_snapshot_alloc);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, alloc_calls, 2 * rounds);
	/* KASAN's quarantine holds freed objects back: nothing to compare. */
	if (!IS_ENABLED(CONFIG_KASAN))
		KUNIT_EXPECT_LT(test, before - after,
				(long)(SZ_4M >> PAGE_SHIFT));
}

/*
 * Set-up does not count on zeroed memory: on a poisoned state it
 * publishes an empty snapshot and keeps a distinct spare.
 */
static void memtier_state_init_poisoned(struct kunit *test)
{
	struct memtier_state *state = new_zeroed_state(test);
	const struct memtier_snapshot *snap;

	memset(state, 0x5a, sizeof(*state));
	KUNIT_ASSERT_EQ(test, memtier_state_init(state, NULL, 4), 0);
	snap = published(state);
	KUNIT_EXPECT_NOT_NULL(test, snap);
	KUNIT_EXPECT_NOT_NULL(test, state->spare);
	KUNIT_EXPECT_PTR_NE(test, snap, state->spare);
	KUNIT_EXPECT_TRUE(test, list_empty(&state->reg.tiers));
	KUNIT_EXPECT_EQ(test, snap->nr_tiers, 0);
	fake_state_destroy(state);
}

/*
 * The size follows the node count, not MAX_NUMNODES: the per-node arrays
 * and at most one tier per node, never more than the 401 tier IDs.  The
 * expected sizes are summed here from the member sizes.
 */
static void memtier_state_snapshot_size(struct kunit *test)
{
	static const unsigned int counts[] = { 1, 2, 3, 64, 400, 401, 402,
					       1000, 1024 };
	size_t head = sizeof(struct memtier_snapshot);
	size_t per_tier = sizeof(struct memtier_snapshot_tier);
	size_t per_node = sizeof(nodemask_t) + sizeof(s16);
	unsigned int i, n, tiers;

	for (i = 0; i < ARRAY_SIZE(counts); i++) {
		n = counts[i];
		tiers = n < 401 ? n : 401;
		KUNIT_EXPECT_EQ_MSG(test, memtier_snapshot_size(n),
				    head + tiers * per_tier + n * per_node,
				    "%u nodes", n);
	}
	kunit_info(test, "snapshot: %zu bytes at 4 nodes, %zu at 1024 nodes (MAX_NUMNODES %d)\n",
		   memtier_snapshot_size(4), memtier_snapshot_size(1024),
		   MAX_NUMNODES);
	KUNIT_EXPECT_NULL(test, memtier_snapshot_alloc(0, GFP_KERNEL));
	KUNIT_EXPECT_NULL(test, memtier_snapshot_alloc(MAX_NUMNODES + 1,
						       GFP_KERNEL));
}

/*
 * The layout inside one allocation: the tiers, then the preferred masks
 * aligned for a nodemask, then the tier indexes, which end exactly at
 * the size; a write to every entry reads back (KASAN checks the rest).
 */
static void memtier_state_snapshot_layout(struct kunit *test)
{
	static const unsigned int counts[] = { 1, 3, 17, 402 };
	struct memtier_snapshot *snap;
	unsigned int i, n, node;
	u8 *start;

	for (i = 0; i < ARRAY_SIZE(counts); i++) {
		n = counts[i];
		if (n > MAX_NUMNODES)
			continue;
		snap = memtier_snapshot_alloc(n, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, snap);
		start = (u8 *)snap;
		KUNIT_EXPECT_EQ(test, snap->nr_nodes, n);
		KUNIT_EXPECT_TRUE(test, IS_ALIGNED((unsigned long)snap->preferred,
						   __alignof__(nodemask_t)));
		KUNIT_EXPECT_PTR_EQ(test, (u8 *)snap->preferred,
				    (u8 *)&snap->tier[min(n, 401u)]);
		KUNIT_EXPECT_PTR_EQ(test, (u8 *)snap->node_tier,
				    (u8 *)&snap->preferred[n]);
		KUNIT_EXPECT_EQ(test, (size_t)((u8 *)&snap->node_tier[n] - start),
				memtier_snapshot_size(n));
		for (node = 0; node < n; node++) {
			snap->node_tier[node] = (s16)(node ^ 0x5a5);
			nodes_clear(snap->preferred[node]);
			node_set(node, snap->preferred[node]);
		}
		for (node = 0; node < n; node++) {
			KUNIT_EXPECT_EQ(test, snap->node_tier[node],
					(s16)(node ^ 0x5a5));
			KUNIT_EXPECT_EQ(test, nodes_weight(snap->preferred[node]), 1);
		}
		memtier_snapshot_free(snap);
	}
}

/* Node IDs past the snapshot's count are in no tier and demote nowhere. */
static void memtier_state_nodes_past_count(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_MEM };
	struct fake_machine *fm = fake_machine_new(test, 3, roles, NULL);
	struct memtier_state *state = new_state(test, fm);
	const struct memtier_snapshot *snap;
	nodemask_t got;
	int node;

	KUNIT_ASSERT_EQ(test, 0, set_node(state, fm, 0, 200));
	KUNIT_ASSERT_EQ(test, 0, set_node(state, fm, 1, 100));
	KUNIT_ASSERT_EQ(test, 0, set_node(state, fm, 2, 50));
	snap = published(state);
	for (node = 3; node < 6; node++) {
		KUNIT_EXPECT_EQ(test, memtier_snapshot_node_tier(snap, node),
				MEMTIER_NO_TIER);
		KUNIT_EXPECT_TRUE(test, memtier_node_is_toptier(snap, node));
		KUNIT_EXPECT_EQ(test, memtier_next_demotion_node(snap, node, 7),
				NUMA_NO_NODE);
		memtier_allowed_targets(snap, node, &got);
		KUNIT_EXPECT_TRUE(test, nodes_empty(got));
	}
	/* The last covered node is still seen. */
	KUNIT_EXPECT_EQ(test, memtier_snapshot_node_tier(snap, 2), 50);
	KUNIT_EXPECT_FALSE(test, memtier_node_is_toptier(snap, 2));
}

/*
 * Every node in a tier of its own, as many as the configuration allows
 * up to 64: each per-node array entry is written and read back, so an
 * overlap of the arrays inside one allocation shows (and KASAN would
 * report a write past its end).
 */
static void memtier_state_snapshot_full(struct kunit *test)
{
	int nr = min(64, MAX_NUMNODES), node;
	struct fake_machine *fm;
	struct memtier_state *state;
	const struct memtier_snapshot *snap;
	u8 *roles;
	nodemask_t got;

	roles = kunit_kzalloc(test, nr, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, roles);
	for (node = 0; node < nr; node++)
		roles[node] = node ? FM_MEM : FM_CPU_MEM;
	fm = fake_machine_new(test, nr, roles, NULL);
	state = new_state(test, fm);
	for (node = 0; node < nr; node++)
		KUNIT_ASSERT_EQ(test, 0, set_node(state, fm, node,
						  MAX_MEMORY_TIER_ID - 3 * node));
	snap = published(state);
	KUNIT_EXPECT_EQ(test, snap->nr_tiers, nr);
	KUNIT_EXPECT_EQ(test, snap->top_tier_id, MAX_MEMORY_TIER_ID);
	for (node = 0; node < nr; node++) {
		KUNIT_EXPECT_EQ(test, memtier_snapshot_node_tier(snap, node),
				MAX_MEMORY_TIER_ID - 3 * node);
		memtier_preferred_targets(snap, node, &got);
		if (node + 1 < nr)
			KUNIT_EXPECT_NODEMASK_EQ(test, got, FAKE_MASK(node + 1));
		else
			KUNIT_EXPECT_TRUE(test, nodes_empty(got));
	}
}

/*
 * A freed snapshot gives its memory back: 64 MB worth of allocate-and-
 * free rounds leave the free page count within 16 MB of where it was.
 * The slack covers the per-CPU counter deltas and other allocations.
 */
static void memtier_state_snapshot_free_returns_memory(struct kunit *test)
{
	size_t size = memtier_snapshot_size(MAX_NUMNODES);
	unsigned long i, rounds = SZ_64M / size;
	struct memtier_snapshot *snap;
	long before, after;

	before = global_zone_page_state(NR_FREE_PAGES);
	for (i = 0; i < rounds; i++) {
		snap = memtier_snapshot_alloc(MAX_NUMNODES, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL_MSG(test, snap, "round %lu", i);
		memtier_snapshot_free(snap);
	}
	after = global_zone_page_state(NR_FREE_PAGES);
	KUNIT_EXPECT_LT_MSG(test, before - after, (long)(SZ_16M >> PAGE_SHIFT),
			    "%lu rounds of %zu bytes", rounds, size);
}

static struct kunit_case memtier_state_cases[] = {
	KUNIT_CASE(memtier_state_starts_empty),
	KUNIT_CASE(memtier_state_publish_swaps),
	KUNIT_CASE(memtier_state_same_tier_publishes_nothing),
	KUNIT_CASE(memtier_state_failed_change),
	KUNIT_CASE(memtier_state_offline_allocates_nothing),
	KUNIT_CASE(memtier_state_init_fails_cleanly),
	KUNIT_CASE(memtier_state_init_half_fails_frees),
	KUNIT_CASE(memtier_state_init_poisoned),
	KUNIT_CASE(memtier_state_snapshot_size),
	KUNIT_CASE(memtier_state_snapshot_full),
	KUNIT_CASE(memtier_state_snapshot_layout),
	KUNIT_CASE(memtier_state_snapshot_free_returns_memory),
	KUNIT_CASE(memtier_state_nodes_past_count),
	{}
};

static struct kunit_suite memtier_state_suite = {
	.name = "memtier_state",
	.test_cases = memtier_state_cases,
};

kunit_test_suite(memtier_state_suite);
