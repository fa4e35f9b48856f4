/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory tier IDs, as the administrator and drivers name tiers.
 *
 * What other subsystems need: the IDs, their range, and the tier
 * dax/kmem asks for.  The tiers themselves, the demotion targets and the
 * top tier are mm's (mm/memtier/memtier.h).
 */
#ifndef _LINUX_MEMTIER_H
#define _LINUX_MEMTIER_H

#include <linux/types.h>

/* Tier IDs: a higher ID is a faster tier. */
#define MEMORY_TIER_PMEM	100
#define MEMORY_TIER_DRAM	200
#define MEMORY_TIER_HBM_GPU	300
#define MAX_MEMORY_TIER_ID	400
#define DEFAULT_MEMORY_TIER	MEMORY_TIER_DRAM

/* "In no tier": a CPU-only node, or a node that is not present. */
#define MEMTIER_NO_TIER		(-1)

/**
 * memtier_tier_id_valid() - is @id a tier ID that may be used?
 * @id: the candidate ID, as parsed from user input.
 *
 * Inline so that modules (dax/kmem) can check their parameters without
 * an exported symbol.
 *
 * Return: true for 0 to %MAX_MEMORY_TIER_ID.
 */
static inline bool memtier_tier_id_valid(long id)
{
	return id >= 0 && id <= MAX_MEMORY_TIER_ID;
}

/**
 * memtier_kmem_tier() - the tier dax/kmem asks for its memory
 * @param_set: the administrator set the dax_kmem_memtier parameter.
 * @param: its value, a valid tier ID.
 * @firmware_perf: firmware (HMAT, or CXL CDAT through it) reported the
 *	memory's performance, so its abstract distance is measured.
 *
 * An explicit parameter wins.  Memory whose performance is known lands
 * where its abstract distance maps, as it does in mainline, so that CXL
 * DRAM is not taken for persistent memory.  Memory nothing is known
 * about is taken as persistent memory, below DRAM.
 *
 * Inline, as kmem may be built without the rest of the library.
 *
 * Return: the tier ID to ask for, or %MEMTIER_NO_TIER to let the node's
 * abstract distance decide.
 */
static inline int memtier_kmem_tier(bool param_set, int param,
				    bool firmware_perf)
{
	if (param_set)
		return param;
	if (firmware_perf)
		return MEMTIER_NO_TIER;
	return MEMORY_TIER_PMEM;
}

#endif /* _LINUX_MEMTIER_H */
