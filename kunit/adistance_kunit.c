// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_adistance: where a node that a driver or firmware
 * describes by abstract distance lands, on 6.12's scale (chunks of 128,
 * DRAM at 576).
 */
#include <kunit/test.h>

#include "memtier.h"

#define ADIST_DRAM	576	/* 6.12's MEMTIER_ADISTANCE_DRAM */
#define CHUNK_BITS	7	/* 6.12's MEMTIER_CHUNK_BITS */

struct adist_case {
	const char *name;
	int adistance;
	int default_tier;
	int tier;
};

static const struct adist_case adist_cases[] = {
	{ "DRAM", ADIST_DRAM, 200, 200 },
	{ "DRAM chunk, low edge", 512, 200, 200 },
	{ "DRAM chunk, high edge", 639, 200, 200 },
	{ "next chunk, low edge: 115200 / 640", 640, 200, 180 },
	{ "DRAM with default_memory_tier=250", ADIST_DRAM, 250, 250 },
	{ "2x slower (PMEM)", 2 * ADIST_DRAM, 200, 100 },
	{ "4x slower", 4 * ADIST_DRAM, 200, 50 },
	{ "dax/kmem default, 5x DRAM", 5 * ADIST_DRAM, 200, 40 },
	{ "slightly faster than DRAM", 511, 200, 225 },
	{ "2x faster (HBM)", ADIST_DRAM / 2, 200, 400 },
	{ "1.5x faster", ADIST_DRAM * 2 / 3, 200, 300 },
	{ "2x slower, default_memory_tier=90", 2 * ADIST_DRAM, 90, 45 },
	{ "2x slower, default_memory_tier=300", 2 * ADIST_DRAM, 300, 150 },
	{ "first chunk", 127, 200, 400 },
	{ "zero", 0, 200, 400 },
	{ "negative", -1, 200, 400 },
	{ "INT_MIN", INT_MIN, 200, 400 },
	{ "INT_MAX: slowest", INT_MAX, 200, 0 },
};

static void adist_case_desc(const struct adist_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(adist, adist_cases, adist_case_desc);

static void memtier_adistance_tier(struct kunit *test)
{
	const struct adist_case *c = test->param_value;
	int tier = memtier_adistance_to_tier(c->adistance, ADIST_DRAM,
					     CHUNK_BITS, c->default_tier);

	KUNIT_EXPECT_EQ(test, tier, c->tier);
	KUNIT_EXPECT_TRUE(test, memtier_tier_id_valid(tier));
}

static const int default_params[] = { 0, 1, 90, 100, 200, 250, 300, 400 };

static void default_desc(const int *def, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "default_memory_tier=%d", *def);
}

KUNIT_ARRAY_PARAM(default, default_params, default_desc);

/*
 * Slower memory never lands in a higher tier than faster memory, whatever
 * the default tier: DRAM is never put below memory slower than it.
 */
static void memtier_adistance_monotonic(struct kunit *test)
{
	int def = *(const int *)test->param_value;
	int adist, prev = MAX_MEMORY_TIER_ID, tier;

	for (adist = 0; adist < 64 * ADIST_DRAM; adist += 7) {
		tier = memtier_adistance_to_tier(adist, ADIST_DRAM, CHUNK_BITS,
						 def);
		KUNIT_ASSERT_LE_MSG(test, tier, prev, "adistance %d", adist);
		KUNIT_ASSERT_TRUE(test, memtier_tier_id_valid(tier));
		prev = tier;
	}
}

/*
 * Other scales than 6.12's: DRAM at an odd distance, chunks of 256.
 * Worked by hand: the DRAM chunk is dram & ~(size - 1); outside it the
 * tier is default * dram / adistance, at most 400.
 */
static const struct {
	int adistance, dram, chunk_bits, tier;
} scale_cases[] = {
	{ 127, 200, 7, 400 },	/* under one chunk: the fastest */
	{ 128, 200, 7, 200 },	/* one chunk exactly: DRAM's [128, 256) */
	{ 255, 200, 7, 200 },
	{ 256, 200, 7, 156 },	/* 40000 / 256 */
	{ 640, 641, 7, 200 },	/* DRAM at 641: chunk [640, 768) */
	{ 700, 641, 7, 200 },
	{ 639, 641, 7, 200 },	/* 128200 / 639 = 200.6 */
	{ 520, 641, 7, 246 },	/* 128200 / 520 = 246.5 */
	{ 768, 641, 7, 166 },	/* 128200 / 768 = 166.9 */
	{ 255, 576, 8, 400 },	/* chunks of 256: under one */
	{ 256, 576, 8, 400 },	/* 115200 / 256 = 450, capped */
	{ 511, 576, 8, 225 },	/* 115200 / 511 = 225.4 */
	{ 512, 576, 8, 200 },	/* DRAM's [512, 768) */
	{ 767, 576, 8, 200 },
	{ 768, 576, 8, 150 },	/* 115200 / 768 */
};

