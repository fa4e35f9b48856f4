// SPDX-License-Identifier: GPL-2.0-only
/*
 * From abstract distance to tier ID.
 *
 * Drivers and firmware parsers (dax/kmem, HMAT, CXL) describe a memory
 * node by an abstract distance: proportional to its latency, inversely
 * proportional to its bandwidth, with DRAM at dram_adistance.  A node
 * they describe, and that nobody placed explicitly, lands in the tier
 * whose ID is in inverse proportion to that distance, DRAM being the
 * default tier: with the default of 200, memory twice as slow as DRAM
 * goes to tier 100 (MEMORY_TIER_PMEM), twice as fast to tier 400.
 * Scaling from the default tier, not from 200, keeps slower memory below
 * DRAM whatever default the administrator chose at boot.
 *
 * Memory within DRAM's chunk of 2^chunk_bits (as 6.12 groups distances)
 * is taken as DRAM and joins the default tier itself.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/math.h>
#include <linux/minmax.h>

#include "memtier.h"

/**
 * memtier_adistance_to_tier() - the tier for an abstract distance
 * @adistance: the node's abstract distance.
 * @dram_adistance: DRAM's abstract distance (MEMTIER_ADISTANCE_DRAM).
 * @chunk_bits: log2 of the chunk size (MEMTIER_CHUNK_BITS).
 * @default_tier: the tier of DRAM-like memory.
 *
 * Return: @default_tier for @adistance in DRAM's chunk; else
 * @default_tier * @dram_adistance / @adistance, within 0 to
 * %MAX_MEMORY_TIER_ID (the fastest for a distance below one chunk).
 */
int memtier_adistance_to_tier(int adistance, int dram_adistance,
			      unsigned int chunk_bits, int default_tier)
{
	long size = 1L << chunk_bits;
	long dram_chunk = dram_adistance & ~(size - 1);

	/* Faster than anything a chunk can tell apart. */
	if (adistance < size)
		return MAX_MEMORY_TIER_ID;
	if ((adistance & ~(size - 1)) == dram_chunk)
		return default_tier;
	return min_t(long, (long)default_tier * dram_adistance / adistance,
		     MAX_MEMORY_TIER_ID);
}
EXPORT_SYMBOL_IF_KUNIT(memtier_adistance_to_tier);

/**
 * memtier_initial_tier() - the tier a node joins when its memory comes online
 * @request: the tier a driver or the administrator asked for the node
 *	before, or %MEMTIER_NO_TIER.
 * @adistance: the node's abstract distance: its memory type's when a
 *	driver set one, else what firmware reported, else @dram_adistance.
 * @dram_adistance: DRAM's abstract distance (MEMTIER_ADISTANCE_DRAM).
 * @chunk_bits: log2 of the chunk size (MEMTIER_CHUNK_BITS).
 * @default_tier: the tier of DRAM-like memory.
 *
 * An explicit placement outlives the node's memory: a node moved through
 * sysfs, or placed by dax/kmem before its memory was added, goes back to
 * that tier when its memory comes online again, whatever its distance
 * says.  Anything else lands where its distance maps.
 *
 * Return: @request when it is a tier ID, else the tier of @adistance.
 */
int memtier_initial_tier(int request, int adistance, int dram_adistance,
			 unsigned int chunk_bits, int default_tier)
{
	if (memtier_tier_id_valid(request))
		return request;
	return memtier_adistance_to_tier(adistance, dram_adistance, chunk_bits,
					 default_tier);
}
EXPORT_SYMBOL_IF_KUNIT(memtier_initial_tier);

/**
 * memtier_tier_to_chunk() - the abstract distance chunk of a tier ID
 * @id: the tier ID, 0 to %MAX_MEMORY_TIER_ID.
 * @dram_adistance: DRAM's abstract distance (MEMTIER_ADISTANCE_DRAM).
 * @chunk_bits: log2 of the chunk size (MEMTIER_CHUNK_BITS).
 * @default_tier: the tier of DRAM-like memory.
 *
 * Mainline names a tier memory_tierN after the chunk N of abstract
 * distance it covers, smaller N being faster.  This maps a tier ID back
 * to such a chunk, the inverse of memtier_adistance_to_tier(): the
 * default tier is DRAM's chunk, tier @id is the chunk of the distance
 * @default_tier * @dram_adistance / @id, and tier 0 the chunk of
 * INT_MAX.  Faster tiers never get a larger N than slower ones, and
 * tiers whose distances fall in one chunk share it, as memory types of
 * one chunk share a tier in mainline.
 *
 * Return: the chunk number N.
 */
int memtier_tier_to_chunk(int id, int dram_adistance, unsigned int chunk_bits,
			  int default_tier)
{
	long adistance;

	if (id == default_tier)
		adistance = dram_adistance;
	else if (id <= 0)
		adistance = INT_MAX;
	else
		adistance = min_t(long, (long)default_tier * dram_adistance / id,
				  INT_MAX);
	return adistance >> chunk_bits;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_tier_to_chunk);
