// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_adistance: the tier ID of each abstract distance
 * chunk (6.12's chunks of 128, DRAM at 576, chunk 4), the chunk of each
 * tier ID, and the one-ID-per-chunk rule of placement.
 *
 * Expected IDs are worked apart from the library, from the formula
 * default - round(100 * log5((2c + 1) / 9)) for chunk c, one ID per chunk
 * past chunk 73, within 0 to 400 (Python's math.log, by hand).
 */
#include <kunit/test.h>
#include <linux/int_log.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "memtier.h"
#include "fake_machine.h"

struct adist_case {
	const char *name;
	int adistance;
	int default_tier;
	int tier;
};

static const struct adist_case adist_cases[] = {
	{ "DRAM", 576, 200, 200 },
	{ "DRAM chunk, low edge", 512, 200, 200 },
	{ "DRAM chunk, high edge", 639, 200, 200 },
	{ "chunk 5, low edge", 640, 200, 188 },
	{ "chunk 3, high edge", 511, 200, 216 },
	{ "chunk 9: 1152", 1152, 200, 154 },
	{ "chunk 9: 1270, one chunk one ID", 1270, 200, 154 },
	{ "chunk 10", 1280, 200, 147 },
	{ "HMAT 2x latency, half bandwidth", 2304, 200, 112 },
	{ "dax/kmem default, 5x DRAM", 2880, 200, 100 },
	{ "chunk 22, low edge", 2816, 200, 100 },
	{ "chunk 22, high edge", 2943, 200, 100 },
	{ "chunk 23", 2944, 200, 97 },
	{ "chunk 21", 2815, 200, 103 },
	{ "3500: chunk 27", 3500, 200, 88 },
	{ "3600: chunk 28", 3600, 200, 85 },
	{ "chunk 72, the log scale's", 9343, 200, 27 },
	{ "chunk 73, the log scale's last", 9344, 200, 26 },
	{ "chunk 74, one below", 9472, 200, 25 },
	{ "chunk 98", 12544, 200, 1 },
	{ "chunk 99: ID 0", 12672, 200, 0 },
	{ "chunk 99, high edge", 12799, 200, 0 },
	{ "chunk 100 shares ID 0", 12800, 200, 0 },
	{ "INT_MAX", INT_MAX, 200, 0 },
	{ "zero: chunk 0", 0, 200, 337 },
	{ "chunk 0, high edge", 127, 200, 337 },
	{ "chunk 1", 128, 200, 268 },
	{ "chunk 2", 256, 200, 237 },
	{ "chunk 3", 384, 200, 216 },
	{ "negative: chunk 0", -1, 200, 337 },
	{ "INT_MIN: chunk 0", INT_MIN, 200, 337 },
	{ "DRAM, default 250", 576, 250, 250 },
	{ "5x DRAM, default 250", 2880, 250, 150 },
	{ "chunk 0, default 250", 0, 250, 387 },
	{ "chunk 0, default 300: capped", 0, 300, 400 },
	{ "chunk 1, default 300", 128, 300, 368 },
	{ "DRAM, default 0", 576, 0, 0 },
	{ "chunk 3, default 0", 511, 0, 16 },
	{ "chunk 0, default 0", 0, 0, 137 },
	{ "chunk 3, default 400: capped", 511, 400, 400 },
	{ "DRAM, default 400", 576, 400, 400 },
	{ "chunk 5, default 400", 640, 400, 388 },
};

static void adist_case_desc(const struct adist_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(adist, adist_cases, adist_case_desc);

static void memtier_adistance_tier(struct kunit *test)
{
	const struct adist_case *c = test->param_value;
	int tier = memtier_adistance_to_tier(c->adistance, c->default_tier);

	KUNIT_EXPECT_EQ(test, tier, c->tier);
	KUNIT_EXPECT_EQ(test, memtier_chunk_tier(c->adistance >> 7,
						 c->default_tier), c->tier);
}

static const int default_params[] = { 0, 1, 90, 100, 200, 250, 300, 400 };

static void default_param_desc(const int *def, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "default tier %d", *def);
}

KUNIT_ARRAY_PARAM(default, default_params, default_param_desc);

/*
 * round(100 * log5((2c + 1) / 9)), worked here apart from the library's
 * table with the kernel's fixed-point log2 (intlog2(), 24 fraction bits):
 * 100 * log5(x) is 100 * log2(x) / log2(5).  intlog2()'s error, below
 * 1e-5, moves the value far less than its distance from a rounding edge
 * at any chunk of the scale (at least 0.016, chunks 8 and 42).
 */
static long log_scale_offset(int chunk)
{
	s64 num = 100LL * ((s64)intlog2(2 * chunk + 1) - intlog2(9));
	s32 den = intlog2(5);

	if (num < 0)
		return -div_s64(-num + den / 2, den);
	return div_s64(num + den / 2, den);
}

/*
 * Every chunk's ID: the default less the chunk's offset on the log
 * scale, which ends at chunk 73 (chunk 74's offset would repeat it);
 * past it one ID less per chunk; within 0 to 400, the seeds' range.
 */
static void memtier_adistance_every_chunk(struct kunit *test)
{
	int def = *(const int *)test->param_value;
	int last = 73, chunk;
	long offset;

	KUNIT_ASSERT_EQ(test, log_scale_offset(last + 1),
			log_scale_offset(last));
	KUNIT_ASSERT_GT(test, log_scale_offset(last),
			log_scale_offset(last - 1));
	for (chunk = 0; chunk < 600; chunk++) {
		if (chunk <= last)
			offset = log_scale_offset(chunk);
		else
			offset = log_scale_offset(last) + chunk - last;
		KUNIT_EXPECT_EQ_MSG(test, memtier_chunk_tier(chunk, def),
				    clamp_t(long, def - offset, 0, 400),
				    "chunk %d", chunk);
	}
	/* The farthest chunk an int names, and a negative one: chunk 0. */
	KUNIT_EXPECT_EQ(test, memtier_chunk_tier(INT_MAX, def), 0);
	KUNIT_EXPECT_EQ(test, memtier_chunk_tier(INT_MIN, def),
			clamp_t(long, def - log_scale_offset(0), 0, 400));
}

/*
 * The named tier IDs and the range of IDs, as the seeds give them: PMEM
 * 100, DRAM 200 (the default), HBM/GPU 300, IDs 0 to 400, and -1 for a
 * node in no tier.
 */
static void memtier_adistance_named_ids(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, MEMORY_TIER_PMEM, 100);
	KUNIT_EXPECT_EQ(test, MEMORY_TIER_DRAM, 200);
	KUNIT_EXPECT_EQ(test, MEMORY_TIER_HBM_GPU, 300);
	KUNIT_EXPECT_EQ(test, MAX_MEMORY_TIER_ID, 400);
	KUNIT_EXPECT_EQ(test, DEFAULT_MEMORY_TIER, 200);
	KUNIT_EXPECT_EQ(test, MEMTIER_NO_TIER, -1);
	KUNIT_EXPECT_FALSE(test, memtier_tier_id_valid(LONG_MIN));
	KUNIT_EXPECT_FALSE(test, memtier_tier_id_valid(-1));
	KUNIT_EXPECT_TRUE(test, memtier_tier_id_valid(0));
	KUNIT_EXPECT_TRUE(test, memtier_tier_id_valid(1));
	KUNIT_EXPECT_TRUE(test, memtier_tier_id_valid(399));
	KUNIT_EXPECT_TRUE(test, memtier_tier_id_valid(400));
	KUNIT_EXPECT_FALSE(test, memtier_tier_id_valid(401));
	KUNIT_EXPECT_FALSE(test, memtier_tier_id_valid(LONG_MAX));
}

/*
 * Slower chunks never get a higher ID, and every chunk before the first
 * whose ID is 0 (or, at the top, the last one capped at 400) gets an ID
 * of its own: with the default of 200, chunks 0 to 99.
 */
static void memtier_adistance_monotonic(struct kunit *test)
{
	int def = *(const int *)test->param_value;
	int chunk, tier, prev = INT_MAX, distinct = 0;

	for (chunk = 0; chunk < 1000; chunk++) {
		tier = memtier_chunk_tier(chunk, def);
		KUNIT_ASSERT_TRUE(test, memtier_tier_id_valid(tier));
		KUNIT_ASSERT_LE_MSG(test, tier, prev, "chunk %d", chunk);
		if (tier < prev && prev != INT_MAX)
			distinct++;
		if (tier > 0 && tier < MAX_MEMORY_TIER_ID && prev != INT_MAX &&
		    prev < MAX_MEMORY_TIER_ID)
			KUNIT_ASSERT_LT_MSG(test, tier, prev, "chunk %d", chunk);
		prev = tier;
	}
	KUNIT_EXPECT_EQ(test, prev, 0);
	if (def == 200)
		KUNIT_EXPECT_EQ(test, distinct, 99);
}

/* 6.12's memory_tierN for a tier ID placed by hand. */
struct chunk_case {
	int id;
	int default_tier;
	int chunk;
};

/* The slowest chunk whose ID is at least the tier's (by hand). */
static const struct chunk_case chunk_cases[] = {
	{ 200, 200, 4 },	/* DRAM: 6.12's memory_tier4 */
	{ 201, 200, 3 },	/* chunk 3 is 216 */
	{ 216, 200, 3 },
	{ 217, 200, 2 },	/* chunk 2 is 237 */
	{ 199, 200, 4 },	/* chunk 5 is 188 */
	{ 189, 200, 4 },
	{ 188, 200, 5 },
	{ 150, 200, 9 },	/* 154 */
	{ 112, 200, 18 },	/* HMAT's 2304 */
	{ 101, 200, 21 },	/* 103 */
	{ 100, 200, 22 },	/* dax/kmem's memory_tier22 */
	{ 300, 200, 0 },	/* 337 */
	{ 337, 200, 0 },
	{ 338, 200, 0 },	/* above every chunk: the fastest */
	{ 400, 200, 0 },
	{ 1, 200, 98 },
	{ 0, 200, 99 },		/* the first chunk of ID 0 */
	{ 250, 250, 4 },	/* the default tier is DRAM's whatever its ID */
	{ 200, 250, 9 },	/* 204 */
	{ 0, 0, 4 },		/* DRAM is 0: its chunk is the first of 0 */
	{ 100, 0, 0 },		/* 137 */
	{ 400, 400, 4 },	/* chunks 0 to 4 capped at 400: DRAM's */
	{ 399, 400, 4 },
};

static void chunk_case_desc(const struct chunk_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "tier %d, default %d", c->id,
		 c->default_tier);
}

