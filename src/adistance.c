// SPDX-License-Identifier: GPL-2.0-only
/*
 * From abstract distance to tier ID.
 *
 * Drivers and firmware parsers (dax/kmem, HMAT, CXL) describe a memory
 * node by an abstract distance: proportional to its latency, inversely
 * proportional to its bandwidth, with DRAM at dram_adistance.  A node
 * they describe, and that nobody placed explicitly, lands in the tier
 * whose ID is in inverse proportion to that distance, DRAM being
 * MEMORY_TIER_DRAM: memory twice as slow as DRAM goes to tier 100
 * (MEMORY_TIER_PMEM), twice as fast to tier 400.
 *
 * Distances are compared in chunks of 2^chunk_bits, as in 6.12, so that
 * memory close to DRAM performance shares DRAM's tier; that tier is the
 * default one, which the administrator may have moved at boot.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/math.h>
#include <linux/memtier.h>
#include <linux/minmax.h>

/**
 * memtier_adistance_to_tier() - the tier for an abstract distance
 * @adistance: the node's abstract distance.
 * @dram_adistance: DRAM's abstract distance (MEMTIER_ADISTANCE_DRAM).
 * @chunk_bits: log2 of the chunk size (MEMTIER_CHUNK_BITS).
 * @default_tier: the tier of DRAM-like memory.
 *
 * Return: @default_tier for @adistance in DRAM's chunk; else
 * MEMORY_TIER_DRAM * DRAM's chunk / @adistance's chunk, within
 * 0 to %MAX_MEMORY_TIER_ID (the fastest for the first chunk and below).
 */
int memtier_adistance_to_tier(int adistance, int dram_adistance,
			      unsigned int chunk_bits, int default_tier)
{
	long size = 1L << chunk_bits;
	long dram = dram_adistance & ~(size - 1);
	long chunk;

	/* Faster than anything a chunk can tell apart. */
	if (adistance < size)
		return MAX_MEMORY_TIER_ID;
	chunk = adistance & ~(size - 1);
	if (chunk == dram)
		return default_tier;
	return min_t(long, MEMORY_TIER_DRAM * dram / chunk,
		     MAX_MEMORY_TIER_ID);
}
EXPORT_SYMBOL_IF_KUNIT(memtier_adistance_to_tier);