static void memtier_adistance_other_scales(struct kunit *test)
{
	int i, tier;

	for (i = 0; i < ARRAY_SIZE(scale_cases); i++) {
		tier = memtier_adistance_to_tier(scale_cases[i].adistance,
						 scale_cases[i].dram,
						 scale_cases[i].chunk_bits, 200);
		KUNIT_EXPECT_EQ_MSG(test, tier, scale_cases[i].tier,
				    "adistance %d, DRAM %d, %d bits",
				    scale_cases[i].adistance,
				    scale_cases[i].dram,
				    scale_cases[i].chunk_bits);
	}
}

/* 6.12's memory_tierN for a tier ID: N from the tier's abstract distance. */
struct chunk_case {
	int id;
	int default_tier;
	int chunk;
};

/* By hand: N = (default * 576 / id) >> 7; the default tier is 576 >> 7. */
static const struct chunk_case chunk_cases[] = {
	{ 200, 200, 4 },	/* DRAM: 6.12's memory_tier4 */
	{ 100, 200, 9 },	/* 1152 */
	{ 50, 200, 18 },	/* 2304 */
	{ 40, 200, 22 },	/* 2880, the dax/kmem default distance */
	{ 300, 200, 3 },	/* 384 */
	{ 400, 200, 2 },	/* 288 */
	{ 199, 200, 4 },	/* 578: shares DRAM's chunk */
	{ 201, 200, 4 },	/* 573 */
	{ 225, 200, 4 },	/* 512, the chunk's low edge */
	{ 226, 200, 3 },	/* 509 */
	{ 1, 200, 900 },	/* 115200 */
	{ 0, 200, 16777215 },	/* INT_MAX >> 7 */
	{ 250, 250, 4 },	/* the default tier is DRAM's whatever its ID */
	{ 200, 250, 5 },	/* 720 */
	{ 100, 250, 11 },	/* 1440 */
	{ 300, 250, 3 },	/* 480 */
	{ 0, 0, 4 },
	{ 100, 0, 0 },
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

	KUNIT_EXPECT_EQ(test, memtier_tier_to_chunk(c->id, ADIST_DRAM,
						    CHUNK_BITS,
						    c->default_tier),
			c->chunk);
}

/* A faster tier never gets a larger N than a slower one (6.12's order). */
static void memtier_adistance_chunk_order(struct kunit *test)
{
	int def = *(const int *)test->param_value;
	int id, chunk, prev = INT_MAX;

	for (id = 0; id <= MAX_MEMORY_TIER_ID; id++) {
		chunk = memtier_tier_to_chunk(id, ADIST_DRAM, CHUNK_BITS, def);
		KUNIT_ASSERT_LE_MSG(test, chunk, prev, "tier %d", id);
		KUNIT_ASSERT_GE(test, chunk, 0);
		prev = chunk;
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
 * ID out of range) the distance decides.  Expected tiers by hand, as in
 * adist_cases: 115200 / adistance outside DRAM's chunk [512, 640).
 */
static void memtier_adistance_initial_tier(struct kunit *test)
{
	static const struct {
		int request, adistance, default_tier, tier;
	} table[] = {
		{ MEMTIER_NO_TIER, ADIST_DRAM, 200, 200 },
		{ MEMTIER_NO_TIER, ADIST_DRAM, 250, 250 },
		{ MEMTIER_NO_TIER, 2880, 200, 40 },	/* dax/kmem default */
		{ MEMTIER_NO_TIER, 1152, 200, 100 },
		{ 150, 1152, 200, 150 },	/* request over a slower distance */
		{ 150, 288, 200, 150 },		/* and over a faster one */
		{ 0, ADIST_DRAM, 200, 0 },	/* lowest ID */
		{ 400, 2880, 200, 400 },	/* highest ID */
		{ 401, 2880, 200, 40 },		/* out of range: ignored */
		{ -2, 1152, 200, 100 },
		{ 199, ADIST_DRAM, 250, 199 },
		{ 251, 639, 250, 251 },
		{ MEMTIER_NO_TIER, 639, 250, 250 },
		{ MEMTIER_NO_TIER, 640, 250, 225 },	/* 144000 / 640 */
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(table); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    memtier_initial_tier(table[i].request,
							 table[i].adistance,
							 ADIST_DRAM, CHUNK_BITS,
							 table[i].default_tier),
				    table[i].tier, "row %d", i);
}

static struct kunit_case memtier_adistance_cases[] = {
	KUNIT_CASE_PARAM(memtier_adistance_tier_to_chunk, chunk_gen_params),
	KUNIT_CASE_PARAM(memtier_adistance_chunk_order, default_gen_params),
	KUNIT_CASE(memtier_adistance_kmem_tier),
	KUNIT_CASE(memtier_adistance_initial_tier),
	KUNIT_CASE_PARAM(memtier_adistance_tier, adist_gen_params),
	KUNIT_CASE_PARAM(memtier_adistance_monotonic, default_gen_params),
	KUNIT_CASE(memtier_adistance_other_scales),
	{}
};

static struct kunit_suite memtier_adistance_suite = {
	.name = "memtier_adistance",
	.test_cases = memtier_adistance_cases,
};

kunit_test_suite(memtier_adistance_suite);