KUNIT_ARRAY_PARAM(chunk, chunk_cases, chunk_case_desc);

static void memtier_adistance_tier_to_chunk(struct kunit *test)
{
	const struct chunk_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, memtier_tier_to_chunk(c->id, c->default_tier),
			c->chunk);
}

/*
 * The order of IDs is the order of chunks, a chunk's own ID maps back to
 * it, and a tier's chunk covers it: its ID is at least the tier's and
 * the next chunk's is below (unless the tier is 0).
 */
static void memtier_adistance_chunk_order(struct kunit *test)
{
	int def = *(const int *)test->param_value;
	int id, chunk, prev = INT_MAX;

	for (id = 0; id <= MAX_MEMORY_TIER_ID; id++) {
		chunk = memtier_tier_to_chunk(id, def);
		KUNIT_ASSERT_LE_MSG(test, chunk, prev, "tier %d", id);
		KUNIT_ASSERT_GE(test, chunk, 0);
		if (memtier_chunk_tier(0, def) >= id)
			KUNIT_EXPECT_GE_MSG(test, memtier_chunk_tier(chunk, def),
					    id, "tier %d", id);
		if (id > 0)
			KUNIT_EXPECT_LT_MSG(test,
					    memtier_chunk_tier(chunk + 1, def),
					    id, "tier %d", id);
		prev = chunk;
	}
	for (chunk = 0; memtier_chunk_tier(chunk, def) > 0; chunk++) {
		id = memtier_chunk_tier(chunk, def);
		if (id < MAX_MEMORY_TIER_ID)
			KUNIT_EXPECT_EQ_MSG(test, memtier_tier_to_chunk(id, def),
					    chunk, "chunk %d", chunk);
	}
}

