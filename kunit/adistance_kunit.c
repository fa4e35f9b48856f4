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
	{ "2x slower (PMEM)", 1024, 200, 100 },
	{ "dax/kmem default, 5x DRAM", 5 * ADIST_DRAM, 200, 36 },
	{ "slightly faster than DRAM", 511, 200, 266 },
	{ "2x faster", 256, 200, 400 },
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

/* Slower memory never lands in a higher tier than faster memory. */
static void memtier_adistance_monotonic(struct kunit *test)
{
	int adist, prev = MAX_MEMORY_TIER_ID, tier;

	for (adist = 0; adist < 64 * ADIST_DRAM; adist += 7) {
		tier = memtier_adistance_to_tier(adist, ADIST_DRAM, CHUNK_BITS,
						 MEMORY_TIER_DRAM);
		KUNIT_ASSERT_LE_MSG(test, tier, prev, "adistance %d", adist);
		prev = tier;
	}
}

static struct kunit_case memtier_adistance_cases[] = {
	KUNIT_CASE_PARAM(memtier_adistance_tier, adist_gen_params),
	KUNIT_CASE(memtier_adistance_monotonic),
	{}
};

static struct kunit_suite memtier_adistance_suite = {
	.name = "memtier_adistance",
	.test_cases = memtier_adistance_cases,
};

kunit_test_suite(memtier_adistance_suite);
