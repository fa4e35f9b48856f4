// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_mainline: for every node nobody placed by hand, the
 * library gives what mainline (6.12) gives.
 *
 * A reference copy of 6.12's rules, kept here apart from the library,
 * runs beside it on seeded random machines as firmware can describe
 * them: any SLIT table (asymmetric, ties, the allocator's node loads),
 * CPU-less and memory-less nodes, abstract distances from HMAT or CXL
 * over the range real machines report (0 to 12799, where every chunk
 * has an ID of its own), and memory going offline and coming online,
 * CPUs included.  After every event both compute each memory node's
 * tier, its preferred and allowed demotion targets and whether it is top
 * tier, and they must agree:
 *
 *  - 6.12's tiers are the chunks of abstract distance (memory_tierN);
 *    a node's tier ID must be one per chunk and order chunks the same;
 *  - establish_demotion_targets(): preferred targets from the next
 *    slower tier in find_next_best_node() order, while at the first
 *    one's distance; allowed targets every node of every slower tier;
 *  - the top tier: every tier up to the slowest one holding a CPU node,
 *    kept as it was when no tier holds one, chunk 0 on a fresh machine.
 */
#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/memory-tiers.h>
#include <linux/prandom.h>
#include <linux/topology.h>

#include "memtier.h"
#include "fake_machine.h"

#define ML_MACHINES	250	/* per seed */
#define ML_EVENTS	6	/* per machine, after the first boot */
#define ML_MAX_NODES	min(16, MAX_NUMNODES)
#define ML_BIG_NODES	min(48, MAX_NUMNODES)
#define ML_DEFAULT_TIER	200
/* The slowest distance whose chunk has an ID of its own at the default. */
#define ML_MAX_ADIST	12799

static const u64 ml_seeds[] = {
	0x6d61696e6c696e65ull, 0x2022062200000004ull, 3, 612,
	0xfeedfacecafebeefull, 0x0fedcba987654321ull, 9001, 0x8000000000000000ull,
};

static void ml_seed_desc(const u64 *seed, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "seed %#llx", *seed);
}

KUNIT_ARRAY_PARAM(ml_seed, ml_seeds, ml_seed_desc);

static u32 ml_below(struct rnd_state *rs, u32 n)
{
	return prandom_u32_state(rs) % n;
}

/**
 * struct ml_machine - one random machine and both views of it
 * @fm: the machine, as the library sees it.
 * @adist: each node's abstract distance.
 * @tiers: each node's tier ID, kept as mm/memory-tiers.c keeps it.
 * @lib_top: the library's top-tier boundary, kept between events.
 * @ref_top_chunk: 6.12's top_tier_adistance, as a chunk, kept likewise.
 */
struct ml_machine {
	struct fake_machine *fm;
	int adist[MAX_NUMNODES];
	int *tiers;
	int lib_top;
	int ref_top_chunk;
};

/* ---- 6.12, by its own rules ---------------------------------------- */

static int ml_chunk(const struct ml_machine *m, int node)
{
	return m->adist[node] >> 7;
}

static int ml_dist(const struct fake_machine *fm, int from, int to)
{
	return fm->dist[from * fm->nr_nodes + to];
}

/*
 * find_next_best_node() of 6.12's mm/page_alloc.c.  The fake machine has
 * its own copy, which the library is given: this one is the reference's,
 * kept apart so that a change to the library's input shows here.
 */