/*
 * Where dax/kmem puts its memory: the parameter when set, else where
 * firmware-reported performance maps (no request), else PMEM.
 */
static void memtier_adistance_kmem_tier(struct kunit *test)
{
	static const struct {
		bool set;
		int param;
		bool perf;
		int tier;
	} table[] = {
		{ true, 150, true, 150 },
		{ true, 150, false, 150 },
		{ true, 0, false, 0 },
		{ true, 400, true, 400 },
		{ false, 150, true, MEMTIER_NO_TIER },
		{ false, 150, false, 100 },
		{ false, 0, false, 100 },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(table); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    memtier_kmem_tier(table[i].set,
						      table[i].param,
						      table[i].perf),
				    table[i].tier, "row %d", i);
}

/*
 * The tier a node joins when its memory comes online: a request that is
 * a tier ID wins, whatever the node's distance; without one (or with an
 * ID out of range) its distance's chunk's ID.  Node 1 is placed; node 0
 * holds @held (or nothing), and when that is another ID in the same
 * chunk, node 1 joins it instead.
 */
static void memtier_adistance_initial_tier(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_MEM };
	static const struct {
		int held, request, adistance, default_tier, tier;
	} table[] = {
		{ MEMTIER_NO_TIER, MEMTIER_NO_TIER, 576, 200, 200 },
		{ MEMTIER_NO_TIER, MEMTIER_NO_TIER, 576, 250, 250 },
		{ MEMTIER_NO_TIER, MEMTIER_NO_TIER, 2880, 200, 100 },
		{ MEMTIER_NO_TIER, MEMTIER_NO_TIER, 1152, 200, 154 },
		{ MEMTIER_NO_TIER, 150, 1152, 200, 150 },	/* over slower */
		{ MEMTIER_NO_TIER, 150, 288, 200, 150 },	/* over faster */
		{ MEMTIER_NO_TIER, 0, 576, 200, 0 },
		{ MEMTIER_NO_TIER, 400, 2880, 200, 400 },
		{ MEMTIER_NO_TIER, 401, 2880, 200, 100 },	/* ignored */
		{ MEMTIER_NO_TIER, -2, 1152, 200, 154 },
		{ 200, MEMTIER_NO_TIER, 576, 200, 200 },	/* same ID */
		{ 195, MEMTIER_NO_TIER, 576, 200, 195 },	/* chunk 4 is 195 */
		{ 189, MEMTIER_NO_TIER, 639, 200, 189 },
		{ 188, MEMTIER_NO_TIER, 576, 200, 200 },	/* chunk 5's */
		{ 201, MEMTIER_NO_TIER, 576, 200, 200 },	/* chunk 3's */
		{ 150, 152, 576, 200, 150 },	/* request joins chunk 9's */
		{ 147, 152, 576, 200, 152 },	/* chunk 10's: request kept */
		{ 101, 100, 2880, 200, 100 },	/* 101 is chunk 21's */
		{ 0, 0, 12800, 200, 0 },
		{ 1, 0, 12800, 200, 0 },	/* chunk 98's */
	};
	struct fake_machine *fm = fake_machine_new(test, 3, roles, NULL);
	int *tiers = fake_tiers(test, fm, NULL);
	int i;

	for (i = 0; i < ARRAY_SIZE(table); i++) {
		tiers[0] = table[i].held;
		/* Node 1's own entry and node 2's (in no tier) never count. */
		tiers[1] = 199;
		KUNIT_EXPECT_EQ_MSG(test,
				    memtier_initial_tier(&fm->topo.memory_nodes,
							 tiers, 1,
							 table[i].request,
							 table[i].adistance,
							 table[i].default_tier),
				    table[i].tier, "row %d", i);
	}
}

