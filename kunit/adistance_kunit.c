// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_adistance: where a node that a driver or firmware
 * describes by abstract distance lands, on 6.12's scale (chunks of 128,
 * DRAM at 576).
 */
#include <kunit/test.h>
#include <linux/memtier.h>

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

static struct kunit_case memtier_adistance_cases[] = {
	KUNIT_CASE_PARAM(memtier_adistance_tier, adist_gen_params),
	KUNIT_CASE_PARAM(memtier_adistance_monotonic, default_gen_params),
	{}
};

static struct kunit_suite memtier_adistance_suite = {
	.name = "memtier_adistance",
	.test_cases = memtier_adistance_cases,
};

kunit_test_suite(memtier_adistance_suite);