static int ml_ref_next_best(const struct fake_machine *fm, int node,
			    nodemask_t *used)
{
	int n, val, min_val = INT_MAX, best_node = NUMA_NO_NODE;

	if (!node_isset(node, *used) && node_isset(node, fm->topo.memory_nodes)) {
		node_set(node, *used);
		return node;
	}
	for_each_node_mask(n, fm->topo.memory_nodes) {
		if (node_isset(n, *used))
			continue;
		val = ml_dist(fm, node, n);
		val += (n < node);
		if (node_isset(n, fm->topo.cpu_nodes))
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

/* The nodes of 6.12's memory tier of @chunk. */
static nodemask_t ml_ref_tier_nodes(const struct ml_machine *m, int chunk)
{
	nodemask_t nodes = NODE_MASK_NONE;
	int n;

	for_each_node_mask(n, m->fm->topo.memory_nodes)
		if (ml_chunk(m, n) == chunk)
			node_set(n, nodes);
	return nodes;
}

/* The next slower chunk with memory after @chunk, or -1. */
static int ml_ref_next_chunk(const struct ml_machine *m, int chunk)
{
	int n, next = INT_MAX;

	for_each_node_mask(n, m->fm->topo.memory_nodes)
		if (ml_chunk(m, n) > chunk)
			next = min(next, ml_chunk(m, n));
	return next == INT_MAX ? -1 : next;
}

/* establish_demotion_targets() for one node. */
static void ml_ref_targets(const struct ml_machine *m, int node,
			   nodemask_t *preferred, nodemask_t *allowed)
{
	const struct fake_machine *fm = m->fm;
	int next = ml_ref_next_chunk(m, ml_chunk(m, node));
	int target, distance, best_distance = -1, n;
	nodemask_t tier_nodes;

	nodes_clear(*preferred);
	nodes_clear(*allowed);
	for_each_node_mask(n, fm->topo.memory_nodes)
		if (ml_chunk(m, n) > ml_chunk(m, node))
			node_set(n, *allowed);
	if (next < 0)
		return;
	tier_nodes = ml_ref_tier_nodes(m, next);
	nodes_andnot(tier_nodes, fm->topo.memory_nodes, tier_nodes);
	do {
		target = ml_ref_next_best(fm, node, &tier_nodes);
		if (target == NUMA_NO_NODE)
			break;
		distance = ml_dist(fm, node, target);
		if (distance == best_distance || best_distance == -1) {
			best_distance = distance;
			node_set(target, *preferred);
		} else {
			break;
		}
	} while (1);
}

/* The top tier's chunk, from the slowest tier up; kept when none. */
static void ml_ref_top(struct ml_machine *m)
{
	const struct fake_machine *fm = m->fm;
	int n, top = -1;

	for_each_node_mask(n, fm->topo.memory_nodes)
		if (node_isset(n, fm->topo.cpu_nodes))
			top = max(top, ml_chunk(m, n));
	if (top >= 0)
		m->ref_top_chunk = top;
}

/* ---- both, compared --------------------------------------------------- */

/* Memory comes online on @node: the kernel places it, as at boot. */
static void ml_online(struct ml_machine *m, int node)
{
	node_set(node, m->fm->topo.memory_nodes);
	m->tiers[node] = memtier_initial_tier(&m->fm->topo.memory_nodes,
					      m->tiers, node, MEMTIER_NO_TIER,
					      m->adist[node], ML_DEFAULT_TIER);
}

/* Memory goes offline on @node; its ID is reset, as the kernel does. */
static void ml_offline(struct ml_machine *m, int node)
{
	node_clear(node, m->fm->topo.memory_nodes);
	m->tiers[node] = MEMTIER_NO_TIER;
}

/* Recompute both, as a rebuild does, and compare every memory node. */
static unsigned int ml_compare(struct kunit *test, struct ml_machine *m)
{
	const struct fake_machine *fm = m->fm;
	nodemask_t ref_pref, ref_allowed, pref, allowed;
	int n, o, ref_top, lib_top;
	unsigned int nodes = 0;

	ml_ref_top(m);
	m->lib_top = memtier_top_tier_id(&fm->topo, m->tiers, m->lib_top);
	for_each_node_mask(n, fm->topo.memory_nodes) {
		/* One ID per chunk, in the chunks' order. */
		for_each_node_mask(o, fm->topo.memory_nodes) {
			KUNIT_EXPECT_EQ_MSG(test, ml_chunk(m, n) == ml_chunk(m, o),
					    m->tiers[n] == m->tiers[o],
					    "nodes %d, %d: chunks %d, %d, IDs %d, %d",
					    n, o, ml_chunk(m, n), ml_chunk(m, o),
					    m->tiers[n], m->tiers[o]);
			KUNIT_EXPECT_EQ(test, ml_chunk(m, n) < ml_chunk(m, o),
					m->tiers[n] > m->tiers[o]);
		}
		ml_ref_targets(m, n, &ref_pref, &ref_allowed);
		fake_targets(fm, m->tiers, n, &pref, &allowed);
		KUNIT_EXPECT_TRUE_MSG(test, nodes_equal(pref, ref_pref),
				      "node %d (chunk %d, tier %d): preferred %*pbl, 6.12 %*pbl",
				      n, ml_chunk(m, n), m->tiers[n],
				      nodemask_pr_args(&pref),
				      nodemask_pr_args(&ref_pref));
		KUNIT_EXPECT_TRUE_MSG(test, nodes_equal(allowed, ref_allowed),
				      "node %d (chunk %d, tier %d): allowed %*pbl, 6.12 %*pbl",
				      n, ml_chunk(m, n), m->tiers[n],
				      nodemask_pr_args(&allowed),
				      nodemask_pr_args(&ref_allowed));
		ref_top = ml_chunk(m, n) <= m->ref_top_chunk;
		lib_top = memtier_is_toptier(m->tiers[n], m->lib_top);
		KUNIT_EXPECT_EQ_MSG(test, lib_top, ref_top,
				    "node %d (chunk %d, tier %d): top %d, 6.12 %d",
				    n, ml_chunk(m, n), m->tiers[n], lib_top,
				    ref_top);
		nodes++;
	}
	return nodes;
}

/* A distance as firmware reports it: DRAM, near it, or far. */
static int ml_adist(struct rnd_state *rs)
{
	switch (ml_below(rs, 4)) {
	case 0:
		return MEMTIER_ADISTANCE_DRAM;	/* no performance data */
	case 1:					/* around DRAM's chunk */
		return 256 + ml_below(rs, 768);
	default:
		return ml_below(rs, ML_MAX_ADIST + 1);
	}
}

static struct ml_machine *ml_machine_new(struct kunit *test,
					 struct rnd_state *rs, u8 *roles,
					 u8 *dist)
{
	int max = ml_below(rs, 8) ? ML_MAX_NODES : ML_BIG_NODES;
	int nr = 1 + ml_below(rs, max), a, b;
	struct ml_machine *m;

	m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);
	for (a = 0; a < nr; a++) {
		static const u8 pick[] = { FM_CPU_MEM, FM_CPU_MEM, FM_MEM,
					   FM_MEM, FM_MEM, FM_CPU, FM_NONE };

		roles[a] = pick[ml_below(rs, ARRAY_SIZE(pick))];
		m->adist[a] = ml_adist(rs);
		/* A distant chunk shared: so that tiers have several nodes. */
		if (a && !ml_below(rs, 3))
			m->adist[a] = m->adist[ml_below(rs, a)];
		dist[a * nr + a] = 10;
		for (b = 0; b < a; b++) {
			/* Few values, so ties are common; SLIT may differ. */
			dist[a * nr + b] = 11 + 3 * ml_below(rs, 4);
			dist[b * nr + a] = ml_below(rs, 4) ? dist[a * nr + b] :
					   11 + ml_below(rs, 244);
		}
	}
	m->fm = fake_machine_new(test, nr, roles, dist);
	for (a = 0; a < nr; a++)
		m->fm->load[a] = ml_below(rs, 3) ? 0 : ml_below(rs, 4);
	m->tiers = fake_tiers(test, m->fm, NULL);
	/* 6.12's top_tier_adistance starts at 0: chunk 0 is top. */
	m->ref_top_chunk = 0;
	m->lib_top = memtier_chunk_tier(0, ML_DEFAULT_TIER);
	return m;
}

/*
 * One event: memory offline or online, or a node's CPUs coming or going;
 * both sides rebuild after each.
 */
static void ml_event(struct rnd_state *rs, struct ml_machine *m)
{
	struct fake_machine *fm = m->fm;
	int node = ml_below(rs, fm->nr_nodes);

	switch (ml_below(rs, 3)) {
	case 0:
		if (node_isset(node, fm->topo.cpu_nodes))
			node_clear(node, fm->topo.cpu_nodes);
		else
			node_set(node, fm->topo.cpu_nodes);
		break;
	default:
		if (node_isset(node, fm->topo.memory_nodes)) {
			ml_offline(m, node);
		} else {
			/* Hot-added memory may be of another kind. */
			if (!ml_below(rs, 2))
				m->adist[node] = ml_adist(rs);
			ml_online(m, node);
		}
		break;
	}
}

static void memtier_mainline_random_machines(struct kunit *test)
{
	unsigned long machines = 0, nodes = 0;
	nodemask_t boot;
	struct rnd_state rs;
	u8 *roles, *dist;
	int round, event, node;

	roles = kunit_kzalloc(test, MAX_NUMNODES, GFP_KERNEL);
	dist = kunit_kzalloc(test, ML_BIG_NODES * ML_BIG_NODES, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, roles);
	KUNIT_ASSERT_NOT_NULL(test, dist);
	prandom_seed_state(&rs, *(const u64 *)test->param_value);

	for (round = 0; round < ML_MACHINES; round++) {
		struct ml_machine *m = ml_machine_new(test, &rs, roles, dist);

		/* Boot: every memory node comes online, one at a time. */
		boot = m->fm->topo.memory_nodes;
		nodes_clear(m->fm->topo.memory_nodes);
		for_each_node_mask(node, boot)
			ml_online(m, node);
		nodes += ml_compare(test, m);
		for (event = 0; event < ML_EVENTS; event++) {
			ml_event(&rs, m);
			nodes += ml_compare(test, m);
		}
		machines++;
		if (test->status == KUNIT_FAILURE) {
			kunit_info(test, "first failure on machine %d", round);
			return;
		}
	}
	kunit_info(test, "compared with 6.12: %lu machines, %lu node states\n",
		   machines, nodes);
}

static struct kunit_case memtier_mainline_cases[] = {
	KUNIT_CASE_PARAM(memtier_mainline_random_machines, ml_seed_gen_params),
	{}
};

static struct kunit_suite memtier_mainline_suite = {
	.name = "memtier_mainline",
	.test_cases = memtier_mainline_cases,
};

kunit_test_suite(memtier_mainline_suite);