/*
 * Who holds another ID in a tier's chunk: only memory nodes, never the
 * node being placed, never one in no tier or holding the same ID.
 */
static void memtier_adistance_chunk_holder(struct kunit *test)
{
	static const u8 roles[] = { FM_CPU_MEM, FM_MEM, FM_CPU, FM_MEM };
	static const int tier[] = { 200, 112, 195, MEMTIER_NO_TIER };
	struct fake_machine *fm = fake_machine_new(test, 4, roles, NULL);
	int *tiers = fake_tiers(test, fm, tier);
	const nodemask_t *mem = &fm->topo.memory_nodes;

	KUNIT_EXPECT_EQ(test, memtier_chunk_holder(mem, tiers, 3, 195, 200),
			200);
	KUNIT_EXPECT_EQ(test, memtier_chunk_holder(mem, tiers, 3, 189, 200),
			200);
	KUNIT_EXPECT_EQ(test, memtier_chunk_holder(mem, tiers, 3, 188, 200),
			MEMTIER_NO_TIER);
	KUNIT_EXPECT_EQ(test, memtier_chunk_holder(mem, tiers, 3, 201, 200),
			MEMTIER_NO_TIER);
	KUNIT_EXPECT_EQ(test, memtier_chunk_holder(mem, tiers, 3, 200, 200),
			MEMTIER_NO_TIER);
	/* Node 0 itself may move within its chunk. */
	KUNIT_EXPECT_EQ(test, memtier_chunk_holder(mem, tiers, 0, 195, 200),
			MEMTIER_NO_TIER);
	/* 112 is chunk 18's; 113 is chunk 17's (116). */
	KUNIT_EXPECT_EQ(test, memtier_chunk_holder(mem, tiers, 0, 113, 200),
			MEMTIER_NO_TIER);
	KUNIT_EXPECT_EQ(test, memtier_chunk_holder(mem, tiers, 0, 111, 200),
			112);
	/* Node 2's 195 has no memory behind it. */
	node_clear(0, fm->topo.memory_nodes);
	KUNIT_EXPECT_EQ(test, memtier_chunk_holder(mem, tiers, 3, 199, 200),
			MEMTIER_NO_TIER);
	/* Another default tier moves the chunks: 200 is chunk 9's at 250. */
	node_set(0, fm->topo.memory_nodes);
	KUNIT_EXPECT_EQ(test, memtier_chunk_holder(mem, tiers, 3, 199, 250),
			200);
	KUNIT_EXPECT_EQ(test, memtier_chunk_holder(mem, tiers, 3, 249, 250),
			MEMTIER_NO_TIER);
}

static struct kunit_case memtier_adistance_cases[] = {
	KUNIT_CASE_PARAM(memtier_adistance_tier_to_chunk, chunk_gen_params),
	KUNIT_CASE_PARAM(memtier_adistance_chunk_order, default_gen_params),
	KUNIT_CASE(memtier_adistance_kmem_tier),
	KUNIT_CASE(memtier_adistance_initial_tier),
	KUNIT_CASE(memtier_adistance_chunk_holder),
	KUNIT_CASE_PARAM(memtier_adistance_tier, adist_gen_params),
	KUNIT_CASE_PARAM(memtier_adistance_monotonic, default_gen_params),
	KUNIT_CASE_PARAM(memtier_adistance_every_chunk, default_gen_params),
	KUNIT_CASE(memtier_adistance_named_ids),
	{}
};

static struct kunit_suite memtier_adistance_suite = {
	.name = "memtier_adistance",
	.test_cases = memtier_adistance_cases,
};

kunit_test_suite(memtier_adistance_suite);
