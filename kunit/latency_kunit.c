// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_latency: the scan time stored in last_cpupid bits
 * and the hint-fault latency computed from it, for every field width
 * from 8 to 22 bits and across wrap-around.
 */
#include <kunit/test.h>
#include <linux/memtier_promote.h>

static void memtier_latency_min_bits(struct kunit *test)
{
	/* Mainline: "page access time bits needs to hold at least 4 seconds". */
	KUNIT_EXPECT_EQ(test, MEMTIER_ACCESS_TIME_MIN_BITS, 12);
	KUNIT_EXPECT_EQ(test, memtier_access_time_buckets(8), 4u);
	KUNIT_EXPECT_EQ(test, memtier_access_time_buckets(11), 1u);
	KUNIT_EXPECT_EQ(test, memtier_access_time_buckets(12), 0u);
	KUNIT_EXPECT_EQ(test, memtier_access_time_buckets(22), 0u);
	KUNIT_EXPECT_EQ(test, memtier_access_time_mask(8), 0xff0u);
	KUNIT_EXPECT_EQ(test, memtier_access_time_mask(12), 0xfffu);
	KUNIT_EXPECT_EQ(test, memtier_access_time_mask(22), 0x3fffffu);
}

struct latency_case {
	unsigned int bits;
	unsigned int scan_ms;
	unsigned int fault_ms;
	unsigned int latency;
};

/* Worked by hand: latency = ((fault >> b) - (scan >> b)) mod 2^bits << b. */
static const struct latency_case latency_cases[] = {
	{ 8, 100, 1100, 992 },		/* 16 ms buckets: 68 - 6 = 62 */
	{ 8, 96, 1111, 1008 },		/* bucket-aligned scan: 69 - 6 */
	{ 8, 0, 15, 0 },		/* within one bucket */
	{ 8, 15, 16, 16 },		/* across one bucket edge */
	{ 10, 1000, 2000, 1000 },	/* 4 ms buckets: 500 - 250 */
	{ 12, 4000, 5000, 1000 },
	{ 12, 4095, 5095, 1000 },	/* the field wraps */
	{ 12, 0, 4095, 4095 },		/* the largest latency it holds */
	{ 12, 0, 4096, 0 },		/* one span later: aliases to 0 */
	{ 16, 0xffffff00, 0x000000f0, 0x1f0 },	/* the u32 clock wraps */
	{ 22, 0xfffffc18, 0x000003e8, 2000 },	/* 1000 ms either side of 0 */
	{ 22, 123456789, 123456789, 0 },
};

static void latency_case_desc(const struct latency_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u bits, scan %#x fault %#x",
		 c->bits, c->scan_ms, c->fault_ms);
}

KUNIT_ARRAY_PARAM(latency, latency_cases, latency_case_desc);

static void memtier_latency_worked(struct kunit *test)
{
	const struct latency_case *c = test->param_value;
	unsigned int field = memtier_access_time_encode(c->scan_ms, c->bits);

	KUNIT_EXPECT_EQ(test,
			memtier_hint_fault_latency(c->fault_ms, field, c->bits),
			c->latency);
}

static const unsigned int width_params[] = {
	8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
};

static void width_desc(const unsigned int *bits, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u bits", *bits);
}

KUNIT_ARRAY_PARAM(width, width_params, width_desc);

/*
 * For one width, many scan times (around 0, around the u32 wrap, and in
 * between) and latencies (0, bucket edges, mainline's 1000 ms, up to the
 * span): the encoded field fits the width, and the latency is the true
 * one rounded to buckets.
 */
static void memtier_latency_every_width(struct kunit *test)
{
	static const unsigned int scans[] = {
		0, 1, 15, 16, 999, 4095, 4096, 0x12345678, 0x7fffffff,
		0x80000000, 0xfffff000, 0xfffffffe, 0xffffffff,
	};
	unsigned int bits = *(const unsigned int *)test->param_value;
	unsigned int b = memtier_access_time_buckets(bits);
	unsigned int bucket = 1u << b, span = 1u << (bits + b);
	unsigned int lats[] = {
		0, 1, bucket - 1, bucket, bucket + 1, 999, 1000, 1001,
		span / 2, span - 2 * bucket, span - bucket,
	};
	unsigned int i, j, field, scan, fault, got, off;

	KUNIT_EXPECT_GE(test, bits + b, 12u);
	for (i = 0; i < ARRAY_SIZE(scans); i++) {
		scan = scans[i];
		field = memtier_access_time_encode(scan, bits);
		KUNIT_EXPECT_LT(test, (u64)field, 1ull << bits);
		for (j = 0; j < ARRAY_SIZE(lats); j++) {
			if (lats[j] >= span)
				continue;
			fault = scan + lats[j];	/* may wrap: as jiffies does */
			got = memtier_hint_fault_latency(fault, field, bits);
			KUNIT_EXPECT_EQ(test, got & (bucket - 1), 0u);
			KUNIT_EXPECT_EQ(test, got,
					(((fault >> b) - (scan >> b)) &
					 (span / bucket - 1)) << b);
			/* Rounded to buckets, never off by a bucket or more. */
			if (lats[j] <= span - bucket) {
				off = (unsigned int)abs((int)(got - lats[j]));
				KUNIT_EXPECT_LT_MSG(test, off, bucket,
						    "scan %#x latency %u",
						    scan, lats[j]);
			}
			if (!b)
				KUNIT_EXPECT_EQ(test, got, lats[j]);
		}
	}
}

/* The hot/cold verdict at mainline's 1000 ms threshold, per width. */
static void memtier_latency_threshold_edge(struct kunit *test)
{
	unsigned int bits = *(const unsigned int *)test->param_value;
	unsigned int b = memtier_access_time_buckets(bits);
	unsigned int field = memtier_access_time_encode(0x10000, bits);
	unsigned int bucket = 1u << b;

	/* 0x10000 is bucket-aligned: latencies are exact at bucket edges. */
	KUNIT_EXPECT_LT(test, memtier_hint_fault_latency(0x10000 + 1000 -
							 bucket, field, bits),
			1000u);
	KUNIT_EXPECT_GE(test, memtier_hint_fault_latency(0x10000 + 1008,
							 field, bits),
			1000u);
}

static struct kunit_case memtier_latency_cases[] = {
	KUNIT_CASE(memtier_latency_min_bits),
	KUNIT_CASE_PARAM(memtier_latency_worked, latency_gen_params),
	KUNIT_CASE_PARAM(memtier_latency_every_width, width_gen_params),
	KUNIT_CASE_PARAM(memtier_latency_threshold_edge, width_gen_params),
	{}
};

static struct kunit_suite memtier_latency_suite = {
	.name = "memtier_latency",
	.test_cases = memtier_latency_cases,
};

kunit_test_suite(memtier_latency_suite);
