// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_latency: the scan time stored in last_cpupid bits
 * and the hint-fault latency computed from it, for every field width
 * from 8 to 22 bits and across wrap-around; and the field's layout: the
 * time below one bit that remembers a hot hint fault.
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

/*
 * The field at the e2e kernel's width, 14 bits, worked by hand: 13 time
 * bits, and 0x2000 set when the last hint fault was not hot.
 */
static void memtier_latency_field_worked(struct kunit *test)
{
	/* 5000 ms = 0x1388; 13000 ms = 0x32c8, wraps to 0x12c8 in 13 bits. */
	KUNIT_EXPECT_EQ(test, memtier_access_field_fault(5000, 14, true),
			0x1388u);
	KUNIT_EXPECT_EQ(test, memtier_access_field_fault(5000, 14, false),
			0x3388u);
	KUNIT_EXPECT_EQ(test, memtier_access_field_fault(13000, 14, true),
			0x12c8u);
	/* A scan keeps the bit, whichever it is, and takes its own time. */
	KUNIT_EXPECT_EQ(test, memtier_access_field_scan(0x1388, 6001, 14),
			0x1771u);
	KUNIT_EXPECT_EQ(test, memtier_access_field_scan(0x3388, 6001, 14),
			0x3771u);
	/* Fresh and migrated folios: all ones, no hot fault behind them. */
	KUNIT_EXPECT_EQ(test, memtier_access_field_scan(0x3fff, 6001, 14),
			0x3771u);
	KUNIT_EXPECT_FALSE(test, memtier_access_field_hot(0x3fff, 14));
	KUNIT_EXPECT_FALSE(test, memtier_access_field_hot(0x2000, 14));
	KUNIT_EXPECT_TRUE(test, memtier_access_field_hot(0x1fff, 14));
	KUNIT_EXPECT_EQ(test, memtier_access_field_time(0x3771, 14), 6001u);
	/* 6001 + 997: the bit does not leak into the latency. */
	KUNIT_EXPECT_EQ(test, memtier_access_field_latency(6998, 0x3771, 14),
			997u);
	KUNIT_EXPECT_EQ(test, memtier_access_field_latency(6998, 0x1771, 14),
			997u);
	/*
	 * 12 bits: 11 time bits in 2 ms buckets, 0x800 the bit.  5001 ms is
	 * bucket 2500 = 0x9c4, 0x1c4 in 11 bits, the time 904 ms modulo the
	 * 4096 ms span; 999 ms later is bucket 3000: 500 buckets, 1000 ms.
	 */
	KUNIT_EXPECT_EQ(test, memtier_access_field_fault(5001, 12, false),
			0x9c4u);
	KUNIT_EXPECT_EQ(test, memtier_access_field_time(0x9c4, 12), 904u);
	KUNIT_EXPECT_EQ(test, memtier_access_field_latency(6000, 0x1c4, 12),
			1000u);
}

/*
 * For one width: the bit survives any number of scans and only a fault
 * sets or clears it; the time and latency are those of the time bits
 * alone, one bit narrower than the field.
 */
static void memtier_latency_field_every_width(struct kunit *test)
{
	static const unsigned int times[] = {
		0, 7, 4095, 0x12345, 0x7fffffff, 0xfffff00f, 0xffffffff,
	};
	unsigned int bits = *(const unsigned int *)test->param_value;
	unsigned int tb = bits - 1, b = memtier_access_time_buckets(tb);
	unsigned int flag = 1u << tb, tmask = flag - 1;
	unsigned int i, h, f, t, scan, lat;

	for (i = 0; i < ARRAY_SIZE(times); i++) {
		t = times[i];
		for (h = 0; h < 2; h++) {
			f = memtier_access_field_fault(t, bits, h);
			KUNIT_EXPECT_LT(test, (u64)f, 1ull << bits);
			KUNIT_EXPECT_EQ(test, f & tmask, (t >> b) & tmask);
			KUNIT_EXPECT_EQ(test, memtier_access_field_hot(f, bits),
					(bool)h);
			KUNIT_EXPECT_EQ(test, memtier_access_field_time(f, bits),
					((t >> b) & tmask) << b);
			/* Two scans later, 1337 ms on: the bit is kept. */
			scan = t + 1337;
			f = memtier_access_field_scan(f, t + 3, bits);
			f = memtier_access_field_scan(f, scan, bits);
			KUNIT_EXPECT_EQ(test, memtier_access_field_hot(f, bits),
					(bool)h);
			lat = memtier_access_field_latency(scan + 611, f, bits);
			KUNIT_EXPECT_EQ(test, lat,
					((((scan + 611) >> b) - (scan >> b)) &
					 tmask) << b);
		}
		/* A fresh field, all ones, scanned: still not hot. */
		f = memtier_access_field_scan(flag | tmask, t, bits);
		KUNIT_EXPECT_FALSE(test, memtier_access_field_hot(f, bits));
	}
}

static struct kunit_case memtier_latency_cases[] = {
	KUNIT_CASE(memtier_latency_min_bits),
	KUNIT_CASE_PARAM(memtier_latency_worked, latency_gen_params),
	KUNIT_CASE_PARAM(memtier_latency_every_width, width_gen_params),
	KUNIT_CASE_PARAM(memtier_latency_threshold_edge, width_gen_params),
	KUNIT_CASE(memtier_latency_field_worked),
	KUNIT_CASE_PARAM(memtier_latency_field_every_width, width_gen_params),
	{}
};

static struct kunit_suite memtier_latency_suite = {
	.name = "memtier_latency",
	.test_cases = memtier_latency_cases,
};

kunit_test_suite(memtier_latency_suite);
