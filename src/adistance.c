// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tier IDs and abstract distance chunks.
 *
 * Drivers and firmware parsers (dax/kmem, HMAT, CXL) describe a memory
 * node by an abstract distance: proportional to its latency, inversely
 * proportional to its bandwidth, with DRAM at MEMTIER_ADISTANCE_DRAM.
 * Mainline groups distances by chunks of MEMTIER_CHUNK_SIZE, each chunk
 * with memory being one memory tier (memory_tierN, N the chunk number,
 * DRAM's chunk 4), and a smaller chunk a faster tier.
 *
 * A node nobody placed explicitly gets the ID of its chunk, so that its
 * tier, its peers, its demotion targets and its top-tier status are
 * mainline's: one chunk is one ID, and distinct chunks get distinct IDs
 * in the same order.  The IDs lie on a log scale of the distance at the
 * middle of the chunk: DRAM's chunk is the default tier (200 unless the
 * administrator chose another at boot), and memory five times as far as
 * DRAM, the distance mainline gives dax/kmem memory it knows nothing
 * about (chunk 22), is 100 below it.  Where the log scale would give two
 * chunks one ID (from chunk 74, about 16 times DRAM's distance), each
 * chunk is one ID below the one before, down to ID 0: with the default
 * of 200 every chunk up to 99 (distances below 12800, 22 times DRAM's)
 * has an ID of its own, and the slower ones share ID 0.
 *
 * A node placed by ID (sysfs, dax/kmem) is in the chunk whose IDs cover
 * its ID: the slowest chunk whose own ID is at least the node's.  One
 * chunk holds one ID, so that mainline's memory_tierN never lists nodes
 * that demote to each other.
 */
#include <kunit/visibility.h>
#include <linux/build_bug.h>
#include <linux/export.h>
#include <linux/memory-tiers.h>
#include <linux/minmax.h>
#include <linux/nodemask.h>

#include "memtier.h"

/*
 * round(100 * log5((2 * c + 1) / 9)): how far below DRAM's chunk's ID
 * chunk c is, from the distance at its middle, (c + 1/2) chunks, over
 * DRAM's, 4.5 chunks.  The table ends where the next entry would repeat
 * this one.
 */
static const s16 memtier_chunk_offset[] = {
	-137, -68, -37, -16, 0, 12, 23, 32, 40, 46,
	53, 58, 63, 68, 73, 77, 81, 84, 88, 91,
	94, 97, 100, 103, 105, 108, 110, 112, 115, 117,
	119, 121, 123, 125, 127, 128, 130, 132, 133, 135,
	137, 138, 140, 141, 142, 144, 145, 146, 148, 149,
	150, 151, 153, 154, 155, 156, 157, 158, 159, 160,
	161, 162, 163, 164, 165, 166, 167, 168, 169, 170,
	171, 172, 173, 174,
};

#define MEMTIER_LOG_CHUNKS	ARRAY_SIZE(memtier_chunk_offset)
/* A chunk whose ID is 0 whatever the default tier. */
#define MEMTIER_LAST_CHUNK	(MEMTIER_LOG_CHUNKS + MAX_MEMORY_TIER_ID)

/* The table is built on mainline's DRAM distance: 4.5 chunks. */
static_assert(MEMTIER_ADISTANCE_DRAM == 9 * MEMTIER_CHUNK_SIZE / 2);

/**
 * memtier_chunk_tier() - the tier ID of an abstract distance chunk
 * @chunk: the chunk number, abstract distance >> MEMTIER_CHUNK_BITS; a
 *	negative one counts as chunk 0.
 * @default_tier: the ID of DRAM's chunk.
 *
 * Return: @default_tier less the chunk's offset on the log scale, within
 * 0 to %MAX_MEMORY_TIER_ID.
 */
int memtier_chunk_tier(int chunk, int default_tier)
{
	long offset;

	chunk = max(chunk, 0);
	if (chunk < MEMTIER_LOG_CHUNKS)
		offset = memtier_chunk_offset[chunk];
	else
		offset = memtier_chunk_offset[MEMTIER_LOG_CHUNKS - 1] +
			 (chunk - (MEMTIER_LOG_CHUNKS - 1));
	return clamp_t(long, default_tier - offset, 0, MAX_MEMORY_TIER_ID);
}
EXPORT_SYMBOL_IF_KUNIT(memtier_chunk_tier);

/**
 * memtier_adistance_to_tier() - the tier ID of an abstract distance
 * @adistance: the node's abstract distance.
 * @default_tier: the ID of DRAM's chunk.
 *
 * Return: the ID of @adistance's chunk.
 */
int memtier_adistance_to_tier(int adistance, int default_tier)
{
	return memtier_chunk_tier(adistance >> MEMTIER_CHUNK_BITS,
				  default_tier);
}
EXPORT_SYMBOL_IF_KUNIT(memtier_adistance_to_tier);

/**
 * memtier_tier_to_chunk() - the chunk a node placed by ID is in
 * @id: the tier ID, 0 to %MAX_MEMORY_TIER_ID.
 * @default_tier: the ID of DRAM's chunk.
 *
 * Each chunk covers the IDs from its own down to just above the next
 * chunk's, so that a chunk's own ID maps back to it and the order of IDs
 * is the order of chunks.  IDs above chunk 0's are chunk 0's; ID 0 is the
 * chunk of the first distance whose ID is 0.
 *
 * Return: the slowest chunk whose ID is at least @id, or 0.
 */
int memtier_tier_to_chunk(int id, int default_tier)
{
	int lo = 0, hi = MEMTIER_LAST_CHUNK, mid;

	/*
	 * The largest chunk with an ID of at least @id, not past the first
	 * whose ID is 0: both hold up to some chunk and not after it.
	 */
	while (lo < hi) {
		mid = lo + (hi - lo + 1) / 2;
		if (memtier_chunk_tier(mid, default_tier) >= id &&
		    memtier_chunk_tier(mid - 1, default_tier) > 0)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_tier_to_chunk);

/**
 * memtier_chunk_holder() - the ID another node holds in a tier's chunk
 * @memory_nodes: the nodes with memory.
 * @node_tier: the tier ID of each node, %MAX_NUMNODES entries; only those
 *	of @memory_nodes are read.
 * @node: the node being placed, whose own entry is not looked at.
 * @id: the ID it would get.
 * @default_tier: the ID of DRAM's chunk.
 *
 * Return: the ID of a memory node other than @node whose ID is in @id's
 * chunk and is not @id, or %MEMTIER_NO_TIER when there is none: @node
 * may take @id without two IDs in one chunk.
 */
int memtier_chunk_holder(const nodemask_t *memory_nodes, const int *node_tier,
			 int node, int id, int default_tier)
{
	int chunk = memtier_tier_to_chunk(id, default_tier), other;

	for_each_node_mask(other, *memory_nodes) {
		if (other == node || !memtier_tier_id_valid(node_tier[other]) ||
		    node_tier[other] == id)
			continue;
		if (memtier_tier_to_chunk(node_tier[other], default_tier) == chunk)
			return node_tier[other];
	}
	return MEMTIER_NO_TIER;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_chunk_holder);

/**
 * memtier_initial_tier() - the tier a node joins when its memory comes online
 * @memory_nodes: the nodes with memory, @node among them.
 * @node_tier: the tier ID of each node, as for memtier_chunk_holder().
 * @node: the node.
 * @request: the tier a driver or the administrator asked for the node
 *	before, or %MEMTIER_NO_TIER.
 * @adistance: the node's abstract distance: its memory type's when a
 *	driver set one, else what firmware reported, else DRAM's.
 * @default_tier: the ID of DRAM's chunk.
 *
 * An explicit placement outlives the node's memory: a node moved through
 * sysfs, or placed by dax/kmem before its memory was added, goes back to
 * that tier when its memory comes online again, whatever its distance
 * says.  Anything else gets its distance's chunk's ID.  Either way, when
 * another node already holds another ID in that chunk, the node joins
 * that ID: it cannot be refused, and one chunk holds one ID.
 *
 * Return: the tier ID.
 */
int memtier_initial_tier(const nodemask_t *memory_nodes, const int *node_tier,
			 int node, int request, int adistance,
			 int default_tier)
{
	int id, held;

	if (memtier_tier_id_valid(request))
		id = request;
	else
		id = memtier_adistance_to_tier(adistance, default_tier);
	held = memtier_chunk_holder(memory_nodes, node_tier, node, id,
				    default_tier);
	return held == MEMTIER_NO_TIER ? id : held;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_initial_tier);
