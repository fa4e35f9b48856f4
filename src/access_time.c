// SPDX-License-Identifier: GPL-2.0-only
/*
 * Page access time and hint-fault latency.
 *
 * In tiering mode a lower-tier folio's last_cpupid bits hold the time of
 * the scan that made it inaccessible, in milliseconds.  When the field is
 * narrower than MEMTIER_ACCESS_TIME_MIN_BITS, the time is coarsened into
 * buckets of 2^(MIN_BITS - bits) ms so that the field still spans about
 * 4 seconds.  The latency is a masked subtraction, so it stays right when
 * the clock or the field wraps, for latencies below the span.
 */
#include <kunit/visibility.h>
#include <linux/bits.h>
#include <linux/export.h>
#include <linux/memtier_promote.h>

/**
 * memtier_access_time_buckets() - how many low time bits are dropped
 * @bits: the width of the last_cpupid field, 1 to 31 (LAST_CPUPID_SHIFT).
 *
 * Return: log2 of the bucket size in ms; 0 when @bits >= 12.
 */
unsigned int memtier_access_time_buckets(unsigned int bits)
{
	if (bits >= MEMTIER_ACCESS_TIME_MIN_BITS)
		return 0;
	return MEMTIER_ACCESS_TIME_MIN_BITS - bits;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_access_time_buckets);

/**
 * memtier_access_time_mask() - the time bits the field can represent
 * @bits: the width of the last_cpupid field, 1 to 31.
 *
 * Return: @bits ones, shifted left by the bucket size.
 */
unsigned int memtier_access_time_mask(unsigned int bits)
{
	unsigned int buckets = memtier_access_time_buckets(bits);

	return GENMASK(bits + buckets - 1, buckets);
}
EXPORT_SYMBOL_IF_KUNIT(memtier_access_time_mask);

/**
 * memtier_access_time_encode() - the field value recording a time
 * @now_ms: the time of the scan, in ms.
 * @bits: the width of the last_cpupid field, 1 to 31.
 *
 * Return: the value to store with folio_xchg_last_cpupid().
 */
unsigned int memtier_access_time_encode(unsigned int now_ms,
					unsigned int bits)
{
	return (now_ms >> memtier_access_time_buckets(bits)) &
	       (unsigned int)GENMASK(bits - 1, 0);
}
EXPORT_SYMBOL_IF_KUNIT(memtier_access_time_encode);

/**
 * memtier_hint_fault_latency() - time from scan to hint fault
 * @now_ms: the time of the hint fault, in ms.
 * @field: the field value stored at scan time.
 * @bits: the width of the last_cpupid field, 1 to 31.
 *
 * The result is in whole buckets, and modulo the field's span: a page
 * scanned longer ago than the span can look recent, as in mainline.
 *
 * Return: the latency in ms.
 */
unsigned int memtier_hint_fault_latency(unsigned int now_ms,
					unsigned int field, unsigned int bits)
{
	unsigned int last = field << memtier_access_time_buckets(bits);

	return (now_ms - last) & memtier_access_time_mask(bits);
}
EXPORT_SYMBOL_IF_KUNIT(memtier_hint_fault_latency);
