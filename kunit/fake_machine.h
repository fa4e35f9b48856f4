/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fake machine for the memtier suites: memory nodes, CPU nodes and a
 * distance matrix, as the real kernel would pass them in, and the tier
 * ID of each node, as the kernel keeps it.
 */
#ifndef _MM_MEMTIER_TESTS_FAKE_MACHINE_H
#define _MM_MEMTIER_TESTS_FAKE_MACHINE_H

#include <kunit/test.h>

#include "memtier.h"

/* Node roles in fake_machine_new()'s description. */
#define FM_NONE		0	/* absent */
#define FM_CPU_MEM	1	/* CPUs and memory */
#define FM_MEM		2	/* memory only */
#define FM_CPU		3	/* CPUs only */

/*
 * What fake_tiers() puts around its entries: a valid tier ID, so that a
 * read before or past the end of the array gives a wrong answer.
 */
#define FAKE_TIER_GUARD		MAX_MEMORY_TIER_ID
/* How many guard entries come before node 0's: node numbers to -8. */
#define FAKE_TIER_GUARDS	8

/**
 * struct fake_machine - a topology with a distance matrix
 * @guard: all ones, the word before @topo's memory nodes: a node number
 *	just below 0, read as a bit of that mask, reads as a memory node
 *	(as x86's test_bit() reads it), and a range check one off shows.
 * @topo: what the library sees.
 * @nr_nodes: nodes 0 to @nr_nodes - 1 are described.
 * @dist: @dist[a * @nr_nodes + b] is the distance from a to b; sized by
 *	@nr_nodes, not %MAX_NUMNODES, which is 1024 in distribution kernels.
 * @load: per node, the page allocator's node_load[] that its fallback
 *	order breaks ties with; all 0 unless a test sets them.
 */
struct fake_machine {
	unsigned long guard;
	struct memtier_topology topo;
	int nr_nodes;
	u8 *dist;
	u16 *load;
};

struct fake_machine *fake_machine_new(struct kunit *test, int nr_nodes,
				      const u8 *roles, const u8 *dist);
int *fake_tiers(struct kunit *test, const struct fake_machine *fm,
		const int *tier_of_node);
void fake_targets(const struct fake_machine *fm, const int *node_tier,
		  int node, nodemask_t *preferred, nodemask_t *allowed);
void fake_expect_targets(struct kunit *test, const struct fake_machine *fm,
			 const int *node_tier, int node,
			 const nodemask_t *preferred,
			 const nodemask_t *allowed);
nodemask_t fake_mask(int nr, const int *nodes);

#define FAKE_MASK(...) ({						\
	const int __n[] = { __VA_ARGS__ };				\
	fake_mask(ARRAY_SIZE(__n), __n);				\
})

#define FAKE_NO_NODES	NODE_MASK_NONE

#define KUNIT_EXPECT_NODEMASK_EQ(test, got, want) do {			\
	nodemask_t __g = (got), __w = (want);				\
	KUNIT_EXPECT_TRUE_MSG(test, nodes_equal(__g, __w),		\
			      "got %*pbl, want %*pbl",			\
			      nodemask_pr_args(&__g),			\
			      nodemask_pr_args(&__w));			\
} while (0)

#endif /* _MM_MEMTIER_TESTS_FAKE_MACHINE_H */
